import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

// MARK: - 6. Closing with unsaved changes

extension DrawingTests {
    /// Draws one black stroke across the middle of the canvas and waits until it is on screen
    /// and the title says the document changed.
    private func drawStroke(_ paint: PaintWindow, y: Int = 150) throws {
        let path = line(from: (60, y), to: (340, y), step: 4)
        try paint.drag(image: path)
        _ = try paint.waitForCapture(
            image: IntRect(x: 330, y: y - 5, width: 15, height: 11), "the end of the stroke at y \(y)"
        ) {
            $0.color(x: 10, y: 5).brightest < 100
        }
        try paint.waitForModified(true)
    }

    private func loadSaved(_ path: String) throws -> PixelImage {
        do { return try ImageFile.load(path: path) } catch {
            throw HarnessError.xRequestFailed("cannot load \(path): \(error)")
        }
    }

    @Test("closing with unsaved changes asks, Cancel and C keep it running, D discards and exits 0", arguments: configs)
    func closeCancelThenDiscard(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("doc.png")
        let paint = try start(config, [file])
        defer { paint.stop() }
        try drawStroke(paint)

        paint.client.sendCloseRequest(paint.window)
        try paint.waitForCloseQuestion()
        #expect(paint.app.isRunning, "it exited instead of asking: \(paint.app.outputSummary)")
        #expect(paint.app.waitForExit(timeout: .milliseconds(300)) == nil, "it exited while the question was open")
        #expect(paint.client.isViewable(paint.window))

        try paint.key("Escape")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Cancel (Escape)")
        // Still alive and drawing after Cancel.
        try drawStroke(paint, y: 220)
        #expect(paint.app.isRunning)
        #expect(paint.title?.hasPrefix("*") == true)

        paint.client.sendCloseRequest(paint.window)
        try paint.waitForCloseQuestion()
        try paint.key("c")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Cancel (C)")
        try drawStroke(paint, y: 80)
        #expect(paint.app.isRunning)

        paint.client.sendCloseRequest(paint.window)
        try paint.waitForCloseQuestion()
        #expect(paint.app.isRunning)
        try paint.key("d")
        #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
        #expect(paint.client.waitUntilGone(paint.window) || !paint.client.isViewable(paint.window))
        #expect(!FileManager.default.fileExists(atPath: file), "Discard wrote the file")
        #expect(paint.stderrWithoutTransport.isEmpty, "stderr: \(paint.app.stderr)")
    }

    @Test("answering Save (Enter) to the close question saves and exits 0", arguments: configs)
    func closeAndSave(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("doc.png")
        do {
            let paint = try start(config, [file])
            defer { paint.stop() }
            try drawStroke(paint)
            paint.client.sendCloseRequest(paint.window)
            try paint.waitForCloseQuestion()
            #expect(paint.app.isRunning)
            try paint.key("Return")
            #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
            let png = try loadSaved(file)
            #expect(
                png[200, 150] == Color.black.pixel, "the stroke is not in the saved file: \(png.color(x: 200, y: 150))")
            #expect(png[200, 100] == Color.white.pixel)
        }

        // An untitled picture: Save asks for a name (prefilled ~/Pictures/untitled.png), Enter
        // saves there and then exits.
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let pictures = try home.subdirectory("Pictures")
        let paint = try start(config, home: home.path)
        defer { paint.stop() }
        #expect(paint.title?.hasPrefix("Untitled") == true, "title \(paint.title ?? "nil")")
        try drawStroke(paint, y: 100)
        paint.client.sendCloseRequest(paint.window)
        try paint.waitForCloseQuestion()
        try paint.key("s")
        try paint.waitForSavePrompt()
        #expect(paint.app.waitForExit(timeout: .milliseconds(300)) == nil, "it exited without saving")
        try paint.key("Return")
        #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
        let saved = "\(pictures)/untitled.png"
        let png = try loadSaved(saved)
        #expect(png[200, 100] == Color.black.pixel, "the stroke is not in \(saved)")
    }
}

// MARK: - 7. Command line and no display

extension DrawingTests {
    /// Runs swiftpaint to completion with exactly `environment` (plus HOME) and returns
    /// (exit status, stdout, stderr).
    private func run(_ arguments: [String], environment: [String: String]) throws -> (ExitStatus?, String, String) {
        let dir = try scratchFolder()
        var env = ChildProcess.cleanEnvironment()
        env["HOME"] = dir.path
        env["XDG_STATE_HOME"] = dir.file("state")
        env.merge(environment) { _, new in new }
        let child = try ChildProcess(
            executable: try SwiftPaintBinary.locate(), arguments: arguments, environment: env,
            stdoutPath: dir.file("out"), stderrPath: dir.file("err"))
        let status = child.waitForExit()
        if status == nil { child.killAndReap() }
        return (status, dir.read("out"), dir.read("err"))
    }

    @Test("without a display it exits 1 with one line about DISPLAY")
    func noDisplay() throws {
        // DISPLAY unset.
        let (unset, out1, err1) = try run(["--size", "400x300"], environment: [:])
        #expect(unset == .exited(1), "DISPLAY unset: \(unset.map(\.description) ?? "still running") \(err1)")
        #expect(
            err1.hasSuffix("\n") && err1.dropLast().split(separator: "\n", omittingEmptySubsequences: false).count == 1,
            "one line on stderr, got: \(err1.debugDescription)")
        #expect(err1.contains("DISPLAY"), "\(err1)")
        #expect(out1.isEmpty)

        // DISPLAY naming a server that does not exist.
        var n = 9999
        while XvfbServer.displayLooksTaken(n) { n += 1 }
        let (bad, out2, err2) = try run(["--size", "400x300"], environment: ["DISPLAY": ":\(n)"])
        #expect(bad == .exited(1), "DISPLAY=:\(n): \(bad.map(\.description) ?? "still running") \(err2)")
        #expect(
            err2.hasSuffix("\n") && err2.dropLast().split(separator: "\n", omittingEmptySubsequences: false).count == 1,
            "one line on stderr, got: \(err2.debugDescription)")
        #expect(err2.contains("DISPLAY") && err2.contains(":\(n)"), "\(err2)")
        #expect(out2.isEmpty)
    }

    @Test("--help, --version and a bad --size answer on the terminal and open no window", arguments: configs)
    func commandLine(config: ServerConfig) throws {
        let server = try XvfbServer(width: 640, height: 480, depth: config.depth, shm: config.shm)
        defer { server.stop() }
        let client = try XClient(display: server.displayName)
        defer { client.close() }
        let env = ["DISPLAY": server.displayName]

        let (help, helpOut, helpErr) = try run(["--help"], environment: env)
        #expect(help == .exited(0), "\(help.map(\.description) ?? "still running") \(helpErr)")
        #expect(helpOut.contains("Usage: swiftpaint") && helpOut.contains("--size"), "\(helpOut)")

        let (version, versionOut, _) = try run(["--version"], environment: env)
        #expect(version == .exited(0))
        #expect(versionOut.hasPrefix("swiftpaint ") && versionOut.contains(CommandLineOptions.version), "\(versionOut)")

        let (zero, zeroOut, zeroErr) = try run(["--size", "0x0"], environment: env)
        #expect(zero == .exited(2), "\(zero.map(\.description) ?? "still running") \(zeroErr)")
        #expect(zeroErr.contains("--size") && zeroErr.contains("0x0"), "\(zeroErr)")
        #expect(
            zeroErr.hasSuffix("\n") && zeroErr.dropLast().split(separator: "\n").count == 1,
            "\(zeroErr.debugDescription)")
        #expect(zeroOut.isEmpty)

        let (unknown, _, unknownErr) = try run(["--frobnicate"], environment: env)
        #expect(unknown == .exited(2), "\(unknownErr)")

        // None of them showed a window on the display they were given.
        let windows = client.allWindows().filter { client.windowClass($0)?.className == "SwiftPaint" }
        #expect(windows.isEmpty)
    }
}

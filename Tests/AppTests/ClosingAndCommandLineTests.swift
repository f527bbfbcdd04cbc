import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

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

        // An untitled picture: Save asks for a name (untitled.png in ~/Pictures), Enter
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

// MARK: - 6b. New and Open

extension DrawingTests: CanvasChecks {
    /// Waits for the Save / Discard / Cancel question that follows the Open dialog.
    private func waitForQuestionAfterPrompt(_ paint: PaintWindow) throws {
        try paint.waitForFileDialogClosed("the Open dialog closed after Enter")
        try paint.waitForCloseQuestion()
    }

    @Test("Ctrl+O asks about unsaved changes, then shows the picture; Ctrl+N gives a blank canvas", arguments: configs)
    func openThenNew(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let picture = dir.file("pic.png")
        var image = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 30, g: 120, b: 200).pixel)
        for y in 0..<(Self.size.h / 2) {
            for x in 0..<(Self.size.w / 2) { image[x, y] = Color(r: 230, g: 90, b: 20).pixel }
        }
        try ImageFile.save(image, to: picture, withAlpha: false)
        let paint = try start(config, [dir.file("doc.png")])
        defer { paint.stop() }
        try drawStroke(paint)

        // The dialog starts in the document's folder: the name is all there is to type.
        try paint.key("o", modifiers: [.control])
        try paint.waitForFileDialog("the Open dialog")
        try paint.client.typeText("pic.png")
        try paint.key("Return")
        try waitForQuestionAfterPrompt(paint)
        #expect(paint.title == "*doc.png — SwiftPaint", "nothing switched before the answer: \(paint.title ?? "nil")")
        try paint.key("d")
        expectCanvas(paint, equals: image, "the opened picture")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "pic.png — SwiftPaint" } != nil, "\(paint.title ?? "nil")")
        #expect(!FileManager.default.fileExists(atPath: dir.file("doc.png")), "Discard wrote the drawing")

        // Nothing changed since: New asks nothing.
        try paint.key("n", modifiers: [.control])
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel),
            "the new canvas")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "Untitled — SwiftPaint" } != nil, "\(paint.title ?? "nil")")
        #expect(paint.app.isRunning && paint.stderrWithoutTransport.isEmpty, "\(paint.app.outputSummary)")
    }
}

// MARK: - 6c. Zoom

extension DrawingTests {
    @Test(
        "Ctrl+- (67 %) weighs partly covered pixels, again (50 %) shows 2 x 2 blocks averaged, Ctrl+= twice (200 %) shows each pixel as a 2 x 2 square, Ctrl+0 1:1",
        arguments: configs)
    func zoomOutAndIn(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let picture = dir.file("halves.png")
        let red = Color(r: 220, g: 20, b: 20)
        var image = PixelImage(width: Self.size.w, height: Self.size.h, fill: red.pixel)
        for y in 0..<Self.size.h {
            for x in (Self.size.w / 2)..<Self.size.w { image[x, y] = Color(r: 20, g: 40, b: 220).pixel }
        }
        image[101, 51] = Color.black.pixel
        image[191, 151] = Color.black.pixel  // near the middle, in view at 200 %
        try ImageFile.save(image, to: picture, withAlpha: false)
        let paint = try start(config, [picture])
        defer { paint.stop() }
        /// The layout after zoom key presses through `zooms` from 100 %, each about the pointer
        /// parked on the canvas (on the gray left of the picture), as the keys zoom.
        func layout(through zooms: [Zoom]) -> Layout {
            let pointer = paint.parkedPointer
            var layout = Layout(
                windowWidth: paint.layout.windowWidth, windowHeight: paint.layout.windowHeight,
                imageWidth: Self.size.w, imageHeight: Self.size.h)
            for zoom in zooms {
                layout = layout.zoomed(to: zoom, keepingWindowX: pointer.x, y: pointer.y)
            }
            return layout
        }
        /// Waits until window pixel (x, y) shows `color`.
        func expectPixel(_ x: Int, _ y: Int, _ color: Color, _ what: String) {
            var seen: Color?
            let shown = Wait.until(poll: .milliseconds(20)) {
                seen = try? paint.client.capture(paint.window, rect: IntRect(x: x, y: y, width: 1, height: 1))
                    .color(x: 0, y: 0)
                return seen.map { ScreenCapture.matches($0, color, tolerance: config.tolerance + 1) } ?? false
            }
            #expect(shown, "\(what): (\(x), \(y)) shows \(String(describing: seen)), not \(color)")
        }

        try paint.key("minus", modifiers: [.control])
        // 67 %: the window pixel over image pixel (101, 51) covers [100.5, 102) x [51, 52.5):
        // half of column 100 and all of 101, all of row 51 and half of 52. The black pixel
        // weighs 2 x 2 of the 3 x 3 half-pixel units, red the other 5.
        let twoThirds = layout(through: [Zoom(2, 3)])
        let spot = twoThirds.windowRect(forImageRect: IntRect(x: 101, y: 51, width: 1, height: 1))
        #expect(spot.width == 1 && spot.height == 1, "\(spot)")
        let weighted = Color(r: UInt8((220 * 5 + 4) / 9), g: UInt8((20 * 5 + 4) / 9), b: UInt8((20 * 5 + 4) / 9))
        expectPixel(spot.x, spot.y, weighted, "67 %")

        try paint.key("minus", modifiers: [.control])
        let half = layout(through: [Zoom(2, 3), Zoom(1, 2)])
        let block = half.windowRect(forImageRect: IntRect(x: 100, y: 50, width: 2, height: 2))
        #expect(block.width == 1 && block.height == 1, "\(block)")
        // One black and three red pixels, averaged.
        let mean = Color(r: UInt8((220 * 3 + 2) / 4), g: UInt8((20 * 3 + 2) / 4), b: UInt8((20 * 3 + 2) / 4))
        expectPixel(block.x, block.y, mean, "50 %")
        let rightHalf = half.windowRect(forImageRect: IntRect(x: 300, y: 200, width: 2, height: 2))
        expectPixel(rightHalf.x, rightHalf.y, Color(r: 20, g: 40, b: 220), "50 %, the blue half")

        try paint.key("0", modifiers: [.control])
        try paint.key("equal", modifiers: [.control], times: 2)
        // Larger than this window's canvas area: zoomed about the pointer, as the keys do.
        let double = layout(through: [Zoom(3, 2), Zoom(2)])
        let square = double.windowRect(forImageRect: IntRect(x: 191, y: 151, width: 1, height: 1))
        #expect(square.width == 2 && square.height == 2, "\(square)")
        for (x, y) in [(square.x, square.y), (square.maxX - 1, square.maxY - 1)] { expectPixel(x, y, .black, "200 %") }
        expectPixel(square.maxX, square.y, red, "200 %, beside the square")

        try paint.key("0", modifiers: [.control])
        let o = paint.layout.imageOrigin
        expectPixel(o.x + 101, o.y + 51, .black, "100 % again")
        expectPixel(o.x + 102, o.y + 51, red, "100 % again, beside it")
    }
}

// MARK: - 6d. Selection

extension DrawingTests {
    @Test("S, a drag, Delete: the selected paint is cleared; a drag inside moves it; Enter puts it down")
    func selectDeleteAndMove() throws {
        let config = ServerConfig.standard
        let dir = try scratchFolder()
        let picture = dir.file("blocks.png")
        var image = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)
        let green = Color(r: 30, g: 160, b: 60)
        for y in 100..<160 {
            for x in 100..<200 { image[x, y] = green.pixel }
        }
        try ImageFile.save(image, to: picture, withAlpha: false)
        let paint = try start(config, [picture])
        defer { paint.stop() }
        try paint.key("s")
        // Select the left half of the block and delete it.
        try paint.drag(image: [(90, 90), (120, 120), (150, 170)])
        try paint.key("Delete")
        var expected = image
        for y in 100..<160 {
            for x in 100..<150 { expected[x, y] = Color.white.pixel }
        }
        expectCanvas(paint, equals: expected, "after Delete")
        // Select the right half and drag it 100 px right, then put it down.
        try paint.drag(image: [(150, 100), (200, 160)])
        try paint.drag(image: [(170, 130), (220, 130), (270, 130)])
        try paint.key("Return")
        var moved = expected
        for y in 100..<160 {
            for x in 150..<200 { moved[x, y] = Color.white.pixel }
            for x in 250..<300 { moved[x, y] = green.pixel }
        }
        expectCanvas(paint, equals: moved, "after the move")
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
        env["XDG_CONFIG_HOME"] = dir.file("config")
        env.merge(environment) { _, new in new }
        let ran = try ChildProcess.run(
            try SwiftPaintBinary.locate(), arguments, environment: env, timeout: Wait.defaultTimeout)
        return (ran.status, ran.stdoutText, ran.stderrText)
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

import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

// MARK: - A disk that never finishes a sync

/// The crash journal is made and synced on threads of its own: a disk that takes minutes to
/// sync never stops the window, and what is drawn meanwhile reaches the journal file (the
/// kernel's copy of it, which a kill -9 of the program does not lose) without waiting for any
/// sync. swiftpaint runs under strace, which holds every `fdatasync` (the journal's syncs
/// only: saves and settings use fsync) for ten minutes, from the first one: the one that
/// makes the journal after the first frame.
extension RecoveryTests {
    func startOnSlowDisk(_ home: TemporaryDirectory, _ extra: [String]) throws -> PaintWindow {
        try startTraced(
            home, extra, holding: ["-e", "trace=fdatasync", "-e", "inject=fdatasync:delay_enter=600000000"])
    }

    /// swiftpaint on `home` with `extra` arguments under strace, which holds what `holding`
    /// says (its `-e trace=` and `-e inject=` options; `-D` keeps swiftpaint the process
    /// started, so its window is found by its pid).
    func startTraced(_ home: TemporaryDirectory, _ extra: [String], holding: [String]) throws -> PaintWindow {
        try TestPrograms.require("/usr/bin/strace")
        return try PaintWindow(
            Self.config, executable: "/usr/bin/strace",
            arguments: ["-D", "-f", "-o", "/dev/null"] + holding + [try SwiftPaintBinary.locate()] + Self.sizeArgument
                + extra,
            imageWidth: Self.size.w, imageHeight: Self.size.h, home: home.path, firstFrame: [ChromeColors.statusFill])
    }

    /// The pid of the strace holding `paint`'s syncs (its tracer, a grandchild of the test).
    static func tracer(of paint: PaintWindow) -> pid_t? {
        let status = (try? String(contentsOfFile: "/proc/\(paint.app.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("TracerPid:") }
        return line.flatMap { pid_t($0.dropFirst("TracerPid:".count).trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 > 0 ? $0 : nil }
    }

    /// kill -9 of swiftpaint, then of its strace: a thread held in a sync cannot end (and the
    /// program cannot be reaped) until its tracer lets go.
    static func killTraced(_ paint: PaintWindow, tracer: pid_t?) {
        _ = kill(paint.app.pid, SIGKILL)
        if let tracer { _ = kill(tracer, SIGKILL) }
        paint.app.killAndReap()
    }

    /// Lets go of every call strace holds for its tracee: strace is killed, and the tracee,
    /// detached from it, goes on with the call held and runs untraced from then on. Clears
    /// `tracer`, so that nothing signals that pid again.
    static func releaseHeld(_ tracer: inout pid_t?) {
        if let pid = tracer { _ = kill(pid, SIGKILL) }
        tracer = nil
    }

    /// A 400 x 300 picture with colour in every pixel, so its journal holds a real file.
    static let opened: PixelImage = {
        var image = PixelImage(width: size.w, height: size.h)
        for y in 0..<size.h {
            for x in 0..<size.w {
                image[x, y] = Pixel.pack(r: UInt8(x * 255 / size.w), g: UInt8(y * 255 / size.h), b: 160, a: 255)
            }
        }
        return image
    }()

    @Test(
        "a disk that never finishes a sync: the window draws on, and kill -9 restores every finished stroke",
        arguments: KillPoint.allCases)
    func aSlowDiskNeverStopsTheWindowNorLosesAStroke(point: KillPoint) throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("photo.png")
        try ImageFile.save(Self.opened, to: file, withAlpha: false)
        let n = point.finished
        let before: ScreenCapture
        let journal: String
        do {
            let paint = try startOnSlowDisk(home, [file])
            let tracer = Self.tracer(of: paint)
            #expect(tracer != nil, "swiftpaint is not traced")
            defer {
                Self.killTraced(paint, tracer: tracer)
                paint.stop()
            }
            // Each stroke is on screen while the journal's first sync is still held, and in
            // the journal file (read back, polled) though no sync has returned.
            for i in 0..<n { try drawStroke(paint, i, home: home) }
            before = try paint.captureCanvas()
            if point == .duringStroke {
                try beginStroke(paint, n)
                #expect(try paint.captureCanvas().image != before.image, "the stroke in progress is not shown")
            }
            journal = try Self.waitForJournal(home, operations: n, "before the kill").path
            Self.killTraced(paint, tracer: tracer)
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        let contents = try JournalReader.read(path: journal)
        #expect(contents.operations.count == n && contents.droppedTail == nil)
        let base = try #require(contents.header.baseImage, "the opened picture is in the journal")
        #expect(try ImageDecoder.decode(base, name: "base").image == Self.opened)
        let replayDiff = differences(screen: before, file: try Self.expectedCanvas(contents))
        #expect(
            replayDiff.isEmpty, "replaying the journal differs from the screen:\n\(replayDiff.joined(separator: "\n"))")

        // A normal start restores the drawing, every finished stroke on the opened picture.
        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, "after kill -9 on a disk that never synced")
        try paint.key("z", modifiers: [.control], times: n)
        expectCanvas(paint, equals: Self.opened, "undone to the opened picture")
    }
}

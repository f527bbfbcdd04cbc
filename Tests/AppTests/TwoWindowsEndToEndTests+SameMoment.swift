import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

// MARK: - Two saves of one file at the same moment

/// Two programs save one file at once: each writes its own temporary file and renames it into
/// place, so the file is one of the two pictures, whole; the window whose picture was replaced
/// says the file changed on disk, keeps its picture, and closing it asks. Both run under strace,
/// which holds every `fsync` (a save's, of its history entry first; the journal's own writes use
/// `fdatasync`) until both saves are under way (`RecoveryTests.releaseHeld`): neither file is in
/// place before both have looked at it, however slow the machine (a hold of every rename for
/// 4 s was a race with the second window's Ctrl+S).
extension TwoWindowsEndToEndTests {
    static func startHoldingRenames(_ home: TemporaryDirectory, _ arguments: [String]) throws -> PaintWindow {
        try TestPrograms.require("/usr/bin/strace")
        let strace = [
            "-D", "-f", "-o", "/dev/null", "-e", "trace=fsync", "-e", "inject=fsync:delay_enter=600000000",
        ]
        return try PaintWindow(
            config, executable: "/usr/bin/strace", arguments: strace + [try SwiftPaintBinary.locate()] + arguments,
            imageWidth: size.w, imageHeight: size.h, home: home.path, firstFrame: [ChromeColors.statusFill])
    }

    @Test(
        "A and B save one file at the same moment: it holds one picture whole; the other window says so and keeps its own"
    )
    func twoSavesOfOneFileAtTheSameMoment() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-two-windows")
        let file = home.file("shared.png")
        try Data(
            try PNGCodec.encode(PixelImage(width: Self.size.w, height: Self.size.h, fill: Self.white), withAlpha: false)
        )
        .write(to: URL(fileURLWithPath: file))
        let a = try Self.startHoldingRenames(home, [file])
        var aTracer = RecoveryTests.tracer(of: a)
        defer {
            RecoveryTests.killTraced(a, tracer: aTracer)
            a.stop()
        }
        let b = try Self.startHoldingRenames(home, [file])
        var bTracer = RecoveryTests.tracer(of: b)
        defer {
            RecoveryTests.killTraced(b, tracer: bTracer)
            b.stop()
        }
        #expect(aTracer != nil && bTracer != nil, "swiftpaint is not traced")
        try a.drag(image: Self.stroke(x: 30))
        try a.waitForModified(true)
        try b.drag(image: Self.stroke(x: 160))
        try b.waitForModified(true)
        let pictures = [try a.captureCanvas(), try b.captureCanvas()]

        // Ctrl+S in both: each looks at the file (unchanged) and starts its save, which waits
        // at the sync of its history entry (written beside the entry's name, in the one store
        // the two programs share) until both are there; then they are let go.
        try a.key("s", modifiers: .control)
        try b.key("s", modifiers: .control)
        let store = home.path + "/.local/share/swiftpaint/history"
        func entriesBeingWritten() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []).filter { $0.hasSuffix(".tmp") }
        }
        #expect(Wait.until { entriesBeingWritten().count == 2 }, "both saves under way: \(entriesBeingWritten())")
        RecoveryTests.releaseHeld(&aTracer)
        RecoveryTests.releaseHeld(&bTracer)
        for window in [a, b] {
            #expect(
                window.client.waitForTitle(window.window, timeout: .seconds(120)) { !$0.hasPrefix("*") } != nil,
                "saved: \(window.title ?? "nil")\n\(window.app.outputSummary)")
        }
        let saved = try ImageFile.load(path: file)
        let holds = pictures.map { differences(screen: $0, file: saved).isEmpty }
        #expect(holds[0] != holds[1], "the file is one of the two pictures, whole: \(holds)")
        let (kept, replaced) = holds[0] ? (a, b) : (b, a)
        let lost = holds[0] ? pictures[1] : pictures[0]

        // The window whose save was replaced says so (it looks every 2 s), and keeps its picture.
        let title = replaced.client.waitForTitle(replaced.window) { $0.contains("(changed on disk)") }
        #expect(title == "shared.png (changed on disk) — SwiftPaint", "\(replaced.title ?? "nil")")
        #expect(try replaced.captureCanvas().image == lost.image, "its picture is still in the window")
        #expect(kept.title == "shared.png — SwiftPaint", "the file holds its picture: \(kept.title ?? "nil")")
        // Closing it asks instead of losing its picture.
        replaced.client.sendCloseRequest(replaced.window)
        try replaced.waitForCloseQuestion()
        #expect(replaced.app.isRunning)
        #expect(try ImageFile.load(path: file) == saved, "nothing more was written")
    }
}

import Foundation
import Glibc
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing

// MARK: - A full disk during a save

/// A save is written on a thread of its own; when the disk fills up under it, the file it
/// replaces stays byte for byte, the status bar says why in red, the document stays modified
/// and journaled, and a save once there is room again writes the drawing.
extension RecoveryTests {
    /// Fills the file system holding `path` with a file there, until it has no room left.
    static func fillUp(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // The last pages a page at a time, and then a byte at a time: no room for one more.
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) > 0 {}
    }

    @Test(
        "a full disk during a save: the old file stays byte for byte, the status bar says why, the star stays, and a save once there is room writes the drawing",
        .enabled(if: RecoveryTests.canMount, "needs to mount a tmpfs (root with CAP_SYS_ADMIN)"))
    func aFullDiskDuringASaveKeepsTheOldFileAndTheDrawing() throws {
        let mountPoint = try TemporaryDirectory(prefix: "swiftpaint-full")
        let (mounted, mountErr) = Self.system(
            "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
        try #require(mounted == 0, "mount: \(mountErr)")
        defer { Self.system("/usr/bin/umount", ["-l", mountPoint.path]) }
        let file = mountPoint.file("old.png")
        let old = try Self.writeGradient(file)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        // Another file takes the rest of the disk.
        let filler = mountPoint.file("filler")
        Self.fillUp(filler)
        #expect(!FileManager.default.createFile(atPath: mountPoint.file("probe"), contents: Data(count: 4096)))

        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let paint = try start(home, [file], offer: false)
        defer { paint.stop() }
        expectCanvas(paint, equals: old, "the old picture")
        try drawStroke(paint, 0, home: home)
        let drawn = try paint.captureCanvas()

        func reddish(_ shot: ScreenCapture) -> Int { shot.count(of: Theme.errorText, tolerance: 24) }
        let bar = paint.layout.statusBar
        #expect(reddish(try paint.client.capture(paint.window, rect: bar)) == 0, "red in the status bar before saving")
        try paint.key("s", modifiers: [.control])
        var red = 0
        let shown = Wait.until(poll: .milliseconds(30)) {
            red = (try? paint.client.capture(paint.window, rect: bar)).map(reddish) ?? 0
            return red >= 30
        }
        #expect(shown, "no red error in the status bar after the save ran out of room (\(red) red pixels)")
        #expect(paint.app.isRunning, "\(paint.app.outputSummary)")
        #expect(paint.title == "*old.png — SwiftPaint", "a failed save cleared the star: \(paint.title ?? "nil")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "the old file changed")
        let names = try FileManager.default.contentsOfDirectory(atPath: mountPoint.path).sorted()
        #expect(names == ["filler", "old.png"], "the save's temporary file is left: \(names)")
        expectCanvas(paint, equals: drawn.image, "the drawing after the failed save")
        // Still journaled: nothing was lost by the failed save.
        try Self.waitForJournal(home, operations: 1, "after the failed save")

        // Room again: Ctrl+S writes the drawing over the old file.
        #expect(unlink(filler) == 0)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
        let saved = try ImageFile.load(path: file)
        let diff = differences(screen: drawn, file: saved)
        #expect(diff.isEmpty, "the file is not the drawing:\n\(diff.joined(separator: "\n"))")
    }
}

import CX11
import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

/// Two SwiftPaint programs at once, sharing HOME (and so the journal folder) and a file, each on
/// its own X server: a save over the file another program changed asks first (Save as /
/// Overwrite / Cancel) and the titles say when the file on disk changed; two programs offered the
/// same crash journal never lose it.
@Suite("Two windows end to end", .serialized)
struct TwoWindowsEndToEndTests {
    static var config: ServerConfig { .standard }
    static let size = (w: 200, h: 120)
    static let black: UInt32 = 0xFF00_0000
    static let white: UInt32 = 0xFFFF_FFFF

    static func start(_ home: TemporaryDirectory, _ arguments: [String], offer: Bool = false) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: arguments, imageWidth: size.w, imageHeight: size.h, home: home.path,
            firstFrame: offer ? [ChromeColors.askFill] : [ChromeColors.statusFill])
    }

    /// The file's pixel at (x, y) as SwiftPaint reads it; nil while it cannot be read.
    static func pixel(_ file: String, _ x: Int, _ y: Int) -> UInt32? {
        (try? ImageFile.load(path: file)).map { $0[x, y] }
    }

    /// A vertical stroke at x through y 20...100, with a motion every 20 px.
    static func stroke(x: Int) -> [(Int, Int)] { stride(from: 20, through: 100, by: 20).map { (x, $0) } }

    @Test("B's save over the file A saved asks first; Cancel keeps A's, Overwrite writes B's; both titles say so")
    func savingOverAFileAnotherProgramChanged() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-two-windows")
        let file = home.file("shared.png")
        try Data(
            try PNGCodec.encode(PixelImage(width: Self.size.w, height: Self.size.h, fill: Self.white), withAlpha: false)
        )
        .write(to: URL(fileURLWithPath: file))
        let a = try Self.start(home, [file])
        let b = try Self.start(home, [file])

        // A: a stroke on the left, saved.
        try a.drag(image: Self.stroke(x: 30))
        try a.waitForModified(true)
        try a.key("s", modifiers: .control)
        try a.waitForModified(false)
        #expect(Wait.until { Self.pixel(file, 30, 60) == Self.black }, "A's stroke is in the file")
        #expect(a.title == "shared.png — SwiftPaint")
        // B sees it in its title (it looks at the file every 2 s).
        let changed = b.client.waitForTitle(b.window) { $0.contains("(changed on disk)") }
        #expect(changed == "shared.png (changed on disk) — SwiftPaint", "B's title: \(b.title ?? "nil")")

        // B: a stroke on the right; Ctrl+S asks instead of writing over A's work.
        try b.drag(image: Self.stroke(x: 160))
        try b.waitForModified(true)
        try b.key("s", modifiers: .control)
        try b.waitForCloseQuestion()
        try b.key("c")
        try b.waitForStatus(ChromeColors.statusFill, "the status bar after Cancel")
        #expect(
            Self.pixel(file, 30, 60) == Self.black && Self.pixel(file, 160, 60) == Self.white, "Cancel wrote nothing")
        #expect(b.title?.hasPrefix("*") == true)

        // Again, and Overwrite: B's picture replaces the file.
        try b.key("s", modifiers: .control)
        try b.waitForCloseQuestion()
        try b.key("o")
        try b.waitForModified(false)
        #expect(Wait.until { Self.pixel(file, 160, 60) == Self.black }, "B's stroke is in the file")
        #expect(Self.pixel(file, 30, 60) == Self.white, "B's picture never had A's stroke")
        #expect(b.title == "shared.png — SwiftPaint", "B saved: \(b.title ?? "nil")")

        // Now A's title says the file changed, and closing A asks instead of losing its picture.
        #expect(a.client.waitForTitle(a.window) { $0.contains("(changed on disk)") } != nil, "\(a.title ?? "nil")")
        a.client.sendCloseRequest(a.window)
        try a.waitForCloseQuestion()
        #expect(a.app.isRunning)
        // Cancel, then Save as keeps A's picture under another name.
        try a.key("c")
        try a.waitForStatus(ChromeColors.statusFill, "A's status bar after Cancel")
        try a.key("s", modifiers: .control)
        try a.waitForCloseQuestion()
        try a.key("s")
        try a.waitForFileDialog("the Save as dialog")
        let mine = home.file("mine.png")
        try a.key("a", modifiers: [.control])
        try a.client.typeText(mine)
        try a.key("Return")
        #expect(Wait.until { Self.pixel(mine, 30, 60) == Self.black }, "A's picture saved as mine.png")
        #expect(Self.pixel(file, 160, 60) == Self.black, "B's file untouched")
        a.client.sendCloseRequest(a.window)
        #expect(a.app.waitForExit() == 0)
        b.client.sendCloseRequest(b.window)
        #expect(b.app.waitForExit() == 0)
    }

    @Test("two programs offered the same crash journal: A restores it, B's Discard keeps it, and it survives A's crash")
    func twoWindowsOfferedOneJournal() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-two-journal")
        let sizeArgument = ["--size", "\(Self.size.w)x\(Self.size.h)"]
        // A drawing left by a crash: one stroke, then kill -9.
        let first = try Self.start(home, sizeArgument)
        try first.drag(image: Self.stroke(x: 30))
        try first.waitForModified(true)
        try RecoveryTests.waitForJournal(home, operations: 1, "the first stroke")
        _ = first.app.kill(SIGKILL)
        first.stop()
        let journal = try #require(RecoveryTests.journals(home).first)

        // Two programs start and both ask.
        let a = try Self.start(home, sizeArgument, offer: true)
        let b = try Self.start(home, sizeArgument, offer: true)
        try a.key("Return")
        try a.waitForModified(true)
        try b.key("d", modifiers: .alt)
        try b.waitForStatus(ChromeColors.statusFill, "B's status bar after Discard")
        #expect(FileManager.default.fileExists(atPath: journal), "B did not delete the journal A restored")
        #expect(b.title == "Untitled — SwiftPaint")

        // A draws on in it and crashes; the journal holds both strokes.
        try a.drag(image: Self.stroke(x: 160))
        try RecoveryTests.waitForJournal(home, path: journal, operations: 2, "the restored stroke and a new one")
        _ = a.app.kill(SIGKILL)
        a.stop()
        b.client.sendCloseRequest(b.window)
        #expect(b.app.waitForExit() == 0)
        b.stop()

        // The next start restores both.
        let c = try Self.start(home, sizeArgument, offer: true)
        try c.key("Return")
        try c.waitForModified(true)
        let both = try c.waitForCapture(
            image: IntRect(x: 0, y: 0, width: Self.size.w, height: Self.size.h), "both strokes restored"
        ) {
            $0.shows(.black, x: 30, y: 60, tolerance: 8) && $0.shows(.black, x: 160, y: 60, tolerance: 8)
        }
        #expect(both.shows(.white, x: 100, y: 60, tolerance: 8))
    }
}

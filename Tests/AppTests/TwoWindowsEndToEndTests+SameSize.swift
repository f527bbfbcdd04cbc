import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

// MARK: - Another program rewrites the file: the same size, the same modification time

/// A rewrite the file's size and modification time do not show (another program's file of the
/// same length, renamed over it with the old time, or written into it and its time put back) is
/// found by the file's bytes, read on a thread of its own once its stat (the status-change time
/// for a rewrite in place) changed: the title says "(changed on disk)" and Ctrl+S asks before
/// writing over it.
extension TwoWindowsEndToEndTests {
    /// Two pictures whose PNGs have the same length: white, with one black pixel at two places.
    static func sameSizePictures() throws -> (first: [UInt8], second: [UInt8], secondX: Int) {
        func png(_ x: Int) throws -> [UInt8] {
            var picture = PixelImage(width: size.w, height: size.h, fill: white)
            picture[x, 60] = black
            return try PNGCodec.encode(picture, withAlpha: false)
        }
        let first = try png(100)
        for x in 101..<190 {
            let second = try png(x)
            if second.count == first.count && second != first { return (first, second, x) }
        }
        throw HarnessError.timedOut("two pictures whose PNGs have the same length")
    }

    /// A window on shared.png, in a folder of its own (`prefix`), holding the first of
    /// `sameSizePictures`, with a line drawn at x = 30 and not saved; the second picture, and
    /// where its black pixel is.
    static func drawnOnTheFirstPicture(_ prefix: String) throws -> (
        home: TemporaryDirectory, file: String, paint: PaintWindow, second: [UInt8], secondX: Int
    ) {
        let home = try TemporaryDirectory(prefix: prefix)
        let file = home.file("shared.png")
        let (first, second, secondX) = try sameSizePictures()
        try Data(first).write(to: URL(fileURLWithPath: file))
        let paint = try start(home, [file])
        try paint.drag(image: stroke(x: 30))
        try paint.waitForModified(true)
        return (home, file, paint, second, secondX)
    }

    /// Answers Overwrite to the question Ctrl+S asked in `drawnOnTheFirstPicture`'s window: the
    /// drawing is written over the second picture (the line on the first one, without the
    /// second one's pixel).
    static func overwrite(_ paint: PaintWindow, _ file: String, secondX: Int) throws {
        try paint.key("o")
        try paint.waitForModified(false)
        #expect(Wait.until { pixel(file, 30, 60) == black }, "the stroke is in the file")
        #expect(pixel(file, 100, 60) == black && pixel(file, secondX, 60) == white)
    }

    /// How another program puts its bytes in place of the file's.
    enum Rewrite: CaseIterable {
        /// A file of its own renamed over the opened one (a new inode).
        case renamedOver
        /// Into the opened file itself (the same inode): its size and times do not tell, only
        /// its status-change time (or its bytes) do.
        case inPlace
    }

    @Test(
        "a same-size rewrite with the old modification time: the title says so and Ctrl+S asks",
        arguments: Rewrite.allCases)
    func aSameSizeRewriteIsSeenAndAskedAbout(_ rewrite: Rewrite) throws {
        let (home, file, paint, second, secondX) = try Self.drawnOnTheFirstPicture("swiftpaint-same-size")
        // The folder lives until the window is gone.
        defer { withExtendedLifetime(home) { paint.stop() } }
        #expect(paint.title == "*shared.png — SwiftPaint", "\(paint.title ?? "nil")")

        // Another program writes other bytes of the same length, renamed over the file or into
        // it, with the old modification time (as `cp -p` or an editor keeping times does): only
        // the bytes, or the status-change time, tell.
        var before = stat()
        #expect(stat(file, &before) == 0)
        let fd =
            rewrite == .inPlace ? open(file, O_WRONLY) : open(file + ".new", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(fd >= 0)
        #expect(second.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == second.count)
        var times = [before.st_atim, before.st_mtim]
        #expect(futimens(fd, &times) == 0)
        close(fd)
        if rewrite == .renamedOver { #expect(rename(file + ".new", file) == 0) }
        var after = stat()
        #expect(stat(file, &after) == 0)
        #expect(
            after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec
                && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect((after.st_ino == before.st_ino) == (rewrite == .inPlace))

        let title = paint.client.waitForTitle(paint.window) { $0.contains("(changed on disk)") }
        #expect(title == "*shared.png (changed on disk) — SwiftPaint", "\(paint.title ?? "nil")")
        // Ctrl+S asks instead of writing over the other program's picture; Cancel writes nothing.
        try paint.key("s", modifiers: .control)
        try paint.waitForCloseQuestion()
        try paint.key("c")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Cancel")
        #expect(FileManager.default.contents(atPath: file).map([UInt8].init) == second, "Cancel wrote nothing")
        #expect(paint.title?.hasPrefix("*") == true)
        // Overwrite writes the drawing.
        try paint.key("s", modifiers: .control)
        try paint.waitForCloseQuestion()
        try Self.overwrite(paint, file, secondX: secondX)
        #expect(paint.title == "shared.png — SwiftPaint", "\(paint.title ?? "nil")")
    }

    @Test func ctrlSRightAfterASameSizeRewriteAsksOnceTheBytesAreRead() throws {
        let (home, file, paint, second, secondX) = try Self.drawnOnTheFirstPicture("swiftpaint-same-size-save")
        // The folder lives until the window is gone.
        defer { withExtendedLifetime(home) { paint.stop() } }
        // Ctrl+S at once, most likely before the window's next look at the file (every 2 s):
        // the bytes are read off the window's thread, and the question comes once they are.
        try Data(second).write(to: URL(fileURLWithPath: file + ".new"))
        #expect(rename(file + ".new", file) == 0)
        try paint.key("s", modifiers: .control)
        try paint.waitForCloseQuestion()
        try Self.overwrite(paint, file, secondX: secondX)
    }
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

// MARK: - A crash while the opened picture is copied into the journal

/// An opened picture's journal takes changes from the first one: until the picture is copied
/// into it, an interim journal whose header names the file holds them, so a kill -9 during the
/// copy loses no finished stroke, and a restore reads the picture from the file (which still
/// holds it). swiftpaint runs under strace, which holds for ten minutes each thread's second
/// and later `pread64` of the picture file: the copy's second 64 KB (the one look at the file's
/// start reads it once; the decode uses `read`).
extension RecoveryTests {
    /// A 400 x 300 picture whose PNG is several 64 KB pieces: colour noise.
    static let noisy: PixelImage = {
        var image = PixelImage(width: size.w, height: size.h)
        for y in 0..<size.h {
            for x in 0..<size.w {
                let noise = UInt8(truncatingIfNeeded: (UInt64(x * 7919 ^ y * 104_729) &* 2_654_435_761) >> 13)
                image[x, y] = Pixel.pack(r: UInt8(x * 255 / size.w), g: UInt8(y * 255 / size.h), b: noise, a: 255)
            }
        }
        return image
    }()

    @Test("kill -9 while the opened picture is copied into the journal: the strokes drawn meanwhile are restored")
    func aCrashDuringTheBaseCopyKeepsTheStrokesDrawnMeanwhile() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("photo.png")
        try ImageFile.save(Self.noisy, to: file, withAlpha: false)
        let opened = try #require(FileManager.default.contents(atPath: file))
        #expect(opened.count > 2 << 16, "the picture's file is read in one piece")
        let before: ScreenCapture
        let journal: String
        do {
            let paint = try startTraced(
                home, [file],
                holding: ["-P", file, "-e", "trace=pread64", "-e", "inject=pread64:delay_enter=600000000:when=2+"])
            let tracer = Self.tracer(of: paint)
            #expect(tracer != nil, "swiftpaint is not traced")
            defer {
                Self.killTraced(paint, tracer: tracer)
                paint.stop()
            }
            for i in 0..<2 { try drawStroke(paint, i, home: home) }
            before = try paint.captureCanvas()
            // Both strokes are in the journal file while the copy is still held: its header
            // names the picture file instead of holding it.
            let (path, contents) = try Self.waitForJournal(home, operations: 2, "before the kill")
            journal = path
            #expect(
                contents.header.baseReference
                    == JournalBaseReference(path: file, count: opened.count, crc: Zlib.crc32(Array(opened))))
            Self.killTraced(paint, tracer: tracer)
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        #expect(FileManager.default.contents(atPath: file) == opened)

        // A normal start restores both strokes on the picture read from the file, and makes the
        // journal whole: the picture is in it from then on.
        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, "after kill -9 during the copy")
        let whole = try JournalReader.read(path: journal)
        #expect(whole.header.baseReference == nil && whole.header.baseImage == Array(opened))
        #expect(whole.operations.count == 2)
        #expect(Self.journals(home) == [journal])
        try paint.key("z", modifiers: [.control], times: 2)
        expectCanvas(paint, equals: Self.noisy, "undone to the opened picture")
    }
}

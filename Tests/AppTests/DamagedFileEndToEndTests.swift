import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing

/// A PNG cut short (a download cut off) opened in the real window, from the command line and
/// through File ▸ Open: the rows read are shown, the rest white; the terminal and the status
/// bar say so; Ctrl+S asks for a name (`photo (recovered).png` suggested) and never writes over
/// the damaged file, whose bytes stay as they were.
@Suite(.serialized) struct DamagedFileEndToEndTests: CanvasChecks {
    static var config: ServerConfig { .standard }
    static let size = (w: 200, h: 150)

    /// A noisy opaque picture (its compressed rows spread over the file) and a copy of its PNG
    /// cut in half, written as `photo.png` in `dir`; with what SwiftPaint reads of it.
    static func cutPhoto(in dir: TemporaryDirectory) throws -> (path: String, bytes: [UInt8], read: DecodedImage) {
        var picture = PixelImage(width: size.w, height: size.h)
        var state: UInt64 = 7
        for y in 0..<size.h {
            for x in 0..<size.w {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let n = UInt32(truncatingIfNeeded: state >> 33)
                picture[x, y] = Pixel.pack(r: UInt8(x), g: UInt8(y), b: UInt8(truncatingIfNeeded: n), a: 255)
            }
        }
        let png = try PNGCodec.encode(picture, withAlpha: false)
        let cut = Array(png[..<(png.count / 2)])
        let path = dir.file("photo.png")
        try Data(cut).write(to: URL(fileURLWithPath: path))
        let read = try ImageFile.open(path: path).picture
        let damage = try #require(read.damage)
        #expect(damage.rowsRead > 0 && damage.rowsRead < size.h && damage.inOrder)
        // What was read is the picture's top, exactly; the rest white.
        for y in 0..<size.h {
            for x in 0..<size.w {
                let want = y < damage.rowsRead ? picture[x, y] : Color.white.pixel
                guard read.image[x, y] == want else {
                    Issue.record("(\(x), \(y)) read as \(read.image[x, y]), not \(want)")
                    return (path, cut, read)
                }
            }
        }
        return (path, cut, read)
    }

    func onDisk(_ path: String) -> [UInt8] { (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }

    @Test func aCutPNGOpenedFromTheCommandLineShowsItsTopAndCtrlSSavesACopy() throws {
        let dir = try scratchFolder()
        let (path, bytes, read) = try Self.cutPhoto(in: dir)
        let rows = read.damage?.rowsRead ?? 0
        let paint = try PaintWindow(
            Self.config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", path], imageWidth: Self.size.w,
            imageHeight: Self.size.h)
        defer { paint.stop() }
        expectCanvas(paint, equals: read.image, "the rows read, then white")
        #expect(paint.title == "photo.png — SwiftPaint", "\(paint.title ?? "nil")")
        #expect(
            paint.app.stderr.contains("is damaged: only the top \(rows) of \(Self.size.h) rows could be read"),
            "\(paint.app.stderr)")
        // Drawn on, then Ctrl+S: the Save as dialog, not a write over the damaged file.
        try paint.drag(image: line(from: (10, 5), to: (150, 5)))
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForFileDialog("Save as, at Ctrl+S on a damaged picture")
        #expect(onDisk(path) == bytes)
        // Enter takes the name suggested beside it.
        try paint.key("Return")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "photo (recovered).png — SwiftPaint" } != nil,
            "saved: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        let saved = try ImageFile.open(path: dir.file("photo (recovered).png")).picture
        #expect(saved.damage == nil && saved.image.height == Self.size.h)
        // Below the line, what was read and the white under it, as shown.
        for y in 20..<Self.size.h { #expect(saved.image[100, y] == read.image[100, y], "row \(y)") }
        // The next Ctrl+S writes the copy, without asking.
        try paint.drag(image: line(from: (10, 12), to: (150, 12)))
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
        #expect(try !paint.fileDialogShown())
        #expect(onDisk(path) == bytes, "the damaged file is as it was")
    }

    @Test func aCutPNGOpenedThroughFileOpenIsKeptAsItIsToo() throws {
        let dir = try scratchFolder()
        let (path, bytes, read) = try Self.cutPhoto(in: dir)
        let paint = try PaintWindow(
            Self.config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"], imageWidth: Self.size.w,
            imageHeight: Self.size.h)
        defer { paint.stop() }
        try paint.key("o", modifiers: [.control])
        try paint.waitForFileDialog("the Open dialog")
        try paint.client.typeText(path)
        try paint.key("Return")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "photo.png — SwiftPaint" } != nil,
            "opened: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: read.image, "the rows read, then white")
        // Ctrl+S, unchanged or drawn on: Save as; Escape leaves the file alone.
        try paint.key("s", modifiers: [.control])
        try paint.waitForFileDialog("Save as, at Ctrl+S on a damaged picture opened with File ▸ Open")
        try paint.key("Escape")
        try paint.waitForFileDialogClosed()
        try paint.drag(image: line(from: (10, 5), to: (150, 5)))
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForFileDialog("Save as again")
        try paint.key("Escape")
        try paint.waitForFileDialogClosed()
        #expect(onDisk(path) == bytes, "the damaged file is as it was")
        #expect(!FileManager.default.fileExists(atPath: dir.file("photo (recovered).png")))
    }
}

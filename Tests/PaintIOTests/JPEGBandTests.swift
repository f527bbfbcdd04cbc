import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Gray, CMYK (Adobe's inverted, as Photoshop and Pillow write it) and YCCK JPEGs of many bands,
/// baseline and progressive, opened as the window opens them (read through the 64 KB stream,
/// decoded 64 rows at a time into tiles and turned upright while cut): the pixels of the whole
/// decode, and exactly Pillow's. The files are committed in Tests/Fixtures/jpeg-bands, made once
/// by Tests/Fixtures/jpeg_bands.py (SwiftPaint's own encoder writes RGB only).
@Suite struct JPEGBandTests {
    /// Each stored 150 x 203 (three tile columns, four bands, the last ones partial); the number
    /// is its EXIF orientation.
    static let names = [
        "gray-baseline-6", "gray-progressive-4", "cmyk-baseline-5", "cmyk-progressive-3", "ycck-baseline-8",
        "ycck-progressive-2",
    ]

    static func bytes(_ name: String, _ ext: String) throws -> [UInt8] {
        try #require(Support.get(Reference.fixtures + "/jpeg-bands/\(name).\(ext)"), "\(name).\(ext)")
    }

    /// `jpeg` with the value of its EXIF Orientation tag set to `orientation` (Pillow writes a
    /// big-endian TIFF header).
    static func retagged(_ jpeg: [UInt8], _ orientation: Int) throws -> [UInt8] {
        // Tag 0x0112, type SHORT, count 1, then the value's high byte and its low one.
        let entry: [UInt8] = [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0]
        let at = try #require(
            (0..<min(jpeg.count, 300) - entry.count).first { Array(jpeg[$0..<$0 + entry.count]) == entry },
            "no Orientation tag")
        var out = jpeg
        out[at + entry.count] = UInt8(orientation)
        return out
    }

    /// Opened from the file as the window opens it: the whole decode's pixels (checked by
    /// `opensAsWhole`), upright, and the same pixels Pillow decodes and turns (libjpeg-turbo 2.1
    /// for both, with its defaults: the same IDCT and upsampling, so no tolerance), CMYK by the
    /// same formula.
    @Test(arguments: names)
    func opensFromTheFileInBandsAsPillowDecodesIt(name: String) throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-bands")
        defer { folder.remove() }
        let jpeg = try Self.bytes(name, "jpg")
        let path = StreamedOpeningTests.file(folder, "\(name).jpg", jpeg)
        let opened = try StreamedOpeningTests.opensAsWhole(path, name)
        let fromBytes = try ImageDecoder.decodeTiles(jpeg, name: name)
        let whole = try ImageDecoder.decode(jpeg, name: name).image
        let reference = try ImageDecoder.decode(Self.bytes(name, "png"), name: "\(name).png").image
        let turned = (name.last?.wholeNumberValue ?? 0) >= 5
        #expect((whole.width, whole.height) == (turned ? (203, 150) : (150, 203)), "\(name)")
        #expect(opened.format == .jpeg && !opened.hasAlpha, "\(name)")
        // Compared first, so a failure does not print every pixel.
        let tiledSame = fromBytes.picture.image == whole
        #expect(tiledSame, "\(name): the tiles from memory differ from the whole decode")
        let same = whole == reference
        let differing = zip(whole.pixels, reference.pixels).filter { $0 != $1 }.count
        #expect(same, "\(name): \(differing) pixels differ from Pillow's")
    }

    /// Every EXIF orientation of every file: the streamed tiles are the whole decode, which is
    /// the picture as stored (orientation 1) turned.
    @Test(arguments: names)
    func everyOrientationIsTurnedWhileTheBandsAreCut(name: String) throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-bands")
        defer { folder.remove() }
        let jpeg = try Self.bytes(name, "jpg")
        let stored = try ImageDecoder.decode(Self.retagged(jpeg, 1), name: name).image
        #expect((stored.width, stored.height) == (150, 203))
        for exif in 1...8 {
            let path = StreamedOpeningTests.file(folder, "\(exif).jpg", try Self.retagged(jpeg, exif))
            let opened = try StreamedOpeningTests.opensAsWhole(path, "\(name) as \(exif)")
            let upright = opened.picture.image == stored.oriented(Orientation(exif: exif))
            #expect(upright, "\(name) as \(exif): not turned as its orientation asks")
        }
    }

    /// Cut short anywhere after its header (in the first band, in the middle, in the last band
    /// or, progressive, in a later scan), a file is refused from the stream and from memory with
    /// the words the whole decode gives.
    @Test(arguments: names)
    func aCopyCutShortIsRefusedWithTheSameWords(name: String) throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-bands")
        defer { folder.remove() }
        let jpeg = try Self.bytes(name, "jpg")
        for cut in [jpeg.count / 5, jpeg.count / 2, jpeg.count * 4 / 5, jpeg.count - 10] {
            let bytes = Array(jpeg[..<cut])
            let path = StreamedOpeningTests.file(folder, "cut-\(cut).jpg", bytes)
            // Refused as cut short, or opened with the rows read (the same every way).
            let whole = PictureFault.decoding { () throws(ImageFileError) in try ImageFile.open(path: path).picture }
            let streamed = PictureFault.tiles { () throws(ImageFileError) in
                let opened = try ImageFile.openTiles(path: path)
                return (opened.picture, opened.damage)
            }
            guard case .cutShort = whole.error else {
                Issue.record("\(name) cut at \(cut): \(whole), not cut short")
                continue
            }
            #expect(streamed == whole, "\(name) cut at \(cut)")
            let wholeBytes = PictureFault.decoding { () throws(ImageFileError) in
                try ImageDecoder.decode(bytes, name: path)
            }
            let tiled = PictureFault.tiles { () throws(ImageFileError) in
                let opened = try ImageDecoder.decodeTiles(bytes, name: path)
                return (opened.picture, opened.damage)
            }
            #expect(tiled == wholeBytes && tiled == whole, "\(name) cut at \(cut), from memory")
        }
    }
}

import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Every format decoded straight into the engine's tiles (`ImageDecoder.decodeTiles`, what the
/// window opens a picture with) gives exactly the pixels of the whole-picture decode with the
/// same decoder, and refuses what it refuses with the same words.
@Suite struct TileDecodingTests {
    static func sameAsWhole(_ bytes: [UInt8], _ name: String) throws {
        let whole = try ImageDecoder.decode(bytes, name: name)
        let tiled = try ImageDecoder.decodeTiles(bytes, name: name)
        #expect(tiled.format == whole.format && tiled.hasAlpha == whole.hasAlpha, "\(name)")
        #expect(tiled.picture.width == whole.image.width && tiled.picture.height == whole.image.height, "\(name)")
        #expect(tiled.picture.image == whole.image, "\(name): pixels differ from the whole decode")
    }

    /// Pillow's files of every kind: JPEG baseline, progressive, 4:4:4, gray, CMYK, with an ICC
    /// profile and in all eight EXIF orientations (61 x 37: partial tiles, turned on its side by
    /// five to eight), WebP, GIF and BMP.
    @Test func everyFormatFixtureDecodesIntoTilesWithTheSamePixels() throws {
        let entries = FormatDecodingTests.fixtures.entries
        #expect(entries.filter { $0.name.hasPrefix("jpeg-orientation-") }.count == 8)
        #expect(entries.contains { $0.name == "jpeg-cmyk" } && entries.contains { $0.name == "jpeg-gray" })
        for entry in entries {
            try Self.sameAsWhole(Support.get(FormatDecodingTests.fixtures.folder + "/" + entry.file) ?? [], entry.name)
        }
    }

    /// `jpeg` with an EXIF segment whose Orientation tag is `value`, right after its SOI.
    static func withOrientation(_ jpeg: [UInt8], _ value: UInt8) -> [UInt8] {
        // "Exif\0\0", then a little-endian TIFF header and IFD0 with the one tag (SHORT, 1).
        let tiff: [UInt8] = [
            0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0, 0, 0, 0, 0,
        ]
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return Array(jpeg[..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + Array(jpeg[2...])
    }

    /// 300 x 200 (four bands, the last 8 rows; five tile columns, the last 44 wide) with a white
    /// block, in every EXIF orientation: turned while it is cut, to the same pixels as the
    /// stored picture decoded whole and then turned.
    @Test(arguments: 1...8)
    func aPhotoOfManyBandsOpensUprightInTiles(exif: Int) throws {
        var image = Support.opaqueImage(width: 300, height: 200)
        for y in 70..<150 { for x in 0..<130 { image[x, y] = Color.white.pixel } }
        let plain = try JPEGCodec.encode(image, quality: 90)
        let jpeg = Self.withOrientation(plain, UInt8(exif))
        try Self.sameAsWhole(jpeg, "photo-\(exif).jpg")
        let tiled = try JPEGCodec.decodeTiles(jpeg, name: "photo.jpg").picture
        let stored = try JPEGCodec.decode(plain, name: "photo.jpg").image
        #expect((tiled.width, tiled.height) == (exif >= 5 ? (200, 300) : (300, 200)))
        #expect(tiled.image == stored.oriented(Orientation(exif: exif)))
    }

    @Test func aPhotoCutShortOpensWithTheSameRowsAndWordsInTiles() throws {
        let jpeg = try JPEGCodec.encode(Support.opaqueImage(width: 300, height: 200), quality: 90)
        for fraction in [2, 5, 8] {
            let cut = Array(jpeg[..<(jpeg.count * fraction / 10)])
            let whole = PictureFault.decoding { () throws(ImageFileError) in try ImageDecoder.decode(cut, name: "c.jpg")
            }
            let tiled = PictureFault.tiles { () throws(ImageFileError) in
                let opened = try ImageDecoder.decodeTiles(cut, name: "c.jpg")
                return (opened.picture, opened.damage)
            }
            guard case .damaged(let damage, _) = whole else {
                Issue.record("cut at \(fraction)0 %: \(whole)")
                continue
            }
            #expect(damage.rowsRead > 0 && damage.rowsRead < 200 && damage.inOrder, "\(whole)")
            #expect(whole.message?.hasPrefix("Cannot open “c.jpg”: the file is cut short") == true, "\(whole)")
            #expect(tiled == whole, "cut at \(fraction)0 %")
        }
    }
}

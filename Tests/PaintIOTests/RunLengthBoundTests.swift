import Foundation
import PaintCore
import Testing

@testable import PaintIO

/// A run-length coded BMP claims no more pixels than its bytes could plausibly describe
/// (`BMPDecoder.mostRunLengthPixelsPerByte`): 60 bytes ending in an end of bitmap claimed
/// 16384 x 16384 pixels, and a gigabyte of transparent rows was set aside for them. An end of
/// bitmap before the last rows still leaves them transparent, as it may.
@Suite struct RunLengthBoundTests {
    /// An RLE8 (or, `four`, RLE4) BMP of `width` x `height` with a `colors`-entry palette
    /// (index i is (i, 255 - i, 7 i)) and the codes `data`.
    static func bmp(width: Int, height: Int, four: Bool = false, colors: Int = 2, data: [UInt8]) -> [UInt8] {
        let le32 = PartialDecodingTests.le32
        var palette: [UInt8] = []
        for i in 0..<colors { palette += [UInt8(truncatingIfNeeded: i * 7), UInt8(255 - i), UInt8(i), 0] }
        let offset = 14 + 40 + palette.count
        var file: [UInt8] = Array("BM".utf8)
        for field in [offset + data.count, 0, offset, 40, width, height] { file += le32(field) }
        file += [1, 0, four ? 4 : 8, 0]
        for field in [four ? 2 : 1, data.count, 2835, 2835, colors, 0] { file += le32(field) }
        return file + palette + data
    }

    /// What the decoder says refusing a file of `size` bytes claiming `width` x `height`.
    static func refusal(_ size: Int, _ width: Int, _ height: Int) -> ImageFileError {
        .damaged(path: "h.bmp", reason: "it holds \(size) bytes, too few for a \(width) x \(height) picture")
    }

    /// Decodes `bytes` from memory and in tiles: the same picture (or the same error) both ways.
    static func decoded(_ bytes: [UInt8]) -> Result<DecodedImage, ImageFileError> {
        let flat = Result { () throws(ImageFileError) in try ImageDecoder.decode(bytes, name: "h.bmp") }
        let tiled = Result { () throws(ImageFileError) in try ImageDecoder.decodeTiles(bytes, name: "h.bmp") }
        switch (flat, tiled) {
        case (.success(let a), .success(let b)):
            #expect(a.image == b.picture.image && a.damage == b.damage, "tiles give another picture")
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "tiles fail otherwise: \(b)")
        default:
            Issue.record("memory \(flat), tiles \(tiled)")
        }
        return flat
    }

    /// 16384 x 16384 (the most pixels SwiftPaint opens) in 62 to 66 bytes: a palette of one color
    /// and an end of bitmap, as RLE8 and RLE4, bottom-up and top-down; and the same with a
    /// delta down 255 rows before it. Refused from the header, with the reason.
    @Test func aFewBytesClaimingAHugePictureAreRefused() {
        let side = 16384
        for four in [false, true] {
            for height in [side, -side] {
                for data: [UInt8] in [[0, 1], [0, 2, 0, 255, 0, 1], [9, 0, 0, 0, 0, 1]] {
                    let bytes = Self.bmp(width: side, height: height, four: four, colors: 1, data: data)
                    let result = Self.decoded(bytes)
                    guard case .failure(let error) = result else {
                        Issue.record("\(four ? "RLE4" : "RLE8") \(data): opened")
                        continue
                    }
                    #expect(error == Self.refusal(bytes.count, side, side), "\(error)")
                    #expect(
                        error.description
                            == "Cannot open “h.bmp”: the file is damaged (it holds \(bytes.count) bytes, "
                            + "too few for a 16384 x 16384 picture)")
                }
            }
        }
    }

    /// The bound is 1032 pixels a byte of the file: 60 bytes open as 60 x 1032 and are refused
    /// as 60 x 1033 or 61 x 1032.
    @Test func theBoundIs1032PixelsAByte() throws {
        let size = Self.bmp(width: 1, height: 1, colors: 1, data: [0, 1]).count
        #expect(size == 60)
        let fits = Self.bmp(width: 60, height: 1032, colors: 1, data: [0, 1])
        let opened = try Self.decoded(fits).get()
        #expect(opened.image.width == 60 && opened.image.height == 1032 && opened.damage == nil)
        #expect(opened.image.pixels.allSatisfy { $0 == 0 }, "rows not given are transparent")
        for (width, height) in [(60, 1033), (61, 1032)] {
            let bytes = Self.bmp(width: width, height: height, colors: 1, data: [0, 1])
            #expect(throws: Self.refusal(60, width, height)) { try ImageDecoder.decode(bytes, name: "h.bmp") }
        }
    }

    /// An end of bitmap before the last rows, within the bound: the rows given are drawn, the
    /// rest (and the pixels a delta skipped) transparent, and the file is not damaged.
    @Test func anEarlyEndOfBitmapLeavesTheRestTransparent() throws {
        let (width, height) = (200, 150)
        // Bottom-up: stored row 0 is the picture's last. Stored row 0: 10 of color 1, a
        // literal of colors 0 1 0, an end of line; a delta right 5 and down 1 (stored row 2),
        // 3 of color 1; the end of bitmap.
        let rle8: [UInt8] = [10, 1, 0, 3, 0, 1, 0, 0, 0, 0, 0, 2, 5, 1, 3, 1, 0, 1]  // the literal padded to 16 bits
        // RLE4: a run's byte gives two indices in turn; the literal's 3 in 2 bytes.
        let rle4: [UInt8] = [10, 0x11, 0, 3, 0x01, 0x00, 0, 0, 0, 2, 5, 1, 3, 0x11, 0, 1]
        let one = Pixel.pack(r: 1, g: 254, b: 7, a: 255)
        let zero = Pixel.pack(r: 0, g: 255, b: 0, a: 255)
        var expected = PixelImage(width: width, height: height, fill: 0)
        for x in 0..<10 { expected[x, height - 1] = one }
        (expected[10, height - 1], expected[11, height - 1], expected[12, height - 1]) = (zero, one, zero)
        for x in 5..<8 { expected[x, height - 3] = one }
        for (four, data) in [(false, rle8), (true, rle4)] {
            let bytes = Self.bmp(width: width, height: height, four: four, data: data)
            // 30,000 pixels in 82 or 80 bytes: 366 a byte, within the bound.
            #expect(bytes.count * BMPDecoder.mostRunLengthPixelsPerByte >= width * height)
            let opened = try Self.decoded(bytes).get()
            #expect(opened.damage == nil && opened.hasAlpha, "\(four ? "RLE4" : "RLE8")")
            #expect(opened.image == expected, "\(four ? "RLE4" : "RLE8")")
        }
    }

    /// Pasted, the hostile file says the same reason about the clipboard.
    @Test func aPasteOfTheHostileFileSaysWhy() {
        let bytes = Self.bmp(width: 16384, height: 16384, colors: 1, data: [0, 1])
        #expect(
            Self.refusal(bytes.count, 16384, 16384).clipboardMessage
                == "Cannot paste: the clipboard's picture is damaged (it holds 60 bytes, too few for a 16384 x 16384 picture)"
        )
    }
}

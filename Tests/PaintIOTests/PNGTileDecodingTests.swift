import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Decoding a PNG straight into the engine's tiles (`PNGCodec.decodeTiles`, what the window
/// opens a picture with) gives exactly the pixels of the whole-picture decode, refuses the same
/// files with the same words, and keeps squares of one value as shared tiles.
@Suite struct PNGTileDecodingTests {
    @Test func everyValidFileOfTheSuiteDecodesIntoTilesWithTheSamePixels() throws {
        var wrong: [String] = []
        var checked = 0
        for entry in PNGConformanceTests.suite.entries where entry.refuse == nil {
            let bytes = PNGConformanceTests.bytes(entry.name)
            let whole = try PNGCodec.decodePicture(bytes, name: entry.name)
            let tiled = try PNGCodec.decodeTiles(bytes, name: entry.name)
            #expect(tiled.hasAlpha == whole.hasAlpha, "\(entry.name): hasAlpha")
            if tiled.picture.width != entry.width || tiled.picture.height != entry.height
                || tiled.picture.image != whole.image
            {
                wrong.append(entry.name)
            }
            checked += 1
        }
        #expect(wrong.isEmpty, "pixels differ from the whole decode: \(wrong)")
        // Every bit depth, color type, transparency and both interlace modes (see the suite).
        #expect(checked == 2 * 3 * 26 + 16)
    }

    @Test func everyCorruptFileOfTheSuiteIsRefusedOrKeepsTheSameRowsWithTheSameWords() {
        let corrupt = PNGConformanceTests.suite.entries.filter { $0.refuse != nil }
        #expect(corrupt.count == 15)
        for entry in corrupt {
            let bytes = PNGConformanceTests.bytes(entry.name)
            let whole = PictureFault.decoding { () throws(ImageFileError) in
                try PNGCodec.decodePicture(bytes, name: "x.png")
            }
            let tiled = PictureFault.tiles { () throws(ImageFileError) in
                let opened = try PNGCodec.decodeTiles(bytes, name: "x.png")
                return (opened.picture, opened.damage)
            }
            #expect(whole != .whole && tiled == whole, "\(entry.name): \(whole), tiled \(tiled)")
        }
    }

    @Test func everyHostileFileIsRefusedWithTheSameWordsOrOpensWithoutItsMetadata() {
        #expect(HostileFileTests.fixtures.entries.count == 23)
        for (file, words) in HostileFileTests.fixtures.entries {
            let bytes = Support.get(HostileFileTests.fixtures.folder + "/" + file) ?? []
            if words.isEmpty {
                let opened = Result { () throws(ImageFileError) in try ImageDecoder.decodeTiles(bytes, name: file) }
                let picture = try? opened.get().picture
                #expect(picture?.width == 1 && picture?.height == 1, "\(file): \(opened)")
                #expect(picture?.image == (try? ImageDecoder.decode(bytes, name: file).image), "\(file)")
                continue
            }
            let tiled = PictureFault.tiles { () throws(ImageFileError) in
                let opened = try ImageDecoder.decodeTiles(bytes, name: file)
                return (opened.picture, opened.damage)
            }
            #expect(tiled.message?.contains(words) == true, "\(file): \(tiled)")
            // Refused, or (a real picture cut in half) the same rows as from a whole buffer.
            let whole = PictureFault.decoding { () throws(ImageFileError) in try ImageDecoder.decode(bytes, name: file)
            }
            #expect(whole == tiled, "\(file): \(whole), tiled \(tiled)")
        }
    }

    /// 300 x 200: five tile columns (the last 44 wide) and four bands (the last 8 rows), the left
    /// 128 columns white, the rest noise; opaque RGB and translucent RGBA.
    @Test(arguments: [false, true])
    func aPictureOfManyBandsKeepsItsPixelsAndItsWhiteSquaresTakeNoTiles(withAlpha: Bool) throws {
        var image = Support.opaqueImage(width: 300, height: 200)
        for y in 0..<200 {
            for x in 0..<300 {
                if x < 128 {
                    image[x, y] = Color.white.pixel
                } else if withAlpha {
                    image[x, y] = Pixel.premultiply(image[x, y] & 0x00FF_FFFF | UInt32((x + y) % 256) << 24)
                }
            }
        }
        let png = try PNGCodec.encode(image, withAlpha: withAlpha)
        let tiled = try PNGCodec.decodeTiles(png, name: "t.png")
        #expect(tiled.hasAlpha == withAlpha)
        let whole = try PNGCodec.decode(png, name: "t.png")
        #expect(tiled.picture.image == whole)
        // Opaque pixels come back as they were saved (translucent ones through straight alpha).
        if !withAlpha { #expect(whole == image) }
        // Two white columns of four tiles each share one tile: three columns of four have pixels.
        #expect(tiled.picture.fullTileCount == 3 * 4)
        // The engine takes the tiles over as they are.
        let engine = StrokeEngine(picture: tiled.picture, background: withAlpha ? .transparent : .color(.white))
        #expect(engine.paintImage() == whole)
    }

    @Test func aFileCutInsideTheSecondBandKeepsTheRowsBeforeTheCutInTiles() throws {
        let image = Support.opaqueImage(width: 300, height: 200)
        let png = try PNGCodec.encode(image, withAlpha: false)
        // The image data stops part way: the rows before are kept, the rest white (no alpha),
        // the same as the whole decode.
        let cut = Array(png[..<(png.count * 2 / 5)])
        let whole = PictureFault.decoding { () throws(ImageFileError) in try PNGCodec.decodePicture(cut, name: "c.png")
        }
        let tiled = PictureFault.tiles { () throws(ImageFileError) in
            let opened = try PNGCodec.decodeTiles(cut, name: "c.png")
            return (opened.picture, opened.damage)
        }
        #expect(tiled == whole)
        guard case .damaged(let damage, let kept) = tiled else {
            Issue.record("\(tiled)")
            return
        }
        #expect(damage.rowsRead > 64 && damage.rowsRead < 128, "\(tiled)")
        #expect(damage.error == .cutShort(path: "c.png", reason: "it ends before the picture does"))
        for y in 0..<200 {
            let want =
                y < damage.rowsRead ? (0..<300).map { image[$0, y] } : Array(repeating: Color.white.pixel, count: 300)
            #expect((0..<300).map { kept[$0, y] } == want, "row \(y)")
        }
    }
}

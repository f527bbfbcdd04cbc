import Foundation
import PaintCore
import Testing

@testable import PaintIO

@Suite struct PNGCodecTests {
    @Test func opaqueRoundTripIsBitExactWithAndWithoutAlpha() throws {
        let image = Support.opaqueImage(width: 97, height: 61)
        #expect(image.isOpaque)
        #expect(Set(image.pixels).count > 1000, "the sample should have varied pixels")
        for withAlpha in [false, true] {
            let bytes = try PNGCodec.encode(image, withAlpha: withAlpha)
            let decoded = try PNGCodec.decode(bytes, name: "rt.png")
            #expect(decoded.width == 97 && decoded.height == 61)
            #expect(decoded == image, "withAlpha: \(withAlpha)")
        }
    }

    @Test func opaqueRGBRowsOfEveryWidthDecodeToTheirBytesWholeAndInTiles() throws {
        // The rows are packed four pixels a step and the rest one by one (`CRGBRow`): every
        // width up to 40 ends a row at another place in a step, and 70 crosses a tile's edge.
        // Each pixel's three bytes differ, so a swapped or shifted byte shows.
        for width in Array(1...40) + [70] {
            var image = PixelImage(width: width, height: 3)
            for i in image.pixels.indices {
                let n = UInt32(i * 3 + width * 7)
                image.pixels[i] = 0xFF00_0000 | (n & 0xFF) << 16 | ((n + 1) * 37 & 0xFF) << 8 | ((n + 2) * 101 & 0xFF)
            }
            let bytes = try PNGCodec.encode(image, withAlpha: false)
            #expect(bytes[25] == 2, "width \(width): an RGB file")
            #expect(try PNGCodec.decode(bytes, name: "rgb.png") == image, "width \(width)")
            #expect(try PNGCodec.decodeTiles(bytes, name: "rgb.png").picture.image == image, "width \(width) in tiles")
        }
    }

    @Test func colourTypeFollowsWithAlpha() throws {
        let image = Support.opaqueImage(width: 5, height: 3)
        // IHDR data starts at byte 16; the colour type is its 10th byte: 2 = RGB, 6 = RGBA.
        #expect(try PNGCodec.encode(image, withAlpha: false)[25] == 2)
        #expect(try PNGCodec.encode(image, withAlpha: true)[25] == 6)
    }

    @Test func alphaRoundTripKeepsStraightAndPremultipliedValues() throws {
        // Row 0 opaque, row 1 fully transparent (with colour that must vanish), rows 2... every
        // alpha from 1 to 254 against varied colours.
        let width = 64
        let height = 6
        var noise = Support.Noise(state: 7)
        var straight = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let n = noise.next()
                let a: UInt32 = y == 0 ? 255 : y == 1 ? 0 : UInt32(1 + ((y - 2) * width + x) % 254)
                straight[y * width + x] = a << 24 | (n & 0x00FF_FFFF)
            }
        }
        let image = PixelImage(width: width, height: height, pixels: straight.map(Pixel.premultiply))!
        let bytes = try PNGCodec.encode(image, withAlpha: true)

        // What is in the file is straight alpha: exact for opaque pixels, zero for transparent.
        let stored = try #require(Support.straightBGRA(bytes))
        for x in 0..<width {
            let opaque = straight[x]
            #expect(
                Array(stored[x * 4..<x * 4 + 4]) == [
                    UInt8(opaque & 0xFF), UInt8(opaque >> 8 & 0xFF), UInt8(opaque >> 16 & 0xFF), 255,
                ])
            let t = (width + x) * 4
            #expect(stored[t + 3] == 0)
        }
        // Every alpha survives, and the premultiplied pixels come back exactly.
        let decoded = try PNGCodec.decode(bytes, name: "alpha.png")
        #expect(decoded.pixels.map { $0 >> 24 } == straight.map { $0 >> 24 })
        #expect(decoded == image)
        #expect(decoded.pixels[width..<2 * width].allSatisfy { $0 == 0 })
    }

    @Test func emptyBytesAreAnEmptyFile() {
        #expect(throws: ImageFileError.emptyFile(path: "e.png")) { _ = try PNGCodec.decode([], name: "e.png") }
    }

    @Test func textIsNotAPNG() {
        let error = #expect(throws: ImageFileError.self) {
            try PNGCodec.decode(Array("not a png, just text\n".utf8), name: "a.txt")
        }
        #expect(error == .notPNG(path: "a.txt"))
        #expect(error?.message == "Cannot open “a.txt”: not a PNG file")
    }

    @Test(arguments: ["signature prefix", "signature only", "header only", "half", "inside the last IDAT"])
    func truncatedPNGIsCutShort(cut: String) throws {
        let whole = try PNGCodec.encode(Support.opaqueImage(width: 40, height: 40), withAlpha: false)
        let length =
            switch cut {
            case "signature prefix": 4
            case "signature only": 8
            case "header only": 33  // signature + IHDR chunk
            case "half": whole.count / 2
            default: whole.count - 12 - 6  // IEND is the last 12 bytes; cut IDAT's CRC and adler-32
            }
        let error = #expect(throws: ImageFileError.self) {
            _ = try PNGCodec.decode(Array(whole[..<length]), name: "cut.png")
        }
        guard case .cutShort(let path, let reason)? = error else {
            Issue.record("expected .cutShort, got \(String(describing: error))")
            return
        }
        #expect(path == "cut.png")
        #expect(!reason.isEmpty)
        #expect(error?.message.hasPrefix("Cannot open “cut.png”: the file is cut short") == true)
    }

    @Test func aMissingIENDIsTolerated() throws {
        // A file that lost only its IEND chunk still has every pixel, so it opens rather than
        // being refused (as in browsers).
        let image = Support.opaqueImage(width: 40, height: 40)
        let whole = try PNGCodec.encode(image, withAlpha: false)
        #expect(Array(whole[(whole.count - 8)..<(whole.count - 4)]) == Array("IEND".utf8))
        #expect(try PNGCodec.decode(Array(whole.dropLast(12)), name: "noend.png") == image)
    }

    @Test func corruptHeaderCRCIsDamaged() throws {
        var bytes = try PNGCodec.encode(Support.opaqueImage(width: 8, height: 8), withAlpha: false)
        bytes[29] ^= 0xFF  // last byte of IHDR's CRC
        let error = #expect(throws: ImageFileError.self) { _ = try PNGCodec.decode(bytes, name: "crc.png") }
        guard case .damaged(_, let reason)? = error else {
            Issue.record("expected .damaged, got \(String(describing: error))")
            return
        }
        #expect(reason == "invalid chunk checksum")
    }

    @Test func hugeHeaderIsRefusedBeforeAllocating() {
        let bytes = Support.pngClaiming(width: 100_000, height: 100_000)
        let error = #expect(throws: ImageFileError.self) { _ = try PNGCodec.decode(bytes, name: "big.png") }
        // 10^10 pixels would be 40 GB, and the file's few bytes of data hold none of them: had the
        // decoder gone past the header it would have found the data short (.cutShort). `.tooLarge`
        // says the header alone was read. (How fast that is belongs to make bench, not here.)
        #expect(error == .tooLarge(path: "big.png", width: 100_000, height: 100_000, limits: .default))
        #expect(
            error?.message
                == "Cannot open “big.png”: the image is 100000 x 100000 pixels, more than SwiftPaint can edit (at most 32768 on a side and 268 million pixels)"
        )
        let small = #expect(throws: ImageFileError.self) {
            _ = try PNGCodec.decode(Support.pngClaiming(width: 1000, height: 1000), name: "small.png")
        }
        if case .cutShort? = small {
        } else {
            Issue.record("the same data under an allowed size reads as cut short, got \(String(describing: small))")
        }
    }

    @Test(arguments: [(UInt32(40_000), UInt32(1)), (1, 40_000), (20_000, 20_000)])
    func eitherLimitRefuses(width: UInt32, height: UInt32) {
        let error = #expect(throws: ImageFileError.self) {
            try PNGCodec.decode(Support.pngClaiming(width: width, height: height), name: "x.png")
        }
        #expect(error == .tooLarge(path: "x.png", width: Int(width), height: Int(height), limits: .default))
    }

    @Test func customLimitsApply() throws {
        let bytes = try PNGCodec.encode(Support.opaqueImage(width: 97, height: 61), withAlpha: false)
        let small = ImageLimits(maxSide: 64, maxPixels: 1 << 20)
        #expect(throws: ImageFileError.tooLarge(path: "s.png", width: 97, height: 61, limits: small)) {
            try PNGCodec.decode(bytes, name: "s.png", limits: small)
        }
        #expect(
            try PNGCodec.decode(bytes, name: "s.png", limits: ImageLimits(maxSide: 97, maxPixels: 97 * 61)).width == 97)
    }

    @Test func emptyImageCannotBeEncoded() {
        let error = #expect(throws: ImageFileError.self) {
            try PNGCodec.encode(PixelImage(width: 0, height: 0), withAlpha: false)
        }
        guard case .cannotEncode? = error else {
            Issue.record("expected .cannotEncode, got \(String(describing: error))")
            return
        }
    }
}

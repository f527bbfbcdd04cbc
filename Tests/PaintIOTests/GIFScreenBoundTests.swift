import Foundation
import PaintCore
import Testing

@testable import PaintIO

/// A GIF's logical screen claims no more pixels than its bytes could give
/// (`GIFDecoder.mostPixelsPerByte`): 35 bytes with a 1 x 1 frame claimed a 16384 x 16384
/// screen, and a gigabyte of transparency was set aside and filled for it. A frame smaller
/// than its screen, within the bound, still opens on transparency.
@Suite struct GIFScreenBoundTests {
    /// A GIF of a `screen` logical screen and one 1 x 1 frame at (`left`, `top`) of color 1
    /// of a 2-color table (black, then (200, 40, 10)).
    static func gif(screen: (Int, Int), left: Int = 0, top: Int = 0) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var bytes = Array("GIF89a".utf8) + le16(screen.0) + le16(screen.1) + [0x80, 0, 0]
        bytes += [0, 0, 0, 200, 40, 10]
        bytes += [0x2C] + le16(left) + le16(top) + le16(1) + le16(1) + [0]
        // LZW, minimum code size 2: clear (4), 1, end (5) in 3-bit codes, low bits first.
        bytes += [2, 2, 0x4C, 0x01, 0, 0x3B]
        return bytes
    }

    @Test func aFewBytesClaimingAHugeScreenAreRefused() {
        let bytes = Self.gif(screen: (16384, 16384))
        #expect(bytes.count == 35)
        let expected = ImageFileError.damaged(
            path: "s.gif", reason: "it holds 35 bytes, too few for a 16384 x 16384 picture")
        #expect(throws: expected) { try ImageDecoder.decode(bytes, name: "s.gif") }
        #expect(throws: expected) { try ImageDecoder.decodeTiles(bytes, name: "s.gif") }
        // 35 bytes give at most 95,585 pixels: 309 x 309 opens, 310 x 309 does not.
        #expect(throws: Never.self) { try ImageDecoder.decode(Self.gif(screen: (309, 309)), name: "s.gif") }
        #expect(
            throws: ImageFileError.damaged(path: "s.gif", reason: "it holds 35 bytes, too few for a 310 x 309 picture")
        ) {
            try ImageDecoder.decode(Self.gif(screen: (310, 309)), name: "s.gif")
        }
    }

    /// Within the bound, the frame is drawn at its place and the rest of the screen is
    /// transparent, from memory and in tiles alike.
    @Test func aSmallFrameOnALargerScreenOpensOnTransparency() throws {
        let bytes = Self.gif(screen: (200, 150), left: 30, top: 20)
        let decoded = try ImageDecoder.decode(bytes, name: "s.gif")
        var expected = PixelImage(width: 200, height: 150, fill: 0)
        expected[30, 20] = Pixel.pack(r: 200, g: 40, b: 10, a: 255)
        #expect(decoded.image == expected && decoded.hasAlpha && decoded.damage == nil)
        #expect(try ImageDecoder.decodeTiles(bytes, name: "s.gif").picture.image == expected)
    }
}

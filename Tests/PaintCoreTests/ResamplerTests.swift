import TestSupport
import Testing

@testable import PaintCore

/// Scaling through pixman: no aliasing when shrinking, flat areas stay exactly flat, an
/// unchanged axis is copied, and the result is always valid premultiplied paint.
@Suite struct ResamplerTests {
    static let black: UInt32 = 0xFF00_0000
    static let white: UInt32 = 0xFFFF_FFFF

    static func checkerboard(_ width: Int, _ height: Int) -> PixelImage {
        var image = PixelImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = (x + y) & 1 == 0 ? black : white }
        }
        return image
    }

    static func channels(_ p: UInt32) -> [Int] { [24, 16, 8, 0].map { Int(p >> UInt32($0) & 0xFF) } }

    /// A one-pixel checkerboard is the finest detail a picture holds; shrunk without a proper
    /// filter (nearest neighbour, or plain bilinear) every new pixel lands on one square and the
    /// result is solid black or white, or a coarse pattern. Filtered, it is an even mid-gray:
    /// 127 or 128 everywhere, by 4x and by ratios that do not divide. Only the four corner
    /// pixels stray a few levels further, because beyond the picture its edge pixels are
    /// repeated (so an opaque photo keeps its border) and a corner's filter sees two edges of
    /// the pattern continued as stripes.
    @Test(arguments: [(256, 64), (255, 85), (240, 96), (200, 64), (1024, 64), (101, 50)])
    func aFineCheckerboardShrinksToAnEvenGray(size: Int, newSize: Int) throws {
        let scaled = try #require(Self.checkerboard(size, size).scaled(toWidth: newSize, height: newSize))
        #expect(scaled.width == newSize && scaled.height == newSize)
        var worst = 0
        var worstCorner = 0
        for y in 0..<newSize {
            for x in 0..<newSize {
                let c = Self.channels(scaled[x, y])
                #expect(c[0] == 255 && c[1] == c[2] && c[2] == c[3])
                // Twice the distance from 127.5: 1 for 127 and 128.
                let off = abs(2 * c[1] - 255)
                if (x == 0 || x == newSize - 1) && (y == 0 || y == newSize - 1) {
                    worstCorner = max(worstCorner, off)
                } else {
                    worst = max(worst, off)
                }
            }
        }
        #expect(worst == 1, "\(size) → \(newSize): a pixel off mid-gray by \(Double(worst) / 2)")
        #expect(worstCorner <= 14, "\(size) → \(newSize): a corner off mid-gray by \(Double(worstCorner) / 2)")
    }

    @Test(arguments: [(5, 3, 17, 2), (40, 30, 7, 11), (1, 9, 3, 4), (9, 1, 1, 1), (13, 13, 13, 40)])
    func aFlatPictureStaysExactlyFlat(width: Int, height: Int, newWidth: Int, newHeight: Int) throws {
        for fill: UInt32 in [0xFF12_3456, 0x8040_2010, 0] {
            let image = PixelImage(width: width, height: height, fill: fill)
            let scaled = try #require(image.scaled(toWidth: newWidth, height: newHeight))
            #expect(scaled.pixels.allSatisfy { $0 == fill }, "\(fill) \(width)x\(height) → \(newWidth)x\(newHeight)")
        }
    }

    @Test func anAxisThatKeepsItsSizeIsCopied() throws {
        let image = PixelPictures.numbered(23, 7)
        #expect(image.scaled(toWidth: 23, height: 7) == image)
        // Only the width changes: every column's pixels keep their rows' order; rows of a
        // picture whose rows are each one color stay that color exactly.
        var rows = PixelImage(width: 10, height: 6)
        for y in 0..<6 {
            for x in 0..<10 { rows[x, y] = PixelPictures.pixel(Character(UnicodeScalar(UInt8(97 + y)))) }
        }
        let wider = try #require(rows.scaled(toWidth: 27, height: 6))
        for y in 0..<6 { #expect((0..<27).allSatisfy { wider[$0, y] == rows[0, y] }, "row \(y)") }
    }

    /// A hard edge between opaque ink and transparent paint: the cubic overshoots a little, and
    /// every resulting pixel must still be premultiplied (no channel above its alpha).
    @Test(arguments: [(2.0, 2.0), (0.5, 0.5), (3.0, 0.25), (1, 7.0)])
    func aHardEdgeStaysValidPremultipliedPaint(fx: Double, fy: Double) throws {
        var image = PixelImage(width: 20, height: 12)
        for y in 0..<12 {
            for x in 0..<20 where (x / 5 + y / 3) & 1 == 0 { image[x, y] = 0xFFFF_FFFF }
        }
        let w = max(1, Int(20 * fx))
        let h = max(1, Int(12 * fy))
        let scaled = try #require(image.scaled(toWidth: w, height: h))
        for p in scaled.pixels {
            let c = Self.channels(p)
            #expect(c[1] <= c[0] && c[2] <= c[0] && c[3] <= c[0])
        }
    }

    @Test func enlargingInterpolatesSmoothlyBetweenPixels() throws {
        // Black | white, doubled: a ramp that rises from left to right, dark on the left.
        let image = PixelPictures.image("..")
        var edge = image
        edge[0, 0] = Self.black
        edge[1, 0] = Self.white
        let scaled = try #require(edge.scaled(toWidth: 8, height: 1))
        let reds = scaled.pixels.map { Self.channels($0)[1] }
        #expect(reds.first == 0 && reds.last == 255, "\(reds)")
        #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 <= $1 }, "\(reds)")
        #expect(reds[3] < 128 && reds[4] > 127, "\(reds)")
    }

    @Test func sizesThatCannotBeScaledAreRefused() {
        let image = PixelImage(width: 4, height: 4)
        #expect(image.scaled(toWidth: 0, height: 4) == nil)
        #expect(PixelImage(width: 4097, height: 1).scaled(toWidth: 2, height: 1) == nil)
        #expect(PixelImage(width: 4096, height: 1).scaled(toWidth: 2, height: 1) != nil)
    }
}

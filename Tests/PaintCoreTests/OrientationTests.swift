import TestSupport
import Testing

@testable import PaintCore

/// Turning and mirroring pictures: each of the eight orientations moves every pixel where it
/// belongs, on odd sizes and one-pixel-wide pictures too, and they compose and invert.
@Suite struct OrientationTests {
    static let picture = PixelPictures.image(
        """
        abc
        def
        """)

    @Test func quarterTurnsAndMirrorsOfASmallPicture() {
        let cases: [(Orientation, String)] = [
            (.rotateRight, "da\neb\nfc"),
            (.rotateLeft, "cf\nbe\nad"),
            (.rotate180, "fed\ncba"),
            (.flipHorizontal, "cba\nfed"),
            (.flipVertical, "def\nabc"),
            (.transpose, "ad\nbe\ncf"),
            (.transverse, "fc\neb\nda"),
            (.identity, "abc\ndef"),
        ]
        for (orientation, expected) in cases {
            #expect(PixelPictures.text(Self.picture.oriented(orientation)) == expected, "\(orientation)")
        }
    }

    @Test func aOnePixelRowTurnsIntoAColumn() {
        let row = PixelPictures.image("abcde")
        #expect(PixelPictures.text(row.oriented(.rotateRight)) == "a\nb\nc\nd\ne")
        #expect(PixelPictures.text(row.oriented(.rotateLeft)) == "e\nd\nc\nb\na")
        #expect(PixelPictures.text(row.oriented(.flipHorizontal)) == "edcba")
        #expect(PixelPictures.text(row.oriented(.flipVertical)) == "abcde")
        let column = row.oriented(.rotateRight)
        #expect(PixelPictures.text(column.oriented(.rotate180)) == "e\nd\nc\nb\na")
        #expect(PixelPictures.text(PixelPictures.image("a").oriented(.rotateLeft)) == "a")
    }

    /// Pictures larger than one 64-pixel block, of odd sizes, against the definition pixel by
    /// pixel: destination (x, y) holds the source pixel that the mirrors, then the swap, undo.
    @Test(arguments: [(131, 67), (64, 64), (1, 150), (150, 1), (65, 129)])
    func everyPixelLandsWhereTheDefinitionSays(width: Int, height: Int) {
        let image = PixelPictures.numbered(width, height)
        for o in Orientation.all {
            let out = image.oriented(o)
            let (w, h) = o.size(width: width, height: height)
            #expect(out.width == w && out.height == h)
            var wrong = 0
            for y in 0..<h {
                for x in 0..<w {
                    let ux = o.mirrorsX ? w - 1 - x : x
                    let uy = o.mirrorsY ? h - 1 - y : y
                    let (sx, sy) = o.swapsAxes ? (uy, ux) : (ux, uy)
                    if out[x, y] != image[sx, sy] { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(o) on \(width)x\(height)")
        }
    }

    @Test func orientationsComposeAndInvert() {
        let image = PixelPictures.numbered(7, 4)
        for a in Orientation.all {
            #expect(image.oriented(a).oriented(a.inverse) == image, "\(a) then its inverse")
            #expect(a.then(a.inverse) == .identity)
            for b in Orientation.all {
                #expect(image.oriented(a).oriented(b) == image.oriented(a.then(b)), "\(a) then \(b)")
            }
        }
        #expect(Orientation.rotateRight.then(.rotateRight) == .rotate180)
        #expect(Orientation.rotateLeft.inverse == .rotateRight)
        #expect(Orientation.all.count == 8 && Set(Orientation.all).count == 8)
        #expect(Orientation.all.allSatisfy { Orientation(code: $0.code) == $0 } && Orientation(code: 8) == nil)
    }

    /// The point and rectangle maps agree with where the pixels go: the stroke eraser relies
    /// on them to find a stroke drawn before a turn.
    @Test func pointsAndRectanglesMoveWithThePixels() {
        let image = PixelPictures.numbered(9, 5)
        for o in Orientation.all {
            let out = image.oriented(o)
            for (x, y) in [(0, 0), (8, 0), (3, 4), (8, 4), (5, 2)] {
                let p = o.map(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), width: 9, height: 5)
                #expect(out[Int(p.x), Int(p.y)] == image[x, y], "\(o) (\(x), \(y))")
            }
            let rect = IntRect(x: 1, y: 2, width: 3, height: 2)
            let mapped = o.map(rect, width: 9, height: 5)
            #expect(mapped.area == rect.area)
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX {
                    let p = o.map(Point(x: Double(x) + 0.5, y: Double(y) + 0.5), width: 9, height: 5)
                    #expect(mapped.contains(Int(p.x), Int(p.y)), "\(o) rect")
                }
            }
        }
    }
}

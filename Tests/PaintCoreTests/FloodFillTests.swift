import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// Flood fill through the stroke engine.
@Suite struct FloodFillTests {
    typealias S = EngineTestSupport

    /// A white canvas with a black anti-aliased circle outline around (50, 50).
    static func circlePicture() -> StrokeEngine {
        let engine = StrokeEngine(width: 100, height: 100)
        engine.beginShape(StrokeStyle(color: .black, width: 3))
        engine.updateShape(
            ShapeSpec(kind: .ellipse, from: Point(x: 15.3, y: 15.3), to: Point(x: 84.6, y: 84.6), filled: false))
        engine.end()
        return engine
    }

    // The search itself, by version 1's rules (nothing beyond it); version 2's blended edge is
    // DrawingVersionTests'.
    @Test func toleranceZeroStopsBeforeTheAntiAliasedRamp() {
        let engine = Self.circlePicture()
        let white = Color.white.pixel
        let dirty = engine.beginFill(
            StrokeStyle(color: Color(r: 255, g: 0, b: 0), drawing: .session6), at: Point(x: 50, y: 50), tolerance: 0)
        #expect(engine.isStroking)
        var filled = 0
        var reached = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let c = engine.strokeCoverage(x: x, y: y)!
                let painted = engine.paintPixel(x: x, y: y)!
                if c > 0 {
                    filled += 1
                    #expect(c == 255)
                    #expect(painted == 0, "only blank pixels are filled at tolerance 0")
                    #expect(dirty.contains(x, y))
                }
                if painted != 0 && painted >> 24 < 255 && c == 0 { reached += 1 }
            }
        }
        #expect(filled > 2500 && filled < Int(Double.pi * 35 * 35), "\(filled)")
        #expect(reached > 0)
        // Every white pixel inside the ring is filled: the centre row up to the ramp.
        var x = 50
        while engine.paintPixel(x: x, y: 50) == 0 {
            #expect(engine.strokeCoverage(x: x, y: 50) == 255)
            x += 1
        }
        #expect(x > 80 && x < 86)
        engine.end()
        #expect(engine.viewPixel(x: 50, y: 50) == Color(r: 255, g: 0, b: 0).pixel)
        #expect(engine.viewPixel(x: 2, y: 2) == white, "the outside is another region")
    }

    @Test func highToleranceFillsIntoTheRamp() {
        let engine = Self.circlePicture()
        engine.beginFill(
            StrokeStyle(color: Color(r: 255, g: 0, b: 0), drawing: .session6), at: Point(x: 50, y: 50), tolerance: 200)
        var rampFilled = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let p = engine.paintPixel(x: x, y: y)!
                let ink = Int(p >> 24)  // black paint: alpha is the darkness
                let c = engine.strokeCoverage(x: x, y: y)!
                if c > 0 && ink > 0 { rampFilled += 1 }
                if ink > 200 { #expect(c == 0, "(\(x), \(y)) ink \(ink) is beyond the tolerance") }
            }
        }
        #expect(rampFilled > 50, "\(rampFilled)")
        // And it still stays inside: the outside corner is untouched.
        #expect(engine.strokeCoverage(x: 2, y: 2) == 0)
        engine.cancel()
    }

    @Test func halfOpacityBlackOverWhite() {
        let engine = StrokeEngine(width: 64, height: 48)
        let preview: [UInt32] = {
            engine.beginFill(StrokeStyle(color: .black, opacity: 0.5), at: Point(x: 3, y: 3), tolerance: 0)
            return Array(engine.viewPixels)
        }()
        engine.end()
        #expect(preview == Array(engine.viewPixels))
        for y in 0..<48 {
            for x in 0..<64 {
                let v = S.red(engine, x, y)
                #expect(v == 127 || v == 128)
            }
        }
    }

    @Test func outsideDoesNothingAndCancelRestores() {
        let engine = Self.circlePicture()
        let before = Array(engine.viewPixels)
        #expect(engine.beginFill(StrokeStyle(), at: Point(x: -1, y: 5), tolerance: 0) == .empty)
        #expect(engine.beginFill(StrokeStyle(), at: Point(x: 100, y: 5), tolerance: 0) == .empty)
        #expect(engine.beginFill(StrokeStyle(), at: Point(x: .nan, y: 5), tolerance: 0) == .empty)
        #expect(!engine.isStroking)
        let dirty = engine.beginFill(StrokeStyle(color: .black), at: Point(x: 1, y: 1), tolerance: 10)
        #expect(dirty == engine.strokeBoundsSoFar && !dirty.isEmpty)
        #expect(Array(engine.viewPixels) != before)
        engine.cancel()
        #expect(Array(engine.viewPixels) == before)
        #expect(!engine.isStroking)
    }

    @Test func fillsA4KCanvas() {
        let engine = StrokeEngine(width: 3840, height: 2160)
        let dirty = engine.beginFill(StrokeStyle(color: .black), at: Point(x: 1000, y: 1000), tolerance: 0)
        engine.end()
        #expect(dirty == engine.bounds)
        #expect(engine.viewPixels.allSatisfy { $0 == Color.black.pixel })
    }

    /// Serpentine walls: vertical walls every 6 columns, alternately open at the top and the
    /// bottom, so the free region is one long corridor; plus a sealed box that must stay empty.
    @Test func mazeFillsExactlyTheConnectedRegion() {
        let w = 805
        let h = 601
        var image = PixelImage(width: w, height: h)
        let wall = Color.black.pixel
        for (k, x) in stride(from: 5, to: w - 1, by: 6).enumerated() {
            let open = k % 2 == 0 ? h - 2 : 1
            for y in 0..<h where y != open { image.pixels[y * w + x] = wall }
        }
        // A sealed box inside one corridor: its inside is blank but not connected.
        for y in 100...104 {
            for x in 1...3 where y == 100 || y == 104 || x != 2 { image.pixels[y * w + x] = wall }
        }
        let engine = StrokeEngine(image: image)
        // The reference region: breadth-first search on a plain array.
        var expected = [Bool](repeating: false, count: w * h)
        var queue = [0]
        expected[0] = true
        var head = 0
        while head < queue.count {
            let i = queue[head]
            head += 1
            let x = i % w
            let y = i / w
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            where nx >= 0 && nx < w && ny >= 0 && ny < h {
                let j = ny * w + nx
                if !expected[j] && image.pixels[j] == 0 {
                    expected[j] = true
                    queue.append(j)
                }
            }
        }
        engine.beginFill(StrokeStyle(color: Color(r: 0, g: 0, b: 255)), at: Point(x: 0.5, y: 0.5), tolerance: 0)
        var mismatches = 0
        for i in 0..<(w * h) where (engine.strokeCoverage(x: i % w, y: i / w) == 255) != expected[i] {
            mismatches += 1
        }
        #expect(mismatches == 0)
        #expect(engine.strokeCoverage(x: 2, y: 102) == 0, "the sealed box stays empty")
        #expect(engine.strokeCoverage(x: w - 1, y: h - 1) == 255, "the corridor reaches the far corner")
        engine.end()
    }

    @Test func fillRespectsClip() {
        let engine = StrokeEngine(width: 50, height: 50)
        engine.clip = IntRect(x: 10, y: 10, width: 20, height: 20)
        #expect(engine.beginFill(StrokeStyle(color: .black), at: Point(x: 5, y: 5), tolerance: 0) == .empty)
        let dirty = engine.beginFill(StrokeStyle(color: .black), at: Point(x: 15, y: 15), tolerance: 0)
        #expect(dirty == engine.clip)
        engine.end()
        #expect(S.red(engine, 9, 15) == 255 && S.red(engine, 10, 15) == 0 && S.red(engine, 30, 15) == 255)
    }

    /// A fill as a picture: the corridor around the inner box fills, the box's sealed inside
    /// and the walls stay.
    @Test func aFillReachesEveryConnectedPixelAndNoOther() {
        let engine = StrokeEngine(
            image: PixelPictures.image(
                """
                kkkkkkkk
                k......k
                k.kkkk.k
                k.k..k.k
                k.kkkk.k
                k......k
                kkkkkkkk
                """), background: .transparent)
        engine.beginFill(StrokeStyle(color: PixelPictures.color("r")), at: Point(x: 1.5, y: 1.5), tolerance: 0)
        engine.end()
        #expect(
            PixelPictures.text(engine) == """
                kkkkkkkk
                krrrrrrk
                krkkkkrk
                krk..krk
                krkkkkrk
                krrrrrrk
                kkkkkkkk
                """)
    }

    /// Over a transparent background the fill floods the picture, not the checkerboard the
    /// view shows behind it: a click on an empty canvas fills all of it (it used to fill one
    /// 8 x 8 square of the checkerboard), and a wall of paint still stops it.
    @Test(arguments: [0, 32])
    func aFillOnATransparentCanvasFloodsThePaintNotTheCheckerboard(tolerance: Int) {
        // Transparent paint with an opaque black wall down column 20.
        var image = PixelImage(width: 40, height: 24, fill: 0)
        for y in 0..<24 { image[20, y] = Color.black.pixel }
        let engine = StrokeEngine(image: image, background: .transparent)
        let red = Color(r: 255, g: 0, b: 0)
        let dirty = engine.beginFill(StrokeStyle(color: red), at: Point(x: 3.5, y: 3.5), tolerance: tolerance)
        engine.end()
        #expect(dirty == IntRect(x0: 0, y0: 0, x1: 19, y1: 23))
        let picture = engine.flattenedImage()
        var unfilled = 0
        for y in 0..<24 {
            for x in 0..<20 where picture[x, y] != red.pixel { unfilled += 1 }
            for x in 22..<40 where picture[x, y] != 0 { Issue.record("filled past the wall at (\(x), \(y))") }
        }
        #expect(unfilled == 0, "every transparent pixel left of the wall is filled")
        #expect(picture[20, 12] == Color.black.pixel)
    }
}

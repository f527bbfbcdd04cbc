import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// The invariants of DESIGN.md section 2, one test each.
@Suite struct StrokeEngineTests {
    typealias S = EngineTestSupport

    @Test func previewEqualsMergeBitForBit() {
        let engine = StrokeEngine(width: 160, height: 120)
        var rng = SplitMix(seed: 7)
        for n in 0..<40 {
            let width = [1.0, 1.5, 3, 8, 17.3, 40][n % 6]
            let opacity = [1.0, 0.5, 0.1, 0.73][n % 4]
            let color = Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255))
            let style = StrokeStyle(tool: n % 7 == 3 ? .eraser : .brush, color: color, opacity: opacity, width: width)
            let points = (0..<(1 + n % 9)).map { _ in (rng.unit() * 180 - 10, rng.unit() * 140 - 10) }
            let preview = S.draw(engine, style, points)
            #expect(preview == Array(engine.viewPixels), "stroke \(n): view changed on merge")
            // The merged paint, composited afresh, must give the same pixels again.
            engine.recomposite(engine.bounds)
            #expect(preview == Array(engine.viewPixels), "stroke \(n): preview differs from merged paint")
            #expect(engine.flattenedImage().pixels == preview, "stroke \(n): saved picture differs from view")
        }
    }

    /// The rasterizer skips what cannot grow (the inside of the disc a segment starts from, and
    /// everything behind its start point); the coverage it leaves must still be, pixel by pixel,
    /// the largest coverage any segment of the stroke gives that pixel, worked out by brute
    /// force. (In principle one level apart: the previous segment computes the shared end
    /// disc's distances through its own direction, which could round differently in the last
    /// bit. Over these 100,000 covered pixels it never does, so the test asks for equality.)
    @Test func coverageEqualsBruteForceOverEverySegment() {
        var rng = SplitMix(seed: 19)
        let w = 150
        let h = 110
        for n in 0..<60 {
            let engine = StrokeEngine(width: w, height: h)
            let width = [1.0, 2.5, 7, 12, 33.3, 64, 90][n % 7]
            // Small steps (a hand's motion), long jumps, and exactly horizontal or vertical runs.
            var p = Point(x: rng.unit() * Double(w), y: rng.unit() * Double(h))
            var points = [p]
            for k in 0..<(2 + n % 12) {
                let step = n % 3 == 0 ? 40.0 : 3.0
                switch (n + k) % 5 {
                case 0: p = Point(x: p.x + step, y: p.y)
                case 1: p = Point(x: p.x, y: p.y - step)
                default: p = Point(x: p.x + (rng.unit() - 0.5) * 2 * step, y: p.y + (rng.unit() - 0.5) * 2 * step)
                }
                points.append(p)
            }
            engine.begin(StrokeStyle(width: width), at: points[0])
            for q in points.dropFirst() { engine.move(to: q) }
            let outer = width / 2 + 0.5
            let capsules =
                [Capsule(from: points[0], to: points[0], width: width)]
                + zip(points, points.dropFirst()).map { Capsule(from: $0, to: $1, width: width) }
            for y in 0..<h {
                for x in 0..<w {
                    var best: UInt8 = 0
                    for capsule in capsules {
                        let c = outer - capsule.distance(Double(x) + 0.5, Double(y) + 0.5)
                        if c > 0 { best = max(best, c >= 1 ? 255 : UInt8(c * 255 + 0.5)) }
                    }
                    let got = engine.strokeCoverage(x: x, y: y) ?? 0
                    #expect(got == best, "stroke \(n) at (\(x), \(y)): \(got), brute force \(best)")
                }
            }
            engine.end()
        }
    }

    @Test func halfOpacityBlackOverWhiteIsUniformAlsoWhereTheStrokeCrossesItself() {
        let engine = StrokeEngine(width: 200, height: 200)
        // A figure eight crosses itself in the middle; each lobe also overlaps its own samples.
        let points = S.curve(400) { t in
            let a = t * 2 * Double.pi
            return (100 + 70 * sin(a), 100 + 60 * sin(a) * cos(a))
        }
        let style = StrokeStyle(color: .black, opacity: 0.5, width: 14)
        engine.begin(style, at: Point(x: points[0].0, y: points[0].1))
        for p in points.dropFirst() { engine.move(to: Point(x: p.0, y: p.1)) }
        var inside: [(Int, Int)] = []
        for y in 0..<200 {
            for x in 0..<200 where engine.strokeCoverage(x: x, y: y) == 255 { inside.append((x, y)) }
        }
        engine.end()
        #expect(inside.count > 4000)
        #expect(inside.contains { $0 == (100, 100) }, "the crossing is inside the stroke")
        for (x, y) in inside {
            let value = S.red(engine, x, y)
            #expect(value == 127 || value == 128, "(\(x), \(y)) reads \(value)")
        }
    }

    @Test(arguments: [1.0, 2, 5, 9, 10, 33, 128])
    func clickWithoutMotionLeavesADiscOfTheWidth(width: Double) {
        let size = Int(width) + 20
        let engine = StrokeEngine(width: size, height: size)
        let c = Double(size) / 2
        S.draw(engine, StrokeStyle(width: width), [(c, c)])
        var ink = 0.0
        var rowHalfInk = 0
        var colHalfInk = 0
        for y in 0..<size {
            for x in 0..<size {
                let value = 255 - S.red(engine, x, y)
                ink += Double(value) / 255
                if y == size / 2 && value >= 128 { rowHalfInk += 1 }
                if x == size / 2 && value >= 128 { colHalfInk += 1 }
            }
        }
        let area = Double.pi * width * width / 4
        #expect(abs(ink - area) <= max(0.6, area * 0.03), "ink \(ink) vs disc area \(area)")
        // The row through the centre is half-covered or more over exactly `width` pixels.
        #expect(abs(rowHalfInk - Int(width)) <= 1 && rowHalfInk == colHalfInk, "row \(rowHalfInk) col \(colHalfInk)")
        if width >= 5 {
            #expect(rowHalfInk == Int(width))
        }
    }

    @Test func onePixelDiagonalLineIsContinuousAndEven() {
        let engine = StrokeEngine(width: 120, height: 80)
        S.draw(engine, StrokeStyle(width: 1), [(10.5, 10.5), (60, 40), (110.2, 70.7)])
        var previousRow: Int?
        for x in 12...108 {
            var darkest = 0
            var darkestRow = 0
            var columnInk = 0
            for y in 0..<80 {
                let ink = 255 - S.red(engine, x, y)
                columnInk += ink
                if ink > darkest {
                    darkest = ink
                    darkestRow = y
                }
            }
            // A line, not dots: every column carries ink worth at least half a pixel and no blob.
            #expect(darkest >= 128, "column \(x) is too faint (\(darkest))")
            #expect(columnInk >= 200 && columnInk <= 420, "column \(x) ink \(columnInk)")
            if let prev = previousRow { #expect(abs(darkestRow - prev) <= 1, "gap at column \(x)") }
            previousRow = darkestRow
        }
    }

    @Test func dirtyRectOfOneEventIsBoundedByItsSegment() {
        let engine = StrokeEngine(width: 3840, height: 2160)
        let style = StrokeStyle(width: 12)
        engine.begin(style, at: Point(x: 1000, y: 1000))
        let dirty = engine.move(to: Point(x: 1006, y: 1003))
        #expect(!dirty.isEmpty)
        // Segment bounds 6 x 3 grown by radius + 1 on each side.
        #expect(dirty.width <= 6 + 14 && dirty.height <= 3 + 14, "\(dirty)")
        #expect(dirty.intersection(IntRect(x: 993, y: 993, width: 20, height: 17)) == dirty)
        engine.end()
    }

    @Test func everyChangedPixelLiesInsideTheReturnedDirtyRect() {
        let engine = StrokeEngine(width: 90, height: 70)
        var rng = SplitMix(seed: 3)
        for n in 0..<30 {
            let style = StrokeStyle(color: Color(r: 200, g: 30, b: 90), opacity: 0.6, width: Double(1 + n % 11))
            var before = Array(engine.viewPixels)
            var dirty = engine.begin(style, at: Point(x: rng.unit() * 90, y: rng.unit() * 70))
            for step in 0..<6 {
                let after = Array(engine.viewPixels)
                for i in 0..<after.count where after[i] != before[i] {
                    #expect(
                        dirty.contains(i % 90, i / 90),
                        "stroke \(n) step \(step): pixel \(i % 90),\(i / 90) outside \(dirty)")
                }
                before = after
                dirty = engine.move(to: Point(x: rng.unit() * 90, y: rng.unit() * 70))
            }
            engine.end()
        }
    }

    @Test func eraserRevealsTheBackground() {
        let engine = StrokeEngine(width: 40, height: 20, background: .color(Color(r: 10, g: 200, b: 30)))
        S.draw(engine, StrokeStyle(color: Color(r: 255, g: 0, b: 0), width: 10), [(5, 10), (35, 10)])
        #expect(engine.viewPixel(x: 20, y: 10) == Color(r: 255, g: 0, b: 0).pixel)
        S.draw(engine, StrokeStyle(tool: .eraser, opacity: 1, width: 6), [(20, 10)])
        #expect(engine.viewPixel(x: 20, y: 10) == Color(r: 10, g: 200, b: 30).pixel)
        #expect(engine.paintPixel(x: 20, y: 10) == 0)
        // Half-strength eraser leaves half the paint.
        S.draw(engine, StrokeStyle(tool: .eraser, opacity: 0.5, width: 4), [(10, 10)])
        #expect(engine.paintPixel(x: 10, y: 10) == Pixel.pack(r: 127, g: 0, b: 0, a: 127))
    }

    @Test func transparentBackgroundKeepsAlphaAndShowsACheckerboard() {
        let engine = StrokeEngine(width: 32, height: 32, background: .transparent)
        #expect(engine.viewPixel(x: 0, y: 0) != engine.viewPixel(x: 8, y: 0))
        S.draw(engine, StrokeStyle(color: .black, opacity: 0.5, width: 6), [(16, 16)])
        #expect(engine.flattenedImage()[16, 16] == Pixel.pack(r: 0, g: 0, b: 0, a: 128))
        #expect(engine.flattenedImage()[0, 0] == 0)
    }

    @Test func cancelRestoresTheView() {
        let engine = StrokeEngine(width: 50, height: 50)
        S.draw(engine, StrokeStyle(color: Color(r: 0, g: 0, b: 255), width: 9), [(10, 10), (40, 40)])
        let before = Array(engine.viewPixels)
        engine.begin(StrokeStyle(color: .black, width: 15), at: Point(x: 40, y: 10))
        engine.move(to: Point(x: 10, y: 40))
        #expect(Array(engine.viewPixels) != before)
        engine.cancel()
        #expect(Array(engine.viewPixels) == before)
        #expect((0..<2500).allSatisfy { engine.strokeCoverage(x: $0 % 50, y: $0 / 50) == 0 })
    }

    @Test func pointsFarOutsideOrNotFiniteNeverCrash() {
        let engine = StrokeEngine(width: 20, height: 20)
        engine.begin(StrokeStyle(width: 5), at: Point(x: -1e300, y: 1e300))
        engine.move(to: Point(x: .nan, y: 3))
        engine.move(to: Point(x: 1e18, y: -1e18))
        engine.move(to: Point(x: 10, y: 10))
        engine.end()
        engine.begin(StrokeStyle(width: 5), at: Point(x: .infinity, y: 0))
        engine.end()
        #expect(S.red(engine, 10, 10) < 255)
    }

    /// Small pictures drawn by hand from the coverage rule `clamp(r + 0.5 - distance, 0, 1)`.
    @Test func goldenDiscAndLine() {
        let disc = StrokeEngine(width: 9, height: 9)
        S.draw(disc, StrokeStyle(width: 5), [(4.5, 4.5)])
        #expect(
            PixelPictures.shades(disc) == """
                .........
                .........
                ..-###-..
                ..#####..
                ..#####..
                ..#####..
                ..-###-..
                .........
                .........
                """)
        let line = StrokeEngine(width: 12, height: 5)
        S.draw(line, StrokeStyle(width: 3), [(2, 2.5), (10, 2.5)])
        #expect(
            PixelPictures.shades(line) == """
                ............
                -##########-
                +##########+
                -##########-
                ............
                """)
    }
}

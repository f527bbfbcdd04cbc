import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// Line, dashed line, rectangle and ellipse through the stroke engine.
@Suite struct ShapeTests {
    typealias S = EngineTestSupport

    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    /// Draws one shape (preview then merge); returns the preview view.
    @discardableResult
    static func shape(
        _ engine: StrokeEngine, _ style: StrokeStyle, _ kind: ShapeKind, _ from: Point, _ to: Point,
        filled: Bool = false
    ) -> [UInt32] {
        engine.beginShape(style)
        engine.updateShape(ShapeSpec(kind: kind, from: from, to: to, filled: filled))
        let preview = Array(engine.viewPixels)
        engine.end()
        return preview
    }

    static func coverageSum(_ engine: StrokeEngine) -> Double {
        var sum = 0
        for y in 0..<engine.height {
            for x in 0..<engine.width { sum += Int(engine.strokeCoverage(x: x, y: y)!) }
        }
        return Double(sum) / 255
    }

    // MARK: Golden grids

    @Test func goldenLine() {
        let engine = StrokeEngine(width: 16, height: 10)
        Self.shape(engine, StrokeStyle(width: 2), .line, Self.p(2.5, 2.5), Self.p(13.5, 7.5))
        let grid = PixelPictures.shades(engine)
        #expect(grid == Self.lineGolden)
    }

    @Test func goldenRectangleOutline() {
        let engine = StrokeEngine(width: 16, height: 10)
        Self.shape(engine, StrokeStyle(width: 1, drawing: .session6), .rectangle, Self.p(2.5, 2.5), Self.p(12.5, 7.5))
        let grid = PixelPictures.shades(engine)
        #expect(grid == Self.rectangleGolden)
    }

    @Test func goldenFilledRectangle() {
        let engine = StrokeEngine(width: 16, height: 10)
        Self.shape(
            engine, StrokeStyle(width: 2, drawing: .session6), .rectangle, Self.p(3, 3), Self.p(12, 7), filled: true)
        let grid = PixelPictures.shades(engine)
        #expect(grid == Self.filledRectangleGolden)
    }

    @Test func goldenEllipse() {
        let engine = StrokeEngine(width: 18, height: 12)
        Self.shape(engine, StrokeStyle(width: 1), .ellipse, Self.p(2, 2), Self.p(16, 10))
        let grid = PixelPictures.shades(engine)
        #expect(grid == Self.ellipseGolden)
    }

    static let lineGolden = """
        ................
        .-+-............
        .+##+-..........
        .-+####-........
        ...-+####+-.....
        .....-+####+-...
        ........-####+-.
        ..........-+##+.
        ............-+-.
        ................
        """
    static let rectangleGolden = """
        ................
        ................
        ..###########...
        ..#.........#...
        ..#.........#...
        ..#.........#...
        ..#.........#...
        ..###########...
        ................
        ................
        """
    static let filledRectangleGolden = """
        ................
        ................
        ..###########...
        ..###########...
        ..###########...
        ..###########...
        ..###########...
        ..###########...
        ................
        ................
        """
    static let ellipseGolden = """
        ..................
        .....--++++--.....
        ...-+##++++##+-...
        ..-#+-......-+#-..
        .-#-..........-#-.
        .++............++.
        .++............++.
        .-#-..........-#-.
        ..-#+-......-+#-..
        ...-+##++++##+-...
        .....--++++--.....
        ..................
        """

    // MARK: Geometry

    @Test(arguments: [50.0, 200.0])
    func filledCircleAreaIsPiRSquared(r: Double) {
        let size = Int(2 * r) + 20
        let engine = StrokeEngine(width: size, height: size)
        let c = Double(size) / 2
        // Width 1: the outline adds half a pixel around the box, so the outer radius is r.
        engine.beginShape(StrokeStyle(width: 1))
        engine.updateShape(
            ShapeSpec(
                kind: .ellipse, from: Self.p(c - r + 0.5, c - r + 0.5), to: Self.p(c + r - 0.5, c + r - 0.5),
                filled: true))
        let area = Self.coverageSum(engine)
        let expected = Double.pi * r * r
        #expect(abs(area - expected) <= 0.01 * expected, "area \(area) vs \(expected)")
        engine.cancel()
    }

    @Test func circleOutlineInkIsRingArea() {
        let engine = StrokeEngine(width: 240, height: 240)
        let w = 6.0
        let r = 100.0
        engine.beginShape(StrokeStyle(width: w))
        engine.updateShape(ShapeSpec(kind: .ellipse, from: Self.p(20, 20), to: Self.p(220, 220), filled: false))
        let ring = Double.pi * ((r + w / 2) * (r + w / 2) - (r - w / 2) * (r - w / 2))
        let ink = Self.coverageSum(engine)
        #expect(abs(ink - ring) <= 0.01 * ring, "ink \(ink) vs ring \(ring)")
        engine.cancel()
    }

    @Test(arguments: [(40.0, 2.0), (41.0, 2.0), (100.0, 3.0), (57.0, 5.0), (150.0, 8.0), (10.0, 4.0), (1.0, 3.0)])
    func dashedLineHasTheRightNumberOfDashes(length: Double, width: Double) {
        let engine = StrokeEngine(width: 200, height: 40)
        engine.beginShape(StrokeStyle(width: width))
        engine.updateShape(
            ShapeSpec(kind: .dashedLine, from: Self.p(20, 20.5), to: Self.p(20 + length, 20.5), filled: false))
        var runs = 0
        var inRun = false
        for x in 0..<200 {
            let on = engine.strokeCoverage(x: x, y: 20)! >= 128
            if on && !inRun { runs += 1 }
            inRun = on
        }
        let expected = Int((length / (5 * width)).rounded(.up))
        #expect(runs == expected, "length \(length) width \(width): \(runs) dashes")
        engine.cancel()
    }

    @Test func dashedLineToAFarPointIsCheap() {
        let engine = StrokeEngine(width: 100, height: 100)
        engine.beginShape(StrokeStyle(width: 1))
        let dirty = engine.updateShape(
            ShapeSpec(kind: .dashedLine, from: Self.p(50, 50), to: Self.p(1e12, 7e11), filled: false))
        #expect(!dirty.isEmpty)
        #expect(
            StrokeEngine.dashes(from: Self.p(50, 50), to: Self.p(1e12, 7e11), width: 1, within: engine.bounds).count
                < 40)
        engine.cancel()
    }

    // MARK: Engine invariants

    static let allSpecs: [ShapeSpec] = ShapeKind.allCases.flatMap { kind in
        [false, true].map { filled in ShapeSpec(kind: kind, from: p(17.3, 12.8), to: p(131.6, 88.1), filled: filled) }
    }

    @Test func previewEqualsMergeForEveryKind() {
        let engine = StrokeEngine(width: 160, height: 110)
        S.draw(engine, StrokeStyle(color: Color(r: 10, g: 200, b: 90), width: 9), [(5, 100), (150, 5)])
        for (n, spec) in Self.allSpecs.enumerated() {
            for width in [1.0, 4.5, 13] {
                let style = StrokeStyle(
                    color: Color(r: UInt8(truncatingIfNeeded: n * 30), g: 40, b: 200), opacity: 0.63, width: width)
                engine.beginShape(style)
                engine.updateShape(spec)
                let preview = Array(engine.viewPixels)
                engine.end()
                #expect(preview == Array(engine.viewPixels), "\(spec) width \(width): view changed on merge")
                engine.recomposite(engine.bounds)
                #expect(preview == Array(engine.viewPixels), "\(spec) width \(width): preview differs from merge")
            }
        }
    }

    @Test func updatingTwiceLeavesNoTraceOfTheFirstShape() {
        for first in Self.allSpecs {
            for second in Self.allSpecs where second != first {
                let moved = ShapeSpec(
                    kind: second.kind, from: Self.p(40, 70), to: Self.p(second.to.x - 30, 20), filled: second.filled)
                let a = StrokeEngine(width: 160, height: 110)
                let b = StrokeEngine(width: 160, height: 110)
                let style = StrokeStyle(color: .black, opacity: 0.8, width: 5)
                a.beginShape(style)
                let r1 = a.updateShape(first)
                let before = Array(a.viewPixels)
                let r2 = a.updateShape(moved)
                b.beginShape(style)
                let only = b.updateShape(moved)
                #expect(Array(a.viewPixels) == Array(b.viewPixels), "\(first) then \(moved)")
                #expect(a.strokeBoundsSoFar == b.strokeBoundsSoFar)
                #expect(r2 == r1.union(only))
                // Everything that changed lies in the returned rectangle.
                let after = Array(a.viewPixels)
                for i in 0..<after.count where after[i] != before[i] {
                    #expect(r2.contains(i % 160, i / 160))
                }
                a.end()
                b.end()
                #expect(a.paintImage() == b.paintImage())
            }
        }
    }

    @Test func cancelRestoresTheView() {
        let engine = StrokeEngine(width: 120, height: 90)
        S.draw(engine, StrokeStyle(color: .black, width: 7), [(0, 0), (120, 90)])
        let before = Array(engine.viewPixels)
        let paint = engine.paintImage()
        for spec in Self.allSpecs {
            engine.beginShape(StrokeStyle(color: Color(r: 255, g: 0, b: 0), opacity: 0.7, width: 4))
            #expect(engine.isStroking)
            engine.updateShape(spec)
            #expect(Array(engine.viewPixels) != before)
            engine.cancel()
            #expect(!engine.isStroking)
            #expect(Array(engine.viewPixels) == before)
            #expect(engine.paintImage() == paint)
            #expect(Self.coverageSum(engine) == 0)
        }
    }

    @Test func touchedChunksAndBoundsHoldEveryCoveredPixel() {
        let engine = StrokeEngine(width: 150, height: 100)
        for spec in Self.allSpecs {
            engine.beginShape(StrokeStyle(width: 6))
            engine.updateShape(ShapeSpec(kind: .ellipse, from: Self.p(0, 0), to: Self.p(150, 100), filled: true))
            engine.updateShape(spec)
            var marked = Set<Int>()
            engine.visitTouchedChunks { y, x0, x1 in
                for x in x0...x1 { marked.insert(y * 150 + x) }
            }
            let bounds = engine.strokeBoundsSoFar
            for y in 0..<100 {
                for x in 0..<150 where engine.strokeCoverage(x: x, y: y)! > 0 {
                    #expect(marked.contains(y * 150 + x))
                    #expect(bounds.contains(x, y))
                }
            }
            engine.end()
        }
    }

    @Test func degenerateShapesDoNotCrash() {
        let engine = StrokeEngine(width: 60, height: 60)
        let cases: [(Point, Point)] = [
            (Self.p(30, 30), Self.p(30, 30)), (Self.p(10, 30), Self.p(50, 30)), (Self.p(30, 10), Self.p(30, 50)),
            (Self.p(10, 30), Self.p(50, 30.0000001)), (Self.p(-1e300, 5), Self.p(1e300, 9)),
        ]
        for kind in ShapeKind.allCases {
            for filled in [false, true] {
                for (a, b) in cases {
                    engine.beginShape(StrokeStyle(width: 3))
                    let dirty = engine.updateShape(ShapeSpec(kind: kind, from: a, to: b, filled: filled))
                    #expect(!dirty.isEmpty, "\(kind) \(a) \(b)")
                    engine.cancel()
                }
                engine.beginShape(StrokeStyle(width: 3))
                #expect(
                    engine.updateShape(ShapeSpec(kind: kind, from: Self.p(.nan, 0), to: Self.p(1, 1), filled: filled))
                        == .empty)
                engine.cancel()
            }
        }
        // Not in a shape: nothing happens.
        #expect(
            engine.updateShape(ShapeSpec(kind: .line, from: Self.p(1, 1), to: Self.p(9, 9), filled: false)) == .empty)
        #expect(!engine.isStroking)
    }

    @Test func shapeRespectsClip() {
        let engine = StrokeEngine(width: 80, height: 80)
        engine.clip = IntRect(x: 20, y: 20, width: 30, height: 30)
        Self.shape(engine, StrokeStyle(color: .black, width: 5), .ellipse, Self.p(0, 0), Self.p(80, 80), filled: true)
        for y in 0..<80 {
            for x in 0..<80 {
                if !engine.clip.contains(x, y) { #expect(S.red(engine, x, y) == 255, "(\(x), \(y))") }
            }
        }
        #expect(S.red(engine, 35, 35) == 0)
    }
}

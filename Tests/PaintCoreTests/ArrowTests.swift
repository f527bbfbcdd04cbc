import Glibc
import Testing

@testable import PaintCore

/// The arrow shape: a shaft and a filled head at the drag's end, drawn and merged as one shape.
@Suite struct ArrowTests {
    typealias S = EngineTestSupport

    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    /// Draws one arrow (preview, then the merge) as every shape is drawn; returns the preview.
    @discardableResult
    static func arrow(
        _ engine: StrokeEngine, _ style: StrokeStyle, _ from: Point, _ to: Point, dashed: Bool = false
    ) -> [UInt32] {
        ShapeTests.shape(engine, style, dashed ? .dashedArrow : .arrow, from, to)
    }

    @Test func theTipTheHeadAndTheShaftAreWhereTheyBelong() {
        let engine = StrokeEngine(width: 120, height: 80)
        let preview = Self.arrow(engine, StrokeStyle(color: .black, width: 3), Self.p(10.5, 40.5), Self.p(100.5, 40.5))
        #expect(preview == Array(engine.viewPixels), "the preview is the merged arrow")
        // The tip: the pixel at the drag's end is inked, and nothing lies past it (a line's
        // round cap would reach 1.5 px further).
        #expect(S.red(engine, 100, 40) < 200, "the tip pixel is inked")
        #expect(S.red(engine, 101, 40) == 255, "nothing past the tip: it is sharp")
        // The head is 13.5 px long (4.5 widths) and 11.3 px across at its back: wider than the
        // 3 px shaft (rows 39...41).
        for (x, y) in [(90, 40), (92, 38), (92, 42), (89, 37), (89, 43)] {
            #expect(S.red(engine, x, y) == 0, "the head at (\(x), \(y)) is solid")
        }
        #expect(S.red(engine, 88, 35) < 255 && S.red(engine, 88, 45) < 255, "the head's back corners")
        // The shaft: solid on its rows, nothing just beside it, nothing behind its start.
        #expect(S.red(engine, 50, 40) == 0 && S.red(engine, 50, 39) == 0 && S.red(engine, 50, 41) == 0)
        #expect(S.red(engine, 50, 38) == 255 && S.red(engine, 50, 42) == 255, "beside the shaft is clear")
        #expect(S.red(engine, 7, 40) == 255)
    }

    /// At 50 % over white an opaque color reads 127 or 128 wherever the arrow covers a pixel
    /// fully, and nowhere darker: where the shaft runs into the head the pixels are covered
    /// by both, and they merge once (a second merge would read 64 there).
    @Test(arguments: [1.0, 2.0, 5.0, 12.0])
    func halfOpacityMergesOnceEvenWhereShaftAndHeadOverlap(width: Double) {
        for degrees in stride(from: 0.0, to: 360, by: 37) {
            let engine = StrokeEngine(width: 240, height: 240)
            let angle = degrees * Double.pi / 180
            let from = Self.p(120.5, 120.5)
            let to = Self.p(120.5 + 100 * cos(angle), 120.5 + 100 * sin(angle))
            Self.arrow(engine, StrokeStyle(color: .black, opacity: 0.5, width: width), from, to)
            var darkest = 255
            var solid = 0
            for y in 0..<240 {
                for x in 0..<240 {
                    let r = S.red(engine, x, y)
                    darkest = min(darkest, r)
                    if r == 127 || r == 128 { solid += 1 }
                }
            }
            #expect(darkest == 127 || darkest == 128, "width \(width) at \(degrees)°: darkest \(darkest)")
            #expect(solid > 10, "width \(width) at \(degrees)°: only \(solid) solid pixels")
            // Just inside the head's back, where the shaft's round end lies too (from 3 px wide).
            guard let head = ArrowHead(from: from, to: to, width: width) else {
                Issue.record("no head")
                continue
            }
            let r = S.red(
                engine, Int((head.base.x + 1.5 * cos(angle)).rounded(.down)),
                Int((head.base.y + 1.5 * sin(angle)).rounded(.down)))
            #expect(r == 127 || r == 128, "width \(width) at \(degrees)°: the junction reads \(r)")
        }
    }

    /// In every direction and width: the tip is inked, the head's middle solid, and a pixel
    /// 2.5 px past the tip clear.
    @Test(arguments: [1.0, 2.0, 4.0, 9.0, 25.0])
    func everyDirectionHasASharpTipAndASolidHead(width: Double) {
        for degrees in stride(from: 0.0, to: 360, by: 15) {
            let engine = StrokeEngine(width: 400, height: 400)
            let angle = degrees * Double.pi / 180
            let (ux, uy) = (cos(angle), sin(angle))
            let from = Self.p(200.5, 200.5)
            let to = Self.p(200.5 + 150 * ux, 200.5 + 150 * uy)
            Self.arrow(engine, StrokeStyle(color: .black, width: width), from, to)
            let length = max(ArrowHead.lengthFactor * width, ArrowHead.minimumLength)
            func red(_ along: Double) -> Int {
                S.red(engine, Int((to.x + along * ux).rounded(.down)), Int((to.y + along * uy).rounded(.down)))
            }
            #expect(red(0) < 255, "width \(width) at \(degrees)°: the tip is not inked")
            #expect(red(2.5) == 255, "width \(width) at \(degrees)°: ink past the tip")
            #expect(red(-0.6 * length) == 0, "width \(width) at \(degrees)°: the head is not solid")
            // Near the head's back, farther out than the shaft reaches: the head is wider.
            let side = width / 2 + 1.25
            let (sx, sy) = (to.x - 0.85 * length * ux - side * uy, to.y - 0.85 * length * uy + side * ux)
            #expect(
                S.red(engine, Int(sx.rounded(.down)), Int(sy.rounded(.down))) < 128,
                "width \(width) at \(degrees)°: the head is no wider than the shaft")
        }
    }

    @Test func aThinArrowStillHasAHeadAndAShortOneIsAllHead() {
        let thin = ArrowHead(from: Self.p(0, 0), to: Self.p(100, 0), width: 1)
        #expect(thin?.base == Self.p(90, 0), "10 px long at width 1")
        #expect(thin.map { abs(abs($0.left.y - $0.right.y) - 8.4) < 1e-9 } == true, "8.4 px across")
        let wide = ArrowHead(from: Self.p(0, 0), to: Self.p(100, 0), width: 8)
        #expect(wide?.base == Self.p(64, 0), "4.5 widths long")
        let short = ArrowHead(from: Self.p(0, 0), to: Self.p(6, 0), width: 8)
        #expect(short?.base == Self.p(0, 0), "shorter than its head: all head")
        #expect(ArrowHead(from: Self.p(5, 5), to: Self.p(5, 5), width: 3) == nil, "a click: a dot, as a line")
        #expect(ArrowHead(from: Self.p(.nan, 5), to: Self.p(5, 5), width: 3) == nil)
    }

    @Test func aDashedArrowDashesTheShaftAndKeepsTheHeadSolid() {
        let engine = StrokeEngine(width: 200, height: 60)
        Self.arrow(engine, StrokeStyle(color: .black, width: 2), Self.p(10, 30), Self.p(190, 30), dashed: true)
        // Dashes of 6 px every 10 px from x = 10: a gap around x = 18.
        #expect(S.red(engine, 12, 29) == 0 && S.red(engine, 18, 29) == 255)
        #expect(S.red(engine, 185, 29) == 0 && S.red(engine, 182, 28) == 0, "the head is solid and wider")
    }

    /// The stroke eraser finds an arrow by its head's corner too, and its hover outline goes
    /// round the head.
    @Test func theStrokeEraserHitsTheHead() {
        let spec = ShapeSpec(kind: .arrow, from: Self.p(10, 40), to: Self.p(100, 40), filled: false)
        #expect(spec.isHit(by: Self.p(89, 45), reach: 5 / 2 + 2, width: 5), "inside the head, off the shaft")
        #expect(!spec.isHit(by: Self.p(60, 50), reach: 5 / 2 + 2, width: 5))
        #expect(spec.outline(width: 5).count == 6)
    }

    @Test func theBinaryFormKeepsArrowsAndRefusesUnknownKinds() {
        for kind in [ShapeKind.arrow, .dashedArrow] {
            let op = Operation.shape(
                StrokeStyle(color: Color(r: 200, g: 10, b: 30), opacity: 0.4, width: 7),
                ShapeSpec(kind: kind, from: Self.p(3.5, 4.5), to: Self.p(150.25, 9), filled: false))
            var bytes = op.encoded()
            #expect(Operation(decoding: bytes) == op)
            // The kind byte comes before the filled byte and the four coordinates; a kind no
            // SwiftPaint draws is refused.
            let at = bytes.count - 1 - 1 - 32
            #expect(bytes[at] == kind.rawValue)
            bytes[at] = 7
            #expect(Operation(decoding: bytes) == nil)
        }
    }
}

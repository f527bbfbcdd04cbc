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
            let style = StrokeStyle(color: Color(r: 200, g: 10, b: 30), opacity: 0.4, width: 7)
            let spec = ShapeSpec(kind: kind, from: Self.p(3.5, 4.5), to: Self.p(150.25, 9), filled: false)
            let op = Operation.shape(style.recording(kind), spec)
            var bytes = op.encoded()
            #expect(Operation(decoding: bytes) == op)
            // Made with the current version, its bytes still name the arrows' own.
            #expect(Operation.shape(style, spec).encoded() == bytes)
            // The kind byte comes before the filled byte and the four coordinates; a kind no
            // SwiftPaint draws is refused.
            let at = bytes.count - 1 - 1 - 32
            #expect(bytes[at] == kind.rawValue)
            bytes[at] = 7
            #expect(Operation(decoding: bytes) == nil)
        }
    }

    /// What SwiftPaint before the arrow (3298cec) does with a step's bytes, as its code reads
    /// them: shape kinds 1...4 and drawing versions 1...4 only (`decodeStyle`, `ShapeKind`), and
    /// a step it cannot read counts as from a newer SwiftPaint when the version byte of a drawn
    /// step (tags 1, 7, 8, 11, 16, 17) names a version it does not know (`newerDrawingVersion`).
    static func preArrowReading(_ bytes: [UInt8]) -> (reads: Bool, newerVersion: Int?) {
        guard bytes.count >= 2, [1, 7, 8, 11, 16, 17].contains(bytes[0]) else { return (false, nil) }
        let version = Int(bytes[1] >> 4) + 1
        let knownVersion = bytes[1] & 0x0F <= 1 && (1...4).contains(version)
        let newer = bytes[1] & 0x0F <= 1 && !(1...4).contains(version) ? version : nil
        // A shape's kind byte follows its tag and the 20 bytes of its style.
        let knownKind = bytes[0] != 7 || (bytes.count > 21 && (1...4).contains(bytes[21]))
        return (knownVersion && knownKind, newer)
    }

    /// An arrow's step carries drawing version 5, which SwiftPaint before the arrow does not
    /// know: its journals and histories say the step is from a newer SwiftPaint (they said
    /// "cannot be read", as of damage: kind 5 under version 4). Every other step made now keeps
    /// version 4 and stays readable there; an arrow journaled as version 4 (session 15, before
    /// this) still reads and draws exactly as version 5 draws it.
    @Test func aSwiftPaintFromBeforeArrowsCallsAnArrowStepNewer() throws {
        let style = StrokeStyle(color: Color(r: 200, g: 10, b: 30), opacity: 0.4, width: 7)
        for kind in [ShapeKind.arrow, .dashedArrow] {
            let spec = ShapeSpec(kind: kind, from: Self.p(3.5, 4.5), to: Self.p(90.25, 40), filled: false)
            let bytes = Operation.shape(style.recording(kind), spec).encoded()
            #expect(bytes[0] == 7 && bytes[21] == kind.rawValue, "a shape step, the kind where the old reader looks")
            let old = Self.preArrowReading(bytes)
            #expect(!old.reads && old.newerVersion == 5)
            #expect(Operation.newerDrawingVersion(bytes) == nil, "this build reads it")

            // Last session's journals hold arrows as version 4: read and drawn as before.
            var v4 = bytes
            v4[1] = UInt8(DrawingVersion.session8b.rawValue - 1) << 4
            var asOfOld = style
            asOfOld.drawing = .session8b
            #expect(Operation(decoding: v4) == .shape(asOfOld, spec))
            let (e4, e5) = (StrokeEngine(width: 100, height: 50), StrokeEngine(width: 100, height: 50))
            _ = try #require(Operation(decoding: v4)).apply(to: e4)
            _ = try #require(Operation(decoding: bytes)).apply(to: e5)
            #expect(
                e4.paintImage() == e5.paintImage()
                    && e4.paintImage() != StrokeEngine(width: 100, height: 50).paintImage())
        }
        let others: [Operation] = [
            .shape(
                style.recording(.line), ShapeSpec(kind: .line, from: Self.p(1, 2), to: Self.p(30, 4), filled: false)),
            .shape(style, ShapeSpec(kind: .rectangle, from: Self.p(1, 2), to: Self.p(30, 4), filled: true)),
            .shape(style, ShapeSpec(kind: .dashedLine, from: Self.p(1, 2), to: Self.p(30, 4), filled: false)),
            .shape(style, ShapeSpec(kind: .ellipse, from: Self.p(1, 2), to: Self.p(30, 4), filled: false)),
            .stroke(style, points: [Self.p(0.5, 0.5), Self.p(2, 3)]),
            .fill(style, at: Self.p(5, 6), tolerance: 32),
        ]
        for op in others {
            let old = Self.preArrowReading(op.encoded())
            #expect(old.reads && old.newerVersion == nil, "\(op) stays readable before the arrow")
        }
    }
}

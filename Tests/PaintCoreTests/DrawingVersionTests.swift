import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// Steps keep the drawing rules they were drawn by (`DrawingVersion`): version 2 draws
/// rectangles with square corners and blends a fill's edge into an anti-aliased outline;
/// version 1 steps, read back from older journals and histories, draw as they did.
@Suite struct DrawingVersionTests {
    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    /// The coverage a shape leaves in the stroke image before it is merged.
    static func coverage(
        _ spec: ShapeSpec, width: Double, drawing: DrawingVersion, canvas: (Int, Int) = (40, 30)
    ) -> [[UInt8]] {
        let engine = StrokeEngine(width: canvas.0, height: canvas.1)
        engine.beginShape(StrokeStyle(width: width, drawing: drawing))
        engine.updateShape(spec)
        return (0..<canvas.1).map { y in (0..<canvas.0).map { x in engine.strokeCoverage(x: x, y: y)! } }
    }

    /// A coverage fraction as the engine stores it.
    static func byte(_ c: Double) -> UInt8 { UInt8(c * 255 + 0.5) }

    // MARK: Rectangles

    @Test func aNewRectangleHasSquareOuterCornersWithTheSidesAntiAliasedAsBefore() {
        // Width 4 around the box 10.5...30.5 x 10.5...20.5: the outer edges at 8.5 and 32.5 (x),
        // 8.5 and 22.5 (y) run through pixel centres; the hole's at 12.5, 28.5 and 12.5, 18.5.
        let spec = ShapeSpec(kind: .rectangle, from: Self.p(10.5, 10.5), to: Self.p(30.5, 20.5), filled: false)
        let new = Self.coverage(spec, width: 4, drawing: .session7)
        // Along a side: half of the edge pixel, as the capsules gave it.
        #expect(new[15][8] == Self.byte(0.5) && new[15][32] == Self.byte(0.5))
        #expect(new[8][20] == Self.byte(0.5) && new[22][20] == Self.byte(0.5))
        #expect(new[15][9] == 255 && new[15][11] == 255 && new[9][20] == 255)
        // The hole's edge: half; inside it nothing.
        #expect(new[15][12] == Self.byte(0.5) && new[15][28] == Self.byte(0.5) && new[12][20] == Self.byte(0.5))
        #expect(new[15][13] == 0 && new[15][20] == 0 && new[15][27] == 0)
        // The outer corner: a quarter of the pixel (half by half), and full just inside it,
        // where a round corner (radius 2 around (10.5, 10.5)) leaves the corner square empty.
        #expect(new[8][8] == Self.byte(0.25) && new[8][32] == Self.byte(0.25))
        #expect(new[22][8] == Self.byte(0.25) && new[22][32] == Self.byte(0.25))
        #expect(new[9][9] == 255 && new[21][31] == 255)
        // The hole's corner: the pixel's quarter inside the hole is left out.
        #expect(new[12][12] == Self.byte(0.75))
        // Nothing outside the outer box.
        for y in 0..<30 {
            for x in 0..<40 where x < 8 || x > 32 || y < 8 || y > 22 { #expect(new[y][x] == 0, "(\(x), \(y))") }
        }
        let old = Self.coverage(spec, width: 4, drawing: .session6)
        #expect(old[8][8] == 0, "a version 1 rectangle keeps its round corner")
        #expect(old[15][9] == 255 && old[15][8] == Self.byte(0.5), "its sides are the same")
    }

    @Test func aFilledRectangleIsTheWholeGrownBoxWithSquareCorners() {
        let spec = ShapeSpec(kind: .rectangle, from: Self.p(30.5, 20.5), to: Self.p(10.5, 10.5), filled: true)
        let new = Self.coverage(spec, width: 4, drawing: .session7)
        for y in 9...21 {
            for x in 9...31 { #expect(new[y][x] == 255, "(\(x), \(y))") }
            #expect(new[y][8] == Self.byte(0.5) && new[y][32] == Self.byte(0.5))
        }
        #expect(new[8][8] == Self.byte(0.25) && new[22][32] == Self.byte(0.25))
        let old = Self.coverage(spec, width: 4, drawing: .session6)
        #expect(old[8][8] == 0 && old[15][20] == 255)
    }

    @Test func aRectangleThickerThanItsBoxHasNoHoleAndALineRectangleIsASquareEndedBar() {
        // Width 9 around a 4 x 2 box: the hole would be negative, so the band is the grown box.
        let thick = Self.coverage(
            ShapeSpec(kind: .rectangle, from: Self.p(18, 14), to: Self.p(22, 16), filled: false), width: 9,
            drawing: .session7)
        for y in 11...18 { for x in 14...25 { #expect(thick[y][x] > 0, "(\(x), \(y))") } }
        #expect(thick[15][20] == 255)
        // A zero-height drag: a 4 px thick bar with square ends (overlap 1 at the end column).
        let bar = Self.coverage(
            ShapeSpec(kind: .rectangle, from: Self.p(10.5, 15), to: Self.p(30.5, 15), filled: false), width: 4,
            drawing: .session7)
        #expect(bar[13][9] == 255 && bar[16][31] == 255 && bar[13][8] == Self.byte(0.5) && bar[17][20] == 0)
    }

    @Test func hugeAndFarAwayRectanglesDrawOnlyWhatTheCanvasShowsAndNeverCrash() {
        let huge = Self.coverage(
            ShapeSpec(kind: .rectangle, from: Self.p(-1e12, -1e12), to: Self.p(1e12, 1e12), filled: true),
            width: 5, drawing: .session7)
        #expect(huge.allSatisfy { $0.allSatisfy { $0 == 255 } })
        let outline = Self.coverage(
            ShapeSpec(kind: .rectangle, from: Self.p(-1e12, -1e12), to: Self.p(1e12, 1e12), filled: false),
            width: 5, drawing: .session7)
        #expect(outline.allSatisfy { $0.allSatisfy { $0 == 0 } })
        let away = Self.coverage(
            ShapeSpec(kind: .rectangle, from: Self.p(1e9, 5), to: Self.p(2e9, 9), filled: false), width: 5,
            drawing: .session7)
        #expect(away.allSatisfy { $0.allSatisfy { $0 == 0 } })
    }

    @Test func theStrokeEraserFindsASquareCornerWhereItIsDrawn() {
        for drawing in DrawingVersion.allCases {
            let engine = StrokeEngine(width: 80, height: 60)
            let history = History(base: nil)
            let spec = ShapeSpec(kind: .rectangle, from: Self.p(20.5, 20.5), to: Self.p(60.5, 40.5), filled: false)
            history.perform(.shape(StrokeStyle(width: 10, drawing: drawing), spec), engine: engine)
            // The corner's tip: (16, 16) is 6.4 px from the corner, beyond the 5 + 1 reach of a
            // round one, inside the square one.
            let tip = Self.p(16, 16)
            #expect(engine.viewPixel(x: 16, y: 16) == (drawing == .session6 ? Color.white.pixel : Color.black.pixel))
            #expect((history.stroke(at: tip, slack: 1) == 0) == (drawing >= .session7), "\(drawing)")
            // On a side and off it, both alike; the hole is not the rectangle.
            #expect(history.stroke(at: Self.p(40, 17), slack: 1) == 0)
            #expect(history.stroke(at: Self.p(40, 30), slack: 1) == nil)
            #expect(history.stroke(at: Self.p(40, 8), slack: 1) == nil)
        }
    }

    // MARK: Fill edges

    @Test func theEdgeCoverageIsTheLeastSquaresBlendOfTheFillUnderTheOutline() {
        let white: UInt32 = 0xFFFF_FFFF
        let black: UInt32 = 0xFF00_0000
        let red: UInt32 = 0xFFDC_0000
        // Grey 128 between white and black: a = 127/255. Wanted: (1 - a)·220 in red, 0 in green
        // and blue; the fill moves the pixel by (92, -128, -128), so
        // c = ((1 - a)·220 - 128)·92 + 2·128² over 92² + 2·128².
        let a = 127.0 / 255
        let c = (((1 - a) * 220 - 128) * 92 + 2 * 128 * 128) / (92 * 92 + 2 * 128 * 128)
        #expect(
            StrokeEngine.edgeCoverage(pixel: 0xFF80_8080, target: white, outline: black, fill: red) == Self.byte(c))
        // A pale pixel (a = 32/255) takes nearly all of the fill; a dark one (a = 223/255) little.
        let pale = StrokeEngine.edgeCoverage(pixel: 0xFFDF_DFDF, target: white, outline: black, fill: red)
        let dark = StrokeEngine.edgeCoverage(pixel: 0xFF20_2020, target: white, outline: black, fill: red)
        #expect(pale > 240 && dark < 64 && dark > 0, "\(pale) \(dark)")
        // The outline's own color keeps it; the fill's color and no outline give nothing.
        #expect(StrokeEngine.edgeCoverage(pixel: black, target: white, outline: black, fill: red) == 0)
        #expect(StrokeEngine.edgeCoverage(pixel: red, target: white, outline: black, fill: red) == 0)
        #expect(StrokeEngine.edgeCoverage(pixel: white, target: white, outline: white, fill: red) == 0)
        // On a transparent picture (premultiplied): half-covered black over nothing.
        let half: UInt32 = 0x8000_0000
        // a = 128/255; wanted: (1 - a)·220 in red, opaque; the fill moves the pixel by
        // (220, 0, 0, 127).
        let aHalf = 128.0 / 255
        let cExact = (((1 - aHalf) * 220) * 220 + (255 - 128) * 127.0) / (220 * 220 + 127 * 127)
        #expect(StrokeEngine.edgeCoverage(pixel: half, target: 0, outline: black, fill: red) == Self.byte(cExact))
    }

    /// A black anti-aliased circle on white, filled inside with red by `drawing`'s rules.
    static func filledCircle(_ drawing: DrawingVersion) -> (StrokeEngine, before: [UInt32]) {
        let engine = FloodFillTests.circlePicture()
        let before = Array(engine.viewPixels)
        engine.beginFill(
            StrokeStyle(color: Color(r: 220, g: 0, b: 0), drawing: drawing), at: Point(x: 50, y: 50), tolerance: 32)
        return (engine, before)
    }

    @Test func aNewFillLeavesNoPaleRingInsideAnAntiAliasedOutline() {
        let (old, _) = Self.filledCircle(.session6)
        old.end()
        let (new, before) = Self.filledCircle(.session7)
        // Each edge pixel is exactly its coverage of red merged over what was there.
        var edges = 0
        for y in 0..<100 {
            for x in 0..<100 {
                let c = new.strokeCoverage(x: x, y: y)!
                guard c > 0 && c < 255 else { continue }
                edges += 1
                let p = before[y * 100 + x]
                #expect(p != 0xFFFF_FFFF && p >> 8 & 0xFF < 255 - 32, "only pixels beyond the tolerance")
                var outline = p
                for ny in y - 1...y + 1 {
                    for nx in x - 1...x + 1 where before[ny * 100 + nx] & 0xFF < outline & 0xFF {
                        outline = before[ny * 100 + nx]
                    }
                }
                #expect(
                    c
                        == StrokeEngine.edgeCoverage(
                            pixel: p, target: 0xFFFF_FFFF, outline: outline, fill: 0xFFDC_0000))
            }
        }
        #expect(edges > 100, "the ring inside the circle is blended: \(edges) pixels")
        new.end()
        // A ring: a pixel inside the circle's line that stays pale (green, the channel the red
        // fill and the black line both lack, high). Version 1 leaves one; version 2 none.
        func palest(_ engine: StrokeEngine) -> Int {
            var most = 0
            for y in 20..<80 {
                for x in 20..<80 {
                    let dx = Double(x) + 0.5 - 49.95
                    let dy = Double(y) + 0.5 - 49.95
                    guard (dx * dx + dy * dy).squareRoot() < 33 else { continue }
                    most = max(most, Int(engine.viewPixel(x: x, y: y)! >> 8 & 0xFF))
                }
            }
            return most
        }
        #expect(palest(old) >= 128, "version 1 leaves the pale ring: \(palest(old))")
        #expect(palest(new) <= 64, "version 2 leaves none: \(palest(new))")
    }

    @Test func aFillNextToAHardEdgeChangesNothingBeyondIt() {
        let engine = StrokeEngine(width: 20, height: 10)
        engine.beginShape(StrokeStyle(color: Color(r: 0, g: 0, b: 255), width: 1))
        engine.updateShape(ShapeSpec(kind: .rectangle, from: Self.p(10, 0), to: Self.p(20, 10), filled: true))
        engine.end()
        let before = Array(engine.viewPixels)
        engine.beginFill(StrokeStyle(color: .black), at: Self.p(2, 5), tolerance: 32)
        engine.end()
        for y in 0..<10 {
            for x in 10..<20 { #expect(engine.viewPixel(x: x, y: y) == before[y * 20 + x], "(\(x), \(y))") }
        }
    }

    // MARK: Bytes

    @Test func theVersionRoundTripsAndOldBytesReadAsVersionOne() {
        let ops: [PaintCore.Operation] = DrawingVersion.allCases.flatMap { v -> [PaintCore.Operation] in
            [
                .shape(
                    StrokeStyle(color: .black, width: 4, drawing: v),
                    ShapeSpec(kind: .rectangle, from: Self.p(1, 2), to: Self.p(3, 4), filled: true)),
                .fill(StrokeStyle(tool: .brush, color: .white, drawing: v), at: Self.p(5, 6), tolerance: 32),
                .stroke(StrokeStyle(tool: .eraser, drawing: v), points: [Self.p(0.5, 0.5), Self.p(2, 3)]),
            ]
        }
        for op in ops { #expect(PaintCore.Operation(decoding: op.encoded()) == op) }
        // Version 1 steps are written exactly as before versions: tool byte 0 or 1.
        let old = PaintCore.Operation.fill(
            StrokeStyle(color: .white, drawing: .session6), at: Self.p(5, 6), tolerance: 32)
        #expect(old.encoded()[1] == 0)
        let eraser = PaintCore.Operation.stroke(StrokeStyle(tool: .eraser, drawing: .session6), points: [Self.p(1, 1)])
        #expect(eraser.encoded()[1] == 1)
        let new = PaintCore.Operation.fill(StrokeStyle(color: .white), at: Self.p(5, 6), tolerance: 32)
        #expect(new.encoded()[1] == UInt8(DrawingVersion.current.rawValue - 1) << 4)
        #expect(PaintCore.Operation.newerDrawingVersion(new.encoded()) == nil)
    }

    @Test func aStepFromANewerVersionIsRefusedAndSaysSo() {
        for op in [
            PaintCore.Operation.fill(StrokeStyle(color: .white), at: Self.p(5, 6), tolerance: 32),
            .shape(StrokeStyle(), ShapeSpec(kind: .ellipse, from: Self.p(1, 2), to: Self.p(3, 4), filled: false)),
            .stroke(StrokeStyle(dynamics: StrokeDynamics(curves: true)), points: [Self.p(1, 1), Self.p(2, 2)]),
        ] {
            var bytes = op.encoded()
            for version in [DrawingVersion.newest.rawValue + 1, 16] {
                bytes[1] = UInt8(version - 1) << 4
                #expect(PaintCore.Operation(decoding: bytes) == nil)
                #expect(PaintCore.Operation.newerDrawingVersion(bytes) == version)
            }
            // An unknown tool is damage, not a newer version.
            bytes[1] = 0x22
            #expect(
                PaintCore.Operation(decoding: bytes) == nil && PaintCore.Operation.newerDrawingVersion(bytes) == nil)
        }
        #expect(
            PaintCore.Operation.newerDrawingVersion([]) == nil && PaintCore.Operation.newerDrawingVersion([8]) == nil)
        #expect(PaintCore.Operation.newerDrawingVersion(PaintCore.Operation.clear.encoded() + [0x70]) == nil)
    }
}

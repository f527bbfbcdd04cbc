import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// Version 4 shapes (`DrawingVersion.session8b`): rectangles, and horizontal or vertical
/// lines, of a whole-number width have their edges on pixel boundaries.
@Suite struct CrispShapeTests {
    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    static func coverage(_ spec: ShapeSpec, width: Double, drawing: DrawingVersion) -> [[UInt8]] {
        DrawingVersionTests.coverage(spec, width: width, drawing: drawing, canvas: (48, 40))
    }

    @Test func anEvenWidthLevelLineCoversWholeRowsTheClickedOneAndTheOneBelow() {
        // Width 2 through pixel centres at y = 10.5 (as a click on row 10 gives).
        let spec = ShapeSpec(kind: .line, from: Self.p(10.5, 10.5), to: Self.p(30.5, 10.5), filled: false)
        let new = Self.coverage(spec, width: 2, drawing: .session8b)
        for x in 12...29 {
            #expect(new[10][x] == 255 && new[11][x] == 255, "column \(x): \(new[10][x]) \(new[11][x])")
            #expect(new[9][x] == 0 && new[12][x] == 0, "column \(x): \(new[9][x]) \(new[12][x])")
        }
        // Version 3 drew it centred on row 10: half-strength rows 9 and 11 around a full row.
        let old = Self.coverage(spec, width: 2, drawing: .session8)
        #expect(old[9][20] == DrawingVersionTests.byte(0.5) && old[10][20] == 255)
        #expect(old[11][20] == DrawingVersionTests.byte(0.5))
    }

    @Test func aShiftUprightLineIsSnappedThoughItsCosineIsNotZero() {
        // Shift at 90°: to.x = from.x + length·cos(π/2), 6e-17 of the length off upright.
        let length = 20.0
        let spec = ShapeSpec(
            kind: .line, from: Self.p(15.5, 5.5),
            to: Self.p(15.5 + length * cos(Double.pi / 2), 5.5 + length * sin(Double.pi / 2)), filled: false)
        #expect(spec.to.x != spec.from.x)
        let new = Self.coverage(spec, width: 4, drawing: .session8b)
        for y in 8...23 {
            #expect(
                new[y][13...18].map { $0 } == [0, 255, 255, 255, 255, 0], "row \(y): \(new[y][13...18].map { $0 })")
        }
    }

    @Test func aRectangleOfAnyWholeWidthHasNoHalfStrengthEdge() {
        for width in 1...6 {
            for (from, to) in [(Self.p(10.5, 8.5), Self.p(35.5, 28.5)), (Self.p(9.3, 7.8), Self.p(36.1, 29.6))] {
                for filled in [false, true] {
                    let spec = ShapeSpec(kind: .rectangle, from: from, to: to, filled: filled)
                    let cover = Self.coverage(spec, width: Double(width), drawing: .session8b)
                    let partial = cover.joined().filter { $0 != 0 && $0 != 255 }.count
                    #expect(partial == 0, "width \(width) from \(from) filled \(filled): \(partial) partial pixels")
                    #expect(cover.joined().filter { $0 == 255 }.count > 0)
                }
            }
        }
        // Width 4 dragged from pixel (10, 8) to (35, 28): the sides' centres move to x = 11
        // and 36, y = 9 and 29, so the band is columns 9...12 and 34...37, rows 7...10, 27...30.
        let spec = ShapeSpec(kind: .rectangle, from: Self.p(10.5, 8.5), to: Self.p(35.5, 28.5), filled: false)
        let cover = Self.coverage(spec, width: 4, drawing: .session8b)
        #expect(cover[18][8] == 0 && cover[18][9] == 255 && cover[18][12] == 255 && cover[18][13] == 0)
        #expect(cover[18][33] == 0 && cover[18][34] == 255 && cover[18][37] == 255 && cover[18][38] == 0)
        #expect(cover[6][20] == 0 && cover[7][20] == 255 && cover[10][20] == 255 && cover[11][20] == 0)
        #expect(cover[26][20] == 0 && cover[27][20] == 255 && cover[30][20] == 255 && cover[31][20] == 0)
        #expect(cover[7][9] == 255 && cover[6][8] == 0, "the square corner is whole")
    }

    @Test func oddWidthsAtPixelCentresDiagonalsAndEllipsesDrawAsBefore() {
        let shapes: [(ShapeSpec, Double)] = [
            (ShapeSpec(kind: .rectangle, from: Self.p(10.5, 8.5), to: Self.p(35.5, 28.5), filled: false), 3),
            (ShapeSpec(kind: .line, from: Self.p(10.5, 8.5), to: Self.p(35.5, 8.5), filled: false), 5),
            (ShapeSpec(kind: .line, from: Self.p(10.5, 8.5), to: Self.p(35.5, 28.5), filled: false), 4),
            (ShapeSpec(kind: .dashedLine, from: Self.p(4.5, 8.5), to: Self.p(40.5, 30.5), filled: false), 2),
            (ShapeSpec(kind: .ellipse, from: Self.p(10.5, 8.5), to: Self.p(35.5, 28.5), filled: false), 4),
            (ShapeSpec(kind: .rectangle, from: Self.p(10.5, 8.5), to: Self.p(35.5, 28.5), filled: true), 2.5),
        ]
        for (spec, width) in shapes {
            #expect(
                Self.coverage(spec, width: width, drawing: .session8b)
                    == Self.coverage(spec, width: width, drawing: .session8),
                "\(spec.kind) width \(width)")
        }
    }

    @Test func aReplayedVersionThreeRectangleKeepsItsSoftEdges() {
        // The same step recorded before version 4 replays to its old pixels (half-strength
        // sides), the new one to crisp sides; both through the operation's bytes.
        let spec = ShapeSpec(kind: .rectangle, from: Self.p(10.5, 8.5), to: Self.p(35.5, 28.5), filled: false)
        func replayed(_ drawing: DrawingVersion) -> PixelImage {
            let op = PaintCore.Operation.shape(StrokeStyle(color: .black, width: 2, drawing: drawing), spec)
            let engine = StrokeEngine(width: 48, height: 40)
            PaintCore.Operation(decoding: op.encoded())?.apply(to: engine)
            return engine.flattenedImage()
        }
        let old = replayed(.session8)
        let new = replayed(.session8b)
        // Version 3: the left side centred on column 10, half of columns 9 and 11 grey.
        let half = old[9, 18]
        #expect(half == Color(r: 127, g: 127, b: 127).pixel || half == Color(r: 128, g: 128, b: 128).pixel)
        #expect(old[10, 18] == Color.black.pixel && old[11, 18] == half)
        // Version 4: centred on the corner between columns 10 and 11, both black, no grey.
        #expect(new[9, 18] == Color.white.pixel && new[10, 18] == Color.black.pixel)
        #expect(new[11, 18] == Color.black.pixel && new[12, 18] == Color.white.pixel)
    }
}

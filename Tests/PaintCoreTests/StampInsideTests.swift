import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// A continuing piece of a thin brush is stamped without its rows' inside spans: every pixel it
/// visits is measured by its distance (`StrokeEngine.measuresInside`). Saved histories and
/// crash journals replay strokes through this code and are checked against their saved pixels,
/// so these tests hold it, byte for byte, to the inside spans filled as before (the oracle):
/// the coverage, the view composited from it, and the rectangle each stamp reports.
@Suite struct StampInsideTests {
    /// What one stamp left: the coverage of every tile the stroke holds, the view of the
    /// region around the capsule, and the changed rectangle `stamp` returned.
    struct Stamped: Equatable {
        var coverage: [Int: [UInt8]]
        var view: [UInt32]
        var dirty: IntRect
    }

    /// Stamps `capsule` (after the disc at its start, as the piece before would have left it)
    /// on a canvas `width` x 64 whose view shows `region`, with or without inside spans.
    static func stamped(
        _ capsule: Capsule, level: UInt8, width: Int, region: IntRect, insideSpan: Bool, continues: Bool = true
    ) -> Stamped {
        let engine = StrokeEngine(width: width, height: 64, background: .color(Color(r: 250, g: 240, b: 10)))
        engine.showRegion(region)
        var style = StrokeStyle(width: 1)
        style.color = Color(r: 20, g: 90, b: 200)
        style.opacity = 0.6
        // A stroke in progress (its disc off the canvas) to hold the coverage.
        engine.begin(style, at: Point(x: -50, y: -50))
        if continues {
            let disc = Capsule(from: capsule.a, to: capsule.a, width: capsule.radius * 2)
            _ = engine.stamp(
                disc, fullDiscAtStart: false, level: level, rounding: InRangeRounding.self,
                inside: SpanInside.self, runs: LeaveRuns.self)
        }
        let dirty =
            insideSpan
            ? engine.stamp(
                capsule, fullDiscAtStart: continues, level: level, rounding: InRangeRounding.self,
                inside: SpanInside.self, runs: LeaveRuns.self)
            : engine.stamp(
                capsule, fullDiscAtStart: continues, level: level, rounding: InRangeRounding.self,
                inside: MeasuredInside.self, runs: LeaveRuns.self)
        var coverage: [Int: [UInt8]] = [:]
        for t in engine.coverage.active {
            if let tile = engine.coverage.tiles[t] {
                coverage[t] = Array(UnsafeBufferPointer(start: tile, count: Tile.coverageBytes))
            }
        }
        let view = engine.withViewPixels(in: region) { pixels, stride in
            (0..<region.height).flatMap { y in (0..<region.width).map { pixels[y * stride + $0] } }
        }
        engine.end()
        return Stamped(coverage: coverage, view: view, dirty: dirty)
    }

    /// Stamps each capsule both ways and expects the same; returns how many changed a pixel.
    /// (Longer pieces than `measuresInside` takes are compared too: the two ways agree on any
    /// capsule that rounds in range.)
    static func expectSame(_ capsules: [(Capsule, UInt8)], width: Int = 64, region: IntRect? = nil) -> Int {
        var painted = 0
        for (n, (capsule, level)) in capsules.enumerated() {
            #expect(capsule.roundsInRange, "capsule \(n) is not one the fast rounding takes")
            let shown = region ?? IntRect(x: 0, y: 0, width: min(width, 64), height: 64)
            let oracle = stamped(capsule, level: level, width: width, region: shown, insideSpan: true)
            let measured = stamped(capsule, level: level, width: width, region: shown, insideSpan: false)
            #expect(
                oracle == measured, "capsule \(n) from \(capsule.a) to \(capsule.b) width \(capsule.radius * 2)")
            if !oracle.dirty.isEmpty { painted += 1 }
        }
        return painted
    }

    static let levels: [UInt8] = [255, 255, 128, 1, 254, 200]

    /// Random pieces of brushes up to 8 px wide, 0 to 9 px long, at any angle and fraction of a
    /// pixel: the window's case.
    @Test func randomThinPiecesStampTheSame() {
        var rng = SplitMix(seed: 91)
        var capsules: [(Capsule, UInt8)] = []
        for n in 0..<6_000 {
            let width = n % 5 == 0 ? Double(1 + n % 8) : 0.2 + rng.unit() * 7.8
            let a = Point(x: 12 + rng.unit() * 40, y: 12 + rng.unit() * 40)
            let angle = rng.unit() * 2 * Double.pi
            let length = rng.unit() * 9
            let b = Point(x: a.x + length * cos(angle), y: a.y + length * sin(angle))
            capsules.append((Capsule(from: a, to: b, width: width), Self.levels[n % Self.levels.count]))
        }
        #expect(Self.expectSame(capsules) > 5_000)
    }

    /// Ends on whole and half pixels, moves along the axes and diagonals, widths in half
    /// pixels: where centres fall exactly on the inside's edge and span ends round at ties.
    @Test func piecesOnTheGridStampTheSame() {
        var capsules: [(Capsule, UInt8)] = []
        let steps: [(Double, Double)] = [
            (0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (3, 0), (0, -3), (2, 2), (-2, 2), (4, -4), (0.5, 0), (0, 0.5),
            (2, 1), (-1, 3), (6, 0.5),
        ]
        for width in stride(from: 0.5, through: 8, by: 0.5) {
            for ax in [20.0, 20.25, 20.5] {
                for ay in [30.0, 30.5, 30.75] {
                    for (n, step) in steps.enumerated() {
                        let a = Point(x: ax, y: ay)
                        let b = Point(x: ax + step.0, y: ay + step.1)
                        capsules.append((Capsule(from: a, to: b, width: width), Self.levels[n % Self.levels.count]))
                    }
                }
            }
        }
        #expect(Self.expectSame(capsules) > capsules.count / 2)
    }

    /// At the edges of what `roundsInRange` admits: differences of 2^-20, dy 2^20 times dx, an
    /// end 2^24 away; and pieces near x = 65,000 on a wide canvas, where a pixel's coordinates
    /// carry fewer fraction bits.
    @Test func piecesAtTheLimitsStampTheSame() {
        var rng = SplitMix(seed: 7)
        var capsules: [(Capsule, UInt8)] = []
        for n in 0..<1_200 {
            let width = 0.5 + rng.unit() * 7.5
            let a = Point(x: 12 + rng.unit() * 40, y: 12 + rng.unit() * 40)
            let b: Point
            switch n % 5 {
            case 3:
                // A piece far shorter than a pixel (the pointer barely moved).
                let sx = rng.unit() < 0.5 ? 1.0 : -1.0
                let sy = rng.unit() < 0.5 ? 1.0 : -1.0
                b = Point(x: a.x + sx * (1 + rng.unit()) * 0x1p-12, y: a.y + sy * (1 + rng.unit()) * 0x1p-12)
            case 4: b = AwkwardEnd.from(a, kind: 3, rng: &rng)
            default: b = AwkwardEnd.from(a, kind: n % 5, rng: &rng)
            }
            capsules.append((Capsule(from: a, to: b, width: width), Self.levels[n % Self.levels.count]))
        }
        #expect(Self.expectSame(capsules) > 900)

        var far: [(Capsule, UInt8)] = []
        for n in 0..<400 {
            let a = Point(x: 65_000 + rng.unit() * 40, y: 12 + rng.unit() * 40)
            let angle = rng.unit() * 2 * Double.pi
            let length = rng.unit() * 6
            let b = Point(x: a.x + length * cos(angle), y: a.y + length * sin(angle))
            far.append((Capsule(from: a, to: b, width: 0.5 + rng.unit() * 7.5), Self.levels[n % Self.levels.count]))
        }
        let region = IntRect(x: 64_990, y: 0, width: 64, height: 64)
        #expect(Self.expectSame(far, width: 65_100, region: region) > 350)
    }

    /// Pieces that start a stroke (no disc before them), pieces of wider brushes and pieces
    /// longer than the brush is wide keep their inside spans.
    @Test func onlyShortContinuingThinPiecesAreMeasured() {
        let a = Point(x: 10, y: 10)
        let b = Point(x: 13, y: 11)
        #expect(StrokeEngine.measuresInside(Capsule(from: a, to: b, width: 8), fullDiscAtStart: true))
        #expect(!StrokeEngine.measuresInside(Capsule(from: a, to: b, width: 8), fullDiscAtStart: false))
        #expect(!StrokeEngine.measuresInside(Capsule(from: a, to: b, width: 8.5), fullDiscAtStart: true))
        #expect(StrokeEngine.measuresInside(Capsule(from: a, to: Point(x: 18, y: 10), width: 8), fullDiscAtStart: true))
        #expect(
            !StrokeEngine.measuresInside(Capsule(from: a, to: Point(x: 18.5, y: 10), width: 8), fullDiscAtStart: true))
    }
}

import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// `stamp` works each row's outer span, inside span, front limit and skipped inside out of one
/// `Capsule.Row` (what they share, worked out once), not from two `Capsule.span` calls and a root
/// of its own. Saved histories and crash journals replay strokes through it and are checked
/// against their saved pixels, so these tests hold it, byte for byte, to the old per-row
/// computation (`referenceStamp`): after every piece of random strokes (brushes 0.5 to 400 px
/// wide, fractional ends, every direction, pieces from a hundredth of a pixel to far longer than
/// the brush, width and level changing from piece to piece as a pen's pressure does, ends off the
/// canvas and a clip inside it) the rectangle it reports, and every few pieces the whole view
/// and every coverage tile of the stroke. The random strokes' views are also held to a fresh
/// composite of what the stroke touched (`compose`, what the screen shows of the paint and
/// coverage), at 60 % and full opacity over one color and at 60 % over the checkerboard: the
/// oracle composites through the engine's own per-run composite, which a rewrite of the row
/// loop may change too.
@Suite struct StampReferenceTests {
    static let width = 320
    static let height = 256

    /// A stroke in progress on a fresh canvas whose view shows all of it, clipped to `clip`.
    /// `variant` 0: 60 % opacity over one color; 1: full opacity (the inside a plain fill);
    /// 2: 60 % over the checkerboard (no one backdrop color).
    static func engine(clip: IntRect?, variant: Int = 0) -> StrokeEngine {
        let background: Background = variant == 2 ? .transparent : .color(Color(r: 250, g: 240, b: 10))
        let engine = StrokeEngine(width: width, height: height, background: background)
        engine.showRegion(engine.bounds)
        var style = StrokeStyle(width: 1)
        style.color = Color(r: 20, g: 90, b: 200)
        style.opacity = variant == 1 ? 1 : 0.6
        // A stroke in progress (its disc off the canvas) to hold the coverage.
        engine.begin(style, at: Point(x: -500, y: -500))
        if let clip { engine.clip = clip }
        return engine
    }

    /// The old `stamp`, chosen among its specializations as `stamp` chooses.
    static func referenceStamp(
        _ engine: StrokeEngine, _ capsule: Capsule, continues: Bool, level: UInt8, keeping: Bool = false
    ) -> IntRect {
        keeping
            ? referenceStamp(engine, capsule, continues: continues, level: level, runs: KeepRuns.self)
            : referenceStamp(engine, capsule, continues: continues, level: level, runs: LeaveRuns.self)
    }

    static func referenceStamp<K: RunKeeping>(
        _ engine: StrokeEngine, _ capsule: Capsule, continues: Bool, level: UInt8, runs: K.Type
    ) -> IntRect {
        guard capsule.roundsInRange else {
            return engine.referenceStamp(
                capsule, fullDiscAtStart: continues, level: level, rounding: ClampedRounding.self,
                inside: SpanInside.self, runs: K.self)
        }
        return StrokeEngine.measuresInside(capsule, fullDiscAtStart: continues)
            ? engine.referenceStamp(
                capsule, fullDiscAtStart: continues, level: level, rounding: InRangeRounding.self,
                inside: MeasuredInside.self, runs: K.self)
            : engine.referenceStamp(
                capsule, fullDiscAtStart: continues, level: level, rounding: InRangeRounding.self,
                inside: SpanInside.self, runs: K.self)
    }

    /// Whether the two engines kept the same runs under their provisional pieces, byte for byte.
    static func sameKept(_ a: StrokeEngine, _ b: StrokeEngine) -> Bool {
        guard a.provisional.count == b.provisional.count, a.provisional.byteEnd == b.provisional.byteEnd else {
            return false
        }
        var end = a.provisional.byteEnd
        var i = a.provisional.count
        while i > 0 {
            i -= 1
            let ra = a.provisional.run(i, endingAt: end)
            let rb = b.provisional.run(i, endingAt: end)
            guard ra.y == rb.y, ra.x0 == rb.x0, ra.count == rb.count, memcmp(ra.bytes, rb.bytes, ra.count) == 0 else {
                return false
            }
            end -= ra.count
        }
        return true
    }

    /// Whether the two engines' views and stroke coverage are the same, byte for byte, and
    /// (`fresh`) the view of what the stroke touched is what compositing it afresh gives.
    static func same(_ a: StrokeEngine, _ b: StrokeEngine, fresh: Bool = false) -> Bool {
        guard a.coverage.active.sorted() == b.coverage.active.sorted() else { return false }
        for t in a.coverage.active {
            guard let ta = a.coverage.tiles[t], let tb = b.coverage.tiles[t] else { return false }
            if memcmp(ta, tb, Tile.coverageBytes) != 0 { return false }
        }
        let va = a.viewPixels
        let vb = b.viewPixels
        guard va.count == vb.count && memcmp(va.baseAddress!, vb.baseAddress!, va.count * 4) == 0 else { return false }
        let touched = a.strokeBounds.intersection(a.bounds)
        guard fresh && !touched.isEmpty else { return true }
        var composited = [UInt32](repeating: 0, count: touched.area)
        composited.withUnsafeMutableBufferPointer {
            a.composite(touched, into: $0.baseAddress!, stride: touched.width)
        }
        return composited.withUnsafeBufferPointer { c in
            (touched.y..<touched.maxY).allSatisfy { y in
                memcmp(
                    va.baseAddress! + y * width + touched.x, c.baseAddress! + (y - touched.y) * touched.width,
                    touched.width * 4) == 0
            }
        }
    }

    /// Stamps `strokes` random strokes of `pieces` pieces through both ways; returns how many
    /// pieces changed a pixel. `radius` draws a brush's radius.
    /// With `keeping`, every piece is stamped as a provisional one (its runs kept first), and
    /// every few pieces both engines put back what they kept. With `nearlyLevel`, a quarter of
    /// the pieces climb or fall by less than 2^-20 of their length, which no span rounds in
    /// range (`Capsule.roundsInRange`: the saturating roundings).
    static func expectSame(
        seed: UInt64, strokes: Int, pieces: Int, clip: IntRect? = nil, keeping: Bool = false,
        nearlyLevel: Bool = false, radius: (inout SplitMix) -> Double
    ) -> Int {
        var rng = SplitMix(seed: seed)
        var painted = 0
        let levels: [UInt8] = [255, 255, 255, 128, 1, 254, 200]
        for s in 0..<strokes {
            let stamped = engine(clip: clip, variant: s % 3)
            let oracle = engine(clip: clip, variant: s % 3)
            var r = radius(&rng)
            var a = Point(x: -20 + rng.unit() * Double(width + 40), y: -20 + rng.unit() * Double(height + 40))
            var level = levels[s % levels.count]
            if keeping {
                stamped.provisional.start(stamped.bounds)
                oracle.provisional.start(oracle.bounds)
            }
            for p in 0..<pieces {
                // A pen's pressure changes the width and level a little from piece to piece.
                if rng.unit() < 0.25 { r = min(200, max(0.25, r * (0.9 + rng.unit() * 0.2))) }
                if rng.unit() < 0.1 { level = levels[Int(rng.next() % UInt64(levels.count))] }
                let angle: Double
                switch rng.next() % 4 {
                case 0: angle = Double(rng.next() % 8) * Double.pi / 4
                default: angle = rng.unit() * 2 * Double.pi
                }
                let length: Double
                switch rng.next() % 6 {
                case 0: length = rng.unit() * 0.01
                case 1: length = rng.unit() * 3
                case 2: length = rng.unit() * 2 * r
                case 3: length = rng.unit() * 40
                default: length = rng.unit() * 12
                }
                var b = Point(x: a.x + length * cos(angle), y: a.y + length * sin(angle))
                if rng.next() % 8 == 0 {
                    b = Point(x: b.x.rounded() + [0, 0.5][Int(rng.next() % 2)], y: b.y.rounded())
                }
                if nearlyLevel && rng.next() % 4 == 0 {
                    b = Point(
                        x: a.x + max(1, length) * (rng.next() % 2 == 0 ? 1 : -1), y: a.y + (rng.unit() - 0.5) * 1e-9)
                }
                let capsule = Capsule(from: a, to: b, width: 2 * r)
                let continues = p > 0 && rng.next() % 16 != 0
                let dirty = stamped.stamp(capsule, fullDiscAtStart: continues, level: level, keeping: keeping)
                let expected = referenceStamp(oracle, capsule, continues: continues, level: level, keeping: keeping)
                #expect(dirty == expected, "stroke \(s) piece \(p): \(capsule.a) to \(capsule.b) radius \(r)")
                if !expected.isEmpty { painted += 1 }
                if keeping {
                    #expect(sameKept(stamped, oracle), "stroke \(s) piece \(p): kept runs")
                    if p % 4 == 3 {
                        #expect(stamped.restoreProvisional() == oracle.restoreProvisional())
                        stamped.provisional.start(stamped.bounds)
                        oracle.provisional.start(oracle.bounds)
                    }
                }
                if p % 8 == 7 || p == pieces - 1 {
                    #expect(
                        same(stamped, oracle, fresh: true),
                        "stroke \(s) piece \(p): \(capsule.a) to \(capsule.b) radius \(r)")
                }
                a = b
                if a.x < -100 || a.x > Double(width + 100) || a.y < -100 || a.y > Double(height + 100) {
                    a = Point(x: rng.unit() * Double(width), y: rng.unit() * Double(height))
                }
            }
            stamped.end()
            oracle.end()
        }
        return painted
    }

    /// Brushes 0.5 to 16 px wide: the window's common case, most pieces a few pixels long.
    @Test func thinBrushesStampTheSame() {
        let painted = Self.expectSame(seed: 5, strokes: 100, pieces: 60) { rng in 0.25 + rng.unit() * 7.75 }
        #expect(painted > 2_500)
    }

    /// Brushes 16 to 400 px wide, crossing the canvas's edges.
    @Test func wideBrushesStampTheSame() {
        let painted = Self.expectSame(seed: 17, strokes: 40, pieces: 40) { rng in 8 + rng.unit() * rng.unit() * 192 }
        #expect(painted > 600)
    }

    /// Any width, with a clip inside the canvas (the history re-rendering one region).
    @Test func clippedStrokesStampTheSame() {
        let clip = IntRect(x: 37, y: 21, width: 203, height: 150)
        let painted = Self.expectSame(seed: 29, strokes: 40, pieces: 40, clip: clip) { rng in
            0.25 + rng.unit() * rng.unit() * 120
        }
        #expect(painted > 500)
    }

    /// Provisional pieces keep the same runs and leave the same pixels; put back, they leave the
    /// same again. Some pieces are nearly level (the saturating roundings).
    @Test func keptAndNearlyLevelPiecesStampTheSame() {
        let painted = Self.expectSame(seed: 41, strokes: 60, pieces: 48, keeping: true, nearlyLevel: true) { rng in
            rng.next() % 2 == 0 ? 0.25 + rng.unit() * 7.75 : 0.25 + rng.unit() * rng.unit() * 200
        }
        #expect(painted > 1_200)
    }

    /// Dense sets of pieces of every width (0.5 to 400 px), nearly level ones among them,
    /// crossing a clip at the canvas's edge.
    @Test func denseStrokesAtTheEdgesStampTheSame() {
        let clip = IntRect(x: 0, y: 9, width: 301, height: 247)
        let painted = Self.expectSame(seed: 53, strokes: 60, pieces: 64, clip: clip, nearlyLevel: true) { rng in
            0.25 + rng.unit() * rng.unit() * 200
        }
        #expect(painted > 1_500)
    }

    /// Ends on whole and half pixels, moves along the axes and diagonals, radii in quarter
    /// pixels: where pixel centres fall exactly on a span's end and roundings tie.
    @Test func piecesOnTheGridStampTheSame() {
        let steps: [(Double, Double)] = [
            (0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (3, 0), (0, -3), (2, 2), (-2, 2), (4, -4), (0.5, 0), (0, 0.5),
            (2, 1), (-1, 3), (6, 0.5), (40, 0), (0, -40), (30, 30),
        ]
        var mismatches = 0
        for quarter in [1, 2, 3, 4, 6, 8, 10, 13, 16, 24, 33, 64, 130] {
            let r = Double(quarter) / 4 * (quarter > 16 ? 4 : 1)
            for ax in [100.0, 100.25, 100.5] {
                for ay in [120.0, 120.5, 120.75] {
                    for (n, step) in steps.enumerated() {
                        let level: UInt8 = n % 3 == 2 ? 128 : 255
                        let a = Point(x: ax, y: ay)
                        let b = Point(x: ax + step.0, y: ay + step.1)
                        let stamped = Self.engine(clip: nil, variant: (n / 3) % 3)
                        let oracle = Self.engine(clip: nil, variant: (n / 3) % 3)
                        let disc = Capsule(from: a, to: a, width: 2 * r)
                        _ = stamped.stamp(disc, fullDiscAtStart: false, level: level)
                        _ = Self.referenceStamp(oracle, disc, continues: false, level: level)
                        let capsule = Capsule(from: a, to: b, width: 2 * r)
                        let dirty = stamped.stamp(capsule, fullDiscAtStart: true, level: level)
                        let expected = Self.referenceStamp(oracle, capsule, continues: true, level: level)
                        if dirty != expected || !Self.same(stamped, oracle) { mismatches += 1 }
                        stamped.end()
                        oracle.end()
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }
}

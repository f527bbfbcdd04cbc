import TestSupport
import Testing

@testable import PaintCore

/// `stamp` rounds an ordinary capsule's span ends without `Int(clamping:)`'s range guards
/// (`InRangeRounding`); these tests hold it to the guarded rounding, value by value and
/// coverage byte by coverage byte, at the edges of what `Capsule.roundsInRange` lets through.
@Suite struct StampRoundingTests {
    @Test func inRangeRoundingEqualsClampingWithinRange() {
        var rng = SplitMix(seed: 23)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1, -1, 2.5, -2.5, 1e15 - 1, -(1e15 - 1), 0x1p48, -0x1p48]
        for _ in 0..<20_000 {
            let magnitude = Double(1 << (rng.next() % 49))
            let v = (rng.unit() - 0.5) * 2 * magnitude
            values += [v, v.rounded(.down), v.rounded(.down) + 0.5, v.nextUp, v.nextDown]
        }
        for v in values {
            #expect(InRangeRounding.down(v) == Int(clamping: v, .down), "down \(v)")
            #expect(InRangeRounding.up(v) == Int(clamping: v, .up), "up \(v)")
        }
    }

    @Test func ordinaryCapsulesRoundInRangeAndDegenerateOnesDoNot() {
        let p = Point(x: 10, y: 20)
        #expect(Capsule(from: p, to: Point(x: 14.5, y: 23.25), width: 8).roundsInRange)
        #expect(Capsule(from: p, to: p, width: 8).roundsInRange)
        #expect(Capsule(from: p, to: Point(x: 10, y: 90), width: 3).roundsInRange)
        #expect(Capsule(from: p, to: Point(x: 90, y: 20), width: 3).roundsInRange)
        // A difference far below a pixel but not zero, far-away ends, a huge brush, NaN.
        #expect(!Capsule(from: Point(x: 10, y: 0), to: Point(x: 14, y: 1e-300), width: 8).roundsInRange)
        #expect(!Capsule(from: p, to: Point(x: 10 + 1e-9, y: 90), width: 8).roundsInRange)
        #expect(!Capsule(from: p, to: Point(x: 1e9, y: 20), width: 8).roundsInRange)
        #expect(!Capsule(from: p, to: Point(x: 12, y: 20), width: 1e8).roundsInRange)
        #expect(!Capsule(from: p, to: Point(x: .nan, y: 20), width: 8).roundsInRange)
    }

    /// Capsules right at the limits `roundsInRange` accepts (differences of 2^-20, dy 2^20
    /// times dx, ends 2^24 away) and ordinary ones, stamped once with each rounding: every
    /// coverage byte equal.
    @Test func bothRoundingsStampTheSameCoverage() {
        var rng = SplitMix(seed: 41)
        let w = 96
        let h = 80
        var capsules: [Capsule] = []
        for n in 0..<240 {
            let width = [1.0, 2.5, 8, 8, 17.3, 40][n % 6]
            let a = Point(x: 5 + rng.unit() * Double(w - 10), y: 5 + rng.unit() * Double(h - 10))
            let b: Point
            switch n % 8 {
            case 0, 1, 2, 3: b = AwkwardEnd.from(a, kind: n % 8, rng: &rng)
            case 4: b = Point(x: a.x + (rng.unit() < 0.5 ? 20 : -20), y: -AwkwardEnd.far)
            default: b = Point(x: a.x + (rng.unit() - 0.5) * 12, y: a.y + (rng.unit() - 0.5) * 12)
            }
            capsules.append(Capsule(from: a, to: b, width: width))
        }
        for (n, capsule) in capsules.enumerated() {
            #expect(capsule.roundsInRange, "capsule \(n) is not one the fast rounding takes")
            let continues = n % 3 != 0
            let level: UInt8 = n % 4 == 1 ? 128 : 255
            var results: [[UInt8]] = []
            for inRange in [true, false] {
                let engine = StrokeEngine(width: w, height: h)
                // A stroke in progress (its disc off the canvas) to hold the coverage.
                engine.begin(StrokeStyle(width: 1), at: Point(x: -50, y: -50))
                // The start disc first, as the stroke before would have stamped it.
                if continues {
                    let disc = Capsule(from: capsule.a, to: capsule.a, width: capsule.radius * 2)
                    _ = engine.stamp(
                        disc, fullDiscAtStart: false, level: level, rounding: ClampedRounding.self,
                        inside: SpanInside.self, runs: LeaveRuns.self)
                }
                if inRange {
                    _ = engine.stamp(
                        capsule, fullDiscAtStart: continues, level: level, rounding: InRangeRounding.self,
                        inside: SpanInside.self, runs: LeaveRuns.self)
                } else {
                    _ = engine.stamp(
                        capsule, fullDiscAtStart: continues, level: level, rounding: ClampedRounding.self,
                        inside: SpanInside.self, runs: LeaveRuns.self)
                }
                results.append((0..<(w * h)).map { engine.strokeCoverage(x: $0 % w, y: $0 / w) ?? 0 })
                engine.end()
            }
            #expect(results[0] == results[1], "capsule \(n) from \(capsule.a) to \(capsule.b)")
            #expect(results[0].contains { $0 > 0 }, "capsule \(n) stamped nothing")
        }
    }
}

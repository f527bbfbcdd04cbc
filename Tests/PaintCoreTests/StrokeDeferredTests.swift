import TestSupport
import Testing

@testable import PaintCore

/// A window that reads several samples in one turn feeds them with `move(..., deferred: true)`
/// and calls `drawDeferred` once before it presents. What it shows after the turn, the stroke
/// image and the merged picture must be exactly what the same samples fed one per turn leave.
@Suite struct StrokeDeferredTests {
    /// One engine fed by a window: the picture, and the screen as the returned rectangles
    /// copied from the view left it (a rectangle too small shows here).
    final class Fed {
        let engine: StrokeEngine
        var screen: [UInt32]

        init(width: Int, height: Int, background: Background) {
            engine = StrokeEngine(width: width, height: height, background: background)
            screen = Array(engine.viewPixels)
        }

        /// Copies `rect` of the view to the screen (the window's present).
        func present(_ rect: IntRect) {
            let r = rect.intersection(engine.bounds)
            guard !r.isEmpty else { return }
            let view = engine.viewPixels
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX { screen[y * engine.width + x] = view[y * engine.width + x] }
            }
        }

        var coverage: [UInt8] { SavedCoverageTests.coverage(engine) }
    }

    /// The first index where `a` and `b` differ (nil: equal), so a failure prints one number,
    /// not two pictures.
    static func difference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
        guard a.count == b.count else { return -1 }
        return a.indices.first { a[$0] != b[$0] }
    }

    /// A random stroke's samples: wiggles, and runs at a steady speed along a line, where the
    /// path keeps its provisional pieces (`StrokePath.keepsProvisional`).
    static func samples(_ rng: inout SplitMix, count: Int, w: Int, h: Int) -> [(Point, Double)] {
        var p = Point(x: rng.unit() * Double(w), y: rng.unit() * Double(h))
        var velocity = Point(x: (rng.unit() - 0.5) * 8, y: (rng.unit() - 0.5) * 8)
        var pressure = rng.unit()
        var result: [(Point, Double)] = [(p, pressure)]
        for i in 1..<count {
            if i % 12 == 0 || rng.unit() < 0.15 {
                velocity = Point(x: (rng.unit() - 0.5) * 12, y: (rng.unit() - 0.5) * 12)
            }
            let wiggle = rng.unit() < 0.5 ? 0.0 : 1.5
            p = Point(
                x: p.x + velocity.x + (rng.unit() - 0.5) * wiggle, y: p.y + velocity.y + (rng.unit() - 0.5) * wiggle)
            if rng.unit() < 0.3 { pressure = min(1, max(0, pressure + (rng.unit() - 0.5) * 0.4)) }
            result.append((p, pressure))
        }
        return result
    }

    @Test func samplesStampedOncePerTurnLeaveThePixelsOfOnePerTurn() {
        var rng = SplitMix(seed: 1216)
        let w = 120
        let h = 90
        var turnsCompared = 0
        var batchesWithKeptPieces = 0
        var readsMidTurn = 0
        for n in 0..<30 {
            let background: Background = n % 5 == 4 ? .transparent : .color(Color(r: 240, g: 230, b: 200))
            // One sample per turn (the eager `move`, as every turn drew before) and several.
            let single = Fed(width: w, height: h, background: background)
            let batched = Fed(width: w, height: h, background: background)
            // Something to erase and to draw over: a shape on both.
            for fed in [single, batched] {
                fed.engine.beginShape(StrokeStyle(color: Color(r: 20, g: 90, b: 200), width: 9))
                fed.present(
                    fed.engine.updateShape(
                        ShapeSpec(
                            kind: n % 2 == 0 ? .ellipse : .rectangle, from: Point(x: 10, y: 12),
                            to: Point(x: 105, y: 80), filled: n % 3 == 0)))
                fed.engine.end()
            }
            for s in 0..<3 {
                let dynamics = StrokeDynamics(
                    curves: n % 7 != 6, stabilizer: [0, 0, 3, 6][(n + s) % 4], pressureWidth: (n + s) % 3 == 1,
                    pressureOpacity: (n + s) % 3 == 2)
                let style = StrokeStyle(
                    tool: (n + s) % 4 == 3 ? .eraser : .brush, color: Color(r: 200, g: 40, b: 30),
                    opacity: [1, 0.5, 0.8][(n + s) % 3], width: [1.0, 3, 8, 8, 13.5, 30][(n + s) % 6],
                    dynamics: dynamics)
                let points = Self.samples(&rng, count: 10 + Int(rng.unit() * 40), w: w, h: h)
                for fed in [single, batched] {
                    fed.present(fed.engine.begin(style, at: points[0].0, pressure: points[0].1))
                }
                var i = 1
                while i < points.count {
                    let n = min(points.count - i, 1 + Int(rng.unit() * 6))
                    let readAt = rng.unit() < 0.1 ? i + Int(rng.unit() * Double(n)) : -1
                    for k in i..<(i + n) {
                        single.present(single.engine.move(to: points[k].0, pressure: points[k].1))
                        batched.present(batched.engine.move(to: points[k].0, pressure: points[k].1, deferred: true))
                        if batched.engine.path.keepsProvisional && k > i { batchesWithKeptPieces += 1 }
                        // Something reads the stroke image mid-turn: the engine draws first.
                        if k == readAt {
                            _ = batched.engine.strokeCoverage(x: Int(points[k].0.x), y: Int(points[k].0.y))
                            readsMidTurn += 1
                        }
                    }
                    i += n
                    batched.present(batched.engine.drawDeferred())
                    #expect(
                        Self.difference(batched.coverage, single.coverage) == nil,
                        "picture \(n), stroke \(s), sample \(i)")
                    #expect(Self.difference(Array(batched.engine.viewPixels), Array(single.engine.viewPixels)) == nil)
                    #expect(
                        Self.difference(batched.screen, single.screen) == nil, "picture \(n), stroke \(s), sample \(i)")
                    #expect(Self.difference(batched.screen, Array(batched.engine.viewPixels)) == nil)
                    turnsCompared += 1
                }
                for fed in [single, batched] {
                    fed.present(fed.engine.finishPath())
                    fed.engine.end()
                }
                #expect(Self.difference(batched.screen, single.screen) == nil)
                #expect(
                    Self.difference(batched.engine.paintImage().pixels, single.engine.paintImage().pixels) == nil,
                    "picture \(n), stroke \(s)")
            }
            #expect(
                Self.difference(batched.engine.flattenedImage().pixels, single.engine.flattenedImage().pixels) == nil)
        }
        #expect(turnsCompared > 250)
        #expect(batchesWithKeptPieces > 25)
        #expect(readsMidTurn > 10)
    }

    /// A recorded stroke replayed (`Operation.apply`: undo, the stroke eraser, a history
    /// rebuilt, a journal restored) feeds its samples as one turn: the paint it leaves and the
    /// rectangle it returns holds every pixel it changed, as the samples fed one per turn (as
    /// the live session may feed them) leave them.
    @Test func aReplayedStrokeLeavesThePixelsOfItsSamplesFedOnePerTurn() {
        var rng = SplitMix(seed: 2026)
        let w = 140
        let h = 100
        for n in 0..<24 {
            let dynamics = StrokeDynamics(
                curves: n % 6 != 5, stabilizer: [0, 0, 3][n % 3], pressureWidth: n % 4 == 1,
                pressureOpacity: n % 4 == 2)
            let style = StrokeStyle(
                tool: n % 5 == 4 ? .eraser : .brush, color: Color(r: 30, g: 120, b: 60),
                opacity: [1, 0.5, 0.75][n % 3],
                width: [1.0, 3, 8, 13.5, 30][n % 5], dynamics: dynamics)
            // Longer than a turn the engine holds (`DeferredPieces.limit` pieces) now and then.
            let samples = Self.samples(&rng, count: n % 8 == 3 ? 900 : 20 + Int(rng.unit() * 80), w: w, h: h)
            let points = samples.map(\.0)
            let pressure =
                dynamics.pressureWidth || dynamics.pressureOpacity
                ? samples.map { UInt16(($0.1 * 65535).rounded()) } : []
            let live = StrokeEngine(width: w, height: h, background: .color(Color(r: 250, g: 250, b: 250)))
            let replayed = StrokeEngine(width: w, height: h, background: .color(Color(r: 250, g: 250, b: 250)))
            for engine in [live, replayed] {
                engine.beginShape(StrokeStyle(color: Color(r: 200, g: 20, b: 20), width: 7))
                engine.updateShape(
                    ShapeSpec(kind: .ellipse, from: Point(x: 8, y: 6), to: Point(x: 130, y: 92), filled: true))
                engine.end()
            }
            var dirty = live.begin(style, at: points[0], pressure: Operation.pressure(pressure, 0))
            for i in points.indices.dropFirst() {
                dirty = dirty.union(live.move(to: points[i], pressure: Operation.pressure(pressure, i)))
            }
            dirty = dirty.union(live.finishPath())
            live.end()
            let before = replayed.paintImage().pixels
            let replayDirty = Operation.stroke(style, points: points, pressure: pressure).apply(to: replayed)
            let after = replayed.paintImage().pixels
            #expect(Self.difference(after, live.paintImage().pixels) == nil, "stroke \(n)")
            // No wider than the samples fed one per turn report (those also take back tails).
            #expect(replayDirty.union(dirty) == dirty, "stroke \(n): \(replayDirty) against \(dirty)")
            // Every pixel the replay changed lies in the rectangle it returned.
            let outside = after.indices.filter { after[$0] != before[$0] && !replayDirty.contains($0 % w, $0 / w) }
            #expect(outside.isEmpty, "stroke \(n): \(outside.count) changed pixels outside \(replayDirty)")
        }
    }

    /// A turn of thousands of samples (a burst read at once) gathers more pieces than
    /// `DeferredPieces.limit`, so the engine stamps some before `drawDeferred`: the window shows
    /// only what `drawDeferred` returns (a deferred `move` returns nothing to show), and that
    /// must still cover every sample, tip by tip.
    @Test func aTurnPastThePieceLimitShowsEverySample() {
        for curves in [true, false] {
            let style = StrokeStyle(width: 3, dynamics: StrokeDynamics(curves: curves))
            let single = Fed(width: 300, height: 120, background: .color(.white))
            let batched = Fed(width: 300, height: 120, background: .color(.white))
            // A zigzag of 3,000 tips 2 px apart bouncing 40 px, back and forth across the canvas.
            var points: [Point] = []
            for k in 0..<3000 {
                let run = k / 140
                let x = run % 2 == 0 ? 10 + (k % 140) * 2 : 288 - (k % 140) * 2
                points.append(Point(x: Double(x), y: Double(k % 2 == 0 ? 20 + run : 60 + run)))
            }
            for fed in [single, batched] { fed.present(fed.engine.begin(style, at: points[0])) }
            var gathered = 0
            for p in points.dropFirst() {
                single.present(single.engine.move(to: p))
                #expect(batched.engine.move(to: p, deferred: true) == .empty)
                gathered = max(gathered, batched.engine.deferred.final.count)
            }
            batched.present(batched.engine.drawDeferred())
            #expect(gathered >= DeferredPieces.limit - 8, "curves \(curves): the turn never came near the limit")
            #expect(Self.difference(batched.screen, single.screen) == nil, "curves \(curves)")
            #expect(Self.difference(batched.screen, Array(batched.engine.viewPixels)) == nil, "curves \(curves)")
        }
    }

    /// A turn's samples still waiting when the stroke ends, is cancelled, or another stroke starts:
    /// they are drawn (or dropped with the stroke) as one sample per turn would have.
    @Test func pendingSamplesWhenTheStrokeStops() {
        var rng = SplitMix(seed: 99)
        let style = StrokeStyle(width: 6, dynamics: StrokeDynamics(curves: true, stabilizer: 4))
        for stop in 0..<3 {
            let single = Fed(width: 80, height: 60, background: .color(.white))
            let batched = Fed(width: 80, height: 60, background: .color(.white))
            let points = Self.samples(&rng, count: 20, w: 80, h: 60)
            for fed in [single, batched] {
                fed.present(fed.engine.begin(style, at: points[0].0))
                for (p, pressure) in points.dropFirst() {
                    fed.present(fed.engine.move(to: p, pressure: pressure, deferred: fed === batched))
                }
                switch stop {
                case 0:
                    fed.present(fed.engine.finishPath())
                    fed.engine.end()
                case 1:
                    fed.present(fed.engine.cancel())
                default:
                    // A new stroke ends this one; its rectangle covers what the end drew.
                    fed.present(fed.engine.begin(StrokeStyle(width: 3), at: Point(x: 40, y: 30)))
                    fed.present(fed.engine.finishPath())
                    fed.engine.end()
                }
                #expect(!fed.engine.deferred.isPending)
            }
            #expect(Self.difference(batched.screen, single.screen) == nil, "stop \(stop)")
            #expect(Self.difference(batched.screen, Array(batched.engine.viewPixels)) == nil, "stop \(stop)")
            #expect(
                Self.difference(batched.engine.paintImage().pixels, single.engine.paintImage().pixels) == nil,
                "stop \(stop)")
        }
    }
}

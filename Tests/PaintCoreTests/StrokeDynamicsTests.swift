import Glibc
import Testing

@testable import PaintCore

/// Curves through sparse samples, the provisional last piece, the stabilizer and pen pressure:
/// what the engine draws, and that a replay of the recorded operation draws it bit for bit.
@Suite struct StrokeDynamicsTests {
    static let curves = StrokeDynamics(curves: true)

    /// A live stroke through `samples` (point, pressure), released; returns the view just before
    /// the release's merge and the operation the session would record.
    static func drawLive(
        _ engine: StrokeEngine, _ style: StrokeStyle, _ samples: [(Double, Double, UInt16)]
    ) -> (preview: [UInt32], operation: Operation) {
        let points = samples.map { Point(x: $0.0, y: $0.1) }
        let pressure = samples.map(\.2)
        engine.begin(style, at: points[0], pressure: Operation.pressure(pressure, 0))
        for i in points.indices.dropFirst() { engine.move(to: points[i], pressure: Operation.pressure(pressure, i)) }
        engine.finishPath()
        let preview = Array(engine.viewPixels)
        engine.end()
        return (preview, .stroke(style, points: points, pressure: pressure))
    }

    /// Replays `operation` (after a round trip through its bytes) on a fresh canvas.
    static func replay(_ operation: Operation, width: Int, height: Int) -> [UInt32] {
        let decoded = Operation(decoding: operation.encoded())
        #expect(decoded == operation, "the operation's bytes do not read back as it")
        let engine = StrokeEngine(width: width, height: height)
        (decoded ?? operation).apply(to: engine)
        return Array(engine.paintImage().pixels)
    }

    /// Coverage of the stroke in progress, as a grid of bytes.
    static func coverage(_ engine: StrokeEngine) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<engine.height {
            for x in 0..<engine.width { out.append(engine.strokeCoverage(x: x, y: y) ?? 0) }
        }
        return out
    }

    @Test func curvesFollowTheQuadraticsThroughTheMidpoints() {
        // Twelve samples 30 degrees apart on a circle: straight segments would cut 2 px inside
        // it between samples; the curve is the chain of quadratics through the midpoints.
        let samples = (0...12).map { i -> (Double, Double, UInt16) in
            let a = Double(i) * .pi / 6
            return (64 + 50 * cos(a), 64 + 50 * sin(a), 65535)
        }
        let live = StrokeEngine(width: 128, height: 128)
        let style = StrokeStyle(width: 3, dynamics: Self.curves)
        _ = Self.drawLive(live, style, samples)
        // The same curve drawn as a dense straight polyline, independently of the engine's
        // subdivision: first half-span, each quadratic, last half-span.
        var dense: [(Double, Double)] = [(samples[0].0, samples[0].1)]
        func mid(_ i: Int) -> (Double, Double) {
            ((samples[i].0 + samples[i + 1].0) / 2, (samples[i].1 + samples[i + 1].1) / 2)
        }
        dense.append(mid(0))
        for i in 1..<(samples.count - 1) {
            let a = mid(i - 1)
            let c = (samples[i].0, samples[i].1)
            let b = mid(i)
            for k in 1...200 {
                let t = Double(k) / 200
                let u = 1 - t
                let x: Double = u * u * a.0 + 2 * u * t * c.0 + t * t * b.0
                let y: Double = u * u * a.1 + 2 * u * t * c.1 + t * t * b.1
                dense.append((x, y))
            }
        }
        dense.append((samples[samples.count - 1].0, samples[samples.count - 1].1))
        let reference = StrokeEngine(width: 128, height: 128)
        EngineTestSupport.draw(reference, StrokeStyle(width: 3), dense)
        var worst = 0
        for y in 0..<128 {
            for x in 0..<128 {
                let a = Int(live.paintPixel(x: x, y: y)! >> 24)
                let b = Int(reference.paintPixel(x: x, y: y)! >> 24)
                worst = max(worst, abs(a - b))
            }
        }
        // The engine's pieces are flat to 0.1 px: alpha within a tenth of the edge's ramp.
        #expect(worst <= 24, "largest alpha difference \(worst)")
        // Between two samples the line stays on the circle's side of the chord (round, not cut).
        let between = (64 + 48.9 * cos(Double.pi / 12), 64 + 48.9 * sin(Double.pi / 12))
        #expect(live.paintPixel(x: Int(between.0), y: Int(between.1))! >> 24 > 0)
    }

    @Test func theProvisionalPieceIsTakenBackByTheNextSample() {
        let engine = StrokeEngine(width: 120, height: 60)
        let style = StrokeStyle(width: 3, dynamics: Self.curves)
        engine.begin(style, at: Point(x: 10.5, y: 30.5))
        engine.move(to: Point(x: 100.5, y: 30.5))
        // The newest sample is inked at once: the provisional piece reaches it.
        #expect(engine.strokeCoverage(x: 99, y: 30)! > 200)
        let before = engine.viewPixel(x: 99, y: 30)!
        #expect(before != Color.white.pixel)
        // Back the other way: the curve turns at x = 77.5 at most; the provisional piece that
        // reached x = 100 is gone, coverage and view.
        let dirty = engine.move(to: Point(x: 10.5, y: 34.5))
        #expect(engine.strokeCoverage(x: 99, y: 30) == 0 && engine.strokeCoverage(x: 85, y: 30) == 0)
        #expect(engine.viewPixel(x: 99, y: 30) == Color.white.pixel)
        #expect(dirty.contains(99, 30), "the taken-back pixels are redrawn: \(dirty)")
        #expect(engine.strokeCoverage(x: 70, y: 31)! > 0)
        // Preview equals merge, and equals a replay of the samples.
        let preview = Array(engine.viewPixels)
        engine.end()
        #expect(Array(engine.viewPixels) == preview)
        let operation = Operation.stroke(
            style, points: [Point(x: 10.5, y: 30.5), Point(x: 100.5, y: 30.5), Point(x: 10.5, y: 34.5)])
        #expect(Self.replay(operation, width: 120, height: 60) == engine.paintImage().pixels)
    }

    @Test func pressureSetsTheWidthAndTheStrength() {
        // A horizontal stroke from full pressure to a quarter, width 16.
        var samples: [(Double, Double, UInt16)] = []
        for i in 0...20 {
            let p = 1 - 0.75 * Double(i) / 20
            samples.append((20 + Double(i) * 10, 40, UInt16((p * 65535).rounded())))
        }
        func inkedRows(_ engine: StrokeEngine, x: Int) -> Int {
            (0..<80).filter { engine.paintPixel(x: x, y: $0)! >> 24 > 127 }.count
        }
        let wide = StrokeEngine(width: 240, height: 80)
        let widthStyle = StrokeStyle(width: 16, dynamics: StrokeDynamics(curves: true, pressureWidth: true))
        let live = Self.drawLive(wide, widthStyle, samples)
        #expect(Array(wide.viewPixels) == live.preview, "preview and merge differ")
        #expect((15...17).contains(inkedRows(wide, x: 25)), "\(inkedRows(wide, x: 25)) rows at full pressure")
        #expect((3...5).contains(inkedRows(wide, x: 215)), "\(inkedRows(wide, x: 215)) rows at a quarter")
        #expect(Self.replay(live.operation, width: 240, height: 80) == wide.paintImage().pixels)

        // Opacity: black at half pressure over white is 50 % ink, 127 or 128 inside.
        let light = StrokeEngine(width: 240, height: 80)
        let half = samples.map { ($0.0, $0.1, UInt16(32768)) }
        let opacityStyle = StrokeStyle(width: 16, dynamics: StrokeDynamics(curves: true, pressureOpacity: true))
        let drawn = Self.drawLive(light, opacityStyle, half)
        #expect([127, 128].contains(EngineTestSupport.red(light, 120, 40)), "\(EngineTestSupport.red(light, 120, 40))")
        #expect(Array(light.viewPixels) == drawn.preview)
        #expect(Self.replay(drawn.operation, width: 240, height: 80) == light.paintImage().pixels)
        // Without pressure on opacity, the same samples paint full black.
        let full = StrokeEngine(width: 240, height: 80)
        _ = Self.drawLive(full, StrokeStyle(width: 16, dynamics: Self.curves), half)
        #expect(EngineTestSupport.red(full, 120, 40) == 0)
    }

    @Test func theStabilizerLagsByItsWindowAndTheReleaseDrawsOnToTheEnd() {
        let engine = StrokeEngine(width: 320, height: 40)
        let style = StrokeStyle(width: 3, dynamics: StrokeDynamics(curves: true, stabilizer: 8))
        engine.begin(style, at: Point(x: 10.5, y: 20.5))
        for i in 1...20 { engine.move(to: Point(x: 10.5 + Double(i) * 12, y: 20.5)) }
        // The pointer is at x = 250.5; the line's tip is the mean of the last 8 samples, 42 px
        // behind, and never more than the window (8 samples, 96 px) behind.
        let tip = (0..<320).last { engine.strokeCoverage(x: $0, y: 20)! > 127 } ?? 0
        #expect(tip < 240 && tip >= 250 - 96, "tip at \(tip)")
        let dirty = engine.finishPath()
        #expect(dirty.contains(249, 20))
        #expect(engine.strokeCoverage(x: 250, y: 20)! > 127, "the release draws on to the pointer")
        engine.end()
        let points = [Point(x: 10.5, y: 20.5)] + (1...20).map { Point(x: 10.5 + Double($0) * 12, y: 20.5) }
        #expect(Self.replay(.stroke(style, points: points), width: 320, height: 40) == engine.paintImage().pixels)
    }

    @Test func straightStrokesDrawAsBefore() {
        // The dynamics off: exactly the segments the engine always drew (the golden tests hold
        // those pixels); with curves, the same samples take another, rounder path.
        let points: [(Double, Double)] = [(10, 10), (60, 50), (110, 10)]
        let straight = StrokeEngine(width: 120, height: 60)
        EngineTestSupport.draw(straight, StrokeStyle(width: 5), points)
        let reference = StrokeEngine(width: 120, height: 60)
        reference.begin(StrokeStyle(width: 5), at: Point(x: 10, y: 10))
        _ = reference.stamp(
            Capsule(from: Point(x: 10, y: 10), to: Point(x: 60, y: 50), width: 5), fullDiscAtStart: true)
        _ = reference.stamp(
            Capsule(from: Point(x: 60, y: 50), to: Point(x: 110, y: 10), width: 5), fullDiscAtStart: true)
        reference.end()
        #expect(straight.paintImage() == reference.paintImage())
        let curved = StrokeEngine(width: 120, height: 60)
        let live = Self.drawLive(
            curved, StrokeStyle(width: 5, dynamics: Self.curves), points.map { ($0.0, $0.1, 65535) })
        #expect(curved.paintPixel(x: 60, y: 49)! >> 24 == 0, "the curve does not reach the corner sample")
        #expect(Array(curved.viewPixels) == live.preview)
    }

    @Test func dynamicStrokesRoundTripThroughTheirBytes() {
        let style = StrokeStyle(
            tool: .eraser, color: Color(r: 1, g: 2, b: 3), opacity: 0.5, width: 12,
            dynamics: StrokeDynamics(curves: true, stabilizer: 6, pressureWidth: true, pressureOpacity: true))
        let onGrid = Operation.stroke(
            style, points: [Point(x: 1.5, y: 2.25), Point(x: 3.015625, y: -4)], pressure: [0, 65535])
        let offGrid = Operation.stroke(
            StrokeStyle(dynamics: StrokeDynamics(curves: true)), points: [Point(x: 1.0 / 3, y: 2)], pressure: [])
        for operation in [onGrid, offGrid] {
            #expect(Operation(decoding: operation.encoded()) == operation)
            // Every truncation is refused, never misread.
            let bytes = operation.encoded()
            for n in 0..<bytes.count { #expect(Operation(decoding: Array(bytes.prefix(n))) == nil) }
        }
        // A straight stroke without pressure keeps the old, shorter encoding.
        let plain = Operation.stroke(StrokeStyle(), points: [Point(x: 0.5, y: 0.5)])
        #expect(plain.encoded().first == 11)
        #expect(onGrid.encoded().first == 17)
    }
}

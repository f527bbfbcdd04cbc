import PaintCore
import Testing

@testable import PaintApp

/// Pointer events with sub-pixel samples (XInput 2) paint at those positions, stored on the
/// 1/64-pixel grid the operation encoding keeps compact, and replay to the same pixels.
@Suite struct PointerSampleTests {
    typealias T = SessionTests

    /// A stroke through window positions with samples `(x, y)` (window coordinates).
    static func stroke(_ s: Session, _ points: [(Double, Double)]) {
        let samples = points.map { PointerSample(x: $0.0, y: $0.1) }
        func whole(_ p: PointerSample) -> (Int, Int) { (Int(p.x.rounded(.down)), Int(p.y.rounded(.down))) }
        let first = whole(samples[0])
        s.handle(.press(x: first.0, y: first.1, button: .left, modifiers: [], sample: samples[0]))
        for p in samples.dropFirst() {
            let w = whole(p)
            s.handle(.motion(x: w.0, y: w.1, modifiers: [], sample: p))
        }
        let last = whole(samples[samples.count - 1])
        s.handle(.release(x: last.0, y: last.1, button: .left, modifiers: [], sample: samples.last))
    }

    @Test func samplesLandOnTheGridAndReplayExactly() {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        let o = s.layout.imageOrigin
        let ox = Double(o.x)
        let oy = Double(o.y)
        // 1/3 px is not on any binary grid: it is rounded to 1/64.
        Self.stroke(s, [(ox + 10.25, oy + 20.5), (ox + 30 + 1.0 / 3, oy + 24.75), (ox + 60.015625, oy + 40)])
        guard case .stroke(_, let points, _)? = sink.operations.last else {
            Issue.record("no stroke: \(sink.operations)")
            return
        }
        #expect(points == [Point(x: 10.25, y: 20.5), Point(x: 30.328125, y: 24.75), Point(x: 60.015625, y: 40)])
        // The grid encoding keeps them exactly (no doubles needed), and replay gives the pixels.
        let encoded = Operation.stroke(StrokeStyle(), points: points).encoded()
        #expect(encoded.count < 60, "\(encoded.count) bytes")
        let replayed = StrokeEngine(width: 120, height: 80)
        sink.operations.last?.apply(to: replayed)
        #expect(Array(replayed.viewPixels) == Array(s.engine.viewPixels))
    }

    /// Every zoom step, the fractional ones (33 %, 67 %, 150 %) included.
    @Test func aSampleAtAPixelCentreIsTheCorePoint() {
        for steps in [-3, -1, 0, 1, 2, 5] {
            let s = T.makeSession(width: 120, height: 80)
            s.zoom(by: steps)
            let zoom = s.layout.zoom
            for (x, y) in [(700, 200), (650, 180)] {
                let core = s.layout.imagePoint(windowX: x, windowY: y)
                let precise = s.layout.imagePoint(PointerSample(x: Double(x) + 0.5, y: Double(y) + 0.5))
                #expect(core == precise, "zoom \(zoom): \(core) vs \(precise)")
            }
        }
    }

    /// The pointer's pixel at 100 % (read without rounding) and the whole numbers a sample is
    /// taken at (read without `Int(exactly:)`) are what the rounding gives, at every zoom step.
    @Test func pixelsAndWholeSamplesAreWhatRoundingGives() {
        for steps in [-3, -1, 0, 1, 2, 5] {
            let s = T.makeSession(width: 120, height: 80)
            s.zoom(by: steps)
            let layout = s.layout
            let o = layout.imageOrigin
            for x in stride(from: o.x - 3, through: o.x + 300, by: 7) {
                for y in stride(from: o.y - 3, through: o.y + 200, by: 11) {
                    let p = layout.imagePoint(windowX: x, windowY: y)
                    let rounded =
                        layout.visibleImage.contains(x, y)
                        ? (Int(p.x.rounded(.down)), Int(p.y.rounded(.down))) : nil
                    let pixel = layout.imagePixel(windowX: x, windowY: y)
                    #expect(pixel?.x == rounded?.0 && pixel?.y == rounded?.1, "zoom \(layout.zoom) at \(x), \(y)")
                }
            }
        }
        for v in [
            0.0, -0.0, 1, -1, 0.5, -0.5, 1e-300, 123_456.75, 0x1p52 + 1, 0x1p62, 0x1p63, -0x1p63, .nan, .infinity,
        ] {
            #expect(Layout.whole(v) == Int(exactly: v), "\(v)")
        }
    }

    /// Each stroke records its own samples, kept beside the gesture while it is drawn: the
    /// second stroke's operation holds none of the first's.
    @Test func eachStrokeRecordsItsOwnSamples() {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        let o = s.layout.imageOrigin
        let (ox, oy) = (Double(o.x), Double(o.y))
        Self.stroke(s, [(ox + 10.5, oy + 20.5), (ox + 30.25, oy + 24.5), (ox + 60.5, oy + 40.5)])
        Self.stroke(s, [(ox + 5.5, oy + 5.5), (ox + 8.75, oy + 9.5)])
        let points = sink.operations.compactMap { op -> [Point]? in
            guard case .stroke(_, let points, _) = op else { return nil }
            return points
        }
        #expect(
            points == [
                [Point(x: 10.5, y: 20.5), Point(x: 30.25, y: 24.5), Point(x: 60.5, y: 40.5)],
                [Point(x: 5.5, y: 5.5), Point(x: 8.75, y: 9.5)],
            ])
    }
}

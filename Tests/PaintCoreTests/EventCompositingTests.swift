import TestSupport
import Testing

@testable import PaintCore

/// The view after every event: an event's pieces (the curve's, the provisional piece taken back
/// and stamped again) are composited once at its end, and what that leaves must be exactly what
/// compositing the paint and the stroke image afresh gives (what the merge will leave).
@Suite struct EventCompositingTests {
    /// The kept view against a fresh composite of the same pixels; returns how many differ.
    static func staleViewPixels(_ engine: StrokeEngine) -> Int {
        let region = engine.shownRegion
        guard !region.isEmpty else { return 0 }
        var fresh = [UInt32](repeating: 0, count: region.area)
        fresh.withUnsafeMutableBufferPointer { engine.composite(region, into: $0.baseAddress!, stride: region.width) }
        return engine.withViewPixels(in: region) { view, stride in
            var differ = 0
            for y in 0..<region.height {
                for x in 0..<region.width where view[y * stride + x] != fresh[y * region.width + x] { differ += 1 }
            }
            return differ
        }
    }

    @Test func everyEventLeavesTheViewAsAFreshCompositeWouldShowIt() {
        var rng = SplitMix(seed: 29)
        let w = 150
        let h = 110
        var checked = 0
        for n in 0..<60 {
            var picture = PixelImage(width: w, height: h)
            for i in picture.pixels.indices { picture.pixels[i] = UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000 }
            let background: Background =
                switch n % 5 {
                case 3: .transparent
                case 4: .image(picture)
                default: .color(Color(r: UInt8(rng.next() & 255), g: 200, b: 90))
                }
            let engine = StrokeEngine(width: w, height: h, background: background)
            if n % 3 == 1 {
                engine.showRegion(IntRect(x: 17, y: 9, width: 101, height: 77))
            } else {
                _ = engine.viewPixels
            }
            let dynamics = StrokeDynamics(
                curves: n % 4 != 0, stabilizer: n % 6 == 5 ? 4 : 0, pressureWidth: n % 7 == 2,
                pressureOpacity: n % 7 == 3)
            // Two strokes, the first left unmerged in places: the second's rows cross its tiles.
            for k in 0..<2 {
                let style = StrokeStyle(
                    tool: (n + k) % 9 == 8 ? .eraser : .brush,
                    color: Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255)),
                    opacity: [1.0, 0.5, 0.2, 0.9][(n + k) % 4], width: [1.0, 2.5, 8, 17.3, 40][(n + 2 * k) % 5],
                    dynamics: dynamics)
                var p = Point(x: rng.unit() * Double(w), y: rng.unit() * Double(h))
                engine.begin(style, at: p, pressure: rng.unit())
                #expect(Self.staleViewPixels(engine) == 0, "stroke \(n).\(k): the press")
                for e in 0..<(5 + n % 23) {
                    // Hand-like steps of a few pixels, now and then a jump.
                    let step = e % 11 == 10 ? 35.0 : 0.5 + rng.unit() * 7
                    p = Point(x: p.x + (rng.unit() - 0.5) * 2 * step, y: p.y + (rng.unit() - 0.5) * 2 * step)
                    engine.move(to: p, pressure: rng.unit())
                    #expect(Self.staleViewPixels(engine) == 0, "stroke \(n).\(k): event \(e)")
                    checked += 1
                }
                engine.finishPath()
                #expect(Self.staleViewPixels(engine) == 0, "stroke \(n).\(k): the release")
                engine.end()
                if k == 0 { engine.mergePendingTiles(limit: 1) }
            }
        }
        #expect(checked > 1000)
    }

    /// The restore's first and last differing byte, found eight bytes at a time, against a
    /// byte-by-byte scan: every length up to 40, differences anywhere.
    @Test func theFirstAndLastDifferenceAreFoundWordByWord() {
        var rng = SplitMix(seed: 31)
        for round in 0..<4000 {
            let count = 1 + round % 40
            let a = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next() % 3) }
            var b = a
            // One to three changed bytes, or none.
            for _ in 0..<Int(rng.next() % 4) { b[Int(rng.next() % UInt64(count))] ^= 1 }
            let first = (0..<count).first { a[$0] != b[$0] } ?? count
            let last = (0..<count).last { a[$0] != b[$0] }
            a.withUnsafeBufferPointer { pa in
                b.withUnsafeBufferPointer { pb in
                    #expect(StrokeEngine.firstDifference(pa.baseAddress!, pb.baseAddress!, count) == first)
                    if let last {
                        #expect(StrokeEngine.lastDifference(pa.baseAddress!, pb.baseAddress!, count) == last)
                    }
                }
            }
        }
    }
}

import TestSupport
import Testing

@testable import PaintCore

/// Text coverage through the stroke engine: live at the opacity, merged bit for bit as shown.
@Suite struct TextStampTests {
    typealias S = EngineTestSupport

    /// A 6 x 3 mask: a full bar on the middle row, an anti-aliased edge above and below.
    static func bar(x: Int, y: Int) -> CoverageMask {
        CoverageMask(
            x: x, y: y, width: 6, height: 3,
            bytes: [0, 64, 128, 128, 64, 0, 255, 255, 255, 255, 255, 255, 0, 0, 32, 0, 0, 0])!
    }

    @Test func previewEqualsMergeAtHalfOpacity() {
        let engine = StrokeEngine(width: 20, height: 10)
        engine.beginText(StrokeStyle(color: .black, opacity: 0.5))
        let dirty = engine.updateText(Self.bar(x: 3, y: 2))
        #expect(dirty == IntRect(x: 3, y: 2, width: 6, height: 3))
        let preview = Array(engine.viewPixels)
        let merged = engine.end()
        #expect(merged == IntRect(x: 3, y: 2, width: 6, height: 3))
        #expect(Array(engine.viewPixels) == preview)
        // Full coverage at 50 % black over white: 127 or 128 (DESIGN §2).
        for x in 3..<9 { #expect([127, 128].contains(S.red(engine, x, 3))) }
        // Partial coverage is lighter; uncovered pixels stay white.
        #expect(S.red(engine, 5, 2) > 128 && S.red(engine, 5, 2) < 255)
        #expect(S.red(engine, 3, 2) == 255)
        #expect(S.red(engine, 2, 3) == 255)
        #expect(engine.strokeCoverage(x: 5, y: 3) == 0)
    }

    /// Typing or dragging replaces the text: the old place goes back to the picture beneath.
    @Test func updateReplacesAndCancelRestores() {
        let engine = StrokeEngine(width: 30, height: 10)
        S.draw(engine, StrokeStyle(color: Color(r: 200, g: 0, b: 0), width: 3), [(1, 1), (28, 1)])
        let before = Array(engine.viewPixels)
        engine.beginText(StrokeStyle(color: .black))
        engine.updateText(Self.bar(x: 2, y: 4))
        let moved = engine.updateText(Self.bar(x: 12, y: 5))
        #expect(moved == IntRect(x: 2, y: 4, width: 16, height: 4))
        #expect(S.red(engine, 4, 5) == 255)
        #expect(S.red(engine, 14, 6) == 0)
        engine.cancel()
        #expect(Array(engine.viewPixels) == before)
        #expect(!engine.isStroking)
    }

    /// Coverage off the canvas or outside the clip is dropped, not written out of bounds.
    @Test func maskIsClipped() {
        let engine = StrokeEngine(width: 8, height: 8)
        engine.clip = IntRect(x: 0, y: 0, width: 4, height: 8)
        engine.beginText(StrokeStyle(color: .black))
        let dirty = engine.updateText(Self.bar(x: -3, y: 6))
        #expect(dirty == IntRect(x: 0, y: 6, width: 3, height: 2))
        engine.updateText(Self.bar(x: 100, y: 100))
        engine.end()
        #expect(engine.paintImage().pixels.allSatisfy { $0 == 0 })
    }

    /// Deferred compositing (replays) leaves the view stale until it is switched back on, then
    /// shows exactly what a live stamp shows.
    @Test func deferredStampMatchesLive() {
        let live = StrokeEngine(width: 16, height: 8)
        live.beginText(StrokeStyle(color: Color(r: 10, g: 90, b: 200), opacity: 0.7))
        live.updateText(Self.bar(x: 4, y: 3))
        live.end()
        let replay = StrokeEngine(width: 16, height: 8)
        replay.defersComposite = true
        replay.beginText(StrokeStyle(color: Color(r: 10, g: 90, b: 200), opacity: 0.7))
        replay.updateText(Self.bar(x: 4, y: 3))
        replay.end()
        replay.defersComposite = false
        #expect(Array(replay.viewPixels) == Array(live.viewPixels))
        #expect(replay.paintImage() == live.paintImage())
    }

    /// Updating in place (only changed pixels) leaves exactly what stamping the last mask on a
    /// fresh engine leaves, whatever came before; the same mask again changes nothing.
    @Test func updatesMatchAFreshStamp() {
        var random = SplitMix(seed: 15)
        func randomMask() -> CoverageMask {
            let w = Int(random.next() % 12) + 1
            let h = Int(random.next() % 9) + 1
            let bytes = (0..<(w * h)).map { _ in random.next() % 3 == 0 ? 0 : UInt8(truncatingIfNeeded: random.next()) }
            return CoverageMask(
                x: Int(random.next() % 30) - 6, y: Int(random.next() % 20) - 4, width: w, height: h, bytes: bytes)!
        }
        let style = StrokeStyle(color: Color(r: 30, g: 140, b: 60), opacity: 0.6)
        let engine = StrokeEngine(width: 24, height: 16)
        S.draw(engine, StrokeStyle(color: .black, width: 4), [(0, 0), (24, 16)])
        engine.beginText(style)
        for _ in 0..<200 {
            let mask = randomMask()
            engine.updateText(mask)
            let fresh = StrokeEngine(width: 24, height: 16)
            S.draw(fresh, StrokeStyle(color: .black, width: 4), [(0, 0), (24, 16)])
            fresh.beginText(style)
            fresh.updateText(mask)
            #expect(Array(engine.viewPixels) == Array(fresh.viewPixels))
            #expect(engine.updateText(mask).isEmpty)
        }
        let preview = Array(engine.viewPixels)
        engine.end()
        #expect(Array(engine.viewPixels) == preview)
    }
}

extension TextStampTests {
    /// A color or opacity picked while typing shows at once and merges as shown.
    @Test func restyleRecolorsTheLiveText() {
        let engine = StrokeEngine(width: 20, height: 10)
        engine.beginText(StrokeStyle(color: .black))
        engine.updateText(Self.bar(x: 3, y: 2))
        let red = StrokeStyle(color: Color(r: 255, g: 0, b: 0), opacity: 0.5)
        #expect(engine.restyleText(red) == IntRect(x: 3, y: 2, width: 6, height: 3))
        let preview = Array(engine.viewPixels)
        let direct = StrokeEngine(width: 20, height: 10)
        direct.beginText(red)
        direct.updateText(Self.bar(x: 3, y: 2))
        #expect(preview == Array(direct.viewPixels))
        #expect(engine.restyleText(red).isEmpty)
        engine.end()
        #expect(Array(engine.viewPixels) == preview)
    }
}

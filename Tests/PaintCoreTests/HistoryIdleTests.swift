import TestSupport
import Testing

@testable import PaintCore

/// The work a release leaves for idle slices (packing snapshots, freeing what they held,
/// bringing the history under its cap) is split into bounded slices, and undo and redo give
/// back exactly the pixels of every step whichever slice the work stands at.
@Suite struct HistoryIdleTests {
    static let width = 320
    static let height = 240

    /// A stroke drawn live and committed as the window does: zig-zags across the canvas so
    /// its snapshot and the keyframes hold many distinct tiles.
    static func drawLive(_ n: Int, _ engine: StrokeEngine, _ history: History) {
        var rng = SplitMix(seed: UInt64(n) &+ 11)
        let style = StrokeStyle(
            color: Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255)),
            opacity: [1, 0.6, 0.35][n % 3], width: Double(4 + rng.next() % 40))
        let points = (0..<8).map { _ in
            Point(x: rng.unit() * Double(width), y: rng.unit() * Double(height))
        }
        engine.begin(style, at: points[0])
        for p in points.dropFirst() { engine.move(to: p) }
        history.commitLiveStroke(.stroke(style, points: points), engine: engine)
    }

    /// Tiles retired and not freed yet.
    static func retiredTileCount(_ history: History) -> Int {
        history.retiredTiles.reduce(0) { $0 + $1.count }
    }

    /// Undoes every step and redoes them all, checking each picture against `pictures` (the
    /// paint after each step, the first before any).
    static func checkUndoRedo(_ history: History, _ engine: StrokeEngine, _ pictures: [PixelImage]) {
        let top = history.cursor
        for k in stride(from: top - 1, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(engine.paintImage() == pictures[k], "undo to step \(k)")
        }
        for k in 1...top {
            history.redo(engine: engine)
            #expect(engine.paintImage() == pictures[k], "redo to step \(k)")
        }
    }

    /// A keyframe (the whole canvas, by reference to the engine's tiles) is packed in slices;
    /// the tiles it held are then let go of a few per slice, never all in one; a tile is
    /// really freed when the last slice lets go of it; undo and redo are exact in between.
    @Test func aKeyframesTilesAreFreedAFewPerSlice() {
        let engine = StrokeEngine(width: Self.width, height: Self.height)
        let history = History(base: nil)
        var pictures = [engine.paintImage()]
        for n in 0..<History.initialKeyframeInterval {
            Self.drawLive(n, engine, history)
            pictures.append(engine.paintImage())
        }
        let key = History.initialKeyframeInterval
        // Due while the last stroke waited to be merged (reading the pictures merged it).
        history.idleWork(engine: engine)
        #expect(history.lastIdleStep == .keyframe)
        #expect(history.keyframes[key]?.isPacked == false, "a 320 x 240 keyframe is packed later")
        weak var probe = history.keyframes[key]?.tiles?.tiles.first { !$0.isUniform }
        #expect(probe != nil)
        // The canvas cleared: the engine holds none of the keyframe's tiles any more.
        history.perform(.clear, engine: engine)
        pictures.append(engine.paintImage())

        let budget = 1 << 13
        let tileLimit = budget / Tile.pixels * 2
        var freed: [Int] = []
        var slices = 0
        while true {
            let held = Self.retiredTileCount(history)
            let more = history.idleWork(engine: engine, budget: budget)
            slices += 1
            if history.lastIdleStep == .free { freed.append(held - Self.retiredTileCount(history)) }
            if held > 0 && slices % 3 == 0 {
                // Undo and redo while tiles wait to be freed.
                history.undo(engine: engine)
                #expect(engine.paintImage() == pictures[key], "undo with tiles waiting to be freed")
                history.redo(engine: engine)
                #expect(engine.paintImage() == pictures[key + 1])
            }
            if !more { break }
            #expect(slices < 100_000)
        }
        #expect(history.keyframes[key]?.isPacked == true)
        #expect(freed.count > 2, "freed over several slices: \(freed)")
        #expect(freed.allSatisfy { $0 <= tileLimit }, "at most \(tileLimit) tiles a slice: \(freed)")
        #expect(Self.retiredTileCount(history) == 0 && !history.hasIdleWork(engine: engine))
        #expect(probe == nil, "the keyframe's tiles are freed once let go of")
        Self.checkUndoRedo(history, engine, pictures)
    }

    /// A large snapshot let go of is freed in an idle slice of its own, not by the step that
    /// let go of it; a small one at once.
    @Test func aLargePackedSnapshotIsFreedInASliceOfItsOwn() {
        var image = PixelImage(width: Self.width, height: Self.height)
        var rng = SplitMix(seed: 3)
        for i in 0..<image.pixels.count { image.pixels[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) }
        let engine = StrokeEngine(image: image)
        let large = engine.packPaint(engine.bounds)
        #expect(large.byteCount > History.freedAtOnceBytes, "noise does not pack")
        let small = engine.packPaint(IntRect(x: 0, y: 0, width: 10, height: 10))
        let history = History(startingFrom: engine)
        history.retire(small)
        #expect(!history.hasIdleWork(engine: engine))
        history.retire(large)
        history.retire(large)
        #expect(history.hasIdleWork(engine: engine))
        history.idleWork(engine: engine)
        #expect(history.lastIdleStep == .free && history.retiredPacked.count == 1, "one a slice")
        history.idleWork(engine: engine)
        #expect(!history.hasIdleWork(engine: engine))
    }
}

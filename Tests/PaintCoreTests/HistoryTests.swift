import TestSupport
import Testing

@testable import PaintCore

/// Undo and redo give back exactly the pixels of the step they land on, within the memory cap
/// and past it.
@Suite struct HistoryTests {
    static func randomOperations(_ count: Int, seed: UInt64, width: Double, height: Double) -> [Operation] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { n in
            if n % 9 == 8 { return .clear }
            let style = StrokeStyle(
                tool: n % 5 == 4 ? .eraser : .brush,
                color: Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255)),
                opacity: [1, 0.5, 0.3][n % 3], width: Double(1 + rng.next() % 30))
            let points = (0..<(1 + Int(rng.next() % 12))).map { _ in
                Point(x: rng.unit() * width, y: rng.unit() * height)
            }
            return .stroke(style, points: points)
        }
    }

    /// The view after applying `operations[0..<k]` to a fresh engine.
    static func expected(_ operations: [Operation], _ k: Int) -> [UInt32] {
        let engine = StrokeEngine(width: 120, height: 80)
        for op in operations[0..<k] { op.apply(to: engine) }
        return Array(engine.viewPixels)
    }

    @Test(arguments: [256 << 20, 40_000, 0])
    func undoAndRedoLandOnTheReplayedPixels(memoryCap: Int) {
        let ops = Self.randomOperations(30, seed: 5, width: 120, height: 80)
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil, memoryCap: memoryCap)
        for op in ops { history.perform(op, engine: engine) }
        // A step leaves at most the slack over the cap for idle slices to trim.
        #expect(history.snapshotBytes <= memoryCap + history.trimSlack)
        while history.idleWork(engine: engine) {}
        #expect(history.snapshotBytes <= memoryCap)
        for k in stride(from: 29, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(Array(engine.viewPixels) == Self.expected(ops, k), "undo to step \(k), cap \(memoryCap)")
        }
        #expect(!history.canUndo)
        for k in 1...30 {
            history.redo(engine: engine)
            #expect(Array(engine.viewPixels) == Self.expected(ops, k), "redo to step \(k)")
        }
        #expect(!history.canRedo)
    }

    @Test func withoutRegionSnapshotsUndoRestoresTheNearestKeyframeAndReplays() {
        let ops = Self.randomOperations(40, seed: 8, width: 120, height: 80)
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil)
        history.keepsRegionSnapshots = false
        for op in ops { history.perform(op, engine: engine) }
        #expect(history.snapshotBytes > 0, "keyframes are kept")
        for k in stride(from: 39, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(Array(engine.viewPixels) == Self.expected(ops, k), "undo to step \(k)")
        }
    }

    /// Past the cap the oldest snapshots are deflated before any is dropped; undo through
    /// deflated, dropped and warm snapshots lands on the replayed pixels each time.
    @Test func coldSnapshotsAreDeflatedThenDropped() {
        let ops = Self.randomOperations(60, seed: 12, width: 120, height: 80).filter { $0 != .clear }
        let full = History(base: nil)
        let fullEngine = StrokeEngine(width: 120, height: 80)
        for op in ops { full.perform(op, engine: fullEngine) }
        let warmBytes = full.snapshotBytes - full.keyframeBytes
        // A cap that holds about half the snapshots warm: some must be deflated, none dropped
        // while deflating is enough, and the keyframes keep to their quarter.
        let cap = warmBytes * 3 / 4
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil, memoryCap: cap)
        for op in ops { history.perform(op, engine: engine) }
        while history.idleWork(engine: engine) {}
        let cold = history.coldSnapshotCounts
        #expect(cold.deflated > 0, "the oldest snapshots are deflated")
        #expect(history.snapshotBytes <= cap)
        #expect(history.keyframeBytes <= cap / 4 || history.keyframeInterval > History.initialKeyframeInterval)
        // A smaller cap drops some too.
        let tight = History(base: nil, memoryCap: cap / 4)
        let tightEngine = StrokeEngine(width: 120, height: 80)
        for op in ops { tight.perform(op, engine: tightEngine) }
        while tight.idleWork(engine: tightEngine) {}
        #expect(tight.coldSnapshotCounts.dropped > 0)
        #expect(tight.snapshotBytes <= cap / 4)
        for (h, e) in [(history, engine), (tight, tightEngine)] {
            for k in stride(from: ops.count - 1, through: 0, by: -1) {
                h.undo(engine: e)
                #expect(Array(e.viewPixels) == Self.expected(ops, k), "undo to step \(k), cap \(h.memoryCap)")
            }
        }
    }

    /// New steps after undoing many still count against the cap and are deflated or dropped
    /// in turn (their indices fall below where trimming had got to).
    @Test func stepsAfterAnUndoAreTrimmedToo() {
        let ops = Self.randomOperations(90, seed: 31, width: 120, height: 80)
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil, memoryCap: 30_000)
        for op in ops[0..<60] { history.perform(op, engine: engine) }
        for _ in 0..<50 { history.undo(engine: engine) }
        for op in ops[60...] { history.perform(op, engine: engine) }
        #expect(history.snapshotBytes <= 30_000 + history.trimSlack)
        while history.idleWork(engine: engine) {}
        #expect(history.snapshotBytes <= 30_000)
        let kept = Array(ops[0..<10]) + Array(ops[60...])
        for k in stride(from: kept.count - 1, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(Array(engine.viewPixels) == Self.expected(kept, k), "undo to step \(k)")
        }
    }

    @Test func deflatedPixelsUnpackTheSame() {
        let engine = StrokeEngine(width: 90, height: 60)
        for op in Self.randomOperations(12, seed: 7, width: 90, height: 60) { op.apply(to: engine) }
        let packed = engine.packPaint(engine.bounds)
        let cold = try! #require(packed.deflatedCopy())
        #expect(cold.isDeflated && cold.byteCount < packed.byteCount)
        #expect(cold.deflatedCopy() == nil, "deflating twice gains nothing")
        let before = engine.paintImage()
        engine.clearPaint()
        engine.unpackPaint(cold)
        #expect(engine.paintImage() == before)
    }

    /// A replay that composites only at the end (opening a file, restoring a journal) ends on
    /// the same view as one that composites every segment, fills included (they read the view).
    @Test func aDeferredReplayEndsOnTheSameView() {
        var ops = Self.randomOperations(24, seed: 17, width: 120, height: 80)
        ops.insert(
            .fill(StrokeStyle(color: Color(r: 0, g: 90, b: 200)), at: Point(x: 60, y: 40), tolerance: 40), at: 12)
        ops.append(.fill(StrokeStyle(color: Color(r: 250, g: 200, b: 0)), at: Point(x: 3, y: 3), tolerance: 0))
        let live = StrokeEngine(width: 120, height: 80)
        let liveHistory = History(base: nil)
        for op in ops { liveHistory.perform(op, engine: live) }
        let deferred = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil)
        deferred.defersComposite = true
        for op in ops { history.perform(op, engine: deferred) }
        deferred.defersComposite = false
        let differing = zip(deferred.viewPixels, live.viewPixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) view pixels differ")
        #expect(deferred.paintImage() == live.paintImage())
    }

    @Test func packedPixelsRoundTripInsideAClip() {
        var rng = SplitMix(seed: 4)
        let engine = StrokeEngine(width: 50, height: 30)
        for op in Self.randomOperations(10, seed: 3, width: 50, height: 30) { op.apply(to: engine) }
        let rect = IntRect(x: 3, y: 2, width: 40, height: 25)
        let packed = engine.packPaint(rect)
        let before = engine.paintImage()
        engine.clearPaint()
        let clip = IntRect(x: Int(rng.next() % 20), y: Int(rng.next() % 10), width: 25, height: 15)
        engine.unpackPaint(packed, clip: clip)
        for y in 0..<30 {
            for x in 0..<50 {
                let inside = rect.intersection(clip).contains(x, y)
                #expect(engine.paintPixel(x: x, y: y) == (inside ? before[x, y] : 0), "(\(x), \(y))")
            }
        }
        // Noise does not pack: it is kept raw, no larger than the pixels.
        var noise = PixelImage(width: 64, height: 64)
        for i in noise.pixels.indices { noise.pixels[i] = UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000 }
        let noisy = StrokeEngine(image: noise)
        let raw = noisy.packPaint(noisy.bounds)
        #expect(
            raw.byteCount <= 64 * 64 * 4 + 64 * 12 + 64 + 64,
            "raw pixels plus one span per row (and allocator rounding)")
        noisy.clearPaint()
        noisy.unpackPaint(raw)
        #expect(noisy.paintImage() == noise)
    }

    @Test func aLiveStrokeIsUndoneToThePixelsBeforeIt() {
        let engine = StrokeEngine(width: 60, height: 40)
        let history = History(base: nil)
        let first = Operation.stroke(
            StrokeStyle(color: Color(r: 200, g: 0, b: 0), width: 9), points: [Point(x: 5, y: 5), Point(x: 55, y: 35)])
        history.perform(first, engine: engine)
        let before = Array(engine.viewPixels)
        let style = StrokeStyle(color: .black, opacity: 0.5, width: 12)
        engine.begin(style, at: Point(x: 50, y: 5))
        engine.move(to: Point(x: 10, y: 35))
        history.commitLiveStroke(.stroke(style, points: [Point(x: 50, y: 5), Point(x: 10, y: 35)]), engine: engine)
        let after = Array(engine.viewPixels)
        #expect(after != before)
        history.undo(engine: engine)
        #expect(Array(engine.viewPixels) == before)
        history.redo(engine: engine)
        #expect(Array(engine.viewPixels) == after)
    }

    @Test func aNewStepAfterUndoDropsTheUndoneSteps() {
        let engine = StrokeEngine(width: 40, height: 40)
        let history = History(base: nil)
        let ops = Self.randomOperations(4, seed: 9, width: 40, height: 40)
        for op in ops { history.perform(op, engine: engine) }
        history.undo(engine: engine)
        history.undo(engine: engine)
        history.perform(.clear, engine: engine)
        #expect(history.count == 3 && !history.canRedo && history.cursor == 3)
    }

    @Test func undoStopsAtTheOpenedPicture() {
        var image = PixelImage(width: 30, height: 20, fill: Color(r: 0, g: 128, b: 255).pixel)
        image[3, 3] = Color.black.pixel
        let engine = StrokeEngine(image: image)
        let history = History(base: image, memoryCap: 0)
        history.perform(.clear, engine: engine)
        history.perform(.stroke(StrokeStyle(width: 4), points: [Point(x: 10, y: 10)]), engine: engine)
        history.undo(engine: engine)
        history.undo(engine: engine)
        #expect(engine.paintImage() == image)
    }

    @Test func historyMovesSurviveTheBinaryForm() {
        for op in [Operation.undo, .redo, .clear] {
            #expect(Operation(decoding: op.encoded()) == op)
        }
        #expect(Operation(decoding: [3, 0]) == nil)
        #expect(Operation(decoding: [9]) == nil)
        #expect(Operation(decoding: []) == nil)
    }
}

/// The stroke eraser: taking one past stroke out gives the picture drawn without it.
@Suite struct StrokeRemovalTests {
    typealias H = HistoryTests

    /// How many pixels differ (a count keeps failure messages short).
    static func differing(_ a: [UInt32], _ b: [UInt32]) -> Int {
        zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count)
    }

    static func drawnWithout(_ ops: [Operation], _ skip: Set<Int>) -> [UInt32] {
        let engine = StrokeEngine(width: 120, height: 80)
        for (i, op) in ops.enumerated() where !skip.contains(i) { op.apply(to: engine) }
        return Array(engine.viewPixels)
    }

    static func strokesOnly(_ count: Int, seed: UInt64) -> [Operation] {
        H.randomOperations(count * 2, seed: seed, width: 120, height: 80).filter {
            if case .stroke = $0 { return true }
            return false
        }.prefix(count).map { $0 }
    }

    @Test(arguments: [256 << 20, 0])
    func removingAMiddleStrokeEqualsNeverDrawingIt(memoryCap: Int) {
        let ops = Self.strokesOnly(12, seed: 21)
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil, memoryCap: memoryCap)
        for op in ops { history.perform(op, engine: engine) }
        let drawn = Array(engine.viewPixels)
        history.removeStroke(at: 5, engine: engine)
        #expect(Self.differing(Array(engine.viewPixels), Self.drawnWithout(ops, [5])) == 0)
        history.perform(.removeStroke(step: 2), engine: engine)
        #expect(Self.differing(Array(engine.viewPixels), Self.drawnWithout(ops, [2, 5])) == 0)
        // Undo brings them back, redo takes them out again.
        history.undo(engine: engine)
        #expect(Self.differing(Array(engine.viewPixels), Self.drawnWithout(ops, [5])) == 0)
        history.undo(engine: engine)
        #expect(Self.differing(Array(engine.viewPixels), drawn) == 0)
        history.redo(engine: engine)
        history.redo(engine: engine)
        #expect(Self.differing(Array(engine.viewPixels), Self.drawnWithout(ops, [2, 5])) == 0)
        // Undoing further down, past the removals, still lands on the right pixels.
        for _ in 0..<6 { history.undo(engine: engine) }
        #expect(Self.differing(Array(engine.viewPixels), H.expected(ops, 8)) == 0)
    }

    @Test func clickingFindsTheTopmostStrokeUnderThePointer() {
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil)
        let low = Operation.stroke(StrokeStyle(width: 20), points: [Point(x: 10, y: 40), Point(x: 110, y: 40)])
        let high = Operation.stroke(StrokeStyle(width: 4), points: [Point(x: 60, y: 5), Point(x: 60, y: 75)])
        history.perform(low, engine: engine)
        history.perform(high, engine: engine)
        #expect(history.stroke(at: Point(x: 60, y: 40)) == 1)
        #expect(history.stroke(at: Point(x: 20, y: 40)) == 0)
        #expect(history.stroke(at: Point(x: 64.5, y: 10)) == 1, "within a few pixels of a thin line")
        #expect(history.stroke(at: Point(x: 20, y: 5)) == nil)
        history.removeStroke(at: 1, engine: engine)
        #expect(history.stroke(at: Point(x: 60, y: 40)) == 0, "the removed stroke is not hit again")
        history.perform(.clear, engine: engine)
        #expect(history.stroke(at: Point(x: 20, y: 40)) == nil, "nothing beneath a clear is visible")
    }

    @Test func removalSurvivesTheBinaryForm() {
        #expect(Operation(decoding: Operation.removeStroke(step: 77).encoded()) == .removeStroke(step: 77))
    }

    /// Undo and redo as pictures: each step lands on exactly the picture it had.
    @Test func undoAndRedoLandOnThePicturesOfTheirSteps() {
        let start = """
            abcd
            efgh
            ijkl
            """
        let engine = StrokeEngine(image: PixelPictures.image(start), background: .transparent)
        let history = History(base: engine.paintImage())
        history.perform(.clearRect(IntRect(x: 1, y: 0, width: 2, height: 2)), engine: engine)
        let cleared = """
            a..d
            e..h
            ijkl
            """
        #expect(PixelPictures.text(engine) == cleared)
        history.perform(.moveRect(IntRect(x: 0, y: 1, width: 1, height: 2), dx: 2, dy: 0), engine: engine)
        let moved = """
            a..d
            ..eh
            .jil
            """
        #expect(PixelPictures.text(engine) == moved)
        history.undo(engine: engine)
        #expect(PixelPictures.text(engine) == cleared)
        history.undo(engine: engine)
        #expect(PixelPictures.text(engine) == start)
        history.redo(engine: engine)
        history.redo(engine: engine)
        #expect(PixelPictures.text(engine) == moved)
    }
}

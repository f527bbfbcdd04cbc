import Glibc
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
            opacity: [1, 0.6, 0.35][n % 3], width: Double(3 + rng.next() % 14))
        let points = (0..<6).map { _ in
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
        weak let probe = history.keyframes[key]?.tiles?.tiles.first { !$0.isUniform }
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

    /// A fill made live (the window's) leaves its merge and its snapshot's packing to idle
    /// slices: the same pixels as a fill done at once, and undo and redo exact before, during
    /// and after the slices.
    @Test func aLiveFillLeavesItsWorkToIdleSlices() {
        let engine = StrokeEngine(width: Self.width, height: Self.height)
        let reference = StrokeEngine(width: Self.width, height: Self.height)
        let history = History(base: nil)
        let atOnce = History(base: nil)
        for n in 0..<3 {
            Self.drawLive(n, engine, history)
            Self.drawLive(n, reference, atOnce)
        }
        while history.idleWork(engine: engine) {}
        while atOnce.idleWork(engine: reference) {}
        let before = engine.paintImage()
        let fill = Operation.fill(StrokeStyle(color: Color(r: 10, g: 200, b: 90)), at: Point(x: 1, y: 1), tolerance: 40)
        history.perform(fill, engine: engine, live: true)
        atOnce.perform(fill, engine: reference)
        #expect(history.hasIdleWork(engine: engine) && !atOnce.hasIdleWork(engine: reference))
        let filled = reference.paintImage()
        #expect(Array(engine.viewPixels) == Array(reference.viewPixels), "the view before any slice")
        var slices = 0
        while history.idleWork(engine: engine, budget: 1 << 12) { slices += 1 }
        #expect(slices > 1, "merged over several slices")
        #expect(engine.paintImage() == filled && Array(engine.viewPixels) == Array(reference.viewPixels))
        history.undo(engine: engine)
        #expect(engine.paintImage() == before)
        history.redo(engine: engine)
        #expect(engine.paintImage() == filled)
        // Undone while its merge waits for idle slices.
        let again = Operation.fill(StrokeStyle(color: Color(r: 200, g: 20, b: 90)), at: Point(x: 1, y: 1), tolerance: 0)
        history.perform(again, engine: engine, live: true)
        atOnce.perform(again, engine: reference)
        history.idleWork(engine: engine, budget: 1 << 12)
        #expect(history.hasIdleWork(engine: engine))
        history.undo(engine: engine)
        #expect(engine.paintImage() == filled)
        history.redo(engine: engine)
        #expect(engine.paintImage() == reference.paintImage())
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

    /// With a reclaimer, large snapshots and tiles let go of are handed to its thread in one
    /// slice and freed there.
    @Test func aReclaimerFreesLargeSnapshotsOnItsThread() throws {
        var image = PixelImage(width: Self.width, height: Self.height)
        var rng = SplitMix(seed: 4)
        for i in 0..<image.pixels.count { image.pixels[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) }
        let engine = StrokeEngine(image: image)
        let history = History(startingFrom: engine)
        let reclaimer = try #require(Reclaimer())
        history.reclaimer = reclaimer
        for _ in 0..<3 { history.retire(engine.packPaint(engine.bounds)) }
        history.retire(PackedPixels(tiles: engine.snapshotPaint(engine.bounds), coversRect: true))
        history.idleWork(engine: engine)
        #expect(history.lastIdleStep == .free && history.retiredPacked.isEmpty, "all handed over in one slice")
        #expect(!history.hasIdleWork(engine: engine))
        // The thread frees them by itself (generous time-out: a loaded machine).
        var polls = 0
        while reclaimer.freedCount < 4 && polls < 60_000 {
            usleep(1000)
            polls += 1
        }
        #expect(reclaimer.freedCount == 4 && reclaimer.pendingCount == 0)
    }

    // MARK: Under a memory cap

    /// A drawing of `count` live strokes in a history without a cap: the pictures after each
    /// step, and the bytes of the largest region snapshot and of all of them.
    static func uncapped(_ count: Int, seed: Int = 0) -> (pictures: [PixelImage], largest: Int, warm: Int) {
        let engine = StrokeEngine(width: width, height: height)
        let history = History(base: nil)
        var pictures = [engine.paintImage()]
        for n in 0..<count {
            drawLive(n + seed, engine, history)
            pictures.append(engine.paintImage())
            while history.idleWork(engine: engine) {}
        }
        let sizes = history.entries.map { $0.before?.byteCount ?? 0 }
        return (pictures, sizes.max() ?? 0, sizes.reduce(0, +))
    }

    /// Under a cap, a release deflates nothing itself: idle slices deflate the oldest
    /// snapshots a few bytes at a time, one snapshot over several slices, and undo lands on
    /// the exact pixels at every slice, the step being deflated included; the cap holds once
    /// the slices are done.
    @Test func pastTheCapIdleSlicesDeflateInPiecesAndUndoStaysExact() throws {
        let count = 60
        let (pictures, largest, warm) = Self.uncapped(count)
        // Room for half the snapshots, and a slack of at least two of the largest: no release
        // may trim at once.
        let cap = max(warm / 2, largest * 16)
        try #require(cap < warm, "the drawing must not fit: warm \(warm), largest \(largest)")
        let engine = StrokeEngine(width: Self.width, height: Self.height)
        let history = History(base: nil, memoryCap: cap)
        var deflateSlices: [Int: Int] = [:]
        var undoneMidDeflate = 0
        for n in 0..<count {
            let deflatedBefore = history.coldSnapshotCounts.deflated
            Self.drawLive(n, engine, history)
            #expect(history.coldSnapshotCounts.deflated == deflatedBefore, "the release of step \(n) deflated")
            #expect(history.snapshotBytes <= cap + history.trimSlack)
            #expect(engine.paintImage() == pictures[n + 1])
            var undoneJob = -1
            while history.idleWork(engine: engine, budget: 2048) {
                guard history.lastIdleStep == .deflate, let job = history.deflateJob else { continue }
                deflateSlices[job.step, default: 0] += 1
                if job.step != undoneJob && undoneMidDeflate < 12 {
                    // Undo to just before the step being deflated: its warm snapshot.
                    undoneJob = job.step
                    let top = history.cursor
                    while history.cursor > job.step { history.undo(engine: engine) }
                    #expect(engine.paintImage() == pictures[job.step], "undo mid-deflate of step \(job.step)")
                    while history.cursor < top { history.redo(engine: engine) }
                    #expect(engine.paintImage() == pictures[top])
                    undoneMidDeflate += 1
                }
            }
            #expect(history.snapshotBytes <= cap, "under the cap once idle, step \(n)")
        }
        #expect(history.coldSnapshotCounts.deflated > 0)
        #expect(undoneMidDeflate > 0)
        #expect(deflateSlices.values.contains { $0 > 1 }, "a snapshot is deflated over several slices")
        Self.checkUndoRedo(history, engine, pictures)
    }

    /// With hardly any idle time (one slice after each release), the packed snapshots never
    /// exceed the cap by more than the slack, nor do those waiting to be packed exceed the
    /// cap; when the slices catch up the cap holds, and every undo is exact.
    @Test func withLittleIdleTimeTheCapIsExceededByTheSlackAtMost() {
        let count = 80
        let (pictures, _, warm) = Self.uncapped(count, seed: 100)
        let cap = warm / 3
        let engine = StrokeEngine(width: Self.width, height: Self.height)
        let history = History(base: nil, memoryCap: cap)
        for n in 0..<count {
            Self.drawLive(n + 100, engine, history)
            let unpacked = history.unpackedBytes
            #expect(history.snapshotBytes - unpacked <= cap + history.trimSlack, "step \(n)")
            #expect(unpacked <= cap)
            history.idleWork(engine: engine, budget: 256)
        }
        while history.idleWork(engine: engine, budget: 256) {}
        #expect(history.snapshotBytes <= cap)
        let cold = history.coldSnapshotCounts
        #expect(cold.deflated + cold.dropped > 0)
        // Undo reads only snapshots, so the pictures are compared at the end of the drawing.
        _ = engine.paintImage()
        Self.checkUndoRedo(history, engine, pictures)
    }

    /// A snapshot being deflated whose step is undone and replaced by a new one is forgotten;
    /// the new step and every older one undo exactly.
    @Test func aDeflateWhoseStepIsReplacedIsForgotten() throws {
        let count = 40
        let (pictures, largest, warm) = Self.uncapped(count, seed: 200)
        let cap = max(warm / 2, largest * 16)
        try #require(cap < warm)
        let engine = StrokeEngine(width: Self.width, height: Self.height)
        let history = History(base: nil, memoryCap: cap)
        var caught: Int?
        for n in 0..<count {
            Self.drawLive(n + 200, engine, history)
            while history.idleWork(engine: engine, budget: 256) {
                if let job = history.deflateJob, history.lastIdleStep == .deflate, job.offset > 0 {
                    caught = job.step
                    break
                }
            }
            if caught != nil { break }
        }
        let step = try #require(caught, "a deflate under way")
        let top = history.cursor
        while history.cursor > step { history.undo(engine: engine) }
        // A new step in place of the undone ones.
        Self.drawLive(999, engine, history)
        #expect(history.deflateJob == nil, "the deflate of a replaced step is forgotten")
        let replaced = engine.paintImage()
        while history.idleWork(engine: engine, budget: 256) {}
        #expect(history.snapshotBytes <= cap)
        #expect(top > step)
        for k in stride(from: step, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(engine.paintImage() == pictures[k], "undo to step \(k)")
        }
        for k in 1...step {
            history.redo(engine: engine)
            #expect(engine.paintImage() == pictures[k], "redo to step \(k)")
        }
        history.redo(engine: engine)
        #expect(engine.paintImage() == replaced)
    }

    /// A deflater fed in pieces of any size makes a stream that inflates to exactly what was
    /// fed, as one-shot compression's does.
    @Test(arguments: [1, 7, 4096, 1 << 20])
    func aDeflaterFedInPiecesInflatesToItsInput(piece: Int) throws {
        var rng = SplitMix(seed: 9)
        // Runs and noise, like packed words.
        var input: [UInt8] = []
        while input.count < 200_000 {
            let byte = UInt8(truncatingIfNeeded: rng.next())
            input += [UInt8](repeating: byte, count: Int(rng.next() % 40) + 1)
            input += (0..<Int(rng.next() % 8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
        let deflater = try #require(Deflater(level: 1))
        var offset = 0
        input.withUnsafeBytes { bytes in
            repeat {
                let end = min(bytes.count, offset + piece)
                #expect(deflater.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), last: end == bytes.count))
                offset = end
            } while offset < bytes.count
        }
        #expect(deflater.isFinished)
        #expect(deflater.output.count < input.count / 2)
        let back = Zlib.inflate(deflater.output, expected: input.count)
        #expect(back.result == .ok && back.bytes == input)
    }
}

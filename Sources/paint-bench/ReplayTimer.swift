import Glibc
import PaintCore
import PaintIO

/// Nanoseconds on the monotonic clock (vDSO, a few tens of nanoseconds per call).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// What one replay measured, one entry per event.
struct ReplayRecord {
    /// Time of each event: engine call(s) plus the present copy.
    var nanoseconds: [UInt64]
    /// Bytes the present copy moved for each event (dirty area x 4).
    var bytes: [Int]
    /// Pixel index where each event's dirty rectangle starts, so the floor copies from the same
    /// neighbourhood of memory as the blit did.
    var offsets: [Int]
    /// Each event's returned rectangle (`--breakdown` tells the moves that reach a new tile).
    var rectangles: [IntRect] = []
    /// Indices of the events that carry a stroke's release (merge, and the journal append when
    /// journaling).
    var releases: [Int] = []
    /// Times of the merge slices run after each release (`StrokeEngine.mergePendingTiles`), as
    /// the window runs them while no input waits: not events, but each one delays an event that
    /// arrives during it.
    var idleSlices: [UInt64] = []

    var bytesTouched: Int { bytes.reduce(0, +) }
}

/// Replays strokes through a `StrokeEngine` the way the window drives it, timing every event.
///
/// Per event the window calls the engine and then copies the returned dirty rectangle, row by
/// row, from `viewPixels` into its shared-memory image. The bench does the same into `present`,
/// a canvas-sized buffer of its own, so an event's time covers everything up to pixels being
/// ready for the X server.
final class ReplayTimer {
    let engine: StrokeEngine
    private let width: Int
    private let height: Int
    /// Stands in for the window's XShm image.
    private let present: UnsafeMutableBufferPointer<UInt32>

    /// Tiles merged per idle slice (as `History.idleWork` merges by default: 32 tiles).
    static let mergeSlice = 32
    /// Samples the window reads in one turn (`--per-turn N`): each is fed with
    /// `move(..., deferred: true)` and the turn's last one draws them (`drawDeferred`), as the
    /// session does once per frame. 0: every sample stamped by its own `move`, as before.
    var samplesPerTurn = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        engine = StrokeEngine(width: width, height: height, background: .color(.white))
        present = .allocate(capacity: width * height)
        // Copying the first frame also faults the pages in, so no page fault lands in a timed event.
        _ = present.initialize(from: engine.viewPixels)
    }

    deinit { present.deallocate() }

    /// Replays `file` `times` times in a row on the same engine.
    ///
    /// Each stroke's points are collected as the window's session collects them (one array
    /// append per event; the session does it for the history, journal or not). With a
    /// `journal`, at release they are appended to it as `Operation.stroke` inside the release's
    /// timed event, unless the stroke changed nothing (as `Session.commitStroke` does).
    /// `strokeGap` microseconds pass, untimed, after every release: the pause between a
    /// person's strokes, in which the journal's disk work happens.
    ///
    /// Each stroke is: press at the first point, one move per further point, release at the last
    /// point. The release has no event of its own: it is charged to the last point's event (for
    /// a one-point click, the press event), as `shared/bench/README.md` specifies. The engine
    /// merges a released stroke in slices (`mergePendingTiles`, `mergeSlice` tiles each); the
    /// slices run after the release, untimed as events and timed one by one in `idleSlices`.
    func replay(_ file: StrokeFile, times: Int, journal: JournalWriter? = nil, strokeGap: UInt32 = 0) -> ReplayRecord {
        let count = file.eventCount * times
        var record = ReplayRecord(
            nanoseconds: [UInt64](repeating: 0, count: count),
            bytes: [Int](repeating: 0, count: count),
            offsets: [Int](repeating: 0, count: count),
            rectangles: [IntRect](repeating: .empty, count: count))
        var releases: [Int] = []
        releases.reserveCapacity(file.strokes.count * times)
        var idle: [UInt64] = []
        /// Merges the released stroke slice by slice, timing each slice.
        func mergeInSlices() {
            while engine.hasPendingMerges {
                let start = monotonicNanoseconds()
                engine.mergePendingTiles(limit: Self.mergeSlice)
                idle.append(monotonicNanoseconds() &- start)
            }
        }
        // Unsafe views, taken once: the timed loop must not pay for uniqueness checks or bounds
        // checks of the bench's own arrays.
        record.nanoseconds.withUnsafeMutableBufferPointer { nanoseconds in
            record.bytes.withUnsafeMutableBufferPointer { bytes in
                record.offsets.withUnsafeMutableBufferPointer { offsets in
                    record.rectangles.withUnsafeMutableBufferPointer { rectangles in
                        file.points.withUnsafeBufferPointer { points in
                            var event = 0
                            var strokePoints: [Point] = []
                            @inline(__always) func note(_ dirty: IntRect, _ start: UInt64, _ stop: UInt64) {
                                nanoseconds[event] = stop &- start
                                bytes[event] = dirty.area * 4
                                offsets[event] = dirty.isEmpty ? 0 : dirty.y * width + dirty.x
                                rectangles[event] = dirty
                                event += 1
                            }
                            for _ in 0..<times {
                                for stroke in file.strokes {
                                    let first = stroke.points.lowerBound
                                    let last = stroke.points.upperBound - 1

                                    var start = monotonicNanoseconds()
                                    let pressed = engine.begin(stroke.style, at: points[first])
                                    strokePoints = [points[first]]
                                    if first == last {
                                        let bounds = engine.end()
                                        if let journal, !bounds.isEmpty {
                                            journal.append(.stroke(stroke.style, points: strokePoints))
                                        }
                                        strokePoints = []
                                    }
                                    blit(pressed)
                                    note(pressed, start, monotonicNanoseconds())
                                    // Outside the timed span: `note` has moved `event` on.
                                    if first == last {
                                        releases.append(event - 1)
                                        mergeInSlices()
                                        if strokeGap > 0 { usleep(strokeGap) }
                                    }
                                    guard first < last else { continue }

                                    var inTurn = 0
                                    for i in (first + 1)..<last {
                                        start = monotonicNanoseconds()
                                        var moved: IntRect
                                        if samplesPerTurn > 0 {
                                            engine.move(to: points[i], deferred: true)
                                            inTurn += 1
                                            moved = inTurn == samplesPerTurn ? engine.drawDeferred() : .empty
                                            if inTurn == samplesPerTurn { inTurn = 0 }
                                        } else {
                                            moved = engine.move(to: points[i])
                                        }
                                        strokePoints.append(points[i])
                                        blit(moved)
                                        note(moved, start, monotonicNanoseconds())
                                    }

                                    start = monotonicNanoseconds()
                                    // The release: the last sample, and what finishing the line adds
                                    // (the stabilizer drawn on to the end).
                                    let released = engine.move(to: points[last]).union(engine.finishPath())
                                    // `end` returns the stroke's bounds for undo; the view already
                                    // shows the merged pixels, so only the move's rectangle is blitted.
                                    let bounds = engine.end()
                                    strokePoints.append(points[last])
                                    if let journal, !bounds.isEmpty {
                                        journal.append(.stroke(stroke.style, points: strokePoints))
                                    }
                                    strokePoints = []
                                    blit(released)
                                    note(released, start, monotonicNanoseconds())
                                    releases.append(event - 1)
                                    mergeInSlices()
                                    if strokeGap > 0 { usleep(strokeGap) }
                                }
                            }
                        }
                    }
                }
            }
        }
        record.releases = releases
        record.idleSlices = idle
        return record
    }

    /// What the window would show: every event's rectangle copied from the view, nothing else.
    var presented: PixelImage {
        PixelImage(width: width, height: height, pixels: Array(present)) ?? PixelImage(width: 0, height: 0)
    }

    /// Copies the dirty rectangle's rows from the engine's view into `present`: the window's blit.
    @inline(__always)
    private func blit(_ dirty: IntRect) {
        let r = dirty.intersection(engine.bounds)
        guard !r.isEmpty, let source = engine.viewPixels.baseAddress, let target = present.baseAddress else { return }
        let rowBytes = r.width * MemoryLayout<UInt32>.stride
        for y in r.y..<r.maxY {
            let i = y * width + r.x
            memcpy(target + i, source + i, rowBytes)
        }
    }

    /// The floor: the same byte counts as `record`, each copied by one plain `memcpy` between
    /// two canvas-sized buffers and timed exactly like an event. What no engine can beat for
    /// these dirty rectangles, clock overhead included.
    func floor(for record: ReplayRecord) -> [UInt64] {
        let pixels = width * height
        let from = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: pixels)
        let to = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: pixels)
        defer {
            from.deallocate()
            to.deallocate()
        }
        // Written once so every page is resident before timing starts.
        from.initialize(repeating: 0xFFFF_FFFF)
        to.initialize(repeating: 0)
        var nanoseconds = [UInt64](repeating: 0, count: record.bytes.count)
        guard let source = from.baseAddress, let target = to.baseAddress else { return nanoseconds }
        nanoseconds.withUnsafeMutableBufferPointer { out in
            for i in 0..<record.bytes.count {
                let count = record.bytes[i]
                // A rectangle's bytes as one run starting where it started, kept inside the buffer.
                let offset = min(record.offsets[i], pixels - count / 4)
                let start = monotonicNanoseconds()
                memcpy(target + offset, source + offset, count)
                out[i] = monotonicNanoseconds() &- start
            }
        }
        return nanoseconds
    }
}

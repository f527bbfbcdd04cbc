// paint-bench history STROKES.jsonl [--strokes 2000] [--cap-mb 256] [--samples 200]
//                                    [--remove-samples 10] [--budget-s 300] [--save-png FILE]
//
// Measures History on the file's canvas: building N strokes through commitLiveStroke (each
// release and each idle slice after it timed in thread CPU: release_with_history_cpu_us,
// idle_slice_cpu_us), timing
// every undo back to step 0 and every redo forward again, and the stroke eraser
// (removeStroke) under >= 200 later strokes. --samples caps how many slow (> 5 ms)
// undos are timed before the undo walk stops; --budget-s caps the undo walk's wall time.
// --save-png writes the built document as "Save with history" does (picture + history chunk), to
// measure the program itself opening and undoing a long history.

import Glibc
import PaintCore
import PaintIO

/// A field of /proc/self/status in MiB ("VmRSS", "VmHWM"), or nil.
func procStatusMegabytes(_ field: String) -> Double? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix(field + ":") else { continue }
        let digits = text.dropFirst(field.count + 1).filter { $0.isNumber }
        return Int(digits).map { Double($0) / 1024 }
    }
    return nil
}

private func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }

private func msLine(_ name: String, _ ns: [UInt64], p99: Bool = true) -> String {
    let s = TimingStats(nanoseconds: ns)
    return "\(name) p50=\(fixed(s.p50Microseconds / 1000, 3))"
        + (p99 ? " p99=\(fixed(s.p99Microseconds / 1000, 3))" : "")
        + " max=\(fixed(s.maxMicroseconds / 1000, 3)) n=\(s.count)"
}

/// A 64-bit FNV-1a digest of the paint and the view: comparing pictures without holding 66 MB
/// copies of a 4K canvas, which would count against the memory figure being measured.
private struct CanvasDigest: Equatable {
    let paint: UInt64
    let view: UInt64

    init(_ engine: StrokeEngine) {
        func fnv(_ next: (Int) -> UInt32, _ count: Int) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for i in 0..<count { h = (h ^ UInt64(next(i))) &* 0x100_0000_01b3 }
            return h
        }
        let w = engine.width
        paint = fnv({ engine.paintPixel(x: $0 % w, y: $0 / w) ?? 0 }, engine.width * engine.height)
        let view = engine.viewPixels
        self.view = fnv({ view[$0] }, view.count)
    }
}

/// Times of the window's work around a release with the history on, in nanoseconds of this
/// thread's CPU (on a loaded machine wall time mostly measures preemption: 4 and 8 ms, the
/// scheduler's ticks): each release (the live stroke committed to the history) and each idle
/// slice after it (merging the released stroke's tiles, packing snapshots), which the window
/// runs between events.
struct ReleaseTimes {
    var releases: [UInt64] = []
    var idleSlices: [UInt64] = []
    /// The most the history held over its cap just after a release (before idle slices trim
    /// it), in bytes.
    var mostOverCap = 0
    /// The idle slices of each kind of work.
    var slicesByStep: [History.IdleStep: [UInt64]] = [:]

    /// "merge=45.1/412.0/2900 pack=…": each kind of slice that ran, p99 and max in µs, count.
    var byStepLine: String {
        History.IdleStep.allCases.compactMap { step in
            guard let ns = slicesByStep[step] else { return nil }
            let s = TimingStats(nanoseconds: ns)
            return "\(step)=\(fixed(s.p99Microseconds, 1))/\(fixed(s.maxMicroseconds, 1))/\(s.count)"
        }.joined(separator: " ")
    }
}

/// Draws one recorded stroke live and commits it as the program does; returns the operation.
@discardableResult
func drawLive(
    _ stroke: RecordedStroke, _ file: StrokeFile, _ engine: StrokeEngine, _ history: History,
    times: UnsafeMutablePointer<ReleaseTimes>? = nil
) -> Operation {
    let pts = Array(file.points[stroke.points])
    engine.begin(stroke.style, at: pts[0])
    for p in pts.dropFirst() { engine.move(to: p) }
    let op = Operation.stroke(stroke.style, points: pts)
    var t0 = threadCPUNanoseconds()
    history.commitLiveStroke(op, engine: engine)
    times?.pointee.releases.append(threadCPUNanoseconds() - t0)
    if let times {
        times.pointee.mostOverCap = max(times.pointee.mostOverCap, history.snapshotBytes - history.memoryCap)
    }
    // The window does this between strokes, in slices, while no input waits.
    while true {
        t0 = threadCPUNanoseconds()
        let more = history.idleWork(engine: engine)
        let took = threadCPUNanoseconds() - t0
        if let times {
            times.pointee.idleSlices.append(took)
            times.pointee.slicesByStep[history.lastIdleStep, default: []].append(took)
        }
        if !more { break }
    }
    return op
}

/// Writes the document as "Save with history" does: the flattened picture with the history chunk.
private func saveWithHistory(_ engine: StrokeEngine, _ history: History, to path: String) {
    do {
        let png = try PNGCodec.encode(engine.flattenedImage(), withAlpha: false)
        let saved = try PNGCodec.decode(png, name: path)
        let archive = DocumentArchive(
            width: engine.width, height: engine.height, background: .color(.white), operations: history.operations,
            pixelHash: DocumentArchive.hash(saved))
        try AtomicFile.write(try HistoryChunk.embed(archive, into: png), to: path)
        print("saved \(path)")
    } catch {
        fail("cannot save \(path): \(error)", code: 1)
    }
}

func runHistoryBench(arguments: [String]) -> Never {
    var input: String?
    var strokes = 2000
    var capMB = 256
    var samples = 200
    var removeSamples = 10
    var budget = 300.0
    var savePath: String?
    var reader = ArgumentReader(
        arguments,
        usage: "usage: paint-bench history STROKES.jsonl [--strokes 2000] [--cap-mb 256] [--samples 200]"
            + " [--remove-samples 10] [--budget-s 300] [--save-png FILE]")
    while let option = reader.next() {
        switch option {
        case "--strokes": strokes = reader.integer(in: 1...10_000_000)
        case "--cap-mb": capMB = reader.integer(in: 0...1_048_576)
        case "--samples": samples = reader.integer(in: 0...10_000_000)
        case "--remove-samples": removeSamples = reader.integer(in: 1...10_000_000)
        case "--budget-s": budget = reader.number(in: 0.001...1_000_000)
        case "--save-png": savePath = reader.value()
        default: input = reader.word(replacing: input)
        }
    }
    guard let input else { reader.reject("no input file") }
    let file = StrokeFile.load(input)
    let canvasWidth = file.canvasWidth
    let canvasHeight = file.canvasHeight
    let cap = capMB << 20
    print(
        "history_bench file=\(input.split(separator: "/").last.map(String.init) ?? input) canvas=\(canvasWidth)x\(canvasHeight)"
            + " strokes=\(strokes) cap_mb=\(capMB) samples=\(samples)")
    fflush(nil)

    // 1. Build.
    var engine: StrokeEngine? = StrokeEngine(width: canvasWidth, height: canvasHeight, background: .color(.white))
    var history: History? = History(base: nil, memoryCap: cap)
    // As the program's documents do: large snapshots let go of are freed on a thread.
    history?.reclaimer = Reclaimer.shared
    do {
        let e = engine!
        let h = history!
        var times = ReleaseTimes()
        let t0 = monotonicNanoseconds()
        for i in 0..<strokes { drawLive(file.strokes[i % file.strokes.count], file, e, h, times: &times) }
        let buildNs = monotonicNanoseconds() - t0
        let releases = TimingStats(nanoseconds: times.releases)
        let slices = TimingStats(nanoseconds: times.idleSlices)
        print(
            "release_with_history_cpu_us mean=\(fixed(releases.meanMicroseconds, 1)) p50=\(fixed(releases.p50Microseconds, 1))"
                + " p99=\(fixed(releases.p99Microseconds, 1)) max=\(fixed(releases.maxMicroseconds, 1)) n=\(releases.count)"
                + " idle_slice_cpu_us mean=\(fixed(slices.meanMicroseconds, 1)) p99=\(fixed(slices.p99Microseconds, 1))"
                + " max=\(fixed(slices.maxMicroseconds, 1)) n=\(slices.count)"
                + " over_1ms=\(times.idleSlices.filter { $0 > 1_000_000 }.count)")
        print("idle_slice_cpu_us_by_kind (kind=p99/max/n) \(times.byStepLine)")
        print(
            "over_cap_after_release_mb max=\(fixed(Double(times.mostOverCap) / 1_048_576, 2))"
                + " trim_slack_mb=\(fixed(Double(h.trimSlack) / 1_048_576, 2))")

        print(
            "build total_ms=\(fixed(ms(buildNs), 1)) steps=\(h.count) snapshot_mb=\(fixed(Double(h.snapshotBytes) / 1_048_576, 1))"
                + " keyframe_mb=\(fixed(Double(h.keyframeBytes) / 1_048_576, 1)) keyframe_interval=\(h.keyframeInterval)"
                + " deflated=\(h.coldSnapshotCounts.deflated) dropped=\(h.coldSnapshotCounts.dropped)"
                + " rss_mb=\(fixed(procStatusMegabytes("VmRSS") ?? 0, 1)) hwm_mb=\(fixed(procStatusMegabytes("VmHWM") ?? 0, 1))"
        )
        fflush(nil)
        let built = CanvasDigest(e)
        if let savePath { saveWithHistory(e, h, to: savePath) }

        // 2. Undo all the way, then redo all the way.
        var undoNs: [UInt64] = []
        var slowNs: [UInt64] = []
        var fastMax: UInt64 = 0
        var stopped = ""
        let walk0 = monotonicNanoseconds()
        while h.canUndo {
            let s = monotonicNanoseconds()
            h.undo(engine: e)
            let d = monotonicNanoseconds() - s
            undoNs.append(d)
            if d > 5_000_000 { slowNs.append(d) } else { fastMax = max(fastMax, d) }
            if slowNs.count >= samples && h.canUndo {
                stopped = "samples"
                break
            }
            if Double(monotonicNanoseconds() - walk0) / 1e9 > budget && h.canUndo {
                stopped = "budget"
                break
            }
        }

        let reached = h.cursor
        print(
            msLine("undo_ms", undoNs) + " reached_step=\(reached)"
                + (stopped.isEmpty ? " complete=yes" : " complete=no stopped_by=\(stopped)")
                + " walk_s=\(fixed(Double(monotonicNanoseconds() - walk0) / 1e9, 1))")
        print(
            "undo_over_5ms n=\(slowNs.count) " + (slowNs.isEmpty ? "max=-" : msLine("", slowNs).dropFirst())
                + " fast_max_ms=\(fixed(ms(fastMax), 3))")
        fflush(nil)
        var redoNs: [UInt64] = []
        while h.canRedo {
            let s = monotonicNanoseconds()
            h.redo(engine: e)
            redoNs.append(monotonicNanoseconds() - s)
        }
        let after = CanvasDigest(e)
        print(
            msLine("redo_ms", redoNs)
                + " pixels_after_redo=\(after == built ? "identical" : "DIFFERENT")"
                + " hwm_mb=\(fixed(procStatusMegabytes("VmHWM") ?? 0, 1)) rss_mb=\(fixed(procStatusMegabytes("VmRSS") ?? 0, 1))"
        )
        fflush(nil)
    }
    engine = nil
    history = nil

    // 3. Stroke eraser on a fresh document of the file's strokes (at least 201 + samples).
    let removeStrokes = max(file.strokes.count, 201 + removeSamples * 15)
    let e = StrokeEngine(width: canvasWidth, height: canvasHeight, background: .color(.white))
    let h = History(base: nil, memoryCap: cap)
    h.reclaimer = Reclaimer.shared
    var ops: [Operation] = []
    for i in 0..<removeStrokes {
        let before = h.count
        let op = drawLive(file.strokes[i % file.strokes.count], file, e, h)
        if h.count > before { ops.append(op) }
    }
    let reference = CanvasDigest(e)
    var removeNs: [UInt64] = []
    var ks: [Int] = []
    var equalsNeverDrawn = "untested"
    var undoRestores = true
    for j in 0..<removeSamples {
        let k = h.count - 201 - j * 15
        guard k >= 0 else { break }
        ks.append(k)
        let s = monotonicNanoseconds()
        h.removeStroke(at: k, engine: e)
        removeNs.append(monotonicNanoseconds() - s)
        if j == 0 {
            let fresh = StrokeEngine(width: canvasWidth, height: canvasHeight, background: .color(.white))
            for (i, op) in ops.enumerated() where i != k { op.apply(to: fresh) }
            equalsNeverDrawn = CanvasDigest(e) == CanvasDigest(fresh) ? "yes" : "no"
        }
        h.undo(engine: e)
        if j == 0 {
            undoRestores = CanvasDigest(e) == reference
        }
    }
    print(
        msLine("remove_ms", removeNs, p99: false) + " steps=\(ops.count) k=\(ks.first ?? -1)...\(ks.last ?? -1)"
            + " remove_equals_never_drawn=\(equalsNeverDrawn) undo_remove_restores=\(undoRestores ? "yes" : "no")"
            + " snapshot_mb=\(fixed(Double(h.snapshotBytes) / 1_048_576, 1)) hwm_mb=\(fixed(procStatusMegabytes("VmHWM") ?? 0, 1))"
    )
    fflush(nil)
    measureBigSteps(e, h)
    exit(0)
}

/// 4. Single large steps on the stroke eraser's document, each timed in thread CPU: a stroke
/// 64 px wide across the whole canvas (drawn live; its release, then the longest of the idle
/// slices after it), a fill of the whole canvas as the window makes it (its merge and packing
/// left to idle slices), and undoing both (one user action each).
private func measureBigSteps(_ e: StrokeEngine, _ h: History) {
    let style = StrokeStyle(color: Color(r: 30, g: 90, b: 200), opacity: 0.8, width: 64)
    let y = Double(e.height) / 2
    let points = stride(from: 0.5, to: Double(e.width), by: 4).map { Point(x: $0, y: y + 40 * sin($0 / 300)) }
    e.begin(style, at: points[0])
    for p in points.dropFirst() { e.move(to: p) }
    var t0 = threadCPUNanoseconds()
    h.commitLiveStroke(.stroke(style, points: points), engine: e)
    let release = threadCPUNanoseconds() - t0
    var slices: [UInt64] = []
    var more = true
    while more {
        t0 = threadCPUNanoseconds()
        more = h.idleWork(engine: e)
        slices.append(threadCPUNanoseconds() - t0)
    }
    let wideSlices = TimingStats(nanoseconds: slices)
    // A fill where the wide stroke is not: the white around it, the whole canvas but the stroke.
    let fill = Operation.fill(StrokeStyle(color: Color(r: 250, g: 220, b: 40)), at: Point(x: 1, y: 1), tolerance: 255)
    t0 = threadCPUNanoseconds()
    h.perform(fill, engine: e, live: true)
    let fillNs = threadCPUNanoseconds() - t0
    var fillSlices: [UInt64] = []
    more = h.hasIdleWork(engine: e)
    while more {
        t0 = threadCPUNanoseconds()
        more = h.idleWork(engine: e)
        fillSlices.append(threadCPUNanoseconds() - t0)
    }
    t0 = threadCPUNanoseconds()
    h.undo(engine: e)
    let undoFill = threadCPUNanoseconds() - t0
    t0 = threadCPUNanoseconds()
    h.undo(engine: e)
    let undoWide = threadCPUNanoseconds() - t0
    print(
        "big_steps_cpu_ms wide_stroke_release=\(fixed(ms(release), 3)) wide_stroke_idle_slices=\(wideSlices.count)"
            + " max=\(fixed(wideSlices.maxMicroseconds / 1000, 3)) fill_4k=\(fixed(ms(fillNs), 3))"
            + " fill_idle_max=\(fixed(TimingStats(nanoseconds: fillSlices).maxMicroseconds / 1000, 3))"
            + " undo_fill=\(fixed(ms(undoFill), 3)) undo_wide_stroke=\(fixed(ms(undoWide), 3)) points=\(points.count)")
    fflush(nil)
}

// paint-bench store STROKES.jsonl [--strokes N] [--runs 5] [--folder DIR]
//
// What keeping a saved picture's history on this computer costs (issue 11): the file's strokes
// are drawn into a document, which is then saved through `ImageFile.save` as the program saves
// it, four ways, each --runs times into DIR (default .build/bench-store, on the disk the
// program would use, so every fsync is real):
//   plain     the picture only, no history anywhere
//   store     the picture, plus its history kept in the history store (the default save)
//   chunk     the picture with the history in its spHS chunk and no store (the old default)
//   portable  "Save with history": the chunk and the store entry
// and prints the time of each save (wall clock, fsyncs included, and the CPU time of the saving
// thread, which other programs on a loaded machine do not inflate) and the sizes: the plain
// file, the chunk (what the old default added to every file), and the store entry for the same
// drawing.

import Glibc
import PaintCore
import PaintIO

func runStoreBench(arguments: [String]) -> Never {
    var input: String?
    var strokes: Int?
    var runs = 5
    var folder = ".build/bench-store"
    var reader = ArgumentReader(
        arguments, usage: "usage: paint-bench store STROKES.jsonl [--strokes N] [--runs 5] [--folder DIR]")
    while let option = reader.next() {
        switch option {
        case "--strokes": strokes = reader.integer(in: 1...10_000_000)
        case "--runs": runs = reader.integer(in: 1...1000)
        case "--folder": folder = reader.value()
        default: input = reader.word(replacing: input)
        }
    }
    guard let input else { reader.reject("no input file") }
    let file = StrokeFile.load(input)
    let count = strokes ?? file.strokes.count
    let engine = StrokeEngine(width: file.canvasWidth, height: file.canvasHeight, background: .color(.white))
    let history = History(base: nil)
    for i in 0..<count { drawLive(file.strokes[i % file.strokes.count], file, engine, history) }
    let picture = engine.flattenedImage()
    let archive = DocumentArchive(
        width: engine.width, height: engine.height, background: .color(.white), operations: history.operations,
        pixelHash: 0)
    print(
        "store_bench file=\(input.split(separator: "/").last.map(String.init) ?? input)"
            + " canvas=\(engine.width)x\(engine.height) strokes=\(count) runs=\(runs) folder=\(folder)")

    // Each save goes to a file of its own and a store of its own, so no run replaces another's.
    _ = mkdir(folder, 0o755)
    let store = HistoryStore(folder: folder + "/history")
    _ = try? store.forgetAll()
    let modes: [(name: String, history: SavedHistory?)] = [
        ("plain", nil),
        ("store", SavedHistory(archive: archive, store: store, portable: false)),
        ("chunk", SavedHistory(archive: archive, store: nil, portable: true)),
        ("portable", SavedHistory(archive: archive, store: store, portable: true)),
    ]
    var sizes: [String: Int] = [:]
    var timings: [String: [UInt64]] = [:]
    var cpu: [String: [UInt64]] = [:]
    var entryBytes = 0
    for _ in 0..<runs {
        // Interleaved, so a slow moment of the disk does not land on one mode only.
        for mode in modes {
            let path = "\(folder)/\(mode.name).png"
            let t0 = monotonicNanoseconds()
            let c0 = threadCPUNanoseconds()
            let outcome: SavedHistory.Outcome
            do {
                outcome = try ImageFile.save(picture, to: path, withAlpha: false, history: mode.history)
            } catch {
                fail("cannot save \(path): \(error)", code: 1)
            }
            let ns = monotonicNanoseconds() - t0
            cpu[mode.name, default: []].append(threadCPUNanoseconds() - c0)
            if let problem = outcome.problem { fail("\(mode.name): \(problem)", code: 1) }
            if let kept = outcome.kept { entryBytes = kept.bytes }
            var info = stat()
            sizes[mode.name] = stat(path, &info) == 0 ? Int(info.st_size) : -1
            timings[mode.name, default: []].append(ns)
        }
    }
    for mode in modes {
        let stats = TimingStats(nanoseconds: timings[mode.name] ?? [])
        let cpuStats = TimingStats(nanoseconds: cpu[mode.name] ?? [])
        print(
            "\(mode.name) save_ms p50=\(fixed(stats.p50Microseconds / 1000, 1))"
                + " max=\(fixed(stats.maxMicroseconds / 1000, 1)) cpu_ms p50=\(fixed(cpuStats.p50Microseconds / 1000, 1))"
                + " file_bytes=\(sizes[mode.name] ?? 0)")
    }

    // Where the store's extra time goes: reading back what was encoded, and the key. In CPU
    // time of this thread, which other programs on a shared machine do not inflate.
    var decodeNs: [UInt64] = []
    var keyNs: [UInt64] = []
    var encodeNs: [UInt64] = []
    for _ in 0..<runs {
        let t0 = threadCPUNanoseconds()
        guard let bytes = try? PNGCodec.encode(picture, withAlpha: false) else { break }
        let t1 = threadCPUNanoseconds()
        guard let decoded = try? PNGCodec.decode(bytes, name: "bench") else { break }
        let t2 = threadCPUNanoseconds()
        _ = HistoryKey(of: decoded)
        keyNs.append(threadCPUNanoseconds() - t2)
        decodeNs.append(t2 - t1)
        encodeNs.append(t1 - t0)
    }
    let plain = sizes["plain"] ?? 0
    let chunk = (sizes["chunk"] ?? 0) - plain
    print(
        "parts_cpu encode_ms p50=\(fixed(TimingStats(nanoseconds: encodeNs).p50Microseconds / 1000, 1))"
            + " decode_ms p50=\(fixed(TimingStats(nanoseconds: decodeNs).p50Microseconds / 1000, 1))"
            + " sha256_key_ms p50=\(fixed(TimingStats(nanoseconds: keyNs).p50Microseconds / 1000, 1))")
    print(
        "sizes plain_file=\(plain) chunk=\(chunk) store_entry=\(entryBytes)"
            + " entry_vs_chunk=\(fixed(Double(entryBytes) / Double(max(chunk, 1)), 3))"
            + " log_operations=\(history.operations.count)")
    exit(0)
}

/// CPU time used by this thread, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

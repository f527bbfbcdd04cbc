// paint-bench: replays recorded strokes through the stroke engine and prints per-event times.
//
//   paint-bench STROKES.jsonl [--out OUT.png] [--repeat N] [--json]
//               [--journal DIR | --compare-journal DIR [--runs N]] [--stroke-gap-ms MS]
//
// --journal DIR: every stroke's release also appends the stroke to a crash journal in DIR, as
// the program does, inside the timed release event; afterwards the journal is flushed, its
// append-to-durable latencies printed, and the journal deleted.
// --compare-journal DIR: N runs without and N with the journal (default 3), interleaved, each on
// a fresh engine, then the ratio of the medians.
// --curves: the strokes are drawn as the window draws them by default, as curves through their
// samples (without it, straight segments between them, as before curves existed);
// --stabilizer N: and smoothed by the stabilizer with a window of N samples.
// --per-turn N: N samples are fed (deferred) before the view is drawn and copied, as the window
// does when it reads N queued samples in one turn of its loop.
// --out-view OUT.png: what the window would show at the end, assembled only from each event's
// returned rectangle copied out of the view (a rectangle too small, or a view pixel composited
// wrong, shows here; compare two builds' files to show a change left every pixel as it was).
// --breakdown: where the time goes by kind of event (press, move, release; moves by width, the
// first moves of a stroke, moves reaching a new tile) and what the slowest 1 % are made of,
// for the one replay and, with --best-of, for the best times.
// --stroke-gap-ms MS: an untimed pause after every release (default 0: strokes back to back),
// the time between a person's strokes, in which the journal's thread writes and syncs.
//
// Exit codes: 0 success, 1 the picture could not be saved or the journal could not be created
// or made durable, 2 bad arguments or bad input.

import Glibc
import PaintCore
import PaintIO

/// The parsed command line.
struct Options {
    var input = ""
    var output: String?
    /// Where to save the window's picture as the events' rectangles left it (`--out-view`).
    var viewOutput: String?
    var repeats = 1
    var json = false
    /// Journal folder for a single run with the journal on.
    var journal: String?
    /// Journal folder for the off/on comparison.
    var compareJournal: String?
    /// Runs of each kind in the comparison.
    var runs = 3
    /// Untimed pause after each release, in microseconds.
    var strokeGap: UInt32 = 0
    /// Replays on fresh engines, each event's time the least of them (0: one replay).
    var bestOf = 0
    /// How the strokes turn samples into lines (`--curves`, `--stabilizer N`).
    var dynamics = StrokeDynamics.straight
    /// Samples a turn of the window's loop feeds before it presents (`--per-turn N`; 0: each
    /// sample on its own, drawn by its `move`).
    var samplesPerTurn = 0
    /// Print where the time goes by kind of event (`--breakdown`).
    var breakdown = false

    static let usage =
        "usage: paint-bench STROKES.jsonl [--out OUT.png] [--out-view OUT.png] [--repeat N] [--json]"
        + " [--journal DIR | --compare-journal DIR [--runs N]] [--stroke-gap-ms MS] [--best-of N] [--curves]"
        + " [--stabilizer N] [--per-turn N] [--breakdown]"

    /// Reads the replay's options and its one input path; a mistake ends the program.
    init(arguments: [String]) {
        var reader = ArgumentReader(arguments, usage: Self.usage)
        var input: String?
        while let option = reader.next() {
            switch option {
            case "--out", "-o": output = reader.value()
            case "--out-view": viewOutput = reader.value()
            case "--repeat", "-n": repeats = reader.integer(in: 1...100_000)
            case "--json": json = true
            case "--breakdown": breakdown = true
            case "--best-of": bestOf = reader.integer(in: 1...100)
            case "--curves": dynamics.curves = true
            case "--stabilizer": dynamics.stabilizer = reader.integer(in: StrokeDynamics.stabilizerRange)
            case "--per-turn": samplesPerTurn = reader.integer(in: 1...64)
            case "--journal": journal = reader.value()
            case "--compare-journal": compareJournal = reader.value()
            case "--runs": runs = reader.integer(in: 1...1000)
            case "--stroke-gap-ms": strokeGap = UInt32(reader.integer(in: 0...10_000)) * 1000
            default: input = reader.word(replacing: input)
            }
        }
        guard let input else { reader.reject("no input file") }
        if journal != nil && compareJournal != nil {
            reader.reject("--journal and --compare-journal cannot be combined")
        }
        if compareJournal != nil && json {
            reader.reject("--compare-journal prints lines only, not --json")
        }
        for folder in [journal, compareJournal] where folder?.isEmpty == true {
            reader.reject("the journal folder must not be empty")
        }
        self.input = input
    }
}

/// Prints one line to stderr and exits with `code`.
func fail(_ message: String, code: Int32) -> Never {
    warn(message)
    exit(code)
}

/// The text of a JSON string literal.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x20:
            out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// The subcommands by name; without one of them first, the arguments are a stroke replay's.
let subcommands: [String: ([String]) -> Never] = [
    "x11": runX11Bench, "shapes": runShapeBench, "replay": runReplayBench, "history": runHistoryBench,
    "text": runTextBench, "restore": runRestoreBench, "memory": runMemoryBench, "open": runOpenBench,
    "open-file": runOpenFile,
    "geometry": runGeometryBench, "store": runStoreBench, "save": runSaveBench, "encode": runEncodeBench,
]
if CommandLine.arguments.count > 1, let run = subcommands[CommandLine.arguments[1]] {
    run(Array(CommandLine.arguments.dropFirst(2)))
}

let options = Options(arguments: Array(CommandLine.arguments.dropFirst()))

let strokeFile: StrokeFile = {
    var file = StrokeFile.load(options.input)
    for i in file.strokes.indices { file.strokes[i].style.dynamics = options.dynamics }
    return file
}()

/// A journal for a replay, started the way the program starts one for a new untitled picture.
func startJournal(in folder: String) -> JournalWriter {
    let header = JournalHeader(
        documentPath: nil, width: strokeFile.canvasWidth, height: strokeFile.canvasHeight,
        background: .color(.white))
    do {
        return try JournalWriter.create(in: folder, header: header)
    } catch {
        fail(error.description, code: 1)
    }
}

/// Waits until everything appended is durable, takes the latencies, deletes the journal.
func finishJournal(_ journal: JournalWriter) -> [Double] {
    let durable = journal.flush(timeout: 60)
    let latencies = journal.durableLatencies()
    let error = journal.lastError
    let pending = journal.pendingCount
    journal.discard()
    if !durable {
        fail(
            "the journal did not become durable (\(pending) operations pending)"
                + (error.map { ": \($0.description)" } ?? ""), code: 1)
    }
    if let error { warn("the journal hit a disk error on the way (retried): \(error.description)") }
    return latencies
}

/// Prints one line to stderr without exiting.
func warn(_ message: String) {
    // write(2) rather than fputs(stderr): the C global is not concurrency-safe in Swift 6.
    let line = Array("paint-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// Durable latencies (seconds) in nanoseconds, for `TimingStats`.
func latencyNanoseconds(_ seconds: [Double]) -> [UInt64] {
    seconds.map { UInt64(max(0, $0) * 1e9) }
}

func durableLine(_ seconds: [Double]) -> String {
    let stats = TimingStats(nanoseconds: latencyNanoseconds(seconds))
    return "journal_durable_ms p50=\(fixed(stats.p50Microseconds / 1000, 3))"
        + " p99=\(fixed(stats.p99Microseconds / 1000, 3)) max=\(fixed(stats.maxMicroseconds / 1000, 3))"
        + " n=\(stats.count)"
}

func eventLine(_ stats: TimingStats) -> String {
    "events=\(stats.count) total_ms=\(fixed(stats.totalMilliseconds, 3))"
        + " mean_us=\(fixed(stats.meanMicroseconds, 3)) p50_us=\(fixed(stats.p50Microseconds, 3))"
        + " p99_us=\(fixed(stats.p99Microseconds, 3)) max_us=\(fixed(stats.maxMicroseconds, 3))"
}

/// The tail split: releases end a stroke, moves add one segment each.
func splitLine(_ nanoseconds: [UInt64], releases releaseIndices: [Int]) -> String {
    let releaseSet = Set(releaseIndices)
    let moves = TimingStats(
        nanoseconds: nanoseconds.indices.filter { !releaseSet.contains($0) }.map { nanoseconds[$0] })
    let releases = TimingStats(nanoseconds: releaseIndices.map { nanoseconds[$0] })
    return
        "moves n=\(moves.count) mean_us=\(fixed(moves.meanMicroseconds, 3)) p99_us=\(fixed(moves.p99Microseconds, 3))"
        + " max_us=\(fixed(moves.maxMicroseconds, 3))"
        + " releases n=\(releases.count) mean_us=\(fixed(releases.meanMicroseconds, 3))"
        + " p50_us=\(fixed(releases.p50Microseconds, 3)) p99_us=\(fixed(releases.p99Microseconds, 3))"
        + " max_us=\(fixed(releases.maxMicroseconds, 3))"
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func ratioText(_ on: Double, _ off: Double) -> String {
    off > 0 ? fixed(on / off, 3) : "inf"
}

// A space would split the key=value line; the path as typed still goes into --json.
let fileName = options.input.split(separator: "/").last.map(String.init) ?? options.input

if let folder = options.compareJournal {
    // Off and on alternate so that drift (thermal, other load, page cache) hits both alike.
    var offMeans: [Double] = []
    var offP99s: [Double] = []
    var onMeans: [Double] = []
    var onP99s: [Double] = []
    var offReleaseMeans: [Double] = []
    var onReleaseMeans: [Double] = []
    var allLatencies: [Double] = []
    var lastTimer: ReplayTimer?
    for _ in 0..<options.runs {
        for journaling in [false, true] {
            lastTimer = nil
            let timer = ReplayTimer(width: strokeFile.canvasWidth, height: strokeFile.canvasHeight)
            let journal = journaling ? startJournal(in: folder) : nil
            let record = timer.replay(
                strokeFile, times: options.repeats, journal: journal, strokeGap: options.strokeGap)
            if let journal { allLatencies += finishJournal(journal) }
            let stats = TimingStats(nanoseconds: record.nanoseconds)
            let release = TimingStats(nanoseconds: record.releases.map { record.nanoseconds[$0] })
            if journaling {
                onMeans.append(stats.meanMicroseconds)
                onP99s.append(stats.p99Microseconds)
                onReleaseMeans.append(release.meanMicroseconds)
            } else {
                offMeans.append(stats.meanMicroseconds)
                offP99s.append(stats.p99Microseconds)
                offReleaseMeans.append(release.meanMicroseconds)
            }
            print(
                "journal=\(journaling ? "on" : "off") " + eventLine(stats)
                    + " release_mean_us=\(fixed(release.meanMicroseconds, 3)) releases=\(release.count)")
            fflush(nil)
            lastTimer = timer
        }
    }
    print(
        "journal_overhead mean_ratio=\(ratioText(median(onMeans), median(offMeans)))"
            + " p99_ratio=\(ratioText(median(onP99s), median(offP99s)))"
            + " release_mean_ratio=\(ratioText(median(onReleaseMeans), median(offReleaseMeans)))"
            + " runs=\(options.runs) stroke_gap_ms=\(options.strokeGap / 1000) file=\(fileName)")
    print(durableLine(allLatencies))
    fflush(nil)
    if let output = options.output, let timer = lastTimer {
        do {
            try ImageFile.save(timer.engine.flattenedImage(), to: output, withAlpha: false)
        } catch {
            fail(error.message, code: 1)
        }
    }
    exit(0)
}

let timer = ReplayTimer(width: strokeFile.canvasWidth, height: strokeFile.canvasHeight)
timer.samplesPerTurn = options.samplesPerTurn
let journal = options.journal.map { startJournal(in: $0) }
let record = timer.replay(strokeFile, times: options.repeats, journal: journal, strokeGap: options.strokeGap)
let durableLatencies = journal.map { finishJournal($0) }
let floorTimes = timer.floor(for: record)

let engineStats = TimingStats(nanoseconds: record.nanoseconds)
let floorStats = TimingStats(nanoseconds: floorTimes)
let ratio = floorStats.meanMicroseconds > 0 ? engineStats.meanMicroseconds / floorStats.meanMicroseconds : .infinity
// Measured before saving, so the figure is the replay's, not libpng's.
let peakMegabytes = peakResidentMegabytes() ?? 0

if options.json {
    var fields: [(String, String)] = [
        ("file", jsonString(options.input)),
        ("canvas", "[\(strokeFile.canvasWidth), \(strokeFile.canvasHeight)]"),
        ("repeat", "\(options.repeats)"),
        ("events", "\(engineStats.count)"),
        ("total_ms", fixed(engineStats.totalMilliseconds, 3)),
        ("mean_us", fixed(engineStats.meanMicroseconds, 3)),
        ("p50_us", fixed(engineStats.p50Microseconds, 3)),
        ("p99_us", fixed(engineStats.p99Microseconds, 3)),
        ("max_us", fixed(engineStats.maxMicroseconds, 3)),
        ("bytes_touched", "\(record.bytesTouched)"),
        ("floor_mean_us", fixed(floorStats.meanMicroseconds, 3)),
        ("ratio_mean", ratio.isFinite ? fixed(ratio, 2) : "null"),
        ("rss_peak_mb", fixed(peakMegabytes, 1)),
    ]
    if let durableLatencies {
        let stats = TimingStats(nanoseconds: latencyNanoseconds(durableLatencies))
        fields += [
            ("journal_durable_p50_ms", fixed(stats.p50Microseconds / 1000, 3)),
            ("journal_durable_p99_ms", fixed(stats.p99Microseconds / 1000, 3)),
            ("journal_durable_max_ms", fixed(stats.maxMicroseconds / 1000, 3)),
            ("journal_durable_n", "\(stats.count)"),
        ]
    }
    print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
} else {
    print(eventLine(engineStats))
    print(
        "bytes_touched=\(record.bytesTouched) floor_mean_us=\(fixed(floorStats.meanMicroseconds, 3))"
            + " ratio_mean=\(fixed(ratio, 2)) rss_peak_mb=\(fixed(peakMegabytes, 1)) file=\(fileName)")
    if let durableLatencies { print(durableLine(durableLatencies)) }
    print(splitLine(record.nanoseconds, releases: record.releases))
    if options.breakdown {
        let kinds = EventBreakdown(
            file: strokeFile, nanoseconds: record.nanoseconds, rectangles: record.rectangles, times: options.repeats)
        for line in kinds.lines(prefix: "") { print(line) }
    }
    let idle = TimingStats(nanoseconds: record.idleSlices)
    print(
        "merge_slices n=\(idle.count) mean_us=\(fixed(idle.meanMicroseconds, 3))"
            + " p99_us=\(fixed(idle.p99Microseconds, 3)) max_us=\(fixed(idle.maxMicroseconds, 3))"
            + " tiles_per_slice=\(ReplayTimer.mergeSlice) engine_pixel_mb=\(fixed(Double(timer.engine.pixelBytes) / 1_048_576, 1))"
    )
    if options.bestOf > 1 {
        // On a shared machine single events are stretched by preemption; the least of several
        // replays of the same event is what the event costs.
        var best = record.nanoseconds
        var bestIdle = record.idleSlices
        for _ in 1..<options.bestOf {
            let fresh = ReplayTimer(width: strokeFile.canvasWidth, height: strokeFile.canvasHeight)
            fresh.samplesPerTurn = options.samplesPerTurn
            let again = fresh.replay(strokeFile, times: options.repeats)
            for i in best.indices { best[i] = min(best[i], again.nanoseconds[i]) }
            if again.idleSlices.count == bestIdle.count {
                for i in bestIdle.indices { bestIdle[i] = min(bestIdle[i], again.idleSlices[i]) }
            }
        }
        let stats = TimingStats(nanoseconds: best)
        let idleBest = TimingStats(nanoseconds: bestIdle)
        print("best_of=\(options.bestOf) " + eventLine(stats))
        print("best_of=\(options.bestOf) " + splitLine(best, releases: record.releases))
        if options.breakdown {
            let kinds = EventBreakdown(
                file: strokeFile, nanoseconds: best, rectangles: record.rectangles, times: options.repeats)
            for line in kinds.lines(prefix: "best_of=\(options.bestOf) ") { print(line) }
        }
        print(
            "best_of=\(options.bestOf) merge_slices mean_us=\(fixed(idleBest.meanMicroseconds, 3))"
                + " max_us=\(fixed(idleBest.maxMicroseconds, 3))")
    }
}
// Both lines must reach a pipe even if saving below fails and exits.
fflush(nil)

if let output = options.viewOutput {
    do {
        try ImageFile.save(timer.presented, to: output, withAlpha: false)
    } catch {
        fail(error.message, code: 1)
    }
}
if let output = options.output {
    do {
        try ImageFile.save(timer.engine.flattenedImage(), to: output, withAlpha: false)
    } catch {
        // The message already names the file and the reason ("Cannot save “x.png”: ...").
        fail(error.message, code: 1)
    }
}

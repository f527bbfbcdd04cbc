// paint-bench: replays recorded strokes through the stroke engine and prints per-event times.
//
//   paint-bench STROKES.jsonl [--out OUT.png] [--repeat N] [--json]
//
// Exit codes: 0 success, 1 the picture could not be saved, 2 bad arguments or bad input.

import Glibc
import PaintCore
import PaintIO

/// The parsed command line.
struct Options {
    var input = ""
    var output: String?
    var repeats = 1
    var json = false

    static let usage = "usage: paint-bench STROKES.jsonl [--out OUT.png] [--repeat N] [--json]"

    /// Accepts `--out X`, `--out=X`, `--repeat N`, `--repeat=N`, `--json`, and one input path.
    init(arguments: [String]) throws {
        var rest = arguments[...]
        var input: String?
        while let argument = rest.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = rest.popFirst() else { throw ParseError(message: "\(name) needs a value") }
                return next
            }
            switch name {
            case "--out", "-o":
                output = try value()
            case "--repeat", "-n":
                let text = try value()
                guard let n = Int(text), n >= 1, n <= 100_000 else {
                    throw ParseError(message: "--repeat needs a whole number from 1 to 100000, got \"\(text)\"")
                }
                repeats = n
            case "--json":
                json = true
            case "-h", "--help":
                print(Self.usage)
                exit(0)
            default:
                if name.hasPrefix("-") && name != "-" { throw ParseError(message: "unknown option \(name)") }
                guard input == nil else { throw ParseError(message: "more than one input file") }
                input = argument
            }
        }
        guard let input else { throw ParseError(message: "no input file") }
        self.input = input
    }
}

/// Prints one line to stderr and exits with `code`.
func fail(_ message: String, code: Int32) -> Never {
    // write(2) rather than fputs(stderr): the C global is not concurrency-safe in Swift 6.
    let line = Array("paint-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
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

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "x11" {
    runX11Bench(arguments: Array(CommandLine.arguments.dropFirst(2)))
}

// Errors on stdout would corrupt the one-line result that scripts parse.
let options: Options
do {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch let error as ParseError {
    fail("\(error.message)\n\(Options.usage)", code: 2)
} catch {
    fail("\(error)", code: 2)
}

let strokeFile: StrokeFile
do {
    strokeFile = try StrokeFile(path: options.input)
} catch let error as ParseError {
    fail(error.message, code: 2)
} catch {
    fail("\(options.input): \(error)", code: 2)
}

let timer = ReplayTimer(width: strokeFile.canvasWidth, height: strokeFile.canvasHeight)
let record = timer.replay(strokeFile, times: options.repeats)
let floorTimes = timer.floor(for: record)

let engineStats = TimingStats(nanoseconds: record.nanoseconds)
let floorStats = TimingStats(nanoseconds: floorTimes)
let ratio = floorStats.meanMicroseconds > 0 ? engineStats.meanMicroseconds / floorStats.meanMicroseconds : .infinity
// Measured before saving, so the figure is the replay's, not libpng's.
let peakMegabytes = peakResidentMegabytes() ?? 0
// A space would split the key=value line; the path as typed still goes into --json.
let fileName = options.input.split(separator: "/").last.map(String.init) ?? options.input

if options.json {
    let fields: [(String, String)] = [
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
    print("{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
} else {
    print(
        "events=\(engineStats.count) total_ms=\(fixed(engineStats.totalMilliseconds, 3))"
            + " mean_us=\(fixed(engineStats.meanMicroseconds, 3)) p50_us=\(fixed(engineStats.p50Microseconds, 3))"
            + " p99_us=\(fixed(engineStats.p99Microseconds, 3)) max_us=\(fixed(engineStats.maxMicroseconds, 3))")
    print(
        "bytes_touched=\(record.bytesTouched) floor_mean_us=\(fixed(floorStats.meanMicroseconds, 3))"
            + " ratio_mean=\(fixed(ratio, 2)) rss_peak_mb=\(fixed(peakMegabytes, 1)) file=\(fileName)")
}
// Both lines must reach a pipe even if saving below fails and exits.
fflush(nil)

if let output = options.output {
    do {
        try ImageFile.save(timer.engine.flattenedImage(), to: output, withAlpha: false)
    } catch {
        // The message already names the file and the reason ("Cannot save “x.png”: ...").
        fail(error.message, code: 1)
    }
}

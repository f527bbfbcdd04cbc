import Glibc
import PaintCore

/// One recorded stroke: its style and where its points sit in `StrokeFile.points`.
struct RecordedStroke {
    var style: StrokeStyle
    /// Indices into `StrokeFile.points`; never empty (a click is one point).
    let points: Range<Int>
}

/// A benchmark input file (format in `shared/bench/README.md`): a header line with the canvas
/// size, then one JSON object per stroke.
///
/// All points live in one flat array so the replay loop walks contiguous memory and never
/// touches an allocation of its own while it is being timed.
struct StrokeFile {
    /// The largest canvas the bench accepts. The bench holds about 21 bytes per pixel (engine
    /// buffers, the present copy and the two floor buffers), so this caps it near 3 GB instead
    /// of letting a typo in the header abort in the allocator.
    static let maxSide = 16384
    static let maxPixels = 1 << 27
    /// Refuse absurd inputs before reading them into memory.
    static let maxFileBytes = 1 << 30

    let canvasWidth: Int
    let canvasHeight: Int
    var strokes: [RecordedStroke]
    let points: [Point]

    /// One event per point: press, moves, and the release folded into the last point's event.
    var eventCount: Int { points.count }

    /// Loads and validates `path` for a subcommand: a problem ends the program (exit code 2)
    /// with the message, which names the file and line.
    static func load(_ path: String) -> StrokeFile {
        do { return try StrokeFile(path: path) } catch let error as ParseError { fail(error.message, code: 2) } catch {
            fail("\(path): \(error)", code: 2)
        }
    }

    /// Loads and validates `path`; every problem becomes a `ParseError` naming the line.
    init(path: String) throws {
        var bytes = try Self.readFile(path)
        // strtod needs a terminator after the last number of a file without a final newline.
        bytes.append(0)
        let size = bytes.count - 1
        var header: (width: Int, height: Int, strokes: Int?, events: Int?)?
        var strokes: [RecordedStroke] = []
        var points: [Point] = []
        try bytes.withUnsafeBufferPointer { buffer in
            var lineNumber = 0
            var lineStart = 0
            while lineStart < size {
                lineNumber += 1
                var lineEnd = lineStart
                while lineEnd < size && buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                let range = lineStart..<lineEnd
                if Self.isBlank(buffer, range) { continue }
                do {
                    var scanner = JSONScanner(buffer, range: range)
                    if header == nil {
                        header = try Self.parseHeader(&scanner)
                    } else {
                        strokes.append(try Self.parseStroke(&scanner, into: &points))
                    }
                    try scanner.expectEnd()
                } catch let error as ParseError {
                    throw ParseError(message: "\(path):\(lineNumber): \(error.message)")
                }
            }
        }
        guard let header else { throw ParseError(message: "\(path): empty file, expected a header line") }
        // The header's counts catch a truncated or concatenated file, which would otherwise
        // silently benchmark something else.
        if let expected = header.strokes, expected != strokes.count {
            throw ParseError(message: "\(path): header says \(expected) strokes, file has \(strokes.count)")
        }
        if let expected = header.events, expected != points.count {
            throw ParseError(message: "\(path): header says \(expected) events, file has \(points.count)")
        }
        canvasWidth = header.width
        canvasHeight = header.height
        self.strokes = strokes
        self.points = points
    }

    // MARK: Lines

    private static func parseHeader(_ scanner: inout JSONScanner) throws -> (Int, Int, Int?, Int?) {
        var size: (Int, Int)?
        var strokes: Int?
        var events: Int?
        try scanner.readObject { scanner, key in
            switch key {
            case "canvas":
                var sides: [Int] = []
                try scanner.readArray { scanner in
                    let side = try readCount(&scanner, "canvas side")
                    guard side >= 1 && side <= maxSide else {
                        throw ParseError(message: "canvas side \(side) is outside 1...\(maxSide)")
                    }
                    sides.append(side)
                }
                guard sides.count == 2 else { throw ParseError(message: "\"canvas\" must be [width, height]") }
                guard sides[0] * sides[1] <= maxPixels else {
                    throw ParseError(message: "canvas \(sides[0]) x \(sides[1]) is over \(maxPixels) pixels")
                }
                size = (sides[0], sides[1])
            case "strokes": strokes = try readCount(&scanner, "\"strokes\"")
            case "events": events = try readCount(&scanner, "\"events\"")
            default: try scanner.skipValue()
            }
        }
        guard let size else { throw ParseError(message: "header has no \"canvas\": [width, height]") }
        return (size.0, size.1, strokes, events)
    }

    private static func parseStroke(_ scanner: inout JSONScanner, into points: inout [Point]) throws -> RecordedStroke {
        var tool: StrokeTool?
        var width: Double?
        var color: Color?
        var opacity: Double?
        let first = points.count
        var sawPoints = false
        try scanner.readObject { scanner, key in
            switch key {
            case "tool":
                let name = try scanner.readString()
                guard let value = StrokeTool(rawValue: name) else {
                    throw ParseError(message: "unknown tool \"\(name)\" (brush or eraser)")
                }
                tool = value
            case "width":
                let value = try scanner.readNumber()
                guard value >= 1 && value <= 1000 else {
                    throw ParseError(message: "width \(value) is outside 1...1000")
                }
                width = value
            case "color":
                let text = try scanner.readString()
                guard let value = Color(hex: text) else {
                    throw ParseError(message: "color \"\(text)\" is not #rrggbb")
                }
                color = value
            case "opacity":
                let value = try scanner.readNumber()
                guard value > 0 && value <= 1 else { throw ParseError(message: "opacity \(value) is outside (0, 1]") }
                opacity = value
            case "points":
                guard !sawPoints else { throw ParseError(message: "\"points\" appears twice") }
                sawPoints = true
                try scanner.readArray { scanner in
                    var xy: [Double] = []
                    try scanner.readArray { scanner in
                        xy.append(try scanner.readNumber())
                        if xy.count > 2 { throw ParseError(message: "a point has more than two coordinates") }
                    }
                    guard xy.count == 2 else { throw ParseError(message: "a point must be [x, y]") }
                    // Doubles from JSON are finite unless they overflow (1e999); the engine would
                    // ignore such a point, which would desynchronise the event count.
                    guard xy[0].isFinite && xy[1].isFinite else { throw ParseError(message: "a coordinate overflows") }
                    points.append(Point(x: xy[0], y: xy[1]))
                }
            default:
                try scanner.skipValue()
            }
        }
        guard let tool else { throw ParseError(message: "stroke has no \"tool\"") }
        guard let width else { throw ParseError(message: "stroke has no \"width\"") }
        guard let opacity else { throw ParseError(message: "stroke has no \"opacity\"") }
        // The eraser ignores color, so a file may leave it out.
        guard let color = color ?? (tool == .eraser ? .black : nil) else {
            throw ParseError(message: "stroke has no \"color\"")
        }
        guard points.count > first else { throw ParseError(message: "stroke has no points") }
        return RecordedStroke(
            style: StrokeStyle(tool: tool, color: color, opacity: opacity, width: width),
            points: first..<points.count)
    }

    /// Reads a non-negative whole number (written as an integer or as e.g. `1920.0`).
    private static func readCount(_ scanner: inout JSONScanner, _ what: String) throws -> Int {
        let value = try scanner.readNumber()
        guard value >= 0 && value <= 1e15 && value.rounded() == value else {
            throw ParseError(message: "\(what) must be a whole number, got \(value)")
        }
        return Int(value)
    }

    private static func isBlank(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.allSatisfy { buffer[$0] == 0x20 || buffer[$0] == 0x09 || buffer[$0] == 0x0D }
    }

    // MARK: File

    /// Reads a whole regular file with plain POSIX calls (no Foundation: it would add start-up
    /// time and resident memory to a tool that reports peak RSS).
    private static func readFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ParseError(message: "cannot open \(path): \(errorText(errno))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ParseError(message: "cannot read \(path): \(errorText(errno))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ParseError(message: "\(path) is not a regular file") }
        guard info.st_size <= maxFileBytes else { throw ParseError(message: "\(path) is larger than 1 GB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        // Loop: read may return less than asked, and the file may shrink while we read it.
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw ParseError(message: "cannot read \(path): \(errorText(errno))")
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }
}

/// The C library's description of an errno value.
func errorText(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "error \(code)"
}

import Glibc

/// Why a line of the stroke file was rejected, in words for the one-line error message.
struct ParseError: Error {
    let message: String
}

/// A pull parser for one JSON text held in a byte buffer.
///
/// The stroke files hold ~100k numbers; a generic decoder would build a dictionary per stroke and
/// a boxed value per coordinate. This scanner lets the caller walk objects and arrays in place and
/// read numbers straight into `Double`s, while still checking the full JSON grammar so a damaged
/// line is reported instead of misread. Unknown keys are skipped, so newer files still load.
struct JSONScanner {
    /// Deep nesting is never valid stroke data; the limit keeps `skipValue` from exhausting the
    /// stack on a hostile line.
    static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    private let end: Int
    /// Where the line starts, so columns in messages count from 1 at the line's first byte.
    private let lineStart: Int
    private var depth = 0

    /// Scans `bytes[range]`. The buffer must hold a byte that is not part of a number after
    /// `range` (the loader appends a NUL), because numbers are converted with `strtod`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
        self.lineStart = range.lowerBound
    }

    // MARK: Structure

    /// Reads an object, calling `body` with the scanner positioned at each member's value; the
    /// body must consume exactly that value.
    mutating func readObject(_ body: (inout JSONScanner, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object")
        try enter()
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            let key = try readString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            try body(&self, key)
            skipWhitespace()
            if try separatorEnds(closing: UInt8(ascii: "}")) { break }
        }
        depth -= 1
    }

    /// Reads an array, calling `body` once per element with the scanner at the element.
    mutating func readArray(_ body: (inout JSONScanner) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array")
        try enter()
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try body(&self)
            skipWhitespace()
            if try separatorEnds(closing: UInt8(ascii: "]")) { break }
        }
        depth -= 1
    }

    /// Checks that only whitespace follows the value just read.
    mutating func expectEnd() throws {
        skipWhitespace()
        if position < end { throw ParseError(message: "unexpected \(describe(bytes[position])) after the value") }
    }

    // MARK: Values

    /// Reads a JSON number. The grammar is checked here (strtod alone would also take hex,
    /// "inf" or leading spaces); the conversion itself is libc's, so it is correctly rounded.
    mutating func readNumber() throws -> Double {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw unexpected("a number") }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let d = peek(), isDigit(d) else { throw unexpected("a digit after '.'") }
            skipDigits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            position += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            guard let d = peek(), isDigit(d) else { throw unexpected("a digit in the exponent") }
            skipDigits()
        }
        guard let base = bytes.baseAddress else { throw ParseError(message: "empty input") }
        let expectedStop = UnsafeRawPointer(base + position)
        let value = (base + start).withMemoryRebound(to: CChar.self, capacity: position - start + 1) { text in
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(text, &stop)
            // Both grammars agree on valid JSON numbers; a mismatch would mean a misread.
            return stop.map { UnsafeRawPointer($0) == expectedStop } == true ? value : nil
        }
        guard let value else { throw ParseError(message: "bad number at column \(start - lineStart + 1)") }
        return value
    }

    /// Reads a JSON string, decoding escapes.
    mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""), "a string")
        var utf8: [UInt8] = []
        while true {
            guard position < end else { throw ParseError(message: "unterminated string") }
            let c = bytes[position]
            position += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &utf8)
            case 0..<0x20:
                throw ParseError(message: "control character in a string")
            default:
                utf8.append(c)
            }
        }
    }

    /// Skips any value (used for members the bench does not need).
    mutating func skipValue() throws {
        switch peek() {
        case UInt8(ascii: "{"): try readObject { scanner, _ in try scanner.skipValue() }
        case UInt8(ascii: "["): try readArray { scanner in try scanner.skipValue() }
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"): try expectWord("true")
        case UInt8(ascii: "f"): try expectWord("false")
        case UInt8(ascii: "n"): try expectWord("null")
        default: _ = try readNumber()
        }
    }

    // MARK: Helpers

    private mutating func enter() throws {
        depth += 1
        if depth > Self.maxDepth { throw ParseError(message: "nesting deeper than \(Self.maxDepth)") }
    }

    /// After a member or element: true at the closing bracket, false after a comma.
    private mutating func separatorEnds(closing: UInt8) throws -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            return false
        case closing:
            position += 1
            return true
        default:
            throw unexpected("',' or '\(Character(Unicode.Scalar(closing)))'")
        }
    }

    private mutating func readEscape(into utf8: inout [UInt8]) throws {
        guard position < end else { throw ParseError(message: "unterminated string") }
        let c = bytes[position]
        position += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(c)
        case UInt8(ascii: "b"): utf8.append(8)
        case UInt8(ascii: "f"): utf8.append(12)
        case UInt8(ascii: "n"): utf8.append(10)
        case UInt8(ascii: "r"): utf8.append(13)
        case UInt8(ascii: "t"): utf8.append(9)
        case UInt8(ascii: "u"):
            guard position + 4 <= end else { throw ParseError(message: "short \\u escape") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = hexValue(bytes[position]) else { throw ParseError(message: "bad \\u escape") }
                code = code << 4 | digit
                position += 1
            }
            // Surrogate halves are not paired up: no field the bench reads can hold them, and an
            // unpaired one decodes to U+FFFD rather than failing.
            let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
            utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw ParseError(message: "bad escape \\\(describe(c))")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard position + count <= end else { throw unexpected("'\(word)'") }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] {
            throw unexpected("'\(word)'")
        }
        position += count
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else { throw unexpected(what) }
        position += 1
    }

    private func unexpected(_ what: String) -> ParseError {
        let found = position < end ? describe(bytes[position]) : "end of line"
        return ParseError(message: "expected \(what) at column \(position - lineStart + 1), found \(found)")
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    @inline(__always)
    private func peek() -> UInt8? { position < end ? bytes[position] : nil }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < end {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    private mutating func skipDigits() {
        while let d = peek(), isDigit(d) { position += 1 }
    }

    @inline(__always)
    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}

import Glibc

/// `file:` URIs, as a file manager hands them over in a drag and drop (`text/uri-list`, RFC 2483)
/// and as the freedesktop specs write paths: `file:///home/ana/My%20Pictures/a.png`.
public enum FileURI {
    /// The paths of the `file:` URIs in a `text/uri-list`, in order: lines ending in CR LF (a
    /// lone LF is accepted), `#` comment lines skipped, percent escapes decoded. Other schemes
    /// (`http:`…) and URIs naming another host are left out and counted.
    public static func paths(inURIList text: String) -> (paths: [String], others: Int) {
        var paths: [String] = []
        var others = 0
        for line in lines(of: text) {
            if let path = path(of: line) { paths.append(path) } else { others += 1 }
        }
        return (paths, others)
    }

    /// The text of a `text/uri-list` as it arrived (`bytes`), for `paths`: a byte that is not
    /// ASCII (a URI has none, but a program may send a name as it is) becomes its `%XX` escape,
    /// so a name that is not UTF-8 is seen as such (`namesNotUTF8`) instead of being repaired
    /// into another file's name (`�.png`). With `cut` (the list was longer than what was read)
    /// its last line, which may end mid-name, is left out.
    public static func text(ofURIList bytes: some Collection<UInt8>, cut: Bool) -> String {
        var kept = Array(bytes)
        if cut {
            let lastBreak = kept.lastIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
            kept.removeSubrange((lastBreak.map { $0 + 1 } ?? 0)...)
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(kept.count)
        for byte in kept {
            if byte < 0x80 {
                text.append(byte)
            } else {
                text += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// How many `file:` URIs of this computer in `text` name a file whose name is not UTF-8:
    /// `paths` leaves them out, as SwiftPaint cannot hold such a name without changing it.
    public static func namesNotUTF8(inURIList text: String) -> Int {
        lines(of: text).filter { line in
            guard path(of: line) == nil, let bytes = localPathBytes(of: line), !bytes.contains(0) else { return false }
            return String(validating: bytes, as: UTF8.self) == nil
        }.count
    }

    /// The lines of a `text/uri-list` that are not comments.
    private static func lines(of text: String) -> [String] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).compactMap { raw in
            let line = raw.drop { $0 == " " || $0 == "\t" }
            return line.isEmpty || line.hasPrefix("#") ? nil : String(line)
        }
    }

    /// The absolute path a `file:` URI names (`file:///a%20b.png`, `file://localhost/a.png`,
    /// `file:/a.png`); nil for other URIs, another host, or escapes that are not UTF-8.
    public static func path(of uri: String) -> String? {
        guard let bytes = localPathBytes(of: uri), !bytes.isEmpty, !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The bytes of the path a `file:` URI of this computer names, its escapes decoded; nil
    /// for other URIs, another host, or a `%` not followed by two hex digits.
    private static func localPathBytes(of uri: String) -> [UInt8]? {
        var trimmed = Substring(uri)
        while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
        guard trimmed.lowercased().hasPrefix("file:") else { return nil }
        var rest = trimmed.dropFirst(5)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            // The authority: empty or "localhost" is this computer; the host name is this one too
            // in practice (KDE writes it), but another computer's file is not reachable here.
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let host = rest[..<slash].lowercased()
            guard host.isEmpty || host == "localhost" || host == localHostName else { return nil }
            rest = rest[slash...]
        }
        guard rest.hasPrefix("/") else { return nil }
        return percentDecodedBytes(rest)
    }

    /// `text` with each `%XX` replaced by the byte it stands for; nil when a `%` is not followed
    /// by two hex digits, or the bytes are not UTF-8 or hold a NUL.
    public static func percentDecoded(_ text: Substring) -> String? {
        guard let bytes = percentDecodedBytes(text), !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The bytes `text` stands for, each `%XX` decoded; nil when a `%` is not followed by two
    /// hex digits.
    private static func percentDecodedBytes(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexDigit(utf8[utf8.startIndex]),
                let low = hexDigit(utf8[utf8.startIndex + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            utf8 = utf8.dropFirst(2)
        }
        return bytes
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// This computer's host name, lower case.
    static var localHostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
    }
}

import Glibc

/// The pictures opened or saved last, newest first, at most `capacity`: kept in
/// `$XDG_STATE_HOME/swiftpaint/recent` (default `~/.local/state/swiftpaint/recent`), one absolute
/// path a line, so every SwiftPaint window shares one list.
///
/// Reading never fails: a missing file is an empty list, a damaged one gives the lines that read
/// and a sentence about the rest, a file that is not a list at all (too large, not text) is
/// ignored with a sentence. Writing reads the file again first (another window may have added to
/// it) and replaces it atomically, so a crash leaves the old list or the new one.
public struct RecentFiles: Sendable, Equatable {
    /// The list's file.
    public let path: String

    /// How many pictures the list keeps.
    public static let capacity = 10
    /// Larger than any list of ten paths: anything bigger is not one.
    static let maxBytes = 64 * 1024

    /// `$XDG_STATE_HOME/swiftpaint/recent`.
    public static var defaultPath: String {
        FileSystem.xdgFolder("XDG_STATE_HOME", fallback: ".local/state") + "/swiftpaint/recent"
    }

    /// The list kept in the file at `path`.
    public init(path: String = defaultPath) {
        self.path = path
    }

    /// The first line of the file.
    static let header =
        "# SwiftPaint: pictures opened or saved last, newest first (%25 is a % in a name, %0A a line break)"

    /// The paths in the file, newest first, and what was wrong with it (nil for a good or missing
    /// file).
    public func load() -> (paths: [String], problem: String?) {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.readAll(path, limit: Self.maxBytes)
        } catch {
            if case .cannotRead(_, let code) = error, code == ENOENT { return ([], nil) }
            return ([], "The list of recent pictures (\(path)) was ignored: \(error.description)")
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            return ([], "The list of recent pictures (\(path)) is not text; it was ignored")
        }
        var paths: [String] = []
        var damaged: [Int] = []
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let decoded = Self.decode(line), decoded.hasPrefix("/") else {
                damaged.append(number)
                continue
            }
            if !paths.contains(decoded) && paths.count < Self.capacity { paths.append(decoded) }
        }
        guard !damaged.isEmpty else { return (paths, nil) }
        let lines =
            damaged.count == 1
            ? "line \(damaged[0]) is" : "lines \(damaged.map(String.init).joined(separator: ", ")) are"
        return (paths, "The list of recent pictures (\(path)) is damaged: \(lines) not a path and left out")
    }

    /// Puts `picture` (an absolute path) first and writes the list; returns the list as it now
    /// is and, when it could not be written, why (the list is then what was read, with the
    /// picture first, for this window only).
    @discardableResult
    public func add(_ picture: String) -> (paths: [String], problem: String?) {
        var paths = load().paths
        paths.removeAll { $0 == picture }
        paths.insert(picture, at: 0)
        paths = Array(paths.prefix(Self.capacity))
        return (paths, write(paths))
    }

    /// Replaces the file with `paths` (the first `capacity`); nil, or why it could not be written.
    public func write(_ paths: [String]) -> String? {
        let folder = FileSystem.parentFolder(path)
        do {
            try PrivateFolder.make(folder, ownLevels: 1)
        } catch {
            return "The list of recent pictures was not saved: \(error.description)"
        }
        let lines = [Self.header] + paths.prefix(Self.capacity).map(Self.encode)
        do {
            try AtomicFile.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path, mode: 0o600)
        } catch {
            return "The list of recent pictures was not saved: \(error.description)"
        }
        return nil
    }

    /// A path as a line: `%` and line breaks escaped.
    static func encode(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A line back to its path; nil when a `%` is not followed by two hex digits or the escapes
    /// are not UTF-8.
    static func decode(_ line: Substring) -> String? { FileURI.percentDecoded(line) }
}

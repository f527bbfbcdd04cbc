import Glibc

/// The settings file: `key = value` lines a person can read and edit, `#` comments and blank
/// lines ignored, under `$XDG_CONFIG_HOME/swiftpaint/`.
///
/// Reading never fails: a missing file is no settings, and a damaged one gives whatever lines
/// are good plus, for the rest, a sentence for the status bar. Writing is atomic (a temporary
/// file renamed over the old one), so a crash while saving leaves the old file whole.
public struct SettingsFile: Sendable, Equatable {
    /// The `key = value` pairs in file order (a key given twice keeps its last value).
    public private(set) var entries: [Entry]
    /// What was wrong, one sentence per problem ("line 4 has no “=”"); empty for a good file.
    public private(set) var problems: [String]

    /// One setting.
    public struct Entry: Sendable, Equatable {
        public let key: String
        public let value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    /// Larger than any settings file a person writes: anything bigger is not one.
    public static let maxBytes = 64 * 1024

    /// `$XDG_CONFIG_HOME/swiftpaint/settings.conf` (`~/.config/swiftpaint/settings.conf`).
    public static var defaultPath: String {
        FileSystem.xdgFolder("XDG_CONFIG_HOME", fallback: ".config") + "/swiftpaint/settings.conf"
    }

    /// Settings from `entries`.
    public init(entries: [Entry] = []) {
        self.entries = entries
        problems = []
    }

    /// The value of `key`, if the file sets it.
    public subscript(key: String) -> String? { entries.last { $0.key == key }?.value }

    /// Notes a value the program could not use (a line that parsed, with a value out of range).
    public mutating func reject(_ key: String, _ why: String) {
        problems.append("“\(key)” \(why)")
        entries.removeAll { $0.key == key }
    }

    /// The settings in `text`.
    public static func parse(_ text: String) -> SettingsFile {
        var file = SettingsFile()
        var number = 0
        // "\r\n" is one Character in Swift: a file written on Windows splits too.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let trimmed = String(line).trimmingWhitespace
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                file.problems.append("line \(number) has no “=”")
                continue
            }
            let key = String(trimmed[..<equals]).trimmingWhitespace
            let value = String(trimmed[trimmed.index(after: equals)...]).trimmingWhitespace
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
            else {
                file.problems.append("line \(number) has no setting name before “=”")
                continue
            }
            file.entries.append(Entry(key: key, value: value))
        }
        return file
    }

    /// Reads the file at `path`. A missing file gives no settings and no problem; a file that
    /// cannot be read, is too large or is not text gives no settings and says why.
    public static func load(path: String) -> SettingsFile {
        let name = FileSystem.lastComponent(path)
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.readAll(path, limit: maxBytes)
        } catch {
            var file = SettingsFile()
            switch error {
            case .cannotRead(_, let e) where e == ENOENT: return file
            case .fileTooBig: file.problems.append("\(name) is larger than \(maxBytes / 1024) KB: not a settings file")
            default: file.problems.append(error.message)
            }
            return file
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            var file = SettingsFile()
            file.problems.append("\(name) is not text")
            return file
        }
        return parse(text)
    }

    /// The file's text: `header` as comment lines, then one `key = value` line per entry.
    public func text(header: [String]) -> String {
        header.map { "# \($0)\n" }.joined() + entries.map { "\($0.key) = \($0.value)\n" }.joined()
    }

    /// Writes the settings to `path` atomically, creating its folder (0700) if missing.
    public func save(to path: String, header: [String]) throws(ImageFileError) {
        let folder = FileSystem.parentFolder(path)
        do {
            try PrivateFolder.make(folder, ownLevels: 1)
        } catch {
            throw .cannotWrite(path: path, errno: error.errno == 0 ? EACCES : error.errno)
        }
        try AtomicFile.write(Array(text(header: header).utf8), to: path, mode: 0o600)
    }
}

extension SettingsFile {
    /// Beside the settings file at `path`: the note a run that could not save its settings
    /// leaves for the next start, which says so on the status bar (the program's window is
    /// gone by the time they are written, and nobody reads stderr).
    public static func unsavedNotePath(for path: String) -> String { path + ".unsaved" }

    /// Leaves the note that the settings could not be saved, with `reason` in it as far as the
    /// disk takes it: on a full disk an empty file can usually still be made (a name, no
    /// data), and an empty note still says the settings were lost.
    public static func leaveUnsavedNote(_ reason: String, for path: String) {
        let fd = open(unsavedNotePath(for: path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(reason.utf8.prefix(maxNoteBytes))
        // Best effort: a short write on a full disk leaves part of the reason, which is cut
        // back to whole characters when read.
        _ = bytes.withUnsafeBytes { raw in raw.baseAddress.map { write(fd, $0, raw.count) } }
        _ = close(fd)
    }

    /// Whether the last run left the note that its settings could not be saved, and the reason
    /// it holds ("" when none could be written); removes it, so it is said once.
    public static func takeUnsavedNote(for path: String) -> String? {
        let note = unsavedNotePath(for: path)
        guard FileSystem.kind(note) == .file else { return nil }
        let bytes = (try? ImageFile.readAll(note, limit: maxNoteBytes)) ?? []
        _ = unlink(note)
        var text = String(decoding: bytes, as: UTF8.self)
        // A write cut short by the full disk may end inside a character.
        while text.unicodeScalars.last == "\u{FFFD}" { text.unicodeScalars.removeLast() }
        // Only text a person can read: a damaged note says no reason rather than garbage.
        return text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0 != "\u{FFFD}" }) ? text : ""
    }

    /// Removes the note (the settings were saved).
    public static func removeUnsavedNote(for path: String) {
        _ = unlink(unsavedNotePath(for: path))
    }

    private static let maxNoteBytes = 1024
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

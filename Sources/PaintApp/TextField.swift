import PaintIO

/// A one-line text field with a cursor, for the Save As prompt; Tab completes file names.
public struct TextField: Sendable, Equatable {
    /// The text typed so far.
    public var text: String
    /// Cursor position, in characters from the start.
    public var cursor: Int

    /// A field holding `text` with the cursor at its end.
    public init(_ text: String) {
        self.text = text
        cursor = text.count
    }

    /// Applies an editing key; returns false for keys the field does not handle.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let c):
            let index = text.index(text.startIndex, offsetBy: cursor)
            text.insert(c, at: index)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor - 1))
            cursor -= 1
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        default: return false
        }
        return true
    }

    /// Completes the file name before the cursor from the folder it names, as a shell does:
    /// one match is completed (folders get a `/`), several are completed to their common
    /// prefix. Returns the candidates when more than one matched.
    public mutating func complete() -> [String] {
        let expanded = PathDisplay.expandingTilde(text)
        let slash = expanded.lastIndex(of: "/")
        let folder = slash.map { String(expanded[...$0]) } ?? "./"
        let prefix = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        guard let names = FileSystem.names(inFolder: folder) else { return [] }
        let matches = names.filter { $0.hasPrefix(prefix) && ($0.hasPrefix(".") == prefix.hasPrefix(".")) }.sorted()
        guard let first = matches.first else { return [] }
        var common = first
        for name in matches.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        var completed = common
        if matches.count == 1, FileSystem.kind(folder + first) == .folder {
            completed += "/"
        }
        // Tilde expansion only touches the part before the first slash, so the text up to its
        // own last slash is the folder as the user typed it.
        let typedFolder = text.lastIndex(of: "/").map { String(text[...$0]) } ?? ""
        text = typedFolder + completed
        cursor = text.count
        return matches.count > 1 ? matches : []
    }
}

/// Paths as people read them: the home folder shown as `~`.
public enum PathDisplay {
    static var home: String { FileSystem.home }

    /// `/home/ann/Pictures/a.png` becomes `~/Pictures/a.png`.
    public static func abbreviatingHome(_ path: String) -> String {
        let home = home
        guard !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// `~/a.png` becomes `/home/ann/a.png`; other paths are returned as they are.
    public static func expandingTilde(_ path: String) -> String {
        if path == "~" { return home }
        guard path.hasPrefix("~/") else { return path }
        return home + path.dropFirst(1)
    }

    /// An absolute, tilde-expanded path (relative paths are taken from the current folder).
    public static func absolute(_ path: String) -> String {
        let expanded = expandingTilde(path)
        if expanded.hasPrefix("/") { return expanded }
        return FileSystem.currentFolder + "/" + expanded
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

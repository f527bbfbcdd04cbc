import PaintIO

/// A one-line text field with a cursor and a selection, for the prompts in the status bar and
/// the color editor's hex field. It takes the keys every desktop text field takes: Shift with
/// the arrows, Home and End selects; Ctrl+A selects everything; Ctrl+U deletes to the start;
/// Ctrl+W and Ctrl+Backspace delete the word before the cursor (Ctrl+Delete the one after);
/// Ctrl+Left and Ctrl+Right move by words. Typing and pasting replace the selection.
public struct TextField: Sendable, Equatable {
    /// The text typed so far.
    public var text: String
    /// Cursor position, in characters from the start.
    public var cursor: Int
    /// The other end of the selection (the cursor is one end); nil or equal to the cursor when
    /// nothing is selected.
    public var anchor: Int?

    /// A field holding `text` with the cursor at its end.
    public init(_ text: String) {
        self.text = text
        cursor = text.count
    }

    /// The selected characters' range, when any are selected.
    public var selection: Range<Int>? {
        guard let anchor, anchor != cursor else { return nil }
        return min(anchor, cursor)..<max(anchor, cursor)
    }

    /// Applies an editing key; returns false for keys the field does not handle (Enter,
    /// Escape, Tab, Ctrl+V and other commands are the caller's).
    public mutating func handle(_ key: Key, _ modifiers: Modifiers = []) -> Bool {
        let byWord = modifiers.contains(.control)
        let extend = modifiers.contains(.shift)
        switch key {
        case .character(let c):
            if modifiers.contains(.alt) { return false }
            guard byWord else {
                insert(String(c))
                return true
            }
            switch Character(c.lowercased()) {
            case "a": selectAll()
            case "u": replace(0..<cursor, with: "")
            case "w": deleteWordBackward()
            default: return false
            }
        case .backspace:
            if byWord {
                deleteWordBackward()
            } else if selection == nil, cursor > 0 {
                replace(cursor - 1..<cursor, with: "")
            } else {
                deleteSelection()
            }
        case .delete:
            if byWord {
                replace(selection ?? cursor..<wordEnd(after: cursor), with: "")
            } else if selection == nil, cursor < text.count {
                replace(cursor..<cursor + 1, with: "")
            } else {
                deleteSelection()
            }
        case .left:
            if let s = selection, !extend, !byWord {
                moveCursor(to: s.lowerBound, extending: false)
            } else {
                moveCursor(to: byWord ? wordStart(before: cursor) : cursor - 1, extending: extend)
            }
        case .right:
            if let s = selection, !extend, !byWord {
                moveCursor(to: s.upperBound, extending: false)
            } else {
                moveCursor(to: byWord ? wordEnd(after: cursor) : cursor + 1, extending: extend)
            }
        case .home: moveCursor(to: 0, extending: extend)
        case .end: moveCursor(to: text.count, extending: extend)
        default: return false
        }
        return true
    }

    /// Types (or pastes) `typed` at the cursor, over the selection.
    public mutating func insert(_ typed: String) {
        replace(selection ?? cursor..<cursor, with: typed)
    }

    /// Selects the whole text, the cursor at its end.
    public mutating func selectAll() {
        anchor = 0
        cursor = text.count
    }

    /// Puts the cursor at character `index` (a click); `extending` keeps the selection's other
    /// end (Shift+click).
    public mutating func moveCursor(to index: Int, extending: Bool) {
        let index = min(max(index, 0), text.count)
        if extending {
            if anchor == nil { anchor = cursor }
        } else {
            anchor = nil
        }
        cursor = index
    }

    /// Selects the word at character `index` (a double click), or the run of other characters
    /// there.
    public mutating func selectWord(at index: Int) {
        let characters = Array(text)
        guard !characters.isEmpty else { return }
        let i = min(max(index, 0), characters.count - 1)
        let kind = Self.isWordCharacter(characters[i])
        var start = i
        while start > 0 && Self.isWordCharacter(characters[start - 1]) == kind { start -= 1 }
        var end = i + 1
        while end < characters.count && Self.isWordCharacter(characters[end]) == kind { end += 1 }
        anchor = start
        cursor = end
    }

    /// Letters and digits of any script make words; everything else (`/`, `.`, spaces…)
    /// separates them, so Ctrl+Backspace takes back one part of a path.
    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    /// Where the word before `index` starts: back over separators, then over the word.
    func wordStart(before index: Int) -> Int {
        let characters = Array(text)
        var i = min(index, characters.count)
        while i > 0 && !Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0 && Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    /// Where the word after `index` ends: forward over separators, then over the word.
    func wordEnd(after index: Int) -> Int {
        let characters = Array(text)
        var i = max(index, 0)
        while i < characters.count && !Self.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count && Self.isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    private mutating func deleteWordBackward() {
        replace(selection ?? wordStart(before: cursor)..<cursor, with: "")
    }

    private mutating func deleteSelection() {
        if let s = selection { replace(s, with: "") }
    }

    /// Replaces characters `range` with `new`; the cursor ends after it, nothing selected.
    private mutating func replace(_ range: Range<Int>, with new: String) {
        var characters = Array(text)
        let lower = min(max(range.lowerBound, 0), characters.count)
        let upper = min(max(range.upperBound, lower), characters.count)
        // Counted as a string: a combining mark typed after a letter joins its character.
        let before = String(characters[..<lower]) + new
        characters.replaceSubrange(lower..<upper, with: Array(new))
        text = String(characters)
        cursor = min(before.count, text.count)
        anchor = nil
    }

    /// Completes the file name before the cursor from the folder it names, as a shell does:
    /// one match is completed (folders get a `/`), several are completed to their common
    /// prefix. Returns the candidates when more than one matched.
    /// A relative path is taken from `base` (the current folder by default).
    public mutating func complete(relativeTo base: String? = nil) -> [String] {
        let expanded = PathDisplay.expandingTilde(text)
        let slash = expanded.lastIndex(of: "/")
        var folder = slash.map { String(expanded[...$0]) } ?? "./"
        if let base, !folder.hasPrefix("/") { folder = (base.hasSuffix("/") ? base : base + "/") + folder }
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
        anchor = nil
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

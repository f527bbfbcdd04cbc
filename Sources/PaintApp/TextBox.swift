import PaintCore
import PaintText

/// The text tool's box while it is edited: where it sits on the picture, what it says, the
/// font, and the caret. A value the session keeps; the typesetter turns it into coverage.
///
/// The caret always sits between characters (grapheme clusters: a letter and its accents move
/// and delete together); it is kept as a count of Unicode scalars, the unit the layout uses.
public struct TextBox: Equatable {
    /// The box's top-left corner, image pixels.
    public var x: Int
    public var y: Int
    /// The text; lines are separated by "\n".
    public internal(set) var text = ""
    /// The caret, in Unicode scalars from the start of `text`. Moving it ends the selection
    /// (`moveCaret(extending:)` keeps it).
    public internal(set) var caret = 0 { didSet { anchor = nil } }
    /// The selection's other end (the caret is one end): where Shift+arrows or a drag started;
    /// nil when nothing is selected (never equal to the caret).
    public internal(set) var anchor: Int?
    /// The font it is set in.
    public var font: TextFont

    /// A box at (x, y) holding `text` (cut at the typesetter's limit), the caret at its end.
    public init(x: Int, y: Int, font: TextFont, text: String = "") {
        self.x = x
        self.y = y
        self.font = font
        self.text = String(
            String.UnicodeScalarView(text.replacingNewlines().unicodeScalars.prefix(Typesetter.maximumScalars)))
        caret = self.text.unicodeScalars.count
    }

    /// Whether there is nothing to put down (only spaces and line breaks count as nothing).
    public var isBlank: Bool { text.allSatisfy { $0.isWhitespace } }

    // MARK: Editing

    /// Types `typed` at the caret: line breaks become "\n", other control characters are
    /// dropped. Returns false (and types nothing) when the box would exceed the typesetter's
    /// limit.
    /// Typed over a selection, the text replaces it.
    @discardableResult
    public mutating func insert(_ typed: String) -> Bool {
        let added = typed.replacingNewlines().unicodeScalars
        guard !added.isEmpty else { return true }
        let replaced = selection?.count ?? 0
        guard text.unicodeScalars.count - replaced + added.count <= Typesetter.maximumScalars else { return false }
        deleteSelection()
        text.unicodeScalars.insert(contentsOf: added, at: scalarIndex(caret))
        // A letter typed before an accent takes the accent: the caret goes after both.
        caret = snapped(caret + added.count, forward: true)
        return true
    }

    /// Removes the selection, or else the character before the caret (Backspace).
    public mutating func deleteBackward() {
        if deleteSelection() { return }
        guard caret > 0 else { return }
        let end = scalarIndex(caret)
        let start = text.index(before: end)
        caret = text.unicodeScalars.distance(from: text.startIndex, to: start)
        text.removeSubrange(start..<end)
        // What now meets at the caret can form one character (a letter and the accent after it).
        caret = snapped(caret, forward: false)
    }

    /// Removes the selection, or else the character after the caret (Delete).
    public mutating func deleteForward() {
        if deleteSelection() { return }
        let start = scalarIndex(caret)
        guard start < text.endIndex else { return }
        text.removeSubrange(start..<text.index(after: start))
        caret = snapped(caret, forward: false)
    }

    /// Moves the caret `delta` characters back (negative) or forward in the text.
    public mutating func moveCaret(by delta: Int) {
        var i = scalarIndex(caret)
        for _ in 0..<abs(delta) {
            if delta < 0 {
                guard i > text.startIndex else { break }
                i = text.index(before: i)
            } else {
                guard i < text.endIndex else { break }
                i = text.index(after: i)
            }
        }
        caret = text.unicodeScalars.distance(from: text.startIndex, to: i)
    }

    /// Moves the caret to the start or end of its line (Home, End).
    public mutating func moveCaretToLineEdge(end: Bool) {
        let scalars = Array(text.unicodeScalars)
        var c = caret
        if end {
            while c < scalars.count && scalars[c] != "\n" { c += 1 }
        } else {
            while c > 0 && scalars[c - 1] != "\n" { c -= 1 }
        }
        caret = c
    }

    /// Moves the caret to the start of the word before it (Ctrl+Left) or the end of the word
    /// after it (Ctrl+Right).
    public mutating func moveCaretByWord(forward: Bool) { caret = wordEdge(forward: forward) }

    /// Removes the selection, or else from the caret to the start of the word before it
    /// (Ctrl+Backspace) or the end of the word after it (Ctrl+Delete).
    public mutating func deleteWord(forward: Bool) {
        if deleteSelection() { return }
        let edge = wordEdge(forward: forward)
        let lower = min(caret, edge)
        let upper = max(caret, edge)
        guard lower < upper else { return }
        text.unicodeScalars.removeSubrange(scalarIndex(lower)..<scalarIndex(upper))
        caret = snapped(lower, forward: false)
    }

    /// Moves the caret to the start or end of the whole text (Ctrl+Home, Ctrl+End).
    public mutating func moveCaretToTextEdge(end: Bool) { caret = end ? text.unicodeScalars.count : 0 }

    /// Where a word move from the caret stops, as a scalar offset: over the spaces and marks
    /// next to it, then over the word (letters and digits of any script, as in `TextField`). A
    /// line break is a stop of its own, so Ctrl+Backspace at a line's start joins the two lines
    /// and takes nothing more.
    private func wordEdge(forward: Bool) -> Int {
        var characters: [Character] = []
        var offsets = [0]
        var offset = 0
        for c in text {
            characters.append(c)
            offset += c.unicodeScalars.count
            offsets.append(offset)
        }
        var i = offsets.firstIndex(of: caret) ?? characters.count
        let isWord = TextField.isWordCharacter
        if forward {
            guard i < characters.count else { return caret }
            if characters[i] == "\n" { return offsets[i + 1] }
            while i < characters.count && characters[i] != "\n" && !isWord(characters[i]) { i += 1 }
            while i < characters.count && isWord(characters[i]) { i += 1 }
        } else {
            guard i > 0 else { return caret }
            if characters[i - 1] == "\n" { return offsets[i - 1] }
            while i > 0 && characters[i - 1] != "\n" && !isWord(characters[i - 1]) { i -= 1 }
            while i > 0 && isWord(characters[i - 1]) { i -= 1 }
        }
        return offsets[i]
    }

    /// Puts the caret at scalar `offset` of line `line` (both clamped), as the layout counts,
    /// moved back to the start of the character it falls inside.
    public mutating func setCaret(line: Int, scalarOffset offset: Int) {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var remaining = max(0, line)
        while remaining > 0, let newline = scalars[start...].firstIndex(of: "\n") {
            start = newline + 1
            remaining -= 1
        }
        let end = scalars[start...].firstIndex(of: "\n") ?? scalars.count
        caret = snapped(start + min(max(offset, 0), end - start), forward: false)
    }

    /// The character just before the caret, if any.
    public var characterBeforeCaret: Character? {
        let i = scalarIndex(caret)
        guard i > text.startIndex else { return nil }
        return text[text.index(before: i)]
    }

    /// The caret as the layout counts it: its line and the scalar offset in that line.
    public var caretPosition: (line: Int, scalarOffset: Int) {
        let before = text.unicodeScalars.prefix(caret)
        let line = before.filter { $0 == "\n" }.count
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        return (line, before[lineStart...].count)
    }

    /// Scalar offset `n` (clamped) as an index into the text.
    func scalarIndex(_ n: Int) -> String.Index {
        text.unicodeScalars.index(text.startIndex, offsetBy: min(max(n, 0), text.unicodeScalars.count))
    }

    /// Scalar offset `n` moved to a character boundary: the nearest one after it or before it.
    func snapped(_ n: Int, forward: Bool) -> Int {
        var i = scalarIndex(n)
        let scalars = text.unicodeScalars
        while i.samePosition(in: text) == nil {
            i = forward ? scalars.index(after: i) : scalars.index(before: i)
        }
        return scalars.distance(from: text.startIndex, to: i)
    }
}

extension String {
    /// "\r\n", "\r" and the Unicode line and paragraph separators as "\n"; other control
    /// characters (tabs, escapes, DEL) removed: what a text box accepts from the keyboard.
    func replacingNewlines() -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for s in unicodeScalars {
            defer { previousWasCR = s == "\r" }
            switch s.value {
            case 0x0A:
                if !previousWasCR { out.append("\n") }
            case 0x0D, 0x2028, 0x2029:
                out.append("\n")
            case 0..<0x20, 0x7F, 0x80..<0xA0:
                continue
            default:
                out.append(s)
            }
        }
        return String(out)
    }
}

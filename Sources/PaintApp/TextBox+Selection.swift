/// The text box's selection: the scalars between the caret and its anchor, made with
/// Shift+arrows, a drag, a double click (a word), a triple click (a line) or Ctrl+A, in the
/// text's logical order (right-to-left text too); typing replaces it and Backspace or Delete
/// remove it (`TextBox.insert`, `deleteBackward`…).
extension TextBox {
    /// The selected scalars, nil when nothing is selected.
    public var selection: Range<Int>? {
        guard let anchor else { return nil }
        return min(anchor, caret)..<max(anchor, caret)
    }

    /// The selected text ("" when nothing is selected).
    public var selectedText: String {
        guard let selection else { return "" }
        return String(text.unicodeScalars[scalarIndex(selection.lowerBound)..<scalarIndex(selection.upperBound)])
    }

    /// Moves the caret with `move`: extending, the selection runs from where it started (or
    /// from the caret before the move) to the caret's new place; otherwise it ends.
    public mutating func moveCaret(extending: Bool, _ move: (inout TextBox) -> Void) {
        let start = anchor ?? caret
        move(&self)
        if extending { select(from: start, to: caret) }
    }

    /// Selects from scalar `start` to scalar `end` (both moved to the nearest character
    /// boundary before them), the caret at `end`.
    public mutating func select(from start: Int, to end: Int) {
        let count = text.unicodeScalars.count
        let a = snapped(min(max(start, 0), count), forward: false)
        caret = snapped(min(max(end, 0), count), forward: false)
        anchor = a == caret ? nil : a
    }

    /// Selects all the text (Ctrl+A), the caret at its end.
    public mutating func selectAll() { select(from: 0, to: text.unicodeScalars.count) }

    /// Selects the word at scalar `offset` (a double click): the run of letters and digits, of
    /// spaces, or of other signs the character there belongs to; on a line break or past the
    /// end, the word before it.
    public mutating func selectWord(at offset: Int) {
        var characters: [Character] = []
        var offsets = [0]
        for c in text {
            characters.append(c)
            offsets.append(offsets[offsets.count - 1] + c.unicodeScalars.count)
        }
        guard !characters.isEmpty else { return }
        var i = max(0, (offsets.lastIndex { $0 <= offset } ?? 0))
        if i >= characters.count || characters[i] == "\n" {
            guard i > 0, characters[i - 1] != "\n" else { return }
            i -= 1
        }
        func kind(_ c: Character) -> Int { TextField.isWordCharacter(c) ? 0 : c.isWhitespace ? 1 : 2 }
        let k = kind(characters[i])
        var start = i
        while start > 0 && characters[start - 1] != "\n" && kind(characters[start - 1]) == k { start -= 1 }
        var end = i + 1
        while end < characters.count && characters[end] != "\n" && kind(characters[end]) == k { end += 1 }
        select(from: offsets[start], to: offsets[end])
    }

    /// Selects the line holding scalar `offset` (a triple click), without its line break.
    public mutating func selectLine(at offset: Int) {
        let scalars = Array(text.unicodeScalars)
        var start = min(max(offset, 0), scalars.count)
        var end = start
        while start > 0 && scalars[start - 1] != "\n" { start -= 1 }
        while end < scalars.count && scalars[end] != "\n" { end += 1 }
        select(from: start, to: end)
    }

    /// Removes the selected text, the caret where it was; false when nothing was selected.
    @discardableResult
    public mutating func deleteSelection() -> Bool {
        guard let selection else { return false }
        text.unicodeScalars.removeSubrange(scalarIndex(selection.lowerBound)..<scalarIndex(selection.upperBound))
        caret = snapped(selection.lowerBound, forward: false)
        return true
    }

    /// The selection in the layout's terms: for each line it touches, the scalars selected in
    /// that line and whether its line break is selected too; empty when nothing is selected.
    /// `composing` scalars an input method shows at the caret push a selection after the caret
    /// along its line.
    func selectedLines(composing: Int = 0) -> [(line: Int, range: Range<Int>, withBreak: Bool)] {
        guard let selection else { return [] }
        var out: [(line: Int, range: Range<Int>, withBreak: Bool)] = []
        var line = 0
        var lineStart = 0
        var offset = 0
        let lower = selection.lowerBound
        let upper = selection.upperBound
        func add(endingAt end: Int, withBreak: Bool) {
            let from = max(lower, lineStart)
            let to = max(from, min(upper, end))
            guard from < to || withBreak else { return }
            // The composition sits at the caret, where a selection after the caret starts.
            let shift = caret == lower && from == lower ? composing : 0
            out.append((line, from - lineStart + shift..<to - lineStart + shift, withBreak))
        }
        for s in text.unicodeScalars {
            if s == "\n" {
                add(endingAt: offset, withBreak: lower <= offset && offset < upper)
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
        add(endingAt: offset, withBreak: false)
        return out
    }
}

import PaintCore

/// Text an input method is composing, not yet part of the field (an IME's reading, a dead key
/// waiting for its letter): shown underlined at the cursor until it is committed.
public struct Preedit: Sendable, Equatable {
    /// The composed text so far.
    public var text: String
    /// The input method's caret, in characters into `text`.
    public var caret: Int

    /// Makes a preedit.
    public init(text: String, caret: Int) {
        self.text = text
        self.caret = caret
    }
}

/// A text field as drawn: where each of its visible characters begins, so a click lands where
/// the user sees the text, and where its cursor is (the input method shows its candidates
/// there).
struct TextFieldView: Equatable {
    /// The field's box.
    let frame: IntRect
    /// Window x of each caret stop, left to right, with the field index it stands for.
    let stops: [Stop]
    /// The text cursor.
    let cursor: IntRect

    struct Stop: Equatable {
        let x: Int
        let index: Int
    }

    /// The field index nearest to window x.
    func index(atX x: Int) -> Int {
        stops.min { abs($0.x - x) < abs($1.x - x) }?.index ?? 0
    }

    /// Draws `field` (with `preedit` at its cursor) into `frame`: a white box, the selection
    /// behind the text, the text scrolled to keep the cursor in view, the preedit underlined,
    /// and the cursor.
    static func draw(
        _ field: TextField, preedit: Preedit?, frame: IntRect, baseline: Int, painter p: inout ChromePainter,
        texts: inout [TextRun], measure: TextMeasuring
    ) -> TextFieldView {
        p.fillRoundedRect(
            Double(frame.x) + 0.5, Double(frame.y) + 0.5, Double(frame.width), Double(frame.height), radius: 3, .white)
        p.strokeRoundedRect(
            Double(frame.x) + 0.5, Double(frame.y) + 0.5, Double(frame.width), Double(frame.height), radius: 3,
            lineWidth: 1, Theme.activeBorder)
        // What is shown: the field's text with the preedit spliced in at the cursor.
        var shown = field
        var composing: Range<Int>?
        if let preedit, !preedit.text.isEmpty {
            var characters = Array(field.text)
            let at = min(field.cursor, characters.count)
            characters.insert(contentsOf: Array(preedit.text), at: at)
            shown = TextField(String(characters))
            composing = at..<at + preedit.text.count
            shown.cursor = at + min(max(preedit.caret, 0), preedit.text.count)
        }
        let slice = Session.visibleSlice(of: shown, width: frame.width - 12, measure)
        let textX = frame.x + 6
        let sliceCharacters = Array(slice.text)
        let leading = slice.start > 0 ? 1 : 0
        let shownCount = shown.text.count
        // A shown index back to the field's: inside the preedit is its cursor.
        func fieldIndex(_ i: Int) -> Int {
            guard let composing else { return i }
            if i <= composing.lowerBound { return i }
            if i >= composing.upperBound { return i - composing.count }
            return composing.lowerBound
        }
        var stops: [Stop] = []
        var xs: [Int] = []
        for i in 0...sliceCharacters.count {
            let x = textX + measure.width(of: String(sliceCharacters[..<i]), bold: false)
            xs.append(x)
            let shownIndex = min(max(slice.start + i - leading, slice.start), shownCount)
            stops.append(Stop(x: x, index: fieldIndex(shownIndex)))
        }
        /// Window x of a shown index (clamped to the visible part).
        func x(ofShown i: Int) -> Int {
            xs[min(max(i - slice.start + leading, 0), xs.count - 1)]
        }
        if composing == nil, let selected = field.selection {
            let x0 = x(ofShown: selected.lowerBound)
            let x1 = x(ofShown: selected.upperBound)
            p.fill(IntRect(x: x0, y: frame.y + 4, width: x1 - x0, height: frame.height - 7), Theme.textSelection)
        }
        texts.append(TextRun(text: slice.text, x: textX, baseline: baseline, color: Theme.text, bold: false))
        if let composing {
            let x0 = x(ofShown: composing.lowerBound)
            let x1 = x(ofShown: composing.upperBound)
            p.fill(IntRect(x: x0, y: baseline + 2, width: x1 - x0, height: 1), Theme.text)
        }
        let cursorX = x(ofShown: shown.cursor)
        let cursor = IntRect(x: cursorX, y: frame.y + 4, width: 1, height: frame.height - 7)
        p.fill(cursor, Theme.text)
        return TextFieldView(frame: frame, stops: stops, cursor: cursor)
    }
}

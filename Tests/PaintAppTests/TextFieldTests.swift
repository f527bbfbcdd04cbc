import PaintCore
import Testing

@testable import PaintApp

/// The text fields take the keys every desktop field takes; clicks land where the text is
/// drawn; an input method's preedit shows at the cursor.
@Suite struct TextFieldTests {
    /// `field` after each key in turn; every key must be one the field handles.
    static func typed(_ field: TextField, _ keys: [(Key, Modifiers)]) -> TextField {
        var f = field
        for (key, modifiers) in keys {
            let handled = f.handle(key, modifiers)
            #expect(handled, "\(key) \(modifiers)")
        }
        return f
    }

    @Test func controlKeysEditInsteadOfTyping() {
        let path = "~/Pictures/my drawing.png"
        // Ctrl+A selects everything; typing replaces it.
        var f = Self.typed(TextField(path), [(.character("a"), .control)])
        #expect(f.selection == 0..<path.count && f.text == path)
        f = Self.typed(f, [(.character("x"), [])])
        #expect(f.text == "x" && f.cursor == 1 && f.selection == nil)
        // Ctrl+W and Ctrl+Backspace take back words; separators go with the word after them.
        f = Self.typed(TextField(path), [(.character("w"), .control)])
        #expect(f.text == "~/Pictures/my drawing.")
        f = Self.typed(f, [(.backspace, .control)])
        #expect(f.text == "~/Pictures/my ")
        f = Self.typed(f, [(.backspace, .control), (.backspace, .control)])
        #expect(f.text == "~/")
        // Ctrl+U deletes to the start, keeping what is after the cursor.
        f = Self.typed(TextField(path), [(.left, []), (.left, []), (.left, []), (.character("u"), .control)])
        #expect(f.text == "png" && f.cursor == 0)
        // Other control keys are not typed.
        var g = TextField("abc")
        let handled = [
            g.handle(.character("v"), .control), g.handle(.character("q"), .control), g.handle(.character("b"), .alt),
        ]
        #expect(handled == [false, false, false] && g.text == "abc")
    }

    @Test func wordMovesAndShiftSelection() {
        let text = "one two.png"
        var f = Self.typed(TextField(text), [(.left, .control)])
        #expect(f.cursor == 8)  // before "png"
        f = Self.typed(f, [(.left, .control)])
        #expect(f.cursor == 4)  // before "two"
        f = Self.typed(f, [(.right, .control)])
        #expect(f.cursor == 7)  // after "two"
        f = Self.typed(f, [(.end, .shift)])
        #expect(f.selection == 7..<11)
        f = Self.typed(f, [(.left, [.control, .shift])])
        #expect(f.selection == 8..<11 || f.selection == 7..<8, "\(String(describing: f.selection))")
        // Left with a selection goes to its start; Right to its end.
        f = Self.typed(TextField(text), [(.home, []), (.right, .shift), (.right, .shift), (.right, [])])
        #expect(f.cursor == 2 && f.selection == nil)
        f = Self.typed(f, [(.home, .shift), (.left, [])])
        #expect(f.cursor == 0 && f.selection == nil)
        // Backspace and Delete take the selection.
        f = Self.typed(TextField(text), [(.home, []), (.end, .shift), (.delete, [])])
        #expect(f.text.isEmpty)
        // Ctrl+Delete deletes the next word.
        f = Self.typed(TextField(text), [(.home, []), (.delete, .control)])
        #expect(f.text == " two.png")
    }

    @Test func doubleClickSelectsAWordOfAnyScript() {
        var f = TextField("~/Bilder/Grüße öl.png")
        f.selectWord(at: 11)
        #expect(f.selection == 9..<14 && f.text[f.text.index(f.text.startIndex, offsetBy: 9)...].hasPrefix("Grüße"))
        f.selectWord(at: 14)  // the space alone
        #expect(f.selection == 14..<15)
        var r = TextField("Картина.png")
        r.selectWord(at: 2)
        #expect(r.selection == 0..<7)
    }

    @Test func insertingACombiningMarkKeepsTheCursorAfterIt() {
        var f = TextField("e")
        f.insert("\u{301}")
        #expect(f.text == "é" && f.cursor == 1)
    }

    /// The view maps clicks to the characters under them, follows the scrolled text, and puts
    /// the preedit at the cursor, underlined, with the cursor at the preedit's caret.
    @Test func viewStopsPreeditAndCursor() {
        let measure = FixedWidthMeasurer()  // 7 px a character
        var p = ChromePainter(width: 300, height: 30, background: .white)
        var texts: [TextRun] = []
        let frame = IntRect(x: 10, y: 2, width: 200, height: 24)
        var field = TextField("abcdef")
        field.cursor = 3
        let view = TextFieldView.draw(
            field, preedit: nil, frame: frame, baseline: 20, painter: &p, texts: &texts, measure: measure)
        #expect(texts.last?.text == "abcdef")
        #expect(view.cursor.x == 16 + 21)
        #expect(view.index(atX: 16 + 7 * 4 + 2) == 4 && view.index(atX: 0) == 0 && view.index(atX: 299) == 6)

        texts = []
        let composing = TextFieldView.draw(
            field, preedit: Preedit(text: "にほ", caret: 1), frame: frame, baseline: 20, painter: &p, texts: &texts,
            measure: measure)
        #expect(texts.last?.text == "abcにほdef")
        #expect(composing.cursor.x == 16 + 7 * 4)
        // Underlined under the two preedit characters only.
        let image = p.image
        #expect(image[16 + 7 * 3 + 1, 22] != Color.white.pixel && image[16 + 7 * 5 - 1, 22] != Color.white.pixel)
        #expect(image[16 + 7 * 2 + 3, 22] == Color.white.pixel && image[16 + 7 * 6 + 3, 22] == Color.white.pixel)
        // A click inside the preedit lands at the field's cursor; after it, on the field's text.
        #expect(composing.index(atX: 16 + 7 * 4) == 3 && composing.index(atX: 16 + 7 * 6) == 4)
    }
}

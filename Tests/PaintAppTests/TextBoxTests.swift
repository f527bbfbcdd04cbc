import PaintCore
import Testing

@testable import PaintApp

/// Editing a text box: characters, lines, clusters and the caret.
@Suite struct TextBoxTests {
    static func box(_ text: String = "") -> TextBox { TextBox(x: 0, y: 0, font: .standard, text: text) }

    @Test func typingAndLines() {
        var box = Self.box()
        box.insert("Hi")
        box.insert("\r\n")
        box.insert("there\tyou")
        #expect(box.text == "Hi\nthereyou")
        #expect(box.caretPosition == (1, 8))
        box.moveCaretToLineEdge(end: false)
        #expect(box.caretPosition == (1, 0))
        box.deleteBackward()
        #expect(box.text == "Hithereyou")
        #expect(box.caretPosition == (0, 2))
        box.moveCaretToLineEdge(end: true)
        #expect(box.caret == 10)
        box.deleteForward()
        #expect(box.text == "Hithereyou")
    }

    /// A letter and its combining accent are one character: the caret never lands between
    /// them, Backspace takes both.
    @Test func accentsStayWithTheirLetter() {
        var box = Self.box("qx")
        box.moveCaret(by: -1)
        box.insert("\u{301}")
        #expect(box.text == "q\u{301}x")
        #expect(box.caret == 2)
        box.moveCaret(by: -1)
        #expect(box.caret == 0)
        box.moveCaret(by: 1)
        #expect(box.caret == 2)
        // Typing a letter in front of an accent: the accent now belongs to it, and the caret
        // goes after both.
        var other = Self.box("\u{301}")
        other.moveCaret(by: -1)
        other.insert("e")
        #expect(other.caret == 2)
        box.deleteBackward()
        #expect(box.text == "x" && box.caret == 0)
        // The layout's offset inside a cluster rounds back to its start.
        var third = Self.box("aq\u{301}")
        third.setCaret(line: 0, scalarOffset: 2)
        #expect(third.caret == 1)
        third.setCaret(line: 5, scalarOffset: 99)
        #expect(third.caret == 3)
    }

    @Test func setCaretFindsTheLine() {
        var box = Self.box("one\ntwo\nthree")
        box.setCaret(line: 1, scalarOffset: 2)
        #expect(box.caret == 6)
        #expect(box.caretPosition == (1, 2))
        box.setCaret(line: 2, scalarOffset: 100)
        #expect(box.caret == 13)
    }

    @Test func limitIsKept() {
        var box = Self.box(String(repeating: "a", count: 20_000))
        #expect(box.text.unicodeScalars.count == 10_000)
        let overLimit = box.insert("b")
        #expect(!overLimit)
        box.deleteBackward()
        let withinLimit = box.insert("b")
        #expect(withinLimit)
        #expect(box.text.hasSuffix("ab"))
    }

    @Test func blankBoxes() {
        #expect(Self.box(" \n ").isBlank)
        #expect(!Self.box(" x").isBlank)
    }
}

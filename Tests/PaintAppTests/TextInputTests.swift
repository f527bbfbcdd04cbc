import PaintCore
import Testing

@testable import PaintApp

/// What the window asks the session about text input, and text arriving other than by keys:
/// pasted text, an input method's preedit, clicks in the prompt's field.
@Suite struct TextInputTests {
    typealias T = SessionTests

    @Test func fieldsTakeTextAndTheCanvasTakesCommands() {
        let s = T.makeSession()
        #expect(!s.acceptsText)
        #expect(s.bindsKey("z", .control) && s.bindsKey("Z", [.control, .shift]) && s.bindsKey("1", []))
        #expect(!s.bindsKey("&", []) && !s.bindsKey("q", []) && !s.bindsKey("я", .control))
        T.key(s, "b", .control)  // the background prompt
        #expect(s.acceptsText)
        #expect(s.bindsKey("&", []) && s.bindsKey("я", []))
        #expect(s.bindsKey("a", .control) && s.bindsKey("V", .control) && !s.bindsKey("z", .control))
        T.key(s, "x")
        s.handle(.key(.escape, modifiers: []))
        s.openColorEditor(.primary)
        #expect(s.acceptsText)
        s.handle(.key(.escape, modifiers: []))
        // A question answers to its answers' initials.
        T.drag(s, [(10, 10), (50, 50)])
        s.requestClose()
        #expect(!s.acceptsText && s.bindsKey("d", []) && s.bindsKey("S", []) && !s.bindsKey("1", []))
    }

    @Test func ctrlVInAFieldPastesTheFirstLineOfText() {
        let s = T.makeSession()
        T.key(s, "b", .control)
        T.key(s, "#")
        #expect(T.key(s, "v", .control).clipboard == [.fetchText])
        s.handle(.pastedText("00ff00\u{7}\nsecond line"))
        guard case .backgroundPrompt(let field) = s.mode else {
            Issue.record("no prompt: \(s.mode)")
            return
        }
        #expect(field.text == "#00ff00" && field.cursor == 7)
        s.handle(.key(.enter, modifiers: []))
        #expect(s.engine.background == .color(Color(r: 0, g: 0xFF, b: 0)))
        // The hex field of the color editor takes pasted text too.
        s.openColorEditor(.primary)
        T.key(s, "a", .control)
        #expect(T.key(s, "v", .control).clipboard == [.fetchText])
        s.handle(.pastedText("#123456"))
        #expect(s.colorEditor?.color == Color(r: 0x12, g: 0x34, b: 0x56))
    }

    @Test func clicksInThePromptPlaceTheCursorAndDoubleClicksSelectAWord() {
        let s = T.makeSession()
        T.key(s, "b", .control)
        for c in "junk #0000ff" { T.key(s, c) }
        _ = s.renderStatus()  // 7 px a character
        guard let view = s.promptView else {
            Issue.record("no field drawn")
            return
        }
        let y = view.frame.y + 5
        let textX = view.frame.x + 6
        s.handle(.press(x: textX + 7 * 2 + 1, y: y, button: .left, modifiers: []))
        s.handle(.release(x: textX + 7 * 2 + 1, y: y, button: .left, modifiers: []))
        #expect(s.promptField?.cursor == 2)
        s.handle(.press(x: textX + 7 * 7 + 1, y: y, button: .left, modifiers: .shift))
        #expect(s.promptField?.selection == 2..<7)
        s.handle(.doubleClick(x: textX + 7 * 2 + 3, y: y))
        #expect(s.promptField?.selection == 0..<4)
        T.key(s, "x")
        #expect(s.promptField?.text == "x #0000ff")
        // A press outside the field is not the field's.
        #expect(!s.pressPromptField(view.frame.maxX + 5, y, []))
    }

    @Test func preeditShowsAtTheCursorUntilTheNextKey() {
        let s = T.makeSession()
        s.setPreedit("ö", caret: 1)
        #expect(s.preedit == nil, "no field to compose into")
        T.key(s, "b", .control)
        T.key(s, "a")
        s.setPreedit("ニホ", caret: 2)
        #expect(s.preedit == Preedit(text: "ニホ", caret: 2) && s.takeEffects().status)
        let strip = s.renderStatus()
        #expect(strip.texts.contains { $0.text == "aニホ" })
        #expect(s.textCursor?.x == s.promptView.map { $0.frame.x + 6 + 7 * 3 })
        T.key(s, "b")
        #expect(s.preedit == nil && s.promptField?.text == "ab")
        s.setPreedit("x", caret: 1)
        s.setPreedit("", caret: 0)
        #expect(s.preedit == nil)
    }
}

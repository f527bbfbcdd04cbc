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
        guard let field = s.fileDialog?.field else {
            Issue.record("no dialog: \(s.mode)")
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

    @Test func clicksInTheDialogsFieldPlaceTheCursorAndDoubleClicksSelectAWord() {
        let s = T.makeSession()
        s.makesThumbnails = false
        T.key(s, "b", .control)
        for c in "junk #0000ff" { T.key(s, c) }
        _ = s.renderPanel(measure: FixedWidthMeasurer())  // 7 px a character
        guard let view = s.fileDialogField, let stop2 = view.stops.first(where: { $0.index == 2 }),
            let stop7 = view.stops.first(where: { $0.index == 7 })
        else {
            Issue.record("no field drawn")
            return
        }
        let y = view.frame.y + view.frame.height / 2
        s.handle(.press(x: stop2.x + 1, y: y, button: .left, modifiers: []))
        s.handle(.release(x: stop2.x + 1, y: y, button: .left, modifiers: []))
        #expect(s.fileDialog?.field.cursor == 2)
        s.handle(.press(x: stop7.x + 1, y: y, button: .left, modifiers: .shift))
        s.handle(.release(x: stop7.x + 1, y: y, button: .left, modifiers: .shift))
        #expect(s.fileDialog?.field.selection == 2..<7)
        // As the window sends a double click: two presses, the second followed by the double click.
        let x = stop2.x + 3
        s.handle([
            .press(x: x, y: y, button: .left, modifiers: []), .release(x: x, y: y, button: .left, modifiers: []),
            .press(x: x, y: y, button: .left, modifiers: []), .doubleClick(x: x, y: y),
            .release(x: x, y: y, button: .left, modifiers: []),
        ])
        #expect(s.fileDialog?.field.selection == 0..<4)
        T.key(s, "x")
        #expect(s.fileDialog?.field.text == "x #0000ff")
        // "x #0000ff" is neither a file nor a color: the dialog says so and stays.
        s.handle(.key(.enter, modifiers: []))
        #expect(s.fileDialog?.noteIsProblem == true)
        // Without "x ": the color, the dialog closed.
        s.handle([.key(.home, modifiers: []), .key(.delete, modifiers: []), .key(.delete, modifiers: [])])
        s.handle(.key(.enter, modifiers: []))
        #expect(s.fileDialog == nil && s.engine.background == .color(Color(r: 0, g: 0, b: 0xFF)))
    }

    @Test func preeditShowsAtTheCursorUntilTheNextKey() {
        let s = T.makeSession()
        s.makesThumbnails = false
        s.setPreedit("ö", caret: 1)
        #expect(s.preedit == nil, "no field to compose into")
        T.key(s, "o", .control)
        T.key(s, "a")
        _ = s.takeEffects()
        s.setPreedit("ニホ", caret: 2)
        #expect(s.preedit == Preedit(text: "ニホ", caret: 2) && s.takeEffects().editor)
        let strip = s.renderPanel(measure: FixedWidthMeasurer())
        #expect(strip?.texts.contains { $0.text == "aニホ" } == true, "\(strip?.texts.map(\.text) ?? [])")
        #expect(s.textCursor?.x == s.fileDialogField.map { $0.frame.x + 6 + 7 * 3 })
        T.key(s, "b")
        #expect(s.preedit == nil && s.fileDialog?.field.text == "ab")
        s.setPreedit("x", caret: 1)
        s.setPreedit("", caret: 0)
        #expect(s.preedit == nil)
    }
}

import PaintCore
import TestSupport
import Testing

@testable import PaintApp

/// The color editor (from the current-color swatch) and the recent colors in the palette.
@Suite struct ColorEditorTests {
    typealias T = SessionTests

    @Test func hsvRoundTripsEveryCornerAndManyColors() {
        var rng = SplitMix(seed: 2)
        for _ in 0..<5000 {
            let c = Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255))
            let (h, s, v) = ColorEditor.hsv(c)
            #expect(ColorEditor.rgb(hue: h, saturation: s, value: v) == c, "\(c.hex)")
        }
        #expect(ColorEditor.rgb(hue: 120, saturation: 1, value: 1) == Color(r: 0, g: 255, b: 0))
    }

    /// The window position of panel position (x, y) of the open editor.
    static func window(_ s: Session, _ x: Int, _ y: Int) -> (x: Int, y: Int) {
        (s.colorEditorFrame.x + x, s.colorEditorFrame.y + y)
    }

    /// A left click at panel position (x, y) of the open editor.
    static func click(_ s: Session, panelX x: Int, y: Int) {
        let w = window(s, x, y)
        s.handle([
            .press(x: w.x, y: w.y, button: .left, modifiers: []),
            .release(x: w.x, y: w.y, button: .left, modifiers: []),
        ])
    }

    /// A double click on the current colors (MS Paint's habit) leaves the editor open on the
    /// primary color: the second click no longer counts as a click outside that closes it. A
    /// single click on them while it is open still closes it, as a popover's button does.
    @Test func aDoubleClickOnTheCurrentColorsLeavesTheEditorOpen() {
        let s = T.makeSession()
        let r = s.layout.rect(of: .currentColors)
        let (x, y) = (r.x + r.width / 3, r.y + r.height / 3)
        let effects = s.handle([
            .press(x: x, y: y, button: .left, modifiers: []),
            .release(x: x, y: y, button: .left, modifiers: []),
            .press(x: x, y: y, button: .left, modifiers: []),
            .doubleClick(x: x, y: y),
            .release(x: x, y: y, button: .left, modifiers: []),
        ])
        #expect(s.colorEditor?.target == .primary, "the editor closed at the second click")
        #expect(effects.editor)
        s.handle([.press(x: x, y: y, button: .left, modifiers: []), .release(x: x, y: y, button: .left, modifiers: [])])
        #expect(s.colorEditor == nil, "a single click on the current colors closes the open editor")
        // Right: the secondary color's editor; a double click is the left button's.
        s.handle([
            .press(x: x, y: y, button: .right, modifiers: []), .release(x: x, y: y, button: .right, modifiers: []),
        ])
        #expect(s.colorEditor?.target == .secondary)
    }

    /// The button that opens a panel keeps the pointer, but its tooltip does not come back
    /// over the panel it opened (it covered the panel's title); it does once the panel closes.
    @Test func noTooltipCoversThePanelItsButtonOpened() {
        let s = T.makeSession()
        for (item, open) in [(ToolbarItem.currentColors, { s.colorEditor != nil }), (.font, { s.fontChooser != nil })] {
            if item == .font { T.key(s, "t") }
            let r = s.layout.rect(of: item)
            s.handle(.motion(x: r.x + 4, y: r.y + 4, modifiers: []))
            #expect(s.hovered == item && s.tooltip != nil, "\(item) before the click")
            T.click(s, item)
            #expect(open(), "\(item) opened its panel")
            #expect(s.hovered == item && s.tooltip == nil, "\(item) while its panel is open")
            s.handle(.key(.escape, modifiers: []))
            #expect(!open() && s.tooltip != nil, "\(item) after its panel closed")
        }
    }

    @Test func editingThePrimaryWithSlidersAndHex() {
        let s = T.makeSession()
        T.click(s, .currentColors)
        #expect(s.colorEditor?.target == .primary)
        // Drag the red slider to the end: black becomes red.
        let red = ColorEditor.geometry.track(.red)
        let start = Self.window(s, red.x, red.y + 5)
        let end = Self.window(s, red.maxX + 30, red.y + 40)
        s.handle([
            .press(x: start.x, y: start.y, button: .left, modifiers: []),
            .motion(x: end.x, y: end.y, modifiers: []),
            .release(x: end.x, y: end.y, button: .left, modifiers: []),
        ])
        #expect(s.colorEditor?.color == Color(r: 255, g: 0, b: 0))
        #expect(s.colorEditor?.value(of: .hue) == 0 && s.colorEditor?.value(of: .saturation) == 100)
        // The hue slider keeps saturation and value.
        Self.click(
            s, panelX: ColorEditor.geometry.track(.hue).x + ColorEditor.geometry.track(.hue).width / 3,
            y: ColorEditor.geometry.track(.hue).y + 5)
        #expect(s.colorEditor.map { Int($0.value(of: .hue)) } == 120)
        // Typing a hex code sets the color.
        for _ in 0..<7 { s.handle(.key(.backspace, modifiers: [])) }
        for c in "#3366cc" { s.handle(.key(.character(c), modifiers: [])) }
        #expect(s.colorEditor?.color == Color(hex: "#3366cc"))
        s.handle(.key(.enter, modifiers: []))
        #expect(s.colorEditor == nil)
        #expect(s.settings.primary == Color(hex: "#3366cc"))
        #expect(s.settings.recentColors.first == Color(hex: "#3366cc"))
    }

    @Test func aCodeTypedReplacesTheOneShownOnOpeningAndAfterASlider() {
        let s = T.makeSession()
        T.click(s, .currentColors)
        for c in "ff8800" { s.handle(.key(.character(c), modifiers: [])) }
        #expect(s.colorEditor?.hex.text == "ff8800", "typed after #000000")
        #expect(s.colorEditor?.color == Color(r: 255, g: 136, b: 0))
        // A slider shows its color's code; typing replaces that too.
        let value = ColorEditor.geometry.track(.value)
        Self.click(s, panelX: value.x + value.width / 2, y: value.y + 5)
        #expect(s.colorEditor?.hex.text == s.colorEditor?.color.hex)
        for c in "#123456" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.settings.primary == Color(r: 0x12, g: 0x34, b: 0x56))
    }

    /// `#f80` and `f80` are #ff8800, as in CSS and GIMP's field: taken on Enter (typed, it
    /// may still be on its way to six digits, so it is not shown yet).
    @Test func aThreeDigitCodeIsTheColorWithEachDigitDoubled() {
        for typed in ["#f80", "f80", " F80 "] {
            let s = T.makeSession()
            T.click(s, .currentColors)
            for c in typed { s.handle(.key(.character(c), modifiers: [])) }
            #expect(s.colorEditor?.color == .black, "\(typed): not shown while typing")
            s.handle(.key(.enter, modifiers: []))
            #expect(s.colorEditor == nil && s.settings.primary == Color(r: 0xFF, g: 0x88, b: 0), "\(typed)")
        }
        // Pasted, a code is whole: shown at once.
        var editor = ColorEditor(target: .primary, color: .black)
        editor.paste("#f80")
        #expect(editor.color == Color(r: 0xFF, g: 0x88, b: 0))
    }

    /// Typing `#3366cc` passed through `#336`, and the preview flashed #333366. Only a full
    /// six-digit code is shown while typing; a three-digit one is taken by Enter, OK or a
    /// slider (GIMP takes its hex entry on Enter or when it loses the focus).
    @Test func typingASixDigitCodeNeverShowsItsFirstThreeDigits() {
        var editor = ColorEditor(target: .primary, color: .black)
        var seen: [Color] = []
        for c in "#3366cc" {
            _ = editor.key(.character(c))
            seen.append(editor.color)
        }
        #expect(seen == Array(repeating: .black, count: 6) + [Color(r: 0x33, g: 0x66, b: 0xCC)], "\(seen)")
        // Rubbing digits out back to `#336` keeps the color the six digits gave.
        for _ in 0..<3 { _ = editor.key(.backspace) }
        #expect(editor.hex.text == "#336" && editor.color == Color(r: 0x33, g: 0x66, b: 0xCC))
        // OK takes it.
        let ok = editor.acceptButton
        #expect(editor.press(x: ok.x + 3, y: ok.y + 3) == .accept)
        #expect(editor.color == Color(r: 0x33, g: 0x33, b: 0x66))
        // A slider after `#f80` starts from #ff8800: blue dragged to 0 keeps red and green.
        for _ in 0..<4 { _ = editor.key(.backspace) }
        for c in "#f80" { _ = editor.key(.character(c)) }
        let blue = editor.track(.blue)
        _ = editor.press(x: blue.x, y: blue.y + blue.height / 2)
        editor.release()
        #expect(editor.color == Color(r: 0xFF, g: 0x88, b: 0), "\(editor.color)")
    }

    /// Enter (or OK) with an incomplete code took the last complete color silently (`#3366c`,
    /// one digit rubbed out, gave #3366cc). It is refused: the editor stays open, the field
    /// framed in red, the status bar says why; editing clears the mark.
    @Test func enterWithAnIncompleteCodeIsRefusedAndSaysWhy() {
        let measure = FixedWidthMeasurer()
        for finish in ["enter", "ok"] {
            let s = T.makeSession()
            T.click(s, .currentColors)
            for c in "#3366cc" { s.handle(.key(.character(c), modifiers: [])) }
            s.handle(.key(.backspace, modifiers: []))
            #expect(s.colorEditor?.hex.text == "#3366c" && s.colorEditor?.color == Color(hex: "#3366cc"))
            if finish == "enter" {
                s.handle(.key(.enter, modifiers: []))
            } else {
                let ok = ColorEditor.geometry.acceptButton
                Self.click(s, panelX: ok.x + 3, y: ok.y + 3)
            }
            #expect(s.colorEditor != nil, "\(finish): still open")
            #expect(s.settings.primary == .black, "\(finish): the color is not taken")
            #expect(s.message == "“#3366c” is no color: type 6 hex digits as #ff8800, or 3 as #f80", "\(s.message)")
            let field = ColorEditor.geometry.hexField
            let marked = s.colorEditor!.render(measure: measure).pixels
            #expect(marked[field.x, field.y + field.height / 2] == Theme.errorText.pixel, "\(finish): framed in red")
            // Completing the code clears the mark, and Enter takes it.
            s.handle(.key(.character("d"), modifiers: []))
            #expect(s.colorEditor?.hexProblem == nil)
            #expect(s.message.isEmpty, "the reason goes with the mark: \(s.message)")
            let plain = s.colorEditor!.render(measure: measure).pixels
            #expect(plain[field.x, field.y + field.height / 2] != Theme.errorText.pixel)
            s.handle(.key(.enter, modifiers: []))
            #expect(s.colorEditor == nil && s.settings.primary == Color(hex: "#3366cd"))
        }
    }

    @Test func aClickInTheHexFieldPlacesTheCursorAndADoubleClickSelectsTheCode() throws {
        let s = T.makeSession()
        T.click(s, .currentColors)
        _ = s.renderPanel(measure: FixedWidthMeasurer())
        let view = try #require(s.colorEditorField)
        // A click after the last character: the cursor there, nothing selected.
        let end = try #require(view.stops.max { $0.index < $1.index })
        s.handle([
            .press(x: end.x + 1, y: view.frame.y + 5, button: .left, modifiers: []),
            .release(x: end.x + 1, y: view.frame.y + 5, button: .left, modifiers: []),
        ])
        #expect(s.colorEditor != nil, "the click kept the editor open")
        for _ in 0..<2 { s.handle(.key(.backspace, modifiers: [])) }
        for c in "ff" { s.handle(.key(.character(c), modifiers: [])) }
        #expect(s.colorEditor?.hex.text == "#0000ff" && s.colorEditor?.color == Color(r: 0, g: 0, b: 255))
        // A double click selects the code again: typing replaces it.
        _ = s.renderPanel(measure: FixedWidthMeasurer())
        let again = try #require(s.colorEditorField)
        let middle = again.frame.x + again.frame.width / 4
        s.handle([
            .press(x: middle, y: again.frame.y + 5, button: .left, modifiers: []),
            .release(x: middle, y: again.frame.y + 5, button: .left, modifiers: []),
            .press(x: middle, y: again.frame.y + 5, button: .left, modifiers: []),
            .doubleClick(x: middle, y: again.frame.y + 5),
            .release(x: middle, y: again.frame.y + 5, button: .left, modifiers: []),
        ])
        for c in "00ff00" { s.handle(.key(.character(c), modifiers: [])) }
        #expect(s.colorEditor?.color == Color(r: 0, g: 255, b: 0), "\(s.colorEditor?.hex.text ?? "")")
    }

    @Test func cancelAndClickingOutsideKeepTheColor() {
        let s = T.makeSession()
        T.click(s, .currentColors, .right)
        #expect(s.colorEditor?.target == .secondary)
        let blue = ColorEditor.geometry.track(.blue)
        Self.click(s, panelX: blue.x, y: blue.y + 5)
        s.handle(.key(.escape, modifiers: []))
        #expect(s.colorEditor == nil && s.settings.secondary == .white)
        T.click(s, .currentColors, .right)
        Self.click(s, panelX: blue.x, y: blue.y + 5)
        T.drag(s, [(10, 10)])
        #expect(s.colorEditor == nil && s.settings.secondary == .white, "a click outside closes it unchanged")
        #expect(s.engine.viewPixel(x: 10, y: 10) == Color.white.pixel, "and does not paint")
        let ok = ColorEditor.geometry.acceptButton
        T.click(s, .currentColors, .right)
        Self.click(s, panelX: blue.x, y: blue.y + 5)
        Self.click(s, panelX: ok.x + 4, y: ok.y + 4)
        #expect(s.settings.secondary == Color(r: 255, g: 255, b: 0))
    }

    @Test func theLastEightColorsUsedAppearInThePalette() {
        let s = T.makeSession()
        for i in 0..<10 {
            T.click(s, .swatch(i + 2))
            T.drag(s, [(10 + i * 5, 10)])
        }
        #expect(s.settings.recentColors.count == Layout.recentCount)
        #expect(s.settings.recentColors.first == Palette.colors[11])
        #expect(s.settings.recentColors.last == Palette.colors[4])
        T.click(s, .swatch(0))
        T.click(s, .recent(3))
        #expect(s.settings.primary == Palette.colors[8])
    }
}

extension ColorEditor {
    /// The editor's geometry at scale 1, as the window lays it out on an ordinary screen.
    static var geometry: ColorEditor { ColorEditor(target: .primary, color: .black) }
}

import PaintCore
import PaintText
import Testing

@testable import PaintApp

/// The text tool in the session: placing, typing, moving, putting down, cancelling, and the
/// font, color and opacity it takes from the toolbar.
@Suite struct TextToolTests {
    typealias T = SessionTests

    /// A session with the text tool chosen and a box opened at image pixel (x, y).
    static func typing(at x: Int = 20, _ y: Int = 10, width: Int = 240, height: Int = 120) -> (Session, RecordingSink) {
        let (s, sink) = T.recordingSession(width: width, height: height)
        s.select(.text)
        click(s, x, y)
        return (s, sink)
    }

    static func click(_ s: Session, _ x: Int, _ y: Int) {
        let w = T.window(s, x, y)
        s.handle([
            .press(x: w.0, y: w.1, button: .left, modifiers: []),
            .release(x: w.0, y: w.1, button: .left, modifiers: []),
        ])
    }

    static func type(_ s: Session, _ text: String) {
        s.handle(text.map { .key($0 == "\n" ? .enter : .character($0), modifiers: []) })
    }

    /// How many view pixels differ from white (the ink shown).
    static func ink(_ s: Session) -> Int { s.engine.viewPixels.filter { $0 != Color.white.pixel }.count }

    @Test func clickPlacesABoxAndTypingShowsText() throws {
        let (s, sink) = Self.typing(at: 20, 10)
        #expect(s.isEditingText && s.acceptsText)
        let empty = try #require(s.textOverlay)
        #expect(empty.frame.x == 20 && empty.frame.y == 10)
        Self.type(s, "Hi 5")
        // Typed, not a shortcut: "5" did not set the opacity, "i" did not pick the picker.
        #expect(s.editedText == "Hi 5")
        #expect(s.settings.opacityPercent == 100 && s.settings.tool == .text)
        #expect(Self.ink(s) > 100)
        let oneLine = try #require(s.textOverlay)
        Self.type(s, "\nsecond")
        let twoLines = try #require(s.textOverlay)
        #expect(twoLines.frame.height == 2 * oneLine.frame.height)
        #expect(twoLines.caretTop > oneLine.caretTop)
        // Nothing is recorded while typing.
        #expect(sink.operations.isEmpty)
        #expect(s.engine.paintImage().pixels.allSatisfy { $0 == 0 })
    }

    /// A click outside puts the text down as one step: the picture does not change by a bit
    /// when it does, the recorded step replays to the same pixels, undo takes it away.
    @Test func clickOutsideCommitsExactlyWhatWasShown() throws {
        let (s, sink) = Self.typing(at: 20, 10)
        s.setOpacity(50)
        Self.type(s, "Wave\nשלום")
        let shown = Array(s.engine.viewPixels)
        Self.click(s, 200, 100)
        #expect(!s.isEditingText)
        #expect(Array(s.engine.viewPixels) == shown)
        #expect(sink.operations.count == 1)
        guard case .text(let style, let spec) = try #require(sink.operations.first) else {
            Issue.record("not a text operation")
            return
        }
        #expect(spec.text == "Wave\nשלום" && spec.font == TextFont.standard && spec.x == 20 && spec.y == 10)
        #expect(style.color == .black && style.opacity == 0.5)
        let replayed = StrokeEngine(width: 240, height: 120)
        Operation(decoding: sink.operations[0].encoded())?.apply(to: replayed)
        #expect(Array(replayed.viewPixels) == shown)
        // Half-opaque black over white: nothing darker than half, overlaps included.
        #expect(s.engine.viewPixels.allSatisfy { ($0 >> 16 & 0xFF) >= 127 })
        s.undo()
        #expect(Self.ink(s) == 0)
        s.redo()
        #expect(Array(s.engine.viewPixels) == shown)
    }

    /// Glyphs that overlap (a letter struck through by a combining overlay) are not darker
    /// where they cross: the text merges like one stroke.
    @Test func overlappingGlyphsDoNotDarken() throws {
        let (s, _) = Self.typing(at: 10, 10)
        s.setOpacity(50)
        Self.type(s, "o\u{338}O\u{338}")
        let values = s.engine.viewPixels.map { Int($0 >> 16 & 0xFF) }
        #expect(values.min() == 127 || values.min() == 128)
        // Full coverage reached somewhere (the strokes are thick enough at 32 px).
        #expect(values.contains(127) || values.contains(128))
    }

    /// Escape puts the text down, as Ctrl+Enter and a click outside do (GIMP and Paint.NET
    /// keep the text on Escape; it threw "Look" away, with no undo to bring it back): the
    /// pixels shown stay on the canvas as one step, Ctrl+Z takes them away, Ctrl+Shift+Z brings
    /// them back; an empty box leaves nothing.
    @Test func escapePutsTheTextDown() throws {
        let (s, sink) = Self.typing()
        Self.type(s, "Look")
        let shown = Array(s.engine.viewPixels)
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isEditingText)
        #expect(Self.ink(s) > 100 && Array(s.engine.viewPixels) == shown, "the text stays")
        #expect(s.engine.paintImage().pixels.contains { $0 != 0 }, "in the picture, not only shown")
        #expect(sink.operations.count == 1)
        guard case .text(_, let spec) = try #require(sink.operations.first) else {
            Issue.record("not a text operation")
            return
        }
        #expect(spec.text == "Look")
        #expect(s.shownMessage == "Text put down — Ctrl+Z takes it away")
        T.key(s, "z", .control)
        #expect(Self.ink(s) == 0, "one step")
        T.key(s, "Z", [.control, .shift])
        #expect(Array(s.engine.viewPixels) == shown)
        // An empty box: nothing recorded.
        let steps = s.history.cursor
        Self.click(s, 150, 90)
        #expect(s.isEditingText)
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isEditingText && s.history.cursor == steps)
        #expect(Array(s.engine.viewPixels) == shown)
    }

    /// Text opened again, edited, then Escape: the edit is kept (as Ctrl+Enter keeps it), one
    /// new step; Ctrl+Z brings the old text back.
    @Test func escapeKeepsTheEditOfReopenedText() throws {
        let (s, sink) = Self.typing(at: 20, 10)
        Self.type(s, "Old")
        s.handle(.key(.escape, modifiers: []))
        let old = Array(s.engine.viewPixels)
        Self.doubleClick(s, 23, 30)
        #expect(s.editedText == "Old")
        #expect(s.shownMessage == "Editing the text again — Ctrl+Enter or Esc: done")
        s.handle(.key(.end, modifiers: []))
        Self.type(s, "er")
        let edited = Array(s.engine.viewPixels)
        #expect(edited != old)
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isEditingText && Array(s.engine.viewPixels) == edited, "the edit is kept")
        guard case .text(_, let spec) = try #require(sink.operations.last) else {
            Issue.record("not a text operation")
            return
        }
        #expect(spec.text == "Older")
        s.undo()
        s.undo()
        #expect(Array(s.engine.viewPixels) == old)
    }

    /// A tool change, saving, undo: anything that finishes a stroke puts the text down first.
    @Test func toolChangeCommits() {
        let (s, sink) = Self.typing()
        Self.type(s, "kept")
        T.key(s, "b", .control)
        #expect(s.settings.textFont.bold)
        s.select(.brush)
        #expect(!s.isEditingText && sink.operations.count == 1)
        // An empty box leaves no step.
        s.select(.text)
        Self.click(s, 50, 50)
        s.select(.line)
        #expect(sink.operations.count == 1)
    }

    /// A drag on the box's frame (the margin round the text) moves it, the text with it; a short
    /// press on the text only moves the caret.
    @Test func dragMovesTheBox() throws {
        let (s, sink) = Self.typing(at: 20, 10)
        Self.type(s, "move")
        let before = try #require(s.textOverlay)
        let inkBefore = Self.ink(s)
        // 3 px left of the text: on the frame's 5 px margin.
        T.drag(s, [(17, 20), (37, 40), (67, 60)])
        let after = try #require(s.textOverlay)
        #expect(after.frame.x == before.frame.x + 50 && after.frame.y == before.frame.y + 40)
        #expect(Self.ink(s) == inkBefore)
        #expect(s.engine.viewPixel(x: 22, y: 20) == Color.white.pixel)
        // A press without motion places the caret (here at the start) and moves nothing.
        Self.click(s, after.frame.x + 1, after.frame.y + 5)
        #expect(s.textOverlay?.frame == after.frame)
        #expect(s.textOverlay?.caretX == Double(after.frame.x))
        Self.type(s, "re")
        #expect(s.editedText == "remove")
        #expect(sink.operations.isEmpty)
    }

    @Test func editingKeys() {
        let (s, _) = Self.typing()
        Self.type(s, "abc\ndef")
        s.handle([.key(.up, modifiers: []), .key(.backspace, modifiers: [])])
        #expect(s.editedText == "ab\ndef")
        s.handle([.key(.home, modifiers: []), .key(.delete, modifiers: [])])
        #expect(s.editedText == "b\ndef")
        s.handle([.key(.end, modifiers: []), .key(.right, modifiers: []), .key(.right, modifiers: [])])
        T.key(s, "X")
        #expect(s.editedText == "b\ndXef")
    }

    /// The primary color, the opacity and the font follow the toolbar while typing.
    @Test func toolbarChangesRestyleTheLiveText() throws {
        let (s, sink) = Self.typing(at: 10, 10)
        Self.type(s, "Red")
        let narrow = try #require(s.textOverlay).frame.width
        s.setPrimary(Color(r: 255, g: 0, b: 0))
        #expect(s.engine.viewPixels.contains(Color(r: 255, g: 0, b: 0).pixel))
        T.click(s, .filledToggle)
        #expect(s.settings.textFont.bold)
        #expect(try #require(s.textOverlay).frame.width > narrow)
        let r = s.layout.rect(of: .widthSlider)
        s.handle([
            .press(x: r.maxX - 1, y: r.y + 5, button: .left, modifiers: []),
            .release(x: r.maxX - 1, y: r.y + 5, button: .left, modifiers: []),
        ])
        #expect(s.settings.textFont.size == 400)
        // The box now fills the canvas: a click there places the caret; a tool change puts
        // it down.
        Self.click(s, 230, 115)
        #expect(s.isEditingText)
        s.select(.brush)
        guard case .text(let style, let spec) = try #require(sink.operations.last) else { return }
        #expect(style.color == Color(r: 255, g: 0, b: 0))
        #expect(spec.font.bold && spec.font.size == 400)
        // Clipped to the canvas: the mask never reaches outside it.
        #expect(IntRect(x: 0, y: 0, width: 240, height: 120).intersection(spec.mask.bounds) == spec.mask.bounds)
    }

    /// The font list: opened from the font button, searched, taken with Enter; Escape goes back.
    @Test func fontListChoosesTheFamily() throws {
        let (s, _) = Self.typing()
        Self.type(s, "Mono")
        T.click(s, .font)
        let chooser = try #require(s.fontChooser)
        #expect(chooser.families.contains("DejaVu Sans Mono"))
        #expect(s.panelFrame == s.fontChooserFrame)
        for c in "mono" { T.key(s, c) }
        // The search took the letters, not the box.
        #expect(s.editedText == "Mono")
        s.handle(.key(.enter, modifiers: []))
        #expect(s.fontChooser == nil)
        #expect(s.settings.textFont.family == "DejaVu Sans Mono")
        T.click(s, .font)
        s.handle([.key(.down, modifiers: []), .key(.down, modifiers: [])])
        #expect(s.settings.textFont.family != "DejaVu Sans Mono")
        s.handle(.key(.escape, modifiers: []))
        #expect(s.settings.textFont.family == "DejaVu Sans Mono")
        #expect(s.isEditingText)
        let strip = try #require(
            { () -> ChromeStrip? in
                T.click(s, .font)
                return s.renderPanel(measure: FixedWidthMeasurer())
            }())
        #expect(strip.pixels.width == FontChooser.size(s.layout.ui).width)
    }

    /// What an input method composes shows in the box and moves the caret into it, but only
    /// typed (committed) text is put down.
    @Test func preeditShowsButIsNotCommitted() throws {
        let (s, sink) = Self.typing()
        Self.type(s, "ab")
        let plain = Self.ink(s)
        s.setPreedit("xyz", caret: 1)
        #expect(Self.ink(s) > plain)
        #expect(s.editedText == "ab")
        #expect(s.textCursor != nil)
        Self.click(s, 230, 115)
        guard case .text(_, let spec) = try #require(sink.operations.first) else { return }
        #expect(spec.text == "ab")
    }

    /// The stroke eraser takes a piece of text out like a stroke.
    @Test func strokeEraserRemovesText() {
        let (s, _) = Self.typing(at: 20, 10)
        Self.type(s, "I")
        s.select(.strokeEraser)
        #expect(Self.ink(s) > 0)
        // The I's stem: about 4.5 px in from the box at 32 px.
        Self.click(s, 25, 30)
        #expect(Self.ink(s) == 0)
    }

    @Test func textSizeKeysWhenNoBoxIsOpen() {
        let s = T.makeSession()
        s.select(.text)
        T.key(s, "]")
        #expect(s.settings.textFont.size == 35)
        T.key(s, "[")
        #expect(s.settings.textFont.size == 32)
        T.key(s, "b")
        #expect(s.settings.tool == .brush)
        T.key(s, "t")
        #expect(s.settings.tool == .text)
    }

    /// While a box is open, Ctrl+] and Ctrl+[ size its text a step up and down (as in Word and
    /// LibreOffice) and the box shows it at once; [ and ] alone are typed. Before, Ctrl+] did
    /// nothing there, and only the toolbar's slider sized the text being typed.
    @Test func ctrlBracketsSizeTheTextBeingTyped() {
        let s = T.makeSession(width: 400, height: 200)
        s.select(.text)
        Self.click(s, 20, 20)
        Self.type(s, "Hi")
        let frame = s.textOverlay?.frame
        #expect(s.bindsKey("]", .control) && s.bindsKey("[", .control))
        T.key(s, "]", .control)
        #expect(s.settings.textFont.size == 35 && s.isEditingText)
        #expect((s.textOverlay?.frame.height ?? 0) > (frame?.height ?? 0), "the box shows the larger text")
        T.key(s, "[", .control)
        T.key(s, "[", .control)
        #expect(s.settings.textFont.size == 29)
        Self.type(s, "[]")
        #expect(s.liveText?.box.text == "Hi[]" && s.settings.textFont.size == 29)
    }

    /// A keyboard user puts the text down with Ctrl+Enter or Escape: the hint says so while
    /// typing and again when text is opened again (before, it named only Escape, to cancel,
    /// and a click outside, and Ctrl+Enter was found by no one); the text is then one step.
    @Test func theHintNamesCtrlEnterWhichPutsTheTextDown() {
        let s = T.makeSession(width: 400, height: 200)
        s.select(.text)
        Self.click(s, 20, 20)
        #expect(s.shownMessage == "Type your text — Enter: new line, Ctrl+Enter or Esc: done")
        Self.type(s, "Look")
        s.handle(.key(.enter, modifiers: .control))
        #expect(!s.isEditingText && Self.ink(s) > 0, "put down")
        let drawn = Array(s.engine.viewPixels)
        Self.doubleClick(s, 24, 30)
        #expect(s.isEditingText && s.shownMessage == "Editing the text again — Ctrl+Enter or Esc: done")
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isEditingText && Array(s.engine.viewPixels) == drawn)
        s.undo()
        #expect(Self.ink(s) == 0, "the text put down again is one step")
    }

    static func doubleClick(_ s: Session, _ x: Int, _ y: Int) {
        let w = T.window(s, x, y)
        s.handle([
            .press(x: w.0, y: w.1, button: .left, modifiers: []),
            .release(x: w.0, y: w.1, button: .left, modifiers: []),
            .press(x: w.0, y: w.1, button: .left, modifiers: []),
            .doubleClick(x: w.0, y: w.1),
            .release(x: w.0, y: w.1, button: .left, modifiers: []),
        ])
    }

    /// A double click on text put down earlier opens it again with its font and color: edited
    /// and put down, it is a new step (undo twice brings the old text back); Escape puts it
    /// down as it is.
    @Test func doubleClickReopensText() throws {
        let (s, sink) = Self.typing(at: 20, 10)
        T.key(s, "b", .control)
        s.setPrimary(Color(r: 0, g: 0, b: 200))
        Self.type(s, "Old")
        Self.click(s, 230, 115)
        let old = Array(s.engine.viewPixels)
        s.setPrimary(.black)
        // With no box open, the toolbar's toggle (Ctrl+B is the background then).
        T.click(s, .filledToggle)
        #expect(!s.settings.textFont.bold)
        // On the O's left stem.
        Self.doubleClick(s, 23, 30)
        #expect(s.editedText == "Old")
        #expect(s.settings.textFont.bold && s.settings.primary == Color(r: 0, g: 0, b: 200))
        #expect(Array(s.engine.viewPixels) == old)
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isEditingText)
        #expect(Array(s.engine.viewPixels) == old)
        Self.doubleClick(s, 23, 30)
        Self.type(s, "er")
        Self.click(s, 230, 115)
        guard case .text(_, let spec) = try #require(sink.operations.last) else { return }
        #expect(spec.text == "Older" && spec.font.bold && spec.x == 20 && spec.y == 10)
        s.undo()
        s.undo()
        #expect(Array(s.engine.viewPixels) == old)
        // A double click where there is no text leaves an empty box, as a click does.
        s.select(.text)
        Self.doubleClick(s, 150, 90)
        #expect(s.editedText == "")
    }

    /// The caret at the end of a line, and at its start, stands clear inside the dashed frame
    /// the window draws (the frame ran under it at a line's end), at any zoom and scale.
    @Test(arguments: [(1.0, 0), (1.5, 0), (2.0, 1), (1.0, 4), (1.0, -2)])
    func theCaretStaysInsideTheFrame(scale: Double, zoomSteps: Int) throws {
        let (s, _) = Self.typing(at: 20, 10)
        s.uiScale = UIScale(scale)
        if zoomSteps != 0 { s.zoom(by: zoomSteps, aroundWindowX: T.window(s, 20, 10).0, y: T.window(s, 20, 10).1) }
        for text in ["Wd", "\nl"] {
            Self.type(s, text)
            let frame = try #require(s.textFrameInWindowRect)
            let caret = try #require(s.textCaretBar)
            // The frame's lines are its outermost rows and columns.
            let inside = IntRect(x: frame.x + 1, y: frame.y + 1, width: frame.width - 2, height: frame.height - 2)
            #expect(inside.intersection(caret) == caret, "\(text): caret \(caret), frame \(frame)")
        }
        s.handle(.key(.home, modifiers: []))
        let frame = try #require(s.textFrameInWindowRect)
        let caret = try #require(s.textCaretBar)
        #expect(caret.x > frame.x, "at a line's start: caret \(caret), frame \(frame)")
    }

    /// A double click opens text again wherever it falls in the text: inside the O, where no
    /// ink is within reach (it left an empty box there, and only the ink of a letter reopened
    /// the text); a stroke painted over the text is what a double click on that stroke finds.
    @Test func doubleClickBetweenTheLettersReopensText() throws {
        let (s, sink) = Self.typing(at: 20, 10)
        Self.type(s, "OO")
        Self.click(s, 230, 115)
        guard case .text(_, let spec) = try #require(sink.operations.last) else { return }
        let mask = spec.mask
        // A pixel of the box with no ink within 3 pixels: inside the first O.
        func blank(_ x: Int, _ y: Int) -> Bool {
            for dy in -3...3 {
                for dx in -3...3 where mask.coverage(atX: x + dx, y: y + dy) != 0 { return false }
            }
            return true
        }
        var empty: (x: Int, y: Int)?
        for y in (mask.y + 4)..<(mask.y + mask.height - 4) where empty == nil {
            for x in (mask.x + 4)..<(mask.x + mask.width / 2) where blank(x, y) {
                empty = (x, y)
                break
            }
        }
        let inside = try #require(empty, "no empty pixel inside the O")
        #expect(s.history.stroke(at: Point(x: Double(inside.x) + 0.5, y: Double(inside.y) + 0.5), slack: 1) == nil)
        Self.doubleClick(s, inside.x, inside.y)
        #expect(s.editedText == "OO")
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isEditingText)
        // Outside the box: an empty box, as a click makes.
        Self.doubleClick(s, mask.x + mask.width + 20, inside.y)
        #expect(s.editedText == "")
    }

    /// Text put down before the picture is turned stays where it shows now for the stroke
    /// eraser (which takes it out), but it is not opened again by a double click: its box no
    /// longer says where it stands.
    @Test func textAcrossATurn() {
        let (s, _) = Self.typing(at: 20, 10)
        Self.type(s, "I")
        Self.click(s, 230, 115)
        s.perform(.canvas(.orient(.rotate180)))
        #expect(Self.ink(s) > 0)
        // The I's stem was near (25, 30); turned half round on 240 x 120 it is near (214, 89).
        s.select(.text)
        Self.doubleClick(s, 214, 89)
        #expect(s.editedText == "" || s.editedText == nil)
        #expect(s.message.contains("cannot be edited again"))
        s.handle(.key(.escape, modifiers: []))
        s.select(.strokeEraser)
        Self.click(s, 214, 89)
        #expect(Self.ink(s) == 0)
    }
}

import PaintCore
import Testing

@testable import PaintApp

/// Selecting in the text box being typed: Shift with the caret keys, a drag, a double and a
/// triple click, Ctrl+A; the light blue ground behind the selected letters (view only, never
/// placed); typing, pasting, Backspace, Delete and Ctrl+X on a selection, each one step of the
/// box's undo; Ctrl+C / Ctrl+X offering the text to the clipboard; right-to-left and mixed text
/// selected in logical order.
@Suite struct TextSelectionTests {
    typealias T = SessionTests
    typealias Tool = TextToolTests

    static func key(_ s: Session, _ key: Key, _ modifiers: Modifiers = [], times: Int = 1) {
        for _ in 0..<times { s.handle(.key(key, modifiers: modifiers)) }
    }

    /// The highlight over white: the tint at 96/255, each channel rounded.
    static let tintedWhite: UInt32 = {
        let t = StrokeEngine.highlightColor
        func mix(_ c: UInt8) -> UInt8 { UInt8(((Double(c) * 96 + 255 * 159) / 255).rounded()) }
        return Color(r: mix(t.r), g: mix(t.g), b: mix(t.b)).pixel
    }()

    /// The highlight's rectangles, image pixels.
    static func highlight(_ s: Session) throws -> [IntRect] { s.textHighlight(try #require(s.liveText)) }

    /// The caret's x before scalar `offset` of line `line`, whole pixels from the box's left.
    static func caretX(_ s: Session, line: Int = 0, _ offset: Int) throws -> Int {
        Int(try #require(s.liveText).layout.caret(line: line, offset: offset).x.rounded())
    }

    /// Shift+Left selects "world" back from the caret; the view shows it on the light blue ground
    /// exactly: white turned to the tint, full-coverage ink still black, nothing changed outside
    /// the highlight, which runs from the caret before "w" to the line's end. Typing replaces it,
    /// one step undo takes back with the selection as it was; put down, the text's pixels are
    /// those shown without any highlight.
    @Test func shiftArrowsSelectAndTheHighlightIsBehindTheLetters() throws {
        let (s, sink) = Tool.typing(at: 20, 10)
        Tool.type(s, "hello world")
        let plain = Array(s.engine.viewPixels)
        Self.key(s, .left, .shift, times: 5)
        #expect(s.selectedText == "world")
        let rects = try Self.highlight(s)
        try #require(rects.count == 1)
        let r = rects[0]
        let layout = try #require(s.liveText).layout
        let (w0, w1) = (try Self.caretX(s, 6), try Self.caretX(s, 11))
        #expect(r.x == 20 + w0 && r.maxX == 20 + w1)
        #expect(r.y == 10 && r.height == layout.lineHeight)
        let shown = Array(s.engine.viewPixels)
        let width = s.engine.width
        var tinted = 0
        var blackKept = 0
        for (i, before) in plain.enumerated() {
            let (x, y) = (i % width, i / width)
            let after = shown[i]
            guard r.contains(x, y) else {
                #expect(after == before, "outside the highlight at \(x),\(y)")
                continue
            }
            if before == Color.white.pixel {
                #expect(after == Self.tintedWhite, "white under the highlight at \(x),\(y)")
                tinted += 1
            } else if before == Color.black.pixel {
                #expect(after == Color.black.pixel, "a letter's full ink at \(x),\(y)")
                blackKept += 1
            } else {
                // Partly covered black text over the tint: the tint scaled by what the letter left
                // of the white (each channel within rounding).
                for shift in [0, 8, 16] as [UInt32] {
                    let shown = Double(before >> shift & 0xFF) / 255
                    let expected = Double(Self.tintedWhite >> shift & 0xFF) * shown
                    #expect(abs(Double(after >> shift & 0xFF) - expected) <= 1.5, "partly covered at \(x),\(y)")
                }
            }
        }
        #expect(tinted > 100 && blackKept > 10)
        // Typing replaces the selection; undo brings "world" back, selected.
        Tool.type(s, "there")
        #expect(s.editedText == "hello there" && s.selectedText == nil)
        #expect(try Self.highlight(s).isEmpty)
        TextUndoTests.undo(s)
        #expect(s.editedText == "hello world" && s.selectedText == "world")
        #expect(Array(s.engine.viewPixels) == shown)
        // Put down: the placed pixels are the text's, without the highlight.
        Tool.click(s, 200, 100)
        #expect(!s.isEditingText && sink.operations.count == 1)
        #expect(Array(s.engine.viewPixels) == plain)
        TextUndoTests.undo(s)
        TextUndoTests.redo(s)
        #expect(Array(s.engine.viewPixels) == plain)
    }

    /// Shift+Home / End, Ctrl+Shift+Left / Right (by word), Ctrl+Shift+Home / End, and a plain
    /// arrow ending the selection at its edge; Shift+Up / Down across lines.
    @Test func shiftWithCaretKeysExtendsAndArrowsEndIt() {
        let (s, _) = Tool.typing()
        Tool.type(s, "one two\nthree four")
        Self.key(s, .home, .shift)
        #expect(s.selectedText == "three four")
        Self.key(s, .right)
        #expect(s.selectedText == nil && s.liveText?.box.caret == 18)
        Self.key(s, .left, [.control, .shift])
        #expect(s.selectedText == "four")
        Self.key(s, .left, [.control, .shift])
        #expect(s.selectedText == "three four")
        Self.key(s, .up, .shift)
        #expect(s.selectedText == "two\nthree four" || s.selectedText == "one two\nthree four")
        Self.key(s, .left)
        #expect(s.selectedText == nil && (s.liveText?.box.caret ?? -1) <= 4)
        Self.key(s, .end, [.control, .shift])
        #expect(s.selectedText?.hasSuffix("three four") == true)
        Self.key(s, .home, [.control, .shift])
        #expect(s.selectedText == nil || s.selectedText?.hasPrefix("one") == true)
        Self.key(s, .end)
        Self.key(s, .home, [.control, .shift])
        #expect(s.selectedText == "one two")
        Self.key(s, .end, .control)
        Self.key(s, .home, [.control, .shift])
        #expect(s.selectedText == "one two\nthree four")
    }

    /// Shift+Up on the first line selects to the text's start and Shift+Down on the last to its
    /// end (GTK's and Qt's text fields); plain Up / Down there go to the start / end and end a
    /// selection.
    @Test func upOnTheFirstLineAndDownOnTheLastGoToTheTextsEdges() {
        let (s, _) = Tool.typing()
        Tool.type(s, "one two\nthree four")
        Self.key(s, .left, times: 5)
        Self.key(s, .up)
        #expect(s.liveText?.box.caretPosition.line == 0 && s.selectedText == nil)
        let onFirstLine = s.liveText?.box.caret ?? -1
        #expect(onFirstLine > 0 && onFirstLine < 7)
        Self.key(s, .up, .shift)
        #expect(s.selectedText == String("one two".prefix(onFirstLine)))
        #expect(s.liveText?.box.caret == 0)
        // From the third place, Shift+Down twice: the second reaches the text's end.
        Self.key(s, .home, .control)
        Self.key(s, .right, times: 2)
        #expect(s.selectedText == nil && s.liveText?.box.caret == 2)
        Self.key(s, .down, .shift)
        #expect(s.liveText?.box.caretPosition.line == 1)
        Self.key(s, .down, .shift)
        #expect(s.selectedText == "e two\nthree four" && s.liveText?.box.caret == 18)
        // Plain Up on the first line with a selection: the caret at the start, nothing selected.
        Self.key(s, .home, [.control, .shift])
        #expect(s.selectedText == "on")
        Self.key(s, .up)
        #expect(s.selectedText == nil && s.liveText?.box.caret == 0)
        Self.key(s, .down, times: 2)
        #expect(s.selectedText == nil && s.liveText?.box.caret == 18)
    }

    /// Ctrl+A in a box selects its text, not the picture, and the box stays open; Backspace
    /// then takes it all as one step.
    @Test func ctrlASelectsTheBoxsText() {
        let (s, sink) = Tool.typing()
        Tool.type(s, "all of it")
        T.key(s, "a", .control)
        #expect(s.isEditingText && s.selectedText == "all of it")
        #expect(s.selection == nil && s.settings.tool == .text)
        Self.key(s, .backspace)
        #expect(s.editedText == "")
        TextUndoTests.undo(s)
        #expect(s.editedText == "all of it")
        #expect(sink.operations.isEmpty)
    }

    /// Delete and Backspace remove the selection only; Ctrl+C offers it as text and leaves it;
    /// Ctrl+X offers it and takes it out, a step of its own; Ctrl+V asks for the clipboard's text
    /// (never its picture) and the text replaces the selection.
    @Test func deleteCopyCutAndPaste() throws {
        let (s, sink) = Tool.typing()
        Tool.type(s, "abc def ghi")
        Self.key(s, .left, .shift, times: 3)
        Self.key(s, .delete)
        #expect(s.editedText == "abc def ")
        Self.key(s, .left, [.control, .shift])
        var effects = T.key(s, "c", .control)
        #expect(effects.clipboard == [.offerText("def ")])
        #expect(s.editedText == "abc def " && s.isEditingText)
        effects = T.key(s, "x", .control)
        // Cut: nothing is selected any more, and PRIMARY (which offered it) is given up.
        #expect(effects.clipboard == [.offerText("def "), .releasePrimary])
        #expect(s.editedText == "abc ")
        TextUndoTests.undo(s)
        #expect(s.editedText == "abc def " && s.selectedText == "def ")
        effects = T.key(s, "v", .control)
        #expect(effects.clipboard == [.fetchText])
        s.handle(.pastedText("XY\nZ"))
        #expect(s.editedText == "abc XY\nZ")
        TextUndoTests.undo(s)
        #expect(s.editedText == "abc def ")
        // Nothing selected: Ctrl+C offers nothing and says so.
        Self.key(s, .end)
        effects = T.key(s, "c", .control)
        #expect(effects.clipboard.isEmpty && s.isEditingText)
        #expect(sink.operations.isEmpty)
        // From the Edit menu too.
        T.key(s, "a", .control)
        Command.named("copy")?.run(s)
        #expect(s.takeEffects().clipboard == [.offerText("abc def ")])
    }

    /// A drag over the text selects from the press to the pointer; Shift+click stretches it; a
    /// double click selects the word under the pointer, a triple click the line.
    @Test func dragDoubleAndTripleClickSelect() throws {
        let (s, _) = Tool.typing(at: 20, 10)
        Tool.type(s, "one two\nthree four")
        let lineHeight = try #require(s.liveText).layout.lineHeight
        let y0 = 10 + lineHeight / 2
        let y1 = 10 + lineHeight + lineHeight / 2
        // From the caret before "two" to the one before "four" on the next line.
        let from = 20 + (try Self.caretX(s, 4))
        let to = 20 + (try Self.caretX(s, line: 1, 6))
        T.drag(s, [(from, y0), (from + 10, y0), (to, y1)])
        #expect(s.selectedText == "two\nthree ")
        // Two rows of highlight: "two" and the break, then "three ".
        let rects = try Self.highlight(s)
        #expect(rects.count == 2 && rects[0].y == 10 && rects[1].y == 10 + lineHeight)
        #expect(rects[0].x == from && rects[1].x == 20 && rects[1].maxX == to)
        // Shift+click at the end of "four" stretches the selection from "two".
        let end = 20 + (try Self.caretX(s, line: 1, 10))
        let w = T.window(s, end, y1)
        s.handle([
            .press(x: w.0, y: w.1, button: .left, modifiers: .shift),
            .release(x: w.0, y: w.1, button: .left, modifiers: .shift),
        ])
        #expect(s.selectedText == "two\nthree four")
        // A double click on the right half of "e" of "three" selects "three".
        let e = 20 + (try Self.caretX(s, line: 1, 4)) + 1
        let d = T.window(s, e, y1)
        s.handle([
            .press(x: d.0, y: d.1, button: .left, modifiers: []),
            .release(x: d.0, y: d.1, button: .left, modifiers: []),
            .press(x: d.0, y: d.1, button: .left, modifiers: []), .doubleClick(x: d.0, y: d.1),
            .release(x: d.0, y: d.1, button: .left, modifiers: []),
        ])
        #expect(s.selectedText == "three")
        s.handle([
            .press(x: d.0, y: d.1, button: .left, modifiers: []), .tripleClick(x: d.0, y: d.1),
            .release(x: d.0, y: d.1, button: .left, modifiers: []),
        ])
        #expect(s.selectedText == "three four")
        // The box did not move.
        #expect(try #require(s.textOverlay).frame.x == 20)
    }

    /// Mixed text selects in logical order: in "ab שלום cd" the scalars 1..<5 ("b", the space,
    /// "ש", "ל") show as two pieces, the Hebrew part at the right end of its run, with "ום"
    /// unselected between them. A Hebrew line's Shift+Right selects backwards in the text, which
    /// is rightwards on screen.
    @Test func rightToLeftAndMixedTextSelectLogically() throws {
        let (s, _) = Tool.typing(at: 20, 10)
        Tool.type(s, "ab שלום cd")
        var live = try #require(s.liveText)
        live.box.select(from: 1, to: 5)
        s.liveText = live
        s.refreshText(.caret)
        #expect(s.selectedText == "b של")
        let rects = try Self.highlight(s)
        try #require(rects.count == 2)
        let (b, lamedLeft, shinRight) = (try Self.caretX(s, 1), try Self.caretX(s, 5), try Self.caretX(s, 3))
        #expect(rects[0].x == 20 + b)
        // The Hebrew piece: from "ל"'s left (the caret before "ו", its right edge in RTL) to
        // "ש"'s right (the caret before it).
        #expect(rects[1].x == 20 + lamedLeft && rects[1].maxX == 20 + shinRight)
        #expect(rects[0].maxX < rects[1].x)
        // The view: tinted white in both pieces, none between them.
        let width = s.engine.width
        let view = s.engine.viewPixels
        let midY = rects[0].y + 2
        #expect(view[midY * width + rects[0].x] == Self.tintedWhite)
        #expect(view[midY * width + rects[1].maxX - 1] == Self.tintedWhite)
        #expect(!(rects[0].maxX..<rects[1].x).contains { view[midY * width + $0] == Self.tintedWhite })

        // A right-to-left line: Shift+Right from the end (its left end) selects "ום".
        // Escape drops the box, and its highlight with it.
        Self.key(s, .escape)
        #expect(!s.engine.viewPixels.contains(Self.tintedWhite))
        Tool.click(s, 20, 60)
        Tool.type(s, "שלום")
        Self.key(s, .right, .shift, times: 2)
        #expect(s.selectedText == "ום")
        let rtl = try Self.highlight(s)
        try #require(rtl.count == 1)
        let (left, right) = (try Self.caretX(s, 4), try Self.caretX(s, 2))
        #expect(rtl[0].x == 20 + left && rtl[0].maxX == 20 + right)
    }

    /// What an input method composes stays through undo, at the caret the step puts back; the
    /// highlight of a selection after the caret moves past the composition.
    @Test func compositionSurvivesUndo() throws {
        let (s, _) = Tool.typing()
        Tool.type(s, "ab cd")
        s.setPreedit("xyz", caret: 3)
        TextUndoTests.undo(s)
        #expect(s.editedText == "ab ")
        #expect(s.liveText?.shownText == "ab xyz")
        // A selection after the caret, with a composition at the caret: the highlight sits over
        // the selected letters, past the composition.
        var live = try #require(s.liveText)
        live.box.select(from: 3, to: 1)
        s.liveText = live
        s.setPreedit("q", caret: 1)
        let rects = try Self.highlight(s)
        try #require(rects.count == 1)
        let (from, to) = (try Self.caretX(s, 2), try Self.caretX(s, 4))
        #expect(rects[0].x == 20 + from && rects[0].maxX == 20 + to)
    }

    /// Zoomed in to 800 %, the highlight's sides are drawn at the window's resolution: in the
    /// window pixels of the picture pixel under a side, each column left of the exact side (where
    /// the caret stands) shows that pixel plain and each right of it tinted (the other way at
    /// the right side), by the column's middle; everything else is the picture's pixels
    /// repeated as before.
    @Test func highlightSidesAreSharpWhenZoomedIn() throws {
        let (s, _) = Tool.typing(at: 20, 10)
        Tool.type(s, "hello world")
        let plain = Array(s.engine.viewPixels)
        Self.key(s, .left, .shift, times: 5)
        let pieces = s.textHighlightPieces(try #require(s.liveText))
        try #require(pieces.count == 1)
        let (rect, sides) = (pieces[0].rect, pieces[0].sides)
        // The sides fall inside picture pixels: what this test is about.
        #expect(sides.left != sides.left.rounded() || sides.right != sides.right.rounded())
        // Every pixel tinted: the highlight one pixel wider on each side, then back.
        s.engine.highlightText([IntRect(x: rect.x - 1, y: rect.y, width: rect.width + 2, height: rect.height)])
        let tinted = Array(s.engine.viewPixels)
        s.engine.highlightText([rect], sides: [sides])
        let view = Array(s.engine.viewPixels)
        let zoom = Zoom(8)
        let (width, height) = (s.engine.width, s.engine.height)
        let shown = IntRect(
            x: (rect.x - 3) * 8, y: (rect.y - 1) * 8, width: (rect.width + 6) * 8, height: (rect.height + 2) * 8)
        var scaled = view.withUnsafeBufferPointer {
            ViewScaler.render($0, width: width, height: height, zoom: zoom, rect: shown)
        }
        let repeated = scaled
        s.engine.sharpenHighlightEdges(&scaled, rect: shown, zoom: zoom)
        var split = 0
        for y in 0..<shown.height {
            for x in 0..<shown.width {
                let (px, py) = (zoom.sourcePixel(shown.x + x), zoom.sourcePixel(shown.y + y))
                let middle = (Double(shown.x + x) + 0.5) / 8
                let inside = py >= rect.y && py < rect.maxY && middle >= sides.left && middle < sides.right
                let expected = inside ? tinted[py * width + px] : plain[py * width + px]
                #expect(
                    scaled[y * shown.width + x] == expected, "window pixel \(x), \(y) of picture pixel \(px), \(py)")
                if scaled[y * shown.width + x] != repeated[y * shown.width + x] { split += 1 }
            }
        }
        // Some columns differ from the picture pixels repeated: the sides moved to the caret.
        #expect(split > 0)
        // Put down, no highlight stays.
        Tool.click(s, 200, 100)
        #expect(Array(s.engine.viewPixels) == plain)
    }
}

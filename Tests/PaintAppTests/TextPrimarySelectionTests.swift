import PaintCore
import Testing

@testable import PaintApp

/// The text box and the PRIMARY selection, as in every X text widget: what is selected in the
/// box is offered (once per change; a drag once, at its release), and a middle click on the box
/// puts the caret there and asks for PRIMARY's text, which is typed at that place as one step.
@Suite struct TextPrimarySelectionTests {
    typealias T = SessionTests
    typealias Tool = TextToolTests

    /// The PRIMARY offers among `effects`' clipboard requests.
    static func offers(_ effects: Effects) -> [String] {
        effects.clipboard.compactMap {
            if case .offerPrimary(let text) = $0 { return text }
            return nil
        }
    }

    /// Shift+arrows offer each new selection; the same selection is not offered again; an
    /// emptied selection offers nothing, and selecting the same text later offers it again.
    @Test func keyboardSelectionsAreOfferedAsTheyChange() {
        let (s, _) = Tool.typing()
        Tool.type(s, "hello world")
        #expect(Self.offers(s.handle(.key(.left, modifiers: .shift))) == ["d"])
        #expect(Self.offers(s.handle(.key(.left, modifiers: .shift))) == ["ld"])
        // Typing over it: nothing selected, nothing offered (PRIMARY is given up).
        #expect(Self.offers(s.handle(.key(.character("X"), modifiers: []))).isEmpty)
        #expect(s.editedText == "hello worX")
        #expect(Self.offers(s.handle(.key(.home, modifiers: .shift))) == ["hello worX"])
        #expect(Self.offers(s.handle(.key(.character("a"), modifiers: .control))).isEmpty)
        #expect(Self.offers(s.handle(.key(.right, modifiers: []))).isEmpty)
        #expect(Self.offers(s.handle(.key(.character("a"), modifiers: .control))) == ["hello worX"])
    }

    /// Whether `effects` ask the window to give PRIMARY up.
    static func releases(_ effects: Effects) -> Bool { effects.clipboard.contains(.releasePrimary) }

    /// Once nothing is selected (a click in the box, typing over the selection, the box put down
    /// or cancelled), the window is asked once to give PRIMARY up; a box that never offered
    /// anything asks nothing, and a selection that moves on to other text does not give it up.
    @Test func aClearedSelectionGivesPrimaryUp() throws {
        let (s, _) = Tool.typing()
        Tool.type(s, "one two")
        #expect(Self.offers(s.handle(.key(.left, modifiers: .shift))) == ["o"])
        // Another selection replaces it: offered, not given up in between.
        let other = s.handle([.key(.left, modifiers: .shift), .key(.left, modifiers: .shift)])
        #expect(Self.offers(other) == ["wo", "two"] && !Self.releases(other))
        // A click in the text deselects: given up, once.
        let live = try #require(s.liveText)
        let at = T.window(
            s, 20 + Int(live.layout.caret(line: 0, offset: 1).x.rounded()), 10 + live.layout.lineHeight / 2)
        let click = s.handle([
            .press(x: at.0, y: at.1, button: .left, modifiers: []),
            .release(x: at.0, y: at.1, button: .left, modifiers: []),
        ])
        #expect(Self.releases(click) && s.selectedText == nil)
        #expect(!Self.releases(s.handle([.key(.right, modifiers: []), .key(.left, modifiers: [])])))
        // Typing over a selection.
        #expect(Self.offers(s.handle(.key(.right, modifiers: .shift))) == ["n"])
        #expect(Self.releases(s.handle(.key(.character("N"), modifiers: []))))
        #expect(s.editedText == "oNe two")
        // Escape with text selected: the box goes, and PRIMARY with it.
        #expect(Self.offers(s.handle(.key(.character("a"), modifiers: .control))) == ["oNe two"])
        #expect(Self.releases(s.handle(.key(.escape, modifiers: []))) && !s.isEditingText)
        // A box put down by a click off it, its text selected.
        Tool.click(s, 20, 60)
        Tool.type(s, "three")
        #expect(Self.offers(s.handle(.key(.character("a"), modifiers: .control))) == ["three"])
        let away = T.window(s, 200, 100)
        let putDown = s.handle([
            .press(x: away.0, y: away.1, button: .left, modifiers: []),
            .release(x: away.0, y: away.1, button: .left, modifiers: []),
        ])
        #expect(Self.releases(putDown))
    }

    /// A drag over the text offers nothing while it moves and its selection once when the button
    /// comes up; a double click offers the word.
    @Test func aDragIsOfferedAtItsRelease() throws {
        let (s, _) = Tool.typing()
        Tool.type(s, "one two three")
        let live = try #require(s.liveText)
        let y = 10 + live.layout.lineHeight / 2
        let x0 = 20 + Int(live.layout.caret(line: 0, offset: 4).x.rounded())
        let x1 = 20 + Int(live.layout.caret(line: 0, offset: 7).x.rounded())
        let (a, b) = (T.window(s, x0, y), T.window(s, x1, y))
        var offered = Self.offers(s.handle(.press(x: a.0, y: a.1, button: .left, modifiers: [])))
        offered += Self.offers(s.handle(.motion(x: a.0 + 5, y: a.1, modifiers: [])))
        offered += Self.offers(s.handle(.motion(x: b.0, y: b.1, modifiers: [])))
        #expect(offered.isEmpty && s.selectedText == "two")
        #expect(Self.offers(s.handle(.release(x: b.0, y: b.1, button: .left, modifiers: []))) == ["two"])
        let c = T.window(s, 20 + Int(live.layout.caret(line: 0, offset: 10).x.rounded()), y)
        let effects = s.handle([
            .press(x: c.0, y: c.1, button: .left, modifiers: []),
            .release(x: c.0, y: c.1, button: .left, modifiers: []),
            .press(x: c.0, y: c.1, button: .left, modifiers: []), .doubleClick(x: c.0, y: c.1),
            .release(x: c.0, y: c.1, button: .left, modifiers: []),
        ])
        #expect(Self.offers(effects) == ["three"] && s.selectedText == "three")
    }

    /// A middle click on the box's text: the caret goes there (the selection ends), PRIMARY's
    /// text is asked for and typed there, one step of the box's undo; the picture is not dragged.
    /// A middle click off the box drags the picture as before and asks for nothing.
    @Test func aMiddleClickPastesPrimaryWhereItIs() throws {
        let (s, sink) = Tool.typing()
        Tool.type(s, "one three")
        s.handle(.key(.left, modifiers: .shift))
        let live = try #require(s.liveText)
        let y = 10 + live.layout.lineHeight / 2
        let at = T.window(s, 20 + Int(live.layout.caret(line: 0, offset: 4).x.rounded()), y)
        let effects = s.handle([
            .press(x: at.0, y: at.1, button: .middle, modifiers: []),
            .release(x: at.0, y: at.1, button: .middle, modifiers: []),
        ])
        // The click ended the selection offered: PRIMARY is given up, after it is asked for (the
        // window answers its own PRIMARY at once, so the text selected is what is pasted).
        #expect(effects.clipboard == [.fetchPrimaryText, .releasePrimary])
        #expect(s.selectedText == nil && s.liveText?.box.caret == 4)
        s.handle(.pastedText("two "))
        #expect(s.editedText == "one two three" && s.liveText?.box.caret == 8)
        TextUndoTests.undo(s)
        #expect(s.editedText == "one three")
        // Off the box: the middle button drags the picture, no paste is asked.
        let off = T.window(s, 150, 90)
        let pan = s.handle([
            .press(x: off.0, y: off.1, button: .middle, modifiers: []),
            .release(x: off.0, y: off.1, button: .middle, modifiers: []),
        ])
        #expect(pan.clipboard.isEmpty && s.isEditingText && s.editedText == "one three")
        #expect(sink.operations.isEmpty)
    }
}

/// A drag selecting text past the canvas's edge scrolls the picture that way, by as far as the
/// pointer is past the edge (at most a wheel step per motion), and the selection follows to the
/// text under the pointer; a picture that fits does not move.
@Suite struct TextDragScrollTests {
    typealias T = SessionTests
    typealias Tool = TextToolTests

    @Test func aDragPastTheRightEdgeScrollsAndSelectsOn() throws {
        let (s, _) = Tool.typing(at: 4, 4)
        Tool.type(s, "one two three four five six seven eight nine ten eleven twelve")
        s.zoom(to: Zoom(8))
        s.setLayout(s.layout.scrolled(toX: 0, y: 0))
        let area = s.layout.canvasArea
        let live = try #require(s.liveText)
        let y = s.layout.imageOrigin.y + (4 + live.layout.lineHeight / 2) * 8
        let x0 = s.layout.imageOrigin.x + 4 * 8 + 2
        s.handle(.press(x: x0, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: area.maxX - 2, y: y, modifiers: []))
        #expect(s.layout.scrollX == 0)
        let inView = try #require(s.liveText?.box.caret)
        var last = inView
        for k in 1...6 {
            s.handle(.motion(x: area.maxX + 29, y: y, modifiers: []))
            #expect(s.layout.scrollX == 30 * k)
            // The caret is where the pointer is over the text, further with each scroll.
            let caret = try #require(s.liveText?.box.caret)
            #expect(caret >= last)
            last = caret
        }
        #expect(last > inView)
        #expect(s.selectedText?.hasPrefix("one two") == true)
        // Far past the edge: one wheel step per motion at most.
        let before = s.layout.scrollX
        s.handle(.motion(x: area.maxX + 500, y: y, modifiers: []))
        #expect(s.layout.scrollX == before + Int(Session.wheelStep))
        // Released: the pointer outside moves nothing.
        s.handle(.release(x: area.maxX + 500, y: y, button: .left, modifiers: []))
        let after = s.layout.scrollX
        s.handle(.motion(x: area.maxX + 40, y: y, modifiers: []))
        #expect(s.layout.scrollX == after)
        // Back left past the canvas's left edge: it scrolls back.
        s.handle(.press(x: area.maxX - 20, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: area.x - 10, y: y, modifiers: []))
        #expect(s.layout.scrollX == after - 10)
        #expect(s.isEditingText)
    }

    @Test func aPictureThatFitsDoesNotMove() throws {
        let (s, _) = Tool.typing(at: 4, 4)
        Tool.type(s, "one two three")
        // The box's hint, a notice, has a timer of its own (`StatusMessageTimerTests`).
        s.show("")
        let area = s.layout.canvasArea
        let live = try #require(s.liveText)
        let w = T.window(s, 5, 4 + live.layout.lineHeight / 2)
        let before = s.layout
        s.handle(.press(x: w.0, y: w.1, button: .left, modifiers: []))
        s.handle(.motion(x: area.maxX + 40, y: area.maxY + 40, modifiers: []))
        #expect(s.layout == before)
        #expect(s.selectedText == "one two three")
        // Nothing to scroll: no timer is asked for, and none moves the picture.
        #expect(s.autoscrollPoint == nil)
        #expect(s.runTimers(at: 10) == nil)
        #expect(s.runTimers(at: 20) == nil)
        #expect(s.layout == before)
    }

    /// The pointer held still past the edge: `runTimers` repeats its motion every
    /// `autoscrollInterval`, and the picture scrolls on and the selection grows, until the
    /// pointer comes back, the button comes up or the picture can go no further; then no
    /// timer is asked for.
    @Test func aDragHeldStillPastTheEdgeKeepsScrolling() throws {
        let text = "one two three four five six seven eight nine ten eleven twelve"
        let (s, _) = Tool.typing(at: 4, 4)
        Tool.type(s, text)
        s.zoom(to: Zoom(8))
        s.setLayout(s.layout.scrolled(toX: 0, y: 0))
        // The box's hint, a notice, has a timer of its own (`StatusMessageTimerTests`).
        s.show("")
        #expect(s.runTimers(at: 1) == nil)
        let area = s.layout.canvasArea
        let live = try #require(s.liveText)
        let y = s.layout.imageOrigin.y + (4 + live.layout.lineHeight / 2) * 8
        s.handle(.press(x: s.layout.imageOrigin.x + 4 * 8 + 2, y: y, button: .left, modifiers: []))
        #expect(s.runTimers(at: 2) == nil)
        s.handle(.motion(x: area.maxX + 29, y: y, modifiers: []))
        #expect(s.layout.scrollX == 30)
        // The motion itself scrolled: the first repeat is a whole interval later.
        let step = Session.autoscrollInterval
        #expect(s.runTimers(at: 100) == 100 + step)
        #expect(s.runTimers(at: 100 + step / 2) == 100 + step)
        #expect(s.layout.scrollX == 30)
        let first = try #require(s.liveText?.box.caret)
        var caret = first
        for k in 1...3 {
            let now = 100 + Double(k) * step
            #expect(s.runTimers(at: now) == now + step)
            #expect(s.layout.scrollX == 30 + 30 * k)
            // The caret follows to the letter under the pointer (30 px is less than a letter).
            let moved = try #require(s.liveText?.box.caret)
            #expect(moved >= caret)
            caret = moved
        }
        #expect(caret > first)
        // The pointer's own motion scrolls and starts the wait again.
        s.handle(.motion(x: area.maxX + 29, y: y, modifiers: []))
        #expect(s.layout.scrollX == 150)
        #expect(s.runTimers(at: 100.17) == 100.17 + step)
        #expect(s.layout.scrollX == 150)
        // Back over the canvas: nothing repeats, and no timer is asked for.
        s.handle(.motion(x: area.maxX - 40, y: y, modifiers: []))
        #expect(s.autoscrollPoint == nil)
        #expect(s.runTimers(at: 101) == nil)
        #expect(s.layout.scrollX == 150)
        // Out again and held: it scrolls on to the picture's right end and stops asking there,
        // with the selection running to the last letter in view.
        s.handle(.motion(x: area.maxX + 500, y: y, modifiers: []))
        var now = 102.0
        var repeats = 0
        while let due = s.runTimers(at: now), repeats < 1000 {
            now = due
            repeats += 1
        }
        let end = s.layout.scrolled(toX: Int.max / 2, y: 0).scrollX
        #expect(s.layout.scrollX == end)
        #expect(repeats > 2)
        #expect(s.autoscrollPoint == nil)
        #expect(s.selectedText?.hasPrefix("one two three") == true)
        #expect(try #require(s.liveText?.box.caret) > caret)
        // Released past the edge: nothing more.
        s.handle(.motion(x: area.maxX + 500, y: y, modifiers: []))
        s.handle(.release(x: area.maxX + 500, y: y, button: .left, modifiers: []))
        #expect(s.runTimers(at: now + 1) == nil)
        // Released while the picture could still scroll: no repeat either.
        s.setLayout(s.layout.scrolled(toX: 0, y: 0))
        s.handle(.press(x: area.maxX - 20, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: area.maxX + 29, y: y, modifiers: []))
        #expect(s.runTimers(at: now + 2) != nil)
        s.handle(.release(x: area.maxX + 29, y: y, button: .left, modifiers: []))
        let released = s.layout.scrollX
        #expect(s.runTimers(at: now + 3) == nil)
        #expect(s.layout.scrollX == released)
    }
}

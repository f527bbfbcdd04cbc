import PaintCore
import Testing

@testable import PaintApp

/// Undo while a text box is typed: Ctrl+Z takes back the typing a step at a time (a word, a run
/// of deletions, a paste, a style change, a move), Ctrl+Shift+Z and Ctrl+Y do it again, and
/// nothing on the canvas before the box is lost; put down, the text is one step.
@Suite struct TextUndoTests {
    typealias T = SessionTests
    typealias Tool = TextToolTests

    static func undo(_ s: Session) { T.key(s, "z", .control) }
    static func redo(_ s: Session) { T.key(s, "Z", [.control, .shift]) }

    /// Typing "hello world": undo takes back "world", then "hello ", leaving an empty box still
    /// open; redo (both keys) brings the words and their exact pixels back; a further undo on the
    /// empty box closes it, and the line drawn before the box is still there.
    @Test func undoTakesBackAWordAtATimeAndLeavesTheCanvas() throws {
        let (s, sink) = T.recordingSession(width: 240, height: 120)
        s.select(.line)
        T.drag(s, [(10, 100), (200, 100)])
        let lineOnly = Array(s.engine.viewPixels)
        s.select(.text)
        Tool.click(s, 20, 10)
        Tool.type(s, "hello world")
        let whole = Array(s.engine.viewPixels)
        Self.undo(s)
        #expect(s.editedText == "hello ")
        let firstWord = Array(s.engine.viewPixels)
        #expect(firstWord != whole && firstWord != lineOnly)
        Self.undo(s)
        #expect(s.isEditingText && s.editedText == "")
        #expect(Array(s.engine.viewPixels) == lineOnly)
        Self.redo(s)
        #expect(s.editedText == "hello ")
        #expect(Array(s.engine.viewPixels) == firstWord)
        T.key(s, "y", .control)
        #expect(s.editedText == "hello world")
        #expect(Array(s.engine.viewPixels) == whole)
        // Nothing of the box was recorded; the line is the only step.
        #expect(sink.operations.count == 1)
        Self.undo(s)
        Self.undo(s)
        Self.undo(s)
        #expect(!s.isEditingText)
        #expect(Array(s.engine.viewPixels) == lineOnly)
        #expect(sink.operations.count == 1 && s.history.canUndo)
        // With no box, undo is the picture's again.
        Self.undo(s)
        #expect(Tool.ink(s) == 0)
    }

    /// Once put down, the text is one step: undo takes all of it, redo brings it back.
    @Test func placedTextIsOneStep() {
        let (s, sink) = Tool.typing(at: 20, 10)
        Tool.type(s, "one two\nthree")
        let shown = Array(s.engine.viewPixels)
        Tool.click(s, 230, 115)
        #expect(sink.operations.count == 1)
        Self.undo(s)
        #expect(Tool.ink(s) == 0 && !s.isEditingText)
        Self.redo(s)
        #expect(Array(s.engine.viewPixels) == shown)
    }

    /// A run of Backspaces is one step, a paste is one, a line break is one, and typing after a
    /// caret move starts a new step.
    @Test func deletionsPastesAndLineBreaksAreStepsOfTheirOwn() {
        let (s, _) = Tool.typing()
        Tool.type(s, "abcd")
        s.handle([.key(.backspace, modifiers: []), .key(.backspace, modifiers: []), .key(.backspace, modifiers: [])])
        #expect(s.editedText == "a")
        s.handle(.key(.character("v"), modifiers: .control))
        s.handle(.pastedText("XY\nZ"))
        #expect(s.editedText == "aXY\nZ")
        Tool.type(s, "\n")
        s.handle(.key(.home, modifiers: .control))
        Tool.type(s, "q")
        #expect(s.editedText == "qaXY\nZ\n")
        Self.undo(s)
        #expect(s.editedText == "aXY\nZ\n")
        Self.undo(s)
        #expect(s.editedText == "aXY\nZ")
        Self.undo(s)
        #expect(s.editedText == "a")
        Self.undo(s)
        #expect(s.editedText == "abcd")
        Self.undo(s)
        #expect(s.editedText == "")
        // Something new done after undo drops what was taken back.
        Tool.type(s, "new")
        Self.redo(s)
        #expect(s.editedText == "new" && s.message == "Nothing to redo in the text box")
    }

    /// Bold, italic and color while typing are steps of the box: undo puts the box and the
    /// toolbar back in the font and color it had; a drag of the box is one step.
    @Test func styleAndMovesAreSteps() throws {
        let (s, _) = Tool.typing(at: 20, 10)
        Tool.type(s, "Red")
        let plain = Array(s.engine.viewPixels)
        T.key(s, "b", .control)
        // A click on a swatch is a step of its own (Ctrl+B was one).
        let red = Palette.colors[3]
        T.click(s, .swatch(3))
        #expect(s.settings.primary == red && s.engine.viewPixels.contains(red.pixel))
        let frame = try #require(s.textOverlay).frame
        // By the frame, 3 px left of the text.
        T.drag(s, [(17, 20), (35, 30), (55, 50)])
        #expect(try #require(s.textOverlay).frame.x == frame.x + 38)
        Self.undo(s)
        #expect(try #require(s.textOverlay).frame == frame)
        Self.undo(s)
        #expect(s.settings.primary == .black && s.settings.textFont.bold)
        #expect(!s.engine.viewPixels.contains(red.pixel))
        Self.undo(s)
        #expect(!s.settings.textFont.bold)
        #expect(Array(s.engine.viewPixels) == plain)
        #expect(s.editedText == "Red")
        Self.redo(s)
        #expect(s.settings.textFont.bold && s.settings.primary == .black)
    }

    /// Text opened again with a double click: undo takes back what was typed in it, then puts
    /// the old text back down as it was; it is never lost.
    @Test func undoInReopenedTextNeverLosesTheOldText() {
        let (s, sink) = Tool.typing(at: 20, 10)
        Tool.type(s, "Old")
        Tool.click(s, 230, 115)
        let old = Array(s.engine.viewPixels)
        Tool.doubleClick(s, 23, 30)
        #expect(s.editedText == "Old")
        Tool.type(s, "er")
        Self.undo(s)
        #expect(s.editedText == "Old" && s.isEditingText)
        #expect(Array(s.engine.viewPixels) == old)
        Self.undo(s)
        #expect(!s.isEditingText)
        #expect(Array(s.engine.viewPixels) == old)
        // The old step is back in the history, as Escape leaves it.
        Self.undo(s)
        #expect(Tool.ink(s) == 0)
        Self.redo(s)
        #expect(Array(s.engine.viewPixels) == old)
        #expect(sink.operations.contains { if case .text = $0 { true } else { false } })
    }

    /// A box just opened, nothing typed: undo closes it; redo with a blank box steps the
    /// picture forward (the box goes, holding nothing).
    @Test func anEmptyBoxClosesOnUndoAndGivesWayToRedo() {
        let (s, _) = T.recordingSession(width: 240, height: 120)
        s.select(.line)
        T.drag(s, [(10, 100), (200, 100)])
        let line = Array(s.engine.viewPixels)
        s.undo()
        s.select(.text)
        Tool.click(s, 20, 10)
        #expect(s.isEditingText && s.canRedoNow)
        Self.redo(s)
        #expect(!s.isEditingText)
        #expect(Array(s.engine.viewPixels) == line)
        Tool.click(s, 20, 10)
        #expect(s.isEditingText && s.canUndoNow && !s.canRedoNow)
        Self.undo(s)
        #expect(!s.isEditingText && s.message == "Text box closed")
        #expect(Array(s.engine.viewPixels) == line)
    }

    /// The Edit menu's Undo and Redo are the box's while it is open.
    @Test func theMenuUndoesInTheBox() {
        let (s, _) = Tool.typing()
        Tool.type(s, "ab cd")
        Command.named("undo")?.run(s)
        #expect(s.editedText == "ab ")
        // The menu item and the toolbar button are enabled for the box's redo, with nothing to
        // redo in the picture.
        #expect(!s.history.canRedo && s.canRedoNow && Command.named("redo")?.isEnabled(s) == true)
        Command.named("redo")?.run(s)
        #expect(s.editedText == "ab cd")
    }

    /// Ctrl+Backspace and Ctrl+Delete take a word; Ctrl+Left / Right move by words, Ctrl+Home /
    /// End to the text's ends; none of them puts the box down.
    @Test func wordKeysInTheBox() {
        let (s, sink) = Tool.typing()
        Tool.type(s, "one two, three\nfour")
        s.handle(.key(.backspace, modifiers: .control))
        #expect(s.editedText == "one two, three\n")
        s.handle(.key(.backspace, modifiers: .control))
        #expect(s.editedText == "one two, three")
        s.handle([.key(.left, modifiers: .control), .key(.left, modifiers: .control)])
        Tool.type(s, "X")
        #expect(s.editedText == "one Xtwo, three")
        s.handle(.key(.delete, modifiers: .control))
        #expect(s.editedText == "one X, three")
        s.handle([.key(.home, modifiers: .control), .key(.right, modifiers: .control)])
        Tool.type(s, "!")
        #expect(s.editedText == "one! X, three")
        s.handle(.key(.end, modifiers: .control))
        Tool.type(s, "?")
        #expect(s.editedText == "one! X, three?")
        #expect(s.isEditingText && sink.operations.isEmpty)
        Self.undo(s)
        #expect(s.editedText == "one! X, three")
    }
}

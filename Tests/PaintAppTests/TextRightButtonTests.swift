import PaintCore
import Testing

@testable import PaintApp

/// A right press with the text tool does nothing, as with the select tool (KolourPaint and GIMP
/// open a context menu there; SwiftPaint has none): the caret stays, the selection stays, the
/// box is neither moved nor put down, and no box starts. The left button does all of that.
@Suite struct TextRightButtonTests {
    typealias T = SessionTests
    typealias Tool = TextToolTests

    static func right(_ s: Session, _ w: (Int, Int)) {
        s.handle([
            .press(x: w.0, y: w.1, button: .right, modifiers: []),
            .motion(x: w.0 + 30, y: w.1 + 2, modifiers: []),
            .release(x: w.0 + 30, y: w.1 + 2, button: .right, modifiers: []),
        ])
    }

    @Test func aRightPressInTheBoxMovesNeitherCaretNorSelection() throws {
        let (s, sink) = Tool.typing(at: 20, 10)
        Tool.type(s, "one two three")
        s.handle(.key(.left, modifiers: [.shift]))
        s.handle(.key(.left, modifiers: [.shift]))
        let before = try #require(s.liveText?.box)
        #expect(s.selectedText == "ee")
        let live = try #require(s.liveText)
        let row = 10 + live.layout.lineHeight / 2
        // On the text, on its first letters, and on the frame's margin (where left drags move it).
        for w in [T.window(s, 24, row), T.window(s, 21, row)] {
            Self.right(s, w)
            #expect(s.liveText?.box == before, "\(w)")
            #expect(s.selectedText == "ee")
        }
        let frame = try #require(s.textFrameInWindowRect)
        Self.right(s, (frame.x + 1, frame.y + 1))
        #expect(s.liveText?.box == before)
        // Off the box: it stays open, nothing recorded.
        Self.right(s, T.window(s, 150, 80))
        #expect(s.isEditingText && s.liveText?.box == before && sink.operations.isEmpty)
        // The left button still puts it down there.
        Tool.click(s, 150, 80)
        #expect(!s.isEditingText && sink.operations.count == 1)
    }

    @Test func aRightPressStartsNoBox() {
        let (s, sink) = T.recordingSession(width: 240, height: 120)
        s.select(.text)
        Self.right(s, T.window(s, 20, 10))
        #expect(!s.isEditingText && s.textOverlay == nil && sink.operations.isEmpty)
        // The left button starts one.
        Tool.click(s, 20, 10)
        #expect(s.isEditingText)
    }
}

import Foundation
import PaintCore
import Testing

@testable import PaintApp

/// Questions in the status bar and the canvas: a question with answer buttons blocks it (shown
/// dimmed, a not-allowed pointer), a prompt with a text field lets drawing go on; an event that
/// changes nothing asks for no redraw.
@Suite struct QuestionTests {
    typealias T = SessionTests

    @Test func aQuestionBlocksTheCanvasAndIgnoredEventsRedrawNothing() {
        let s = T.makeSession(width: 200, height: 100)
        T.drag(s, [(10, 10), (60, 40)])
        s.handle(.key(.character("n"), modifiers: .control))
        guard case .confirmLeave = s.mode else {
            Issue.record("no question: \(s.mode)")
            return
        }
        #expect(s.mode.blocksCanvas && s.blocksCanvas)
        let before = s.engine.paintImage()
        // Motion over the canvas: nothing to redraw, the not-allowed pointer.
        let (x, y) = T.window(s, 100, 50)
        s.handle(.motion(x: x, y: y, modifiers: []))
        #expect(s.pointerShape == .notAllowed)
        for i in 1...20 {
            let effects = s.handle(.motion(x: x + i, y: y + i % 3, modifiers: []))
            #expect(effects == Effects(), "motion \(i) asked for \(effects)")
        }
        // A drag paints nothing; the toolbar does not react either.
        T.drag(s, [(100, 50), (150, 80)])
        #expect(s.engine.paintImage() == before)
        let tool = s.layout.rect(of: .tool(.eraser))
        s.handle(.press(x: tool.x + 3, y: tool.y + 3, button: .left, modifiers: []))
        #expect(s.settings.tool == .brush)
        // Answered (Cancel): the canvas is drawn again, undimmed, and paints.
        let answered = s.handle(.key(.escape, modifiers: []))
        #expect(s.mode == .normal && !s.blocksCanvas && answered.canvas == s.engine.bounds)
        T.drag(s, [(100, 50), (150, 80)])
        #expect(s.engine.paintImage() != before)
    }

    @Test func promptsLetDrawingGoOn() {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession(width: 200, height: 100)
        s.makesThumbnails = false
        // Save as a JPEG: the quality is asked in the status bar (the file dialog before it is
        // modal, as a desktop's file chooser is).
        s.handle(.key(.character("s"), modifiers: [.control, .shift]))
        T.typeInDialog(s, dir + "/x.jpg")
        guard case .qualityPrompt = s.mode else {
            Issue.record("no prompt: \(s.mode)")
            return
        }
        #expect(!s.mode.blocksCanvas && !s.blocksCanvas)
        let before = s.engine.paintImage()
        T.drag(s, [(10, 10), (60, 40)])
        #expect(s.engine.paintImage() != before, "the stroke was swallowed")
        if case .qualityPrompt = s.mode {} else { Issue.record("the prompt went away: \(s.mode)") }
    }

    @Test func theStatusBarPositionIsThrottledNotImmediateAndFollowsDrags() {
        let s = T.makeSession(width: 200, height: 100)
        s.handle([])  // the first frame's effects
        let (x, y) = T.window(s, 20, 20)
        let moved = s.handle(.motion(x: x, y: y, modifiers: []))
        #expect(moved.pointerPosition && !moved.status)
        // The same pixel again: nothing.
        #expect(s.handle(.motion(x: x, y: y, modifiers: [])) == Effects())
        // During a stroke the position follows too.
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        let dragged = s.handle(.motion(x: x + 30, y: y, modifiers: []))
        #expect(dragged.pointerPosition && s.pointerPixel?.x == 50)
    }

    @Test func thePickersColorShowsAtOnceAndMessagesExpireOnTheNextChange() {
        let s = T.makeSession(width: 200, height: 100)
        T.click(s, .swatch(3))
        T.drag(s, [(10, 10), (60, 10)])
        T.click(s, .swatch(0))
        T.key(s, "i")
        let (x, y) = T.window(s, 30, 10)
        let picked = s.handle([
            .press(x: x, y: y, button: .left, modifiers: []), .release(x: x, y: y, button: .left, modifiers: []),
        ])
        #expect(picked.toolbar, "the toolbar is redrawn with the picked color")
        #expect(s.settings.primary == Palette.colors[3])
        #expect(s.message.hasPrefix("Picked"))
        // The next change to the picture takes the message away.
        T.key(s, "b")
        T.drag(s, [(10, 50), (60, 50)])
        #expect(s.message.isEmpty, "message \(s.message)")
    }
}

import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing

@testable import PaintApp

/// The select tool: drag out a rectangle; Delete clears it, Ctrl+C / Ctrl+X copy / cut it,
/// dragging it moves its paint, and every change is a step undo takes back.
@Suite struct SelectionTests {
    typealias T = SessionTests

    /// A session with a red block at 20...59 x 10...39 on white.
    static func session() -> Session {
        let s = T.makeSession(width: 120, height: 80)
        s.handle(.key(.character("5"), modifiers: []))
        s.handle(.key(.character("0"), modifiers: []))
        let red = Color(r: 220, g: 30, b: 30)
        var image = PixelImage(width: 40, height: 30, fill: red.pixel)
        image[0, 0] = Color.black.pixel
        s.pasteNow(png: (try? PNGCodec.encode(image, withAlpha: false)) ?? [])
        // The paste floats at the corner: drag it to (20, 10) and put it down.
        let (gx, gy) = T.window(s, 1, 1)
        s.handle(.press(x: gx, y: gy, button: .left, modifiers: []))
        s.handle(.motion(x: gx + 20, y: gy + 10, modifiers: []))
        s.handle(.release(x: gx + 20, y: gy + 10, button: .left, modifiers: []))
        s.handle(.key(.enter, modifiers: []))
        return s
    }

    static let red = Color(r: 220, g: 30, b: 30).pixel

    @Test func draggingOutASelectionOutlinesIt() {
        let s = Self.session()
        T.key(s, "s")
        #expect(s.settings.tool == .select)
        T.drag(s, [(30, 20), (50, 25), (44, 35)])
        // From pixel edge to pixel edge, as in GIMP and MS Paint: a drag of 14 x 15 pixels
        // selects 14 x 15 (it selected 15 x 16, both end pixels), and the status bar agrees.
        #expect(s.selection == IntRect(x: 30, y: 20, width: 14, height: 15))
        #expect(s.message == "Selected 14 × 15 at 30, 20", "\(s.message)")
        #expect(s.hoverOutline.count == 5)
        s.handle(.key(.escape, modifiers: []))
        #expect(s.selection == nil && s.hoverOutline.isEmpty)
    }

    /// Shift while dragging out a selection makes it a square (it did for a rectangle drawn,
    /// not for a selection; MS Paint, GIMP and Krita square it), in every direction, and no
    /// larger than the canvas holds; let go of Shift and it follows the pointer again.
    @Test func shiftSquaresTheSelection() {
        let s = Self.session()
        T.key(s, "s")
        func drag(_ points: [(Int, Int)], shift: [Bool]) {
            let start = T.window(s, points[0].0, points[0].1)
            s.handle(.press(x: start.0, y: start.1, button: .left, modifiers: []))
            for (k, p) in points.enumerated().dropFirst() {
                let w = T.window(s, p.0, p.1)
                s.handle(.motion(x: w.0, y: w.1, modifiers: shift[k] ? .shift : []))
            }
        }
        func release() {
            let at = s.lastPointer ?? (0, 0)
            s.handle(.release(x: at.0, y: at.1, button: .left, modifiers: []))
            if case .idle = s.gesture {} else { Issue.record("still \(s.gesture)") }
        }
        drag([(30, 20), (50, 25), (44, 35)], shift: [false, true, true])
        #expect(s.selection == IntRect(x: 30, y: 20, width: 15, height: 15), "\(String(describing: s.selection))")
        release()
        // Up and to the left.
        drag([(60, 50), (40, 45)], shift: [false, true])
        #expect(s.selection == IntRect(x: 40, y: 30, width: 20, height: 20), "\(String(describing: s.selection))")
        release()
        // Towards the edge: the canvas (120 x 80) holds 20 rows from 60 on.
        drag([(10, 60), (60, 65)], shift: [false, true])
        #expect(s.selection == IntRect(x: 10, y: 60, width: 20, height: 20), "\(String(describing: s.selection))")
        #expect(s.selection?.width == s.selection?.height)
        // Shift let go: the rectangle follows the pointer.
        let w = T.window(s, 60, 65)
        s.handle(.motion(x: w.0, y: w.1, modifiers: []))
        #expect(s.selection == IntRect(x: 10, y: 60, width: 50, height: 5))
        release()
    }

    @Test func deleteClearsTheSelectionToTheBackgroundAsOneStep() {
        let s = Self.session()
        let steps = s.history.count
        T.key(s, "s")
        T.drag(s, [(30, 15), (40, 25)])
        s.handle(.key(.delete, modifiers: []))
        #expect(
            s.engine.viewPixel(x: 30, y: 15) == Color.white.pixel
                && s.engine.viewPixel(x: 39, y: 24) == Color.white.pixel)
        #expect(s.engine.viewPixel(x: 29, y: 15) == Self.red && s.engine.viewPixel(x: 40, y: 24) == Self.red)
        #expect(s.history.count == steps + 1)
        T.key(s, "z", .control)
        #expect(s.engine.viewPixel(x: 30, y: 15) == Self.red)
    }

    @Test func copyAndCutTakeTheSelectedPixels() throws {
        let s = Self.session()
        T.key(s, "s")
        T.drag(s, [(15, 5), (25, 15)])  // over the block's black top-left pixel at (20, 10)
        try Self.expectCopiesTheBlocksCorner(s)
        #expect(T.key(s, "x", .control).clipboard.count == 1)
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.white.pixel && s.engine.viewPixel(x: 25, y: 15) == Self.red)
        // Ctrl+A then Ctrl+C: the whole picture.
        T.key(s, "a", .control)
        #expect(s.selection == s.engine.bounds)
    }

    @Test func escapeWhileMovingPutsThePaintBack() {
        let s = Self.session()
        let drawn = Array(s.engine.viewPixels)
        let steps = s.history.count
        T.key(s, "s")
        T.drag(s, [(20, 10), (60, 40)])
        T.drag(s, [(25, 15), (65, 45)])
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.white.pixel, "lifted while moving")
        #expect(s.message.hasSuffix("Esc: put it back"), "what Escape does, said right: \(s.message)")
        s.handle(.key(.escape, modifiers: []))
        #expect(Array(s.engine.viewPixels) == drawn && s.history.count == steps)
    }

    /// Arrow keys with a selection (nothing floating) move its paint a pixel at a time (ten
    /// with Shift), as in MS Paint: the first lifts it; Enter puts it down as one step. They
    /// scrolled the view instead (or did nothing on a picture that fits).
    @Test func arrowKeysMoveTheSelection() {
        let s = Self.session()
        let before = s.history.count
        T.key(s, "s")
        T.drag(s, [(20, 10), (60, 40)])
        s.handle(.key(.right, modifiers: []))
        #expect(s.isPlacingPaste && s.message.hasPrefix("Moving the selection"), "\(s.message)")
        s.handle(.key(.right, modifiers: []))
        s.handle(.key(.down, modifiers: [.shift]))
        s.handle(.key(.up, modifiers: []))
        s.handle(.key(.enter, modifiers: []))
        #expect(!s.isPlacingPaste && s.history.count == before + 1, "one step: the move")
        #expect(s.engine.viewPixel(x: 22, y: 19) == Color.black.pixel, "the block's corner moved 2 right, 9 down")
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.white.pixel && s.engine.viewPixel(x: 61, y: 47) == Self.red)
        T.key(s, "z", .control)
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.black.pixel)
        // Escape while nudging puts it back.
        T.drag(s, [(20, 10), (60, 40)])
        s.handle(.key(.left, modifiers: [.shift]))
        s.handle(.key(.escape, modifiers: []))
        #expect(
            s.engine.viewPixel(x: 20, y: 10) == Color.black.pixel
                && s.engine.viewPixel(x: 10, y: 10) == Color.white.pixel)
    }

    @Test func draggingTheSelectionMovesItsPaint() {
        let s = Self.session()
        let before = s.history.count
        T.key(s, "s")
        T.drag(s, [(20, 10), (60, 40)])
        // Grab inside and drag 40 right, 30 down; it floats until Enter.
        T.drag(s, [(25, 15), (45, 30), (65, 45)])
        #expect(s.isPlacingPaste)
        s.handle(.key(.enter, modifiers: []))
        #expect(!s.isPlacingPaste)
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.white.pixel, "the old place shows the background")
        #expect(s.engine.viewPixel(x: 60, y: 40) == Color.black.pixel && s.engine.viewPixel(x: 99, y: 69) == Self.red)
        #expect(s.history.count == before + 1, "one step: the move")
        T.key(s, "z", .control)
        #expect(
            s.engine.viewPixel(x: 20, y: 10) == Color.black.pixel
                && s.engine.viewPixel(x: 60, y: 40) == Color.white.pixel)
    }

    /// Ctrl+C offers the 10 x 10 selected over the block's top-left corner (black at (5, 5), the
    /// white around it, red inside).
    static func expectCopiesTheBlocksCorner(_ s: Session) throws {
        guard case .offer(let png)? = T.key(s, "c", .control).clipboard.first else {
            Issue.record("Ctrl+C offered nothing")
            return
        }
        let copied = try PNGCodec.decode(png, name: "clip")
        #expect(copied.width == 10 && copied.height == 10)
        #expect(copied[5, 5] == Color.black.pixel && copied[0, 0] == Color.white.pixel && copied[6, 6] == Self.red)
    }

    /// While a selection is being moved, Ctrl+C copies what floats (it copied the whole
    /// picture), and Delete takes it away: its old place stays cleared, the picture under
    /// where it floated is as it was (Delete did nothing); Ctrl+X does both. A paste that
    /// floats is dropped by Delete, the picture untouched.
    @Test func copyCutAndDeleteActOnWhatFloats() throws {
        let s = Self.session()
        T.key(s, "s")
        T.drag(s, [(15, 5), (25, 15)])  // over the block's black top-left pixel at (20, 10)
        T.drag(s, [(16, 6), (76, 46)])  // moved 60 right, 40 down: floats at 75...84 x 45...54
        #expect(s.isPlacingPaste)
        try Self.expectCopiesTheBlocksCorner(s)
        #expect(s.isPlacingPaste, "copying leaves it floating")
        let steps = s.history.count
        s.handle(.key(.delete, modifiers: []))
        #expect(!s.isPlacingPaste && s.selection == nil)
        #expect(
            s.engine.viewPixel(x: 20, y: 10) == Color.white.pixel
                && s.engine.viewPixel(x: 24, y: 14) == Color.white.pixel)
        #expect(s.engine.viewPixel(x: 25, y: 15) == Self.red, "the block beside the old place stays")
        #expect(s.engine.viewPixel(x: 80, y: 50) == Color.white.pixel, "nothing is left where it floated")
        #expect(s.history.count == steps + 1)
        T.key(s, "z", .control)
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.black.pixel)
        // Ctrl+X while moving: copied, then gone.
        T.drag(s, [(15, 5), (25, 15)])
        T.drag(s, [(16, 6), (76, 46)])
        let cut = T.key(s, "x", .control).clipboard
        #expect(cut.count == 1 && !s.isPlacingPaste)
        #expect(
            s.engine.viewPixel(x: 20, y: 10) == Color.white.pixel
                && s.engine.viewPixel(x: 80, y: 50) == Color.white.pixel)
        // A floating paste: Delete drops it, the picture unchanged.
        let drawn = Array(s.engine.viewPixels)
        let pasted = s.history.count
        s.pasteNow(png: try PNGCodec.encode(PixelImage(width: 8, height: 8, fill: Color.black.pixel), withAlpha: false))
        #expect(s.isPlacingPaste)
        s.handle(.key(.delete, modifiers: []))
        #expect(!s.isPlacingPaste && Array(s.engine.viewPixels) == drawn && s.history.count == pasted)
    }

    /// What the journal hears (paste, move, clear) replays to the same picture, as a restore
    /// after a crash would.
    @Test func theJournaledStepsReplayToTheSamePicture() {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        T.drag(s, [(5, 5), (110, 70)])
        s.pasteNow(
            png: (try? PNGCodec.encode(PixelImage(width: 30, height: 20, fill: Self.red), withAlpha: false)) ?? [])
        s.handle(.key(.enter, modifiers: []))
        T.key(s, "s")
        T.drag(s, [(0, 0), (50, 30)])
        T.drag(s, [(10, 10), (60, 40)])
        s.handle(.key(.enter, modifiers: []))
        T.drag(s, [(70, 50), (90, 70)])
        s.handle(.key(.delete, modifiers: []))
        let replay = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil)
        for op in sink.operations { history.perform(op, engine: replay) }
        #expect(Array(replay.viewPixels) == Array(s.engine.viewPixels))
        #expect(sink.operations.contains { if case .moveRect = $0 { return true } else { return false } })
    }

    /// Selection as pictures: Delete clears the selected pixels, a drag inside moves them (put
    /// down with Enter), and undo walks back through both.
    @Test func clearingAndMovingASelectionAsPictures() {
        let start = """
            abcd
            efgh
            ijkl
            """
        let image = PixelPictures.image(start)
        let s = Session(
            document: Document(
                engine: StrokeEngine(image: image, background: .transparent), history: History(base: image)),
            windowWidth: 1400, windowHeight: 400)
        T.key(s, "s")
        T.drag(s, [(1, 0), (3, 2)])
        s.handle(.key(.delete, modifiers: []))
        let cleared = """
            a..d
            e..h
            ijkl
            """
        #expect(PixelPictures.text(s.engine) == cleared)
        T.drag(s, [(0, 1), (1, 3)])
        T.drag(s, [(0, 1), (1, 1), (2, 1)])
        s.handle(.key(.enter, modifiers: []))
        let moved = """
            a..d
            ..eh
            .jil
            """
        #expect(PixelPictures.text(s.engine) == moved)
        T.key(s, "z", .control)
        #expect(PixelPictures.text(s.engine) == cleared)
        T.key(s, "z", .control)
        #expect(PixelPictures.text(s.engine) == start)
    }
}

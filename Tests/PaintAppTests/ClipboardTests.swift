import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Ctrl+C and Ctrl+V in the session: what the window is asked to do with the clipboard, and
/// what a pasted picture does to the document.
@Suite struct ClipboardTests {
    typealias T = SessionTests

    @Test func copyOffersThePictureAsSavedAndPasteAsksForTheClipboard() throws {
        let s = T.makeSession(width: 120, height: 80)
        #expect(T.drag(s, [(10, 10), (100, 60)]).clipboard.isEmpty)
        let copy = T.key(s, "c", .control).clipboard
        guard copy.count == 1, case .offer(let png) = copy[0] else {
            Issue.record("Ctrl+C offered \(copy.count) things")
            return
        }
        #expect(try PNGCodec.decode(png, name: "clip") == s.engine.flattenedImage())
        #expect(s.takeEffects().clipboard.isEmpty, "a request is made once")
        #expect(T.key(s, "v", .control).clipboard == [.fetch])
    }

    @Test func aPastedPictureFloatsAtTheVisibleCornerUntilItIsPutDown() throws {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        let drawn = Array(s.engine.viewPixels)
        let paint = s.engine.paintImage()
        let steps = s.history.count
        let red = Color(r: 220, g: 30, b: 30)
        let png = try PNGCodec.encode(PixelImage(width: 30, height: 20, fill: red.pixel), withAlpha: false)
        s.pasteNow(png: png)
        // Shown at the corner, not yet in the paint or the history.
        #expect(s.isPlacingPaste)
        #expect(s.engine.viewPixel(x: 0, y: 0) == red.pixel && s.engine.viewPixel(x: 29, y: 19) == red.pixel)
        #expect(s.engine.viewPixel(x: 30, y: 0) == drawn[30])
        #expect(s.engine.paintImage() == paint && s.history.count == steps && !s.hoverOutline.isEmpty)
        // Dragged by 40, 30 image pixels.
        let (gx, gy) = T.window(s, 5, 5)
        s.handle(.press(x: gx, y: gy, button: .left, modifiers: []))
        #expect(s.pointerShape == .move)
        s.handle(.motion(x: gx + 40, y: gy + 30, modifiers: []))
        s.handle(.release(x: gx + 40, y: gy + 30, button: .left, modifiers: []))
        #expect(s.engine.viewPixel(x: 0, y: 0) == drawn[0], "the old place shows the drawing again")
        #expect(s.engine.viewPixel(x: 40, y: 30) == red.pixel && s.engine.viewPixel(x: 69, y: 49) == red.pixel)
        // Arrow keys nudge it: one pixel, ten with Shift.
        s.handle(.key(.right, modifiers: []))
        s.handle(.key(.down, modifiers: [.shift]))
        s.handle(.key(.left, modifiers: []))
        s.handle(.key(.up, modifiers: [.shift]))
        #expect(s.engine.viewPixel(x: 40, y: 30) == red.pixel && s.engine.viewPixel(x: 69, y: 49) == red.pixel)
        s.handle(.key(.right, modifiers: []))
        #expect(
            s.engine.viewPixel(x: 40, y: 30) == drawn[30 * 120 + 40] && s.engine.viewPixel(x: 70, y: 49) == red.pixel)
        s.handle(.key(.left, modifiers: []))
        // Enter puts it down: one step, journaled, undoable.
        s.handle(.key(.enter, modifiers: []))
        #expect(!s.isPlacingPaste && s.history.count == steps + 1 && s.hoverOutline.isEmpty)
        guard case .paste(let kept, 40, 30)? = sink.operations.last else {
            Issue.record("the journal heard \(String(describing: sink.operations.last))")
            return
        }
        #expect(kept.width == 30 && kept.height == 20)
        #expect(s.engine.paintPixel(x: 40, y: 30) == red.pixel)
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == drawn)
    }

    /// The window keeps a view only of what it shows: scrolled, the rows that come into sight
    /// are composited afresh, and zoomed out nothing is kept (each band is composited when it is
    /// drawn). A floating paste showed in neither: the window scrolled at 150 % showed the canvas
    /// under it, and at 50 % or 67 % it was not shown at all until put down.
    @Test func aFloatingPasteShowsInTheViewsTheWindowCompositesAfterItWasShown() throws {
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        let drawn = Array(s.engine.viewPixels)
        let red = Color(r: 220, g: 30, b: 30)
        let png = try PNGCodec.encode(PixelImage(width: 30, height: 20, fill: red.pixel), withAlpha: false)
        // Shown while the window keeps the lower half, then scrolled back up.
        s.engine.showRegion(IntRect(x: 0, y: 40, width: 120, height: 40))
        s.pasteNow(png: png)
        #expect(s.isPlacingPaste)
        s.engine.showRegion(IntRect(x: 0, y: 0, width: 120, height: 40))
        #expect(s.engine.viewPixel(x: 0, y: 0) == red.pixel && s.engine.viewPixel(x: 29, y: 19) == red.pixel)
        // Zoomed out: no view kept, the drawn band composited when asked for.
        s.engine.showRegion(.empty)
        let band = s.engine.withViewPixels(in: IntRect(x: 0, y: 0, width: 40, height: 25)) { pixels, stride in
            (0..<25).flatMap { y in (0..<40).map { x in pixels[y * stride + x] } }
        }
        for y in 0..<25 {
            for x in 0..<40 {
                let expected = x < 30 && y < 20 ? red.pixel : drawn[y * 120 + x]
                guard band[y * 40 + x] == expected else {
                    Issue.record("zoomed out, pixel \(x), \(y) shows \(band[y * 40 + x]), not \(expected)")
                    return
                }
            }
        }
        // Dropped: no view shows it any more, kept or composited.
        s.handle(.key(.escape, modifiers: []))
        s.engine.showRegion(IntRect(x: 0, y: 0, width: 120, height: 80))
        #expect(Array(s.engine.viewPixels) == drawn)
        s.engine.showRegion(.empty)
        #expect(s.engine.viewPixel(x: 0, y: 0) == drawn[0])
    }

    @Test func escapeDropsAPasteAndAClickOutsidePutsItDownCropped() throws {
        let s = T.makeSession(width: 120, height: 80)
        let drawn = Array(s.engine.viewPixels)
        let red = Color(r: 220, g: 30, b: 30)
        let png = try PNGCodec.encode(PixelImage(width: 50, height: 20, fill: red.pixel), withAlpha: false)
        s.pasteNow(png: png)
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isPlacingPaste && Array(s.engine.viewPixels) == drawn && !s.history.canUndo)
        // Dragged half off the right edge, then a click outside puts it down, cropped.
        s.pasteNow(png: png)
        let (gx, gy) = T.window(s, 1, 1)
        s.handle(.press(x: gx, y: gy, button: .left, modifiers: []))
        s.handle(.motion(x: gx + 95, y: gy + 10, modifiers: []))
        s.handle(.release(x: gx + 95, y: gy + 10, button: .left, modifiers: []))
        let (ox, oy) = T.window(s, 20, 70)
        s.handle(.press(x: ox, y: oy, button: .left, modifiers: []))
        s.handle(.release(x: ox, y: oy, button: .left, modifiers: []))
        #expect(!s.isPlacingPaste && s.history.count == 1)
        #expect(s.message == "Pasted 25 × 20 at 95, 10, cropped to the canvas", "\(s.message)")
        #expect(s.engine.viewPixel(x: 20, y: 70) == Color.white.pixel, "the click that put it down painted nothing")
    }

    @Test func aPasteTakesTheSelectionsPlaceSoNoOldRectangleComesBackAfterIt() throws {
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        T.key(s, "s")
        T.drag(s, [(50, 30), (110, 70)])
        #expect(s.selection != nil)
        let red = Color(r: 220, g: 30, b: 30)
        let png = try PNGCodec.encode(PixelImage(width: 20, height: 10, fill: red.pixel), withAlpha: false)
        for end in [Key.enter, .escape] {
            s.pasteNow(png: png)
            s.handle(.key(end, modifiers: []))
            #expect(s.selection == nil && s.hoverOutline.isEmpty, "after \(end) the old selection came back")
            let before = Array(s.engine.viewPixels)
            let steps = s.history.count
            s.handle(.key(.delete, modifiers: []))
            #expect(Array(s.engine.viewPixels) == before && s.history.count == steps, "Delete cleared nothing")
        }
    }

    @Test func clipboardBytesThatAreNoPictureChangeNothing() {
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        let drawn = Array(s.engine.viewPixels)
        let steps = s.history.count
        let truncated: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        for bytes in [[], Array("hello".utf8), truncated] {
            s.pasteNow(png: bytes)
            #expect(s.message.hasPrefix("Cannot"), "\(bytes.count) bytes: \(s.message)")
            #expect(Array(s.engine.viewPixels) == drawn && s.history.count == steps)
        }
    }
}

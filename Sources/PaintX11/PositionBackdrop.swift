import CX11
import PaintApp
import PaintCore

/// The status bar's position slot kept on the server while the slot stays the same rectangle:
/// its background (`Session.positionBackdrop`) in one pixmap, and a second pixmap the text is
/// drawn into before the one copy to the window (no flicker). A pointer move then costs two
/// copies and the text, not the slot's pixels rendered and sent again (10 KB at 1x): the
/// redraw every isolated motion event pays.
struct PositionBackdrop {
    let slot: IntRect
    let backdrop: Pixmap
    let scratch: Pixmap
    /// The text's Xft drawing on `scratch`, kept with it (nil without an Xft font).
    let scratchText: OpaquePointer?

    func free(_ display: OpaquePointer) {
        if let scratchText { XftDrawDestroy(scratchText) }
        XFreePixmap(display, backdrop)
        XFreePixmap(display, scratch)
    }
}

extension X11App {
    /// The pointer position alone (the status bar's first slot), or the whole bar when it
    /// shows a question there.
    func drawPosition() {
        guard let (slot, run) = session.positionText() else { return drawStatus(session.layout) }
        let kept = positionBackdrop(for: slot)
        let (w, h) = (UInt32(slot.width), UInt32(slot.height))
        XCopyArea(display, kept.backdrop, kept.scratch, chromeGC, 0, 0, w, h, 0, 0)
        if let draw = kept.scratchText {
            text.draw(run, with: draw, dx: -slot.x, dy: -slot.y)
        } else {
            text.draw([run], on: kept.scratch, dx: -slot.x, dy: -slot.y, gc: chromeGC)
        }
        XCopyArea(display, kept.scratch, window, chromeGC, 0, 0, w, h, Int32(slot.x), Int32(slot.y))
        lastStatusDraw = clock
        owed.pointerPosition = false
    }

    /// The pixmaps for `slot`, made (and the old ones freed) when the slot changed.
    private func positionBackdrop(for slot: IntRect) -> PositionBackdrop {
        if let kept = positionPixmaps, kept.slot == slot { return kept }
        positionPixmaps?.free(display)
        let (w, h) = (UInt32(slot.width), UInt32(slot.height))
        let scratch = XCreatePixmap(display, window, w, h, UInt32(depth))
        let kept = PositionBackdrop(
            slot: slot, backdrop: XCreatePixmap(display, window, w, h, UInt32(depth)), scratch: scratch,
            scratchText: text.makeDraw(on: scratch))
        SmallImage.put(
            session.positionBackdrop(slot), display: display, drawable: kept.backdrop, gc: chromeGC, visual: visual,
            depth: depth, format: format)
        positionPixmaps = kept
        return kept
    }
}

import CX11
import PaintApp
import PaintCore
import PaintIO

extension X11App {
    /// Draws what the session asked for: the canvas rectangles, the chrome, or everything after
    /// a resize; then the editor panel, the title and the pointer.
    ///
    /// The layout is copied only for the chrome: a stroke's presents read the few fields they
    /// need from the session's layout in place (a copy retains and releases its arrays).
    func present() {
        // No wait for the server here: what writes into the window's image below waits until
        // the server has read the last put first (`keepViewForWindow`, the blitter's puts and
        // fills), so a turn that draws only the pointer's position or the chrome makes no
        // round trip (an XSync 2 ms after every slow motion event's ink, for its position).
        if owed.layout {
            do {
                try blitter.resize(width: session.layout.windowWidth, height: session.layout.windowHeight)
            } catch {
                FileSystem.printError(error.description)
            }
        }
        // After a resize: the engine's view moves into the new image.
        keepViewForWindow()
        if owed.layout {
            let layout = session.layout
            owed.layout = false
            owed.canvas = .empty
            drawSurround(layout)
            blitImage(session.engine.bounds)
            drawHoverOutline()
            drawTextOverlay()
            // The chrome goes out with the picture, in one flush: the first frame shows a
            // complete window, never a canvas beside an empty toolbar (fontconfig has been
            // started early for it, `prepareFonts`).
            drawToolbar(layout)
            drawScrollbars(layout)
            drawStatus(layout)
            exposed = .empty
        } else {
            if !exposed.isEmpty {
                let layout = session.layout
                // Expose: repaint from the images we already hold; no flicker, nothing recomputed.
                let area = exposed.intersection(layout.canvasArea)
                if !area.isEmpty {
                    drawSurround(layout, clip: area)
                    blitImage(layout.imageRect(forWindowRect: area))
                    drawHoverOutline()
                    drawTextOverlay()
                }
                if !exposed.intersection(layout.toolbar.union(layout.menuBar)).isEmpty { drawToolbar(layout) }
                drawScrollbars(layout)
                if !exposed.intersection(layout.statusBar).isEmpty { drawStatus(layout) }
                exposed = .empty
            }
            // Pointer-position updates are throttled, and redraw the position's slot alone;
            // questions and messages show at once.
            let inkNow = !owed.canvas.isEmpty
            let position =
                !owed.status && owed.pointerPosition
                && pacing.drawsPosition(
                    throttle: lastStatusDraw + Self.statusInterval, inkNow: inkNow, lastInk: lastInk, at: clock)
            if inkNow {
                lastInk = clock
                blitImage(owed.canvas)
                owed.canvas = .empty
                drawHoverOutline()
                // A text box near the picture's edge had its frame and caret over the gray.
                if !textOverlayDrawn.isEmpty { drawSurround(session.layout, clip: textOverlayDrawn) }
                drawTextOverlay()
                // The ink goes to the server before the chrome is drawn. The position alone
                // goes with it, in one flush: a turn that inks and draws the position is a
                // frame of held motion, read ahead of the blank (`InputPacing.drawsPosition`),
                // and the server serves a client's requests in order, the ink first, either
                // way (a second flush cost a write, a poll and a read every other frame).
                if owed.toolbar || owed.status { XFlush(display) }
            }
            refreshTextOverlayOffPicture()
            if owed.toolbar { drawToolbar(session.layout) }
            if owed.status {
                drawStatus(session.layout)
            } else if position {
                drawPosition()
            }
        }
        if owed.editor || popups.owesDrawing {
            popups.present(session, redraw: owed.editor, measure: text) { strip, rect, target in
                drawStrip(strip, at: rect, on: target, textsInWindowCoordinates: false)
            }
            owed.editor = false
        }
        if let title = owed.title {
            setTitle(title)
            owed.title = nil
        }
        if let shape = owed.pointer {
            XDefineCursor(display, window, cursors.cursor(for: shape))
            owed.pointer = nil
        }
        // Last, in the same flush: an answer says the window shows what came before the ping.
        pings.answer(display: display, root: XRootWindow(display, screen))
        XFlush(display)
    }
}

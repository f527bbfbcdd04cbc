import CX11
import Glibc
import PaintApp
import PaintCore
import PaintIO

/// Drawing the window: the picture (at any zoom, dimmed while a question waits), the overlays
/// (hover outline, text box) and the chrome strips (toolbar, scrollbars, status bar).
extension X11App {
    /// Shows the image pixels of `imageRect` in the window. It reads the layout's `placement`,
    /// not a copy of the whole layout (its arrays retained and released at every present of a
    /// stroke).
    func blitImage(_ imageRect: IntRect) {
        let engine = session.engine
        let placement = session.layout.placement
        let target = placement.windowRect(forImageRect: imageRect.intersection(engine.bounds))
        guard !target.isEmpty else { return }
        let zoom = placement.zoom
        let shown = IntRect(
            x: target.x - placement.originX, y: target.y - placement.originY, width: target.width,
            height: target.height)
        guard zoom != .actualSize else {
            if engine.viewIsInCallerStorage {
                // The engine composited these pixels into the image itself.
                blitter.show(target)
                dimIfBlocked(target)
                return
            }
            engine.withViewPixels(in: shown) { pixels, stride in
                blitter.put(pixels: pixels, stride: stride, size: shown, atX: target.x, y: target.y)
            }
            dimIfBlocked(target)
            return
        }
        // In bands, so a zoomed-out view of a huge picture never composites more than a few
        // megapixels of it at once.
        let rowsPerBand = max(1, (4 << 20) / max(1, engine.width) * zoom.numerator / zoom.denominator)
        var y = 0
        while y < shown.height {
            let band = IntRect(
                x: shown.x, y: shown.y + y, width: shown.width, height: min(rowsPerBand, shown.height - y))
            let source = ViewScaler.source(of: band, zoom: zoom, width: engine.width, height: engine.height)
            var scaled = engine.withViewPixels(in: source) { pixels, stride in
                ViewScaler.render(
                    pixels, stride: stride, origin: (source.x, source.y), width: engine.width, height: engine.height,
                    zoom: zoom, rect: band)
            }
            // The text selection's sides where the letters start and end, at the window's
            // resolution.
            engine.sharpenHighlightEdges(&scaled, rect: band, zoom: zoom)
            scaled.withUnsafeBufferPointer {
                blitter.put(
                    pixels: $0.baseAddress!, stride: band.width,
                    size: IntRect(x: 0, y: 0, width: band.width, height: band.height), atX: target.x, y: target.y + y)
            }
            y += band.height
        }
        dimIfBlocked(target)
    }

    /// Tells the engine which part of the picture the window shows, so it keeps the view for
    /// that part only. At 100 % the view is kept in the window's own image (MIT-SHM or not),
    /// when its pixels are laid out as the engine's: one buffer, and nothing to copy per event.
    /// Zoomed in, the view is the visible part at picture resolution; zoomed out, none is kept
    /// and it is composited band by band when drawn, so a huge picture never needs a view of
    /// its own size.
    ///
    /// Called at every present: the region is worked out again only when what it depends on
    /// changed (`KeptView.Inputs`), and the engine, told the same region again, returns at once
    /// unless it dropped its view meanwhile (a canvas resize), which it then composites afresh.
    func keepViewForWindow() {
        let engine = session.engine
        let inputs = KeptView.Inputs(
            placement: session.layout.placement, imageWidth: engine.width, imageHeight: engine.height,
            image: blitter.generation)
        let kept: KeptView
        if let keptView, keptView.inputs == inputs {
            kept = keptView
        } else {
            kept = KeptView(inputs, in: blitter)
            keptView = kept
        }
        if let pixels = kept.pixels {
            // A view composited anew goes into the image the server may still be reading.
            if !engine.keepsView(kept.region, in: pixels, stride: kept.stride) { blitter.waitUntilServerRead() }
            engine.showRegion(kept.region, in: pixels, stride: kept.stride)
        } else {
            engine.showRegion(kept.region)
        }
    }

    /// A canvas that waits for a question's answer is shown dimmed: a translucent gray laid
    /// over it by the server (XRender), the picture itself untouched.
    func dimIfBlocked(_ target: IntRect) {
        guard session.blocksCanvas, !target.isEmpty else { return }
        // After the image in the request stream, so the server lays it over the new pixels.
        var shade = XRenderColor(red: 0x2000, green: 0x2200, blue: 0x2600, alpha: 0x6000)
        XRenderFillRectangle(
            display, PictOpOver, windowPicture, &shade, Int32(target.x), Int32(target.y), UInt32(target.width),
            UInt32(target.height))
    }

    /// The stroke a stroke-eraser click would remove, outlined over the window (never into the
    /// picture): a magenta and white dashed line along its samples, clipped to the canvas.
    func drawHoverOutline() {
        let points = session.hoverOutline
        guard !points.isEmpty else { return }
        let layout = session.layout
        blitter.waitUntilServerRead()
        let o = layout.imageOrigin
        let scale = layout.zoom.factor
        var xPoints = points.map {
            XPoint(
                x: Int16(clamping: Int(($0.x * scale).rounded(.down)) + o.x),
                y: Int16(clamping: Int(($0.y * scale).rounded(.down)) + o.y))
        }
        if xPoints.count == 1 { xPoints.append(XPoint(x: xPoints[0].x + 1, y: xPoints[0].y)) }
        let area = layout.visibleImage
        var clip = XRectangle(
            x: Int16(clamping: area.x), y: Int16(clamping: area.y), width: UInt16(clamping: area.width),
            height: UInt16(clamping: area.height))
        XSetClipRectangles(display, chromeGC, 0, 0, &clip, 1, Unsorted)
        XSetForeground(display, chromeGC, format.pixel(Color(r: 0xFF, g: 0x2B, b: 0xD6)))
        XSetBackground(display, chromeGC, format.pixel(.white))
        XSetLineAttributes(display, chromeGC, 2, LineDoubleDash, CapButt, JoinRound)
        // In pieces that overlap by one point: one request has a size limit.
        var start = 0
        while start < xPoints.count - 1 {
            let end = min(xPoints.count, start + 4096)
            _ = xPoints[start..<end].withUnsafeBufferPointer { piece in
                XDrawLines(
                    display, window, chromeGC, UnsafeMutablePointer(mutating: piece.baseAddress), Int32(piece.count),
                    CoordModeOrigin)
            }
            start = end - 1
        }
        XSetLineAttributes(display, chromeGC, 0, LineSolid, CapButt, JoinMiter)
        XSetClipMask(display, chromeGC, 0)
    }

    /// The text box being typed, over the window (never into the picture): a thin dashed frame
    /// a few pixels outside the text, white under blue so it shows on any picture, and the
    /// caret, a dark bar with a white edge. The input method's window goes to the caret.
    func drawTextOverlay() {
        guard session.isEditingText, let frame = session.textFrameInWindowRect, let caret = session.textCaretBar
        else {
            textOverlayDrawn = .empty
            return
        }
        blitter.waitUntilServerRead()
        // Over the gray beyond the picture too: a line typed past the picture's edge keeps its
        // caret in sight (the text itself stops at the edge), as in GIMP.
        let area = session.layout.canvasArea
        textOverlayDrawn = textOverlayRect
        var clip = XRectangle(
            x: Int16(clamping: area.x), y: Int16(clamping: area.y), width: UInt16(clamping: area.width),
            height: UInt16(clamping: area.height))
        XSetClipRectangles(display, chromeGC, 0, 0, &clip, 1, Unsorted)
        let ui = session.layout.ui
        XSetForeground(display, chromeGC, format.pixel(Color(r: 0x2F, g: 0x6F, b: 0xD6)))
        XSetBackground(display, chromeGC, format.pixel(.white))
        XSetLineAttributes(display, chromeGC, UInt32(max(1, ui.px(1))), LineDoubleDash, CapButt, JoinMiter)
        var dashes: [Int8] = [Int8(clamping: ui.px(4)), Int8(clamping: ui.px(3))]
        XSetDashes(display, chromeGC, 0, &dashes, 2)
        XDrawRectangle(
            display, window, chromeGC, Int32(frame.x), Int32(frame.y), UInt32(max(1, frame.width - 1)),
            UInt32(max(1, frame.height - 1)))
        XSetLineAttributes(display, chromeGC, 0, LineSolid, CapButt, JoinMiter)
        XSetForeground(display, chromeGC, format.pixel(.white))
        XFillRectangle(
            display, window, chromeGC, Int32(caret.x), Int32(caret.y), UInt32(caret.width), UInt32(caret.height))
        XSetForeground(display, chromeGC, format.pixel(Color(r: 0x1A, g: 0x1C, b: 0x20)))
        XFillRectangle(
            display, window, chromeGC, Int32(caret.x + 1), Int32(caret.y), UInt32(caret.width - 2),
            UInt32(caret.height))
        XSetClipMask(display, chromeGC, 0)
        if let cursor = session.textCursor { input.setSpot(x: cursor.x, y: cursor.maxY) }
    }

    /// Where the text box's frame and caret go now (window coordinates, within the canvas
    /// area); empty with no box.
    var textOverlayRect: IntRect {
        guard session.isEditingText, let frame = session.textFrameInWindowRect, let caret = session.textCaretBar
        else { return .empty }
        return frame.union(caret).intersection(session.layout.canvasArea)
    }

    /// The box's frame and caret drawn again where they changed off the picture, where no redraw
    /// of the canvas covers them: a box dragged wholly onto the gray, or gone from there.
    func refreshTextOverlayOffPicture() {
        guard session.isEditingText || !textOverlayDrawn.isEmpty, textOverlayRect != textOverlayDrawn else { return }
        drawSurround(session.layout, clip: textOverlayDrawn)
        drawTextOverlay()
    }

    /// The neutral gray around an image smaller than the window.
    func drawSurround(_ layout: Layout, clip: IntRect? = nil) {
        let area = layout.canvasArea
        let image = layout.visibleImage
        let bands = [
            IntRect(x: area.x, y: area.y, width: area.width, height: image.y - area.y),
            IntRect(x: area.x, y: image.maxY, width: area.width, height: area.maxY - image.maxY),
            IntRect(x: area.x, y: image.y, width: image.x - area.x, height: image.height),
            IntRect(x: image.maxX, y: image.y, width: area.maxX - image.maxX, height: image.height),
        ]
        for band in bands where !band.isEmpty {
            blitter.fill(clip.map { band.intersection($0) } ?? band, color: Theme.surround)
        }
    }

    /// The menu bar and the toolbar below it.
    func drawToolbar(_ layout: Layout) {
        drawStrip(session.renderMenuBar(measure: text), at: layout.menuBar)
        drawStrip(session.renderToolbar(measure: text), at: layout.toolbar)
        owed.toolbar = false
    }

    /// The scrollbars, when the picture is larger than the canvas area.
    func drawScrollbars(_ layout: Layout) {
        for bar in [layout.horizontalScrollbar, layout.verticalScrollbar].compactMap({ $0 }) {
            let pixels = ScrollbarView.render(bar, scale: layout.ui, active: session.draggedScrollbar == bar.axis)
            drawStrip(ChromeStrip(pixels: pixels), at: bar.track)
        }
        let corner = layout.scrollbarCorner
        if !corner.isEmpty { drawStrip(ChromeStrip(pixels: ScrollbarView.renderCorner(corner)), at: corner) }
    }

    func drawStatus(_ layout: Layout) {
        drawStrip(session.renderStatus(measure: text), at: layout.statusBar)
        lastStatusDraw = clock
        owed.status = false
        owed.pointerPosition = false
        // An input method that draws its own preedit shows it at the field's cursor.
        if let cursor = session.textCursor { input.setSpot(x: cursor.x, y: cursor.maxY) }
    }

    /// One strip of chrome: pixels into a pixmap, text on top with Xft, one copy to the window
    /// (no flicker: the window only ever receives the finished strip).
    func drawStrip(_ strip: ChromeStrip, at rect: IntRect) {
        drawStrip(strip, at: rect, on: window, textsInWindowCoordinates: true)
    }

    /// Draws a strip into `target` at `rect` (in `target`'s coordinates); its texts are in
    /// window coordinates for the toolbar and status bar, in local ones for a panel.
    func drawStrip(_ strip: ChromeStrip, at rect: IntRect, on target: Window, textsInWindowCoordinates: Bool) {
        guard !rect.isEmpty else { return }
        let pixmap = XCreatePixmap(display, window, UInt32(rect.width), UInt32(rect.height), UInt32(depth))
        SmallImage.put(
            strip.pixels, display: display, drawable: pixmap, gc: chromeGC, visual: visual, depth: depth, format: format
        )
        let shift = textsInWindowCoordinates ? (-rect.x, -rect.y) : (0, 0)
        text.draw(strip.texts, on: pixmap, dx: shift.0, dy: shift.1, gc: chromeGC)
        XCopyArea(
            display, pixmap, target, chromeGC, 0, 0, UInt32(rect.width), UInt32(rect.height), Int32(rect.x),
            Int32(rect.y))
        XFreePixmap(display, pixmap)
    }
}

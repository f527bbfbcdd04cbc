import PaintCore
import PaintIO

/// The select tool: a rectangle dragged out over the picture, outlined; Delete clears it,
/// Ctrl+C and Ctrl+X copy and cut it, dragging it lifts its paint to float until put down.
extension Session {
    /// Outlines `rect` (image pixels) over the window, or nothing.
    func setOutline(_ rect: IntRect?) {
        redraw(outlineBounds())
        if let r = rect, !r.isEmpty {
            let (x0, y0, x1, y1) = (Double(r.x), Double(r.y), Double(r.maxX), Double(r.maxY))
            hoverOutline = [
                Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1),
                Point(x: x0, y: y0),
            ]
        } else {
            hoverOutline = []
        }
        redraw(outlineBounds())
    }

    /// Sets (or, with nil, drops) the selection.
    func setSelection(_ rect: IntRect?) {
        let r = rect?.intersection(engine.bounds)
        selection = r?.isEmpty == false ? r : nil
        if case .selecting = gesture { gesture = .idle }
        if placing == nil { setOutline(selection) }
    }

    /// A press with the select tool: inside the selection it lifts the selected paint to float
    /// under the pointer (the move); elsewhere it starts a new selection.
    /// `edge` is the pixel edge nearest the pointer (`Layout.imageEdge`), where the new
    /// selection's corner goes.
    func pressSelect(at point: Point, edge: (x: Int, y: Int)) {
        let px = Int(point.x.rounded(.down))
        let py = Int(point.y.rounded(.down))
        if let rect = selection, rect.contains(px, py) {
            liftToMove(rect)
            gesture = .dragFloating(grabX: px - rect.x, grabY: py - rect.y)
            return
        }
        setSelection(nil)
        gesture = .selecting(anchorX: min(max(edge.x, 0), engine.width), anchorY: min(max(edge.y, 0), engine.height))
    }

    /// Whether the arrow keys move what is selected: a floating picture, or a selection (lifted
    /// by the first key).
    var nudges: Bool { placing != nil || selection != nil }

    /// Lifts the selection `rect` to be moved (a drag inside it, an arrow key) and says how it
    /// ends.
    func liftToMove(_ rect: IntRect) {
        liftSelection(rect)
        setMessage("Moving the selection — Enter: put it down, Esc: put it back")
    }

    /// Lifts the paint inside `rect` to float where it was (cleared for now, recorded only as a
    /// move once it is put down): for a drag, or a turn of the selection.
    func liftSelection(_ rect: IntRect) {
        let lifted = engine.paintImage(in: rect)
        redraw(engine.clearPaint(in: rect))
        selection = nil
        placing = Placing(image: lifted, x: rect.x, y: rect.y, liftedFrom: rect)
        showPlacing()
    }

    /// Dragging out a selection: the rectangle between the press and the pointer, from pixel
    /// edge to pixel edge (`Layout.imageEdge`), as in GIMP and MS Paint: a drag of 200 pixels
    /// selects 200 (it selected 201, both end pixels), and a drag back to the press selects
    /// nothing. With `square` (Shift held) the selection is a square, as a rectangle drawn
    /// with Shift is and as a selection is in MS Paint, GIMP and Krita: its side the longer of
    /// the two drags, shortened to what the canvas holds on the side the pointer went.
    func dragSelection(from a: (x: Int, y: Int), to edge: (x: Int, y: Int), square: Bool = false) {
        var px = min(max(edge.x, 0), engine.width)
        var py = min(max(edge.y, 0), engine.height)
        if square {
            let (dx, dy) = (px - a.x, py - a.y)
            // The pixels the canvas has from the anchor towards the pointer, on each axis.
            let roomX = dx < 0 ? a.x : engine.width - a.x
            let roomY = dy < 0 ? a.y : engine.height - a.y
            let side = min(max(abs(dx), abs(dy)), roomX, roomY)
            px = a.x + (dx < 0 ? -side : side)
            py = a.y + (dy < 0 ? -side : side)
        }
        let rect = IntRect(x: min(a.x, px), y: min(a.y, py), width: abs(px - a.x), height: abs(py - a.y))
        selection = rect.isEmpty ? nil : rect
        setOutline(selection)
        effects.status = true
    }

    /// Selects the whole picture (Ctrl+A).
    public func selectAll() {
        commitStroke()
        select(.select)
        setSelection(engine.bounds)
    }

    /// Clears the paint inside the selection (Delete): the background shows there, and the
    /// selection goes, as in MS Paint.
    public func clearSelection() {
        if deleteFloating() { return }
        guard let rect = selection else { return }
        perform(.clearRect(rect))
        setSelection(nil)
        setMessage("Cleared \(rect.width) × \(rect.height)")
    }

    /// Copies the selection as it would be saved (Ctrl+C with a selection); false when
    /// nothing is selected.
    func copySelection() -> Bool {
        // A selection being moved (or a paste) is what floats: copied as it shows, not put
        // down first, and not the whole picture.
        let picture: PixelImage
        if let floating = placing {
            picture = flattenedFloating(floating)
        } else if let rect = selection {
            commitStroke()
            picture = engine.flattenedImage(in: rect)
        } else {
            return false
        }
        if offerToClipboard(picture) { setMessage("Copied \(picture.width) × \(picture.height) to the clipboard") }
        return true
    }

    /// Copies the selection, then clears it (Ctrl+X).
    public func cutSelection() {
        guard copySelection() else { return setMessage("Nothing is selected to cut") }
        clearSelection()
    }
}

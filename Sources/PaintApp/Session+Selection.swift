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
    func pressSelect(at point: Point) {
        let px = Int(point.x.rounded(.down))
        let py = Int(point.y.rounded(.down))
        if let rect = selection, rect.contains(px, py) {
            liftToMove(rect)
            gesture = .dragFloating(grabX: px - rect.x, grabY: py - rect.y)
            return
        }
        setSelection(nil)
        gesture = .selecting(anchorX: min(max(px, 0), engine.width - 1), anchorY: min(max(py, 0), engine.height - 1))
    }

    /// Whether the arrow keys move what is selected: a floating picture, or a selection (lifted
    /// by the first key).
    var nudges: Bool { placing != nil || selection != nil }

    /// Lifts the selection `rect` to be moved (a drag inside it, an arrow key) and says how it
    /// ends.
    func liftToMove(_ rect: IntRect) {
        liftSelection(rect)
        setMessage("Moving the selection: Enter or a click outside puts it down, Escape puts it back")
    }

    /// Lifts the paint inside `rect` to float where it was (cleared for now, recorded only as a
    /// move once it is put down): for a drag, or a turn of the selection.
    func liftSelection(_ rect: IntRect) {
        let lifted = engine.paintImage(in: rect)
        redraw(engine.clearPaint(in: rect))
        selection = nil
        placing = Placing(image: lifted, x: rect.x, y: rect.y, liftedFrom: rect)
        showPlacing(previous: .empty)
    }

    /// Dragging out a selection: the rectangle between the press and the pointer, inclusive.
    /// With `square` (Shift held) the selection is a square, as a rectangle drawn with Shift
    /// is and as a selection is in MS Paint, GIMP and Krita: its side the longer of the two
    /// drags, shortened to what the canvas holds on the side the pointer went.
    func dragSelection(from a: (x: Int, y: Int), to point: Point, square: Bool = false) {
        var px = min(max(Int(point.x.rounded(.down)), 0), engine.width - 1)
        var py = min(max(Int(point.y.rounded(.down)), 0), engine.height - 1)
        if square {
            let (dx, dy) = (px - a.x, py - a.y)
            // The pixels the canvas has from the anchor towards the pointer, on each axis.
            let roomX = dx < 0 ? a.x : engine.width - 1 - a.x
            let roomY = dy < 0 ? a.y : engine.height - 1 - a.y
            let side = min(max(abs(dx), abs(dy)), roomX, roomY)
            px = a.x + (dx < 0 ? -side : side)
            py = a.y + (dy < 0 ? -side : side)
        }
        selection = IntRect(x0: min(a.x, px), y0: min(a.y, py), x1: max(a.x, px), y1: max(a.y, py))
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
        do {
            effects.clipboard.append(.offer(try PNGCodec.encode(picture, withAlpha: engine.background == .transparent)))
            setMessage("Copied \(picture.width) × \(picture.height) to the clipboard")
        } catch {
            setMessage(error.description)
        }
        return true
    }

    /// Copies the selection, then clears it (Ctrl+X).
    public func cutSelection() {
        guard copySelection() else { return setMessage("Nothing is selected to cut") }
        clearSelection()
    }
}

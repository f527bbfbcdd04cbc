import Glibc
import PaintCore
import PaintIO

/// The stroke eraser: which stroke a click would remove, and removing it.
extension Session {
    // MARK: Stroke eraser

    func updateStrokeHover(_ x: Int, _ y: Int) {
        // A paste being placed owns the outline.
        guard placing == nil else { return }
        guard tool == .strokeEraser, layout.visibleImage.contains(x, y) else { return setHoverStroke(nil) }
        // Three window pixels of slack at any zoom.
        setHoverStroke(history.stroke(at: layout.imagePoint(windowX: x, windowY: y), slack: 3 / layout.zoom.factor))
    }

    func setHoverStroke(_ step: Int?) {
        guard step != hoverStroke else { return }
        // The outline is drawn over the window, not into the picture: repainting the old
        // outline's box from the picture removes it.
        canvasDirty = canvasDirty.union(outlineBounds())
        hoverStroke = step
        hoverOutline = step.flatMap { history.strokePoints(at: $0)?.points } ?? []
        canvasDirty = canvasDirty.union(outlineBounds())
    }

    func outlineBounds() -> IntRect {
        guard let first = hoverOutline.first else { return .empty }
        var r = IntRect(x: Int(first.x) - 2, y: Int(first.y) - 2, width: 5, height: 5)
        for p in hoverOutline where p.isFinite && abs(p.x) < 1e6 && abs(p.y) < 1e6 {
            r = r.union(IntRect(x: Int(p.x) - 2, y: Int(p.y) - 2, width: 5, height: 5))
        }
        return r.intersection(engine.bounds)
    }

    /// Removes the topmost stroke under `point` (the stroke eraser's click).
    func removeStroke(at point: Point) {
        guard let step = history.stroke(at: point) else { return setMessage("No stroke here to remove") }
        setHoverStroke(nil)
        canvasDirty = canvasDirty.union(history.removeStroke(at: step, engine: engine))
        record(.removeStroke(step: step))
        setMessage("Stroke removed (Ctrl+Z brings it back)")
    }

    /// Sets the brush width (clamped to 1...200).
    public func setWidth(_ w: Double) {
        let clamped = min(max(w.rounded(), 1), 200)
        guard clamped != brushWidth else { return }
        brushWidth = clamped
        toolbarDirty = true
    }

    /// Sets the fill tolerance (clamped to 0...255).
    public func setTolerance(_ value: Int) {
        let clamped = min(max(value, 0), 255)
        guard clamped != fillTolerance else { return }
        fillTolerance = clamped
        toolbarDirty = true
    }

    /// Sets the opacity in percent (clamped to 1...100).
    public func setOpacity(_ percent: Int) {
        let clamped = min(max(percent, 1), 100)
        guard clamped != opacityPercent else { return }
        opacityPercent = clamped
        toolbarDirty = true
    }

    /// Sets the primary color.
    public func setPrimary(_ c: Color) {
        primary = c
        toolbarDirty = true
    }

    /// Swaps primary and secondary colors.
    public func swapColors() {
        swap(&primary, &secondary)
        toolbarDirty = true
    }

    func pickColor(at point: Point, into button: PointerButton) {
        guard let pixel = engine.viewPixel(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down))) else {
            return
        }
        let c = Pixel.unpack(pixel)
        let color = Color(r: c.r, g: c.g, b: c.b)
        if button == .right { secondary = color } else { primary = color }
        setMessage("Picked \(color.hex)")
    }
}

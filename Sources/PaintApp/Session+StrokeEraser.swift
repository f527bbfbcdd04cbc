import Glibc
import PaintCore
import PaintIO

/// The stroke eraser: which stroke a click would remove, and removing it.
extension Session {
    // MARK: Stroke eraser

    func updateStrokeHover(_ x: Int, _ y: Int) {
        // A paste being placed owns the outline.
        guard placing == nil else { return }
        guard settings.tool == .strokeEraser, layout.visibleImage.contains(x, y), !isRebuildingHistory else {
            return setHoverStroke(nil)
        }
        // Three window pixels of slack at any zoom.
        setHoverStroke(history.stroke(at: layout.imagePoint(windowX: x, windowY: y), slack: 3 / layout.zoom.factor))
    }

    func setHoverStroke(_ step: Int?) {
        guard step != hoverStroke else { return }
        // The outline is drawn over the window, not into the picture: repainting the old
        // outline's box from the picture removes it.
        redraw(outlineBounds())
        hoverStroke = step
        hoverOutline = step.flatMap { history.strokePoints(at: $0)?.points } ?? []
        redraw(outlineBounds())
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
        // Steps are numbered in the whole history: wait for it.
        completeHistoryRebuild()
        guard let step = history.stroke(at: point) else { return setMessage("No stroke here to remove") }
        setHoverStroke(nil)
        perform(.removeStroke(step: step))
        setMessage("Stroke removed (Ctrl+Z brings it back)")
    }
}

import PaintCore

/// Zooming: every zoom keeps one point of the picture still, through `Layout.zoomed`. The wheel
/// keeps the point under the pointer; the keys (Ctrl+=, Ctrl+-, Ctrl+0) and the zoom presets
/// keep `zoomFocus`, as GIMP and Krita do.
extension Session {
    // MARK: View

    /// Zooms in (`steps` > 0) or out by `steps` of `Zoom.steps`, keeping the image point under
    /// window pixel (x, y) where it is (`zoomFocus` when none is given).
    public func zoom(by steps: Int, aroundWindowX x: Int? = nil, y: Int? = nil) {
        var target = layout.zoom
        for _ in 0..<abs(steps) { target = (steps > 0 ? target.stepIn : target.stepOut) ?? target }
        guard target != layout.zoom else {
            return setMessage(steps > 0 ? Self.zoomedInAllTheWay : Self.zoomedOutAllTheWay)
        }
        zoom(to: target, aroundWindowX: x, y: y)
    }

    /// What the status bar says when the zoom cannot go further (until the zoom moves).
    static let zoomedInAllTheWay = "Zoomed in as far as it goes"
    static let zoomedOutAllTheWay = "Zoomed out as far as it goes"

    /// Shows the picture at `zoom`, keeping the image point under window pixel (x, y) where it
    /// is (`zoomFocus` when none is given).
    public func zoom(to zoom: Zoom, aroundWindowX x: Int? = nil, y: Int? = nil) {
        let target = zoom.clamped
        if let x, let y {
            setLayout(layout.zoomed(to: target, keepingWindowX: x, y: y))
        } else {
            let focus = zoomFocus
            setLayout(layout.zoomed(to: target, keeping: focus.point, atWindowX: focus.x, y: focus.y))
        }
        setHoverStroke(nil)
    }

    /// Back to 100 %.
    public func resetZoom() { zoom(to: .actualSize) }

    /// View ▸ Fit to Window: the whole picture as large as the window shows it (a small one
    /// enlarged), kept fitted as the window's size or the picture's changes.
    func fitToWindow() {
        zoom(to: layout.fitZoom(enlarge: true))
        zoomFitted = true
        fitEnlarges = true
    }

    /// Lays the picture out in `shown` (the window's layout for its size and the picture's)
    /// fitted to it, the top-left corner first, and keeps the zoom a fitted one (`zoomFitted`),
    /// above 100 % only when `enlarging`.
    func fit(_ shown: Layout, enlarging: Bool) {
        setLayout(shown.zoomed(to: shown.fitZoom(enlarge: enlarging), keepingWindowX: 0, y: shown.canvasArea.y))
        zoomFitted = true
        fitEnlarges = enlarging
    }

    /// The window has a new size. A fitted zoom (opened fitted, Fit to Window, fitted again
    /// after a crop) that the user has not changed since is fitted to the new size, as an image
    /// viewer's "best fit" and GIMP's View ▸ Zoom ▸ "Fit Image in Window" habit are: otherwise a
    /// window made larger shows a small picture in a sea of gray and one made smaller puts it
    /// behind scrollbars. A zoom the user chose (a key, a preset, the wheel) stays.
    func resizeWindow(width: Int, height: Int) {
        let resized = layout.resized(width: width, height: height)
        guard zoomFitted else { return setLayout(resized) }
        fit(resized, enlarging: fitEnlarges)
    }

    /// The image point a zoom by key or menu keeps still, and the window pixel it stays at: the
    /// one under the pointer when the pointer is on the canvas (and the zoom was a key's: chosen
    /// in a menu, the pointer is on the menu); else the caret of the text being typed or the
    /// middle of a floating picture, where it is on screen (off it, brought to the middle of
    /// the canvas); else the middle of the canvas. The zoom about the middle let a text box
    /// being typed scroll out of sight.
    var zoomFocus: (point: Point, x: Int, y: Int) {
        let area = layout.canvasArea
        if !runningMenuCommand, let p = lastPointer, area.contains(p.x, p.y),
            !popups.contains(where: { $0.frame.contains(p.x, p.y) })
        {
            return (layout.imagePoint(windowX: p.x, windowY: p.y), p.x, p.y)
        }
        let middle = (x: area.x + area.width / 2, y: area.y + area.height / 2)
        guard let work = workPoint else {
            return (layout.imagePoint(windowX: middle.x, windowY: middle.y), middle.x, middle.y)
        }
        let o = layout.imageOrigin
        let x = Int((work.x * layout.zoom.factor).rounded(.down)) + o.x
        let y = Int((work.y * layout.zoom.factor).rounded(.down)) + o.y
        return area.contains(x, y) ? (work, x, y) : (work, middle.x, middle.y)
    }

    /// Where the user is working, image coordinates: the caret of the text being typed (its
    /// middle), or the middle of a floating picture; nil when neither.
    private var workPoint: Point? {
        if let overlay = textOverlay {
            return Point(x: overlay.caretX, y: Double(overlay.caretTop + overlay.caretBottom) / 2)
        }
        if let p = placing {
            let r = p.rect
            return Point(x: Double(r.x) + Double(r.width) / 2, y: Double(r.y) + Double(r.height) / 2)
        }
        return nil
    }
}

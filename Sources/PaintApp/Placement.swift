import PaintCore

/// Where the picture is shown in the window: its zoom, the window position of its pixel
/// (0, 0), and the part of the window showing it. Part of `Layout`, and a plain value: the
/// window reads it at every present of a stroke without copying the whole layout (a copy
/// retains and releases the toolbar's arrays).
public struct Placement: Sendable, Equatable {
    /// How large the image is shown (window pixels per image pixel).
    public let zoom: Zoom
    /// Window position of image pixel (0, 0): centred when the shown image fits, else scrolled.
    public let originX: Int
    public let originY: Int
    /// The part of the window showing image pixels.
    public let visibleImage: IntRect

    /// The window rectangle that shows a rectangle of image pixels, clipped to the visible
    /// part (every window pixel any of them falls in or gives its color to).
    public func windowRect(forImageRect r: IntRect) -> IntRect {
        guard !r.isEmpty else { return .empty }
        return IntRect(
            x0: zoom.scaledDown(r.x) + originX, y0: zoom.scaledDown(r.y) + originY,
            x1: zoom.scaledUp(r.maxX) - 1 + originX, y1: zoom.scaledUp(r.maxY) - 1 + originY
        ).intersection(visibleImage)
    }
}

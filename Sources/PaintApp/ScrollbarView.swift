import PaintCore

/// Drawing the scrollbars: a quiet track and a rounded thumb, the thumb darker while dragged.
public enum ScrollbarView {
    /// The pixels of `bar`'s track (its own size), at interface scale `scale`.
    public static func render(_ bar: Scrollbar, scale: UIScale, active: Bool = false) -> PixelImage {
        let track = bar.track
        var p = ChromePainter(width: max(1, track.width), height: max(1, track.height), background: Theme.scrollTrack)
        p.offsetX = -Double(track.x)
        p.offsetY = -Double(track.y)
        // A line between the canvas and the bar.
        if bar.axis == .horizontal {
            p.fill(IntRect(x: track.x, y: track.y, width: track.width, height: 1), Theme.border)
        } else {
            p.fill(IntRect(x: track.x, y: track.y, width: 1, height: track.height), Theme.border)
        }
        let t = bar.thumb
        let inset = scale.d(3)
        let x = Double(t.x) + inset + (bar.axis == .vertical ? 0.5 : 0)
        let y = Double(t.y) + inset + (bar.axis == .horizontal ? 0.5 : 0)
        let w = Double(t.width) - 2 * inset
        let h = Double(t.height) - 2 * inset
        p.fillRoundedRect(x, y, w, h, radius: min(w, h) / 2, active ? Theme.scrollThumbActive : Theme.scrollThumb)
        return p.image
    }

    /// The square where both bars meet.
    public static func renderCorner(_ rect: IntRect) -> PixelImage {
        PixelImage(width: max(1, rect.width), height: max(1, rect.height), fill: Theme.scrollTrack.pixel)
    }
}

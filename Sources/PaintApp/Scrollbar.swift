import PaintCore

/// A scrollbar along one edge of the canvas: a track, and a thumb whose length is the part of
/// the picture in view and whose position is the scroll offset. Pure geometry: the session asks
/// it what a press hit and where a dragged thumb puts the offset.
public struct Scrollbar: Sendable, Equatable {
    public enum Axis: Sendable { case horizontal, vertical }
    /// What a press on the scrollbar hit.
    public enum Hit: Sendable, Equatable {
        /// The thumb, `grab` pixels from its start.
        case thumb(grab: Int)
        /// The track before or after the thumb: scroll one page that way.
        case pageBack, pageForward
    }

    public let axis: Axis
    /// The whole bar.
    public let track: IntRect
    /// The length of the picture as shown, the length of the view onto it, and how far it is
    /// scrolled (all in window pixels along the axis).
    public let content: Int
    public let viewport: Int
    public let offset: Int
    /// The shortest thumb, so it stays easy to catch on a very long picture.
    let minimumThumb: Int

    public init(axis: Axis, track: IntRect, content: Int, viewport: Int, offset: Int, minimumThumb: Int) {
        self.axis = axis
        self.track = track
        self.content = max(1, content)
        self.viewport = max(0, min(viewport, self.content))
        self.offset = max(0, min(offset, self.content - self.viewport))
        self.minimumThumb = minimumThumb
    }

    private var start: Int { axis == .horizontal ? track.x : track.y }
    private var length: Int { axis == .horizontal ? track.width : track.height }
    private var thumbLength: Int { min(length, max(minimumThumb, length * viewport / content)) }
    /// How far the thumb can travel.
    private var travel: Int { length - thumbLength }
    /// The largest offset.
    public var maximumOffset: Int { content - viewport }

    /// The thumb.
    public var thumb: IntRect {
        let position = start + (maximumOffset > 0 ? travel * offset / maximumOffset : 0)
        return axis == .horizontal
            ? IntRect(x: position, y: track.y, width: thumbLength, height: track.height)
            : IntRect(x: track.x, y: position, width: track.width, height: thumbLength)
    }

    /// What a press at (x, y) hits, or nil outside the bar.
    public func hit(x: Int, y: Int) -> Hit? {
        guard track.contains(x, y) else { return nil }
        let t = thumb
        let along = axis == .horizontal ? x : y
        let thumbStart = axis == .horizontal ? t.x : t.y
        if along < thumbStart { return .pageBack }
        if along >= thumbStart + thumbLength { return .pageForward }
        return .thumb(grab: along - thumbStart)
    }

    /// The offset after the thumb, grabbed when the offset was `startOffset`, has been dragged
    /// `delta` pixels along the axis (clamped): no motion, no change; the thumb follows the
    /// pointer pixel for pixel.
    public func offset(from startOffset: Int, draggedBy delta: Int) -> Int {
        guard travel > 0, delta != 0 else { return delta == 0 ? startOffset : 0 }
        // Where the thumb stood, moved by the pointer; the smallest offset that shows it there.
        let start = travel * min(max(startOffset, 0), maximumOffset) / maximumOffset
        let position = min(max(start + delta, 0), travel)
        return min(-Zoom.floorDivide(-position * maximumOffset, travel), maximumOffset)
    }

    /// One page: the view's length, less a little so a line of context stays in view.
    public var page: Int { max(1, viewport - viewport / 10) }
}

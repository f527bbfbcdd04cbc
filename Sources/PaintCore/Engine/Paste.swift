extension StrokeEngine {
    /// Lays `image` (premultiplied) over the paint with its top-left corner at (x, y), source
    /// over, inside the clip; recomposites and returns the changed region. A stroke in
    /// progress is merged first.
    @discardableResult
    public func pastePaint(_ image: PixelImage, atX x: Int, y: Int) -> IntRect {
        if isStroking { end() }
        let r = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(clip)
        guard !r.isEmpty else { return .empty }
        image.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress, let to = paint.baseAddress else { return }
            for row in 0..<r.height {
                let s = from + (r.y - y + row) * image.width + (r.x - x)
                let d = to + (r.y + row) * width + r.x
                for i in 0..<r.width { d[i] = Pixel.sourceOver(s[i], d[i]) }
            }
        }
        recomposite(r)
        return r
    }
}

extension StrokeEngine {
    /// Moves the paint inside `rect` by (dx, dy): lifted, the rectangle cleared, turned or
    /// mirrored by `orientation`, and laid over the paint with its top-left corner moved by
    /// (dx, dy) (source over). Returns the changed view rectangle.
    @discardableResult
    public func movePaint(_ rect: IntRect, byX dx: Int, y dy: Int, orienting orientation: Orientation = .identity)
        -> IntRect
    {
        if isStroking { end() }
        let source = rect.intersection(bounds)
        guard !source.isEmpty else { return .empty }
        let lifted = paintImage(in: source).oriented(orientation)
        let cleared = clearPaint(in: source)
        return cleared.union(pastePaint(lifted, atX: source.x + dx, y: source.y + dy))
    }

    /// Shows `image` (premultiplied) laid over the paint at (x, y) in the view only, the paint
    /// untouched: a pasted picture being placed. Returns the view rectangle it covers; a
    /// `recomposite` of that rectangle takes it away again.
    @discardableResult
    public func showPastePreview(_ image: PixelImage, atX x: Int, y: Int) -> IntRect {
        let r = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(bounds)
        guard !r.isEmpty else { return .empty }
        image.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress, let p = paint.baseAddress, let v = view.baseAddress else { return }
            for row in r.y..<r.maxY {
                let s = from + (row - y) * image.width + (r.x - x)
                for col in r.x..<r.maxX {
                    let pasted = Pixel.sourceOver(s[col - r.x], p[row * width + col])
                    v[row * width + col] = SpanCompositor.over(pasted, backdrop: background.backdrop(col, row))
                }
            }
        }
        return r
    }
}

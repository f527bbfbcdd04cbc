extension StrokeEngine {
    /// Lays `image` (premultiplied) over the paint with its top-left corner at (x, y), source
    /// over, inside the clip; recomposites and returns the changed region. A stroke in
    /// progress is merged first.
    @discardableResult
    public func pastePaint(_ image: PixelImage, atX x: Int, y: Int) -> IntRect {
        if isStroking { end() }
        let r = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(clip)
        guard !r.isEmpty else { return .empty }
        settle()
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: r.width)
        defer { line.deallocate() }
        image.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            for row in 0..<r.height {
                let s = from + (r.y - y + row) * image.width + (r.x - x)
                paint.read(y: r.y + row, x0: r.x, count: r.width, into: line)
                for i in 0..<r.width { line[i] = Pixel.sourceOver(s[i], line[i]) }
                paint.write(y: r.y + row, x0: r.x, count: r.width, from: line)
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
        if viewIsWholeCanvas { ensureWholeView() }
        settle()
        let shown = r.intersection(viewRect)
        guard let v = view, !shown.isEmpty else { return r }
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: shown.width)
        defer { line.deallocate() }
        image.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            for row in shown.y..<shown.maxY {
                let s = from + (row - y) * image.width + (shown.x - x)
                let d = v + (row - viewRect.y) * viewStride + (shown.x - viewRect.x)
                paint.read(y: row, x0: shown.x, count: shown.width, into: line)
                for i in 0..<shown.width {
                    let pasted = Pixel.sourceOver(s[i], line[i])
                    d[i] = SpanCompositor.over(pasted, backdrop: background.backdrop(shown.x + i, row))
                }
            }
        }
        return r
    }
}

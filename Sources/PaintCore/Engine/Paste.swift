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
    /// untouched: a pasted picture being placed (one at a time: `hidePastePreview` takes the
    /// last one off first). Every view composited until then shows it too: the window
    /// scrolled, zoomed, or zoomed out, where the view is composited band by band when drawn.
    /// Returns the view rectangle it covers.
    @discardableResult
    public func showPastePreview(_ image: PixelImage, atX x: Int, y: Int) -> IntRect {
        floating = FloatingPicture(image: image, x: x, y: y)
        let r = IntRect(x: x, y: y, width: image.width, height: image.height).intersection(bounds)
        guard !r.isEmpty else { return .empty }
        if viewIsWholeCanvas { ensureWholeView() }
        settle()
        let shown = r.intersection(viewRect)
        guard let v = view, !shown.isEmpty else { return r }
        overlayFloating(
            shown, into: v + (shown.y - viewRect.y) * viewStride + (shown.x - viewRect.x), stride: viewStride)
        return r
    }

    /// Takes the picture `showPastePreview` shows off the view: its rectangle is composited
    /// again from the paint. Returns that rectangle (empty when nothing floats).
    @discardableResult
    public func hidePastePreview() -> IntRect {
        guard let f = floating else { return .empty }
        floating = nil
        let r = f.rect.intersection(bounds)
        recomposite(r)
        return r
    }

    /// Lays the floating picture over the view pixels of `rect` in `target` (its top-left
    /// pixel, rows `stride` apart): each pixel composited again from the paint with the picture
    /// over it, so laying it twice changes nothing.
    func overlayFloating(_ rect: IntRect, into target: UnsafeMutablePointer<UInt32>, stride: Int) {
        guard let f = floating else { return }
        let shown = rect.intersection(f.rect)
        guard !shown.isEmpty else { return }
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: shown.width)
        defer { line.deallocate() }
        f.image.pixels.withUnsafeBufferPointer { source in
            guard let from = source.baseAddress else { return }
            for row in shown.y..<shown.maxY {
                let s = from + (row - f.y) * f.image.width + (shown.x - f.x)
                let d = target + (row - rect.y) * stride + (shown.x - rect.x)
                paint.read(y: row, x0: shown.x, count: shown.width, into: line)
                for i in 0..<shown.width {
                    let pasted = Pixel.sourceOver(s[i], line[i])
                    d[i] = SpanCompositor.over(pasted, backdrop: background.backdrop(shown.x + i, row))
                }
            }
        }
    }
}

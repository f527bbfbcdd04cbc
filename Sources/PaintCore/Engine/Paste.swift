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

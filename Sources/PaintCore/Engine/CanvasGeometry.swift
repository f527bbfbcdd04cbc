/// Changing the canvas itself: its size (a crop, a larger or smaller canvas, a scale) and its
/// orientation (quarter turns and mirrors). The paint and an image background change together,
/// so the picture stays what it was, only cut, extended, scaled or turned.
///
/// The engine is resized in place: its buffers are reallocated and the view recomposited
/// whole; whoever shows the view learns the new size from `width` and `height`. Every new size
/// is checked against `ImageLimits` before anything is allocated, so a journal or a history
/// that asks for an absurd canvas is refused, not obeyed.
extension StrokeEngine {
    /// Makes the canvas the part `rect` of the current one: a crop when `rect` lies inside it,
    /// a larger canvas when it reaches outside (the new area unpainted, so the background shows
    /// there; an image background is extended with white). A stroke in progress is merged
    /// first. Returns the new bounds (the whole view changed), or empty when nothing changed:
    /// `rect` empty, the same canvas, or beyond `limits`.
    @discardableResult
    public func resizeCanvas(to rect: IntRect, limits: ImageLimits = .default) -> IntRect {
        if isStroking { end() }
        guard !rect.isEmpty, rect != bounds, limits.allows(width: rect.width, height: rect.height) else {
            return .empty
        }
        var newBackground = background
        if case .image(let image) = background {
            newBackground = .image(Self.recut(image, to: rect, fill: Color.white.pixel))
        }
        let kept = rect.intersection(bounds)
        let oldWidth = width
        replaceCanvas(width: rect.width, height: rect.height, background: newBackground) { old, new in
            new.initialize(repeating: 0, count: rect.width * rect.height)
            guard !kept.isEmpty else { return true }
            for y in kept.y..<kept.maxY {
                (new + (y - rect.y) * rect.width + (kept.x - rect.x)).update(
                    from: old + y * oldWidth + kept.x, count: kept.width)
            }
            return true
        }
        return bounds
    }

    /// Scales the picture to newWidth x newHeight through pixman's filters (see `Resampler`).
    /// Returns the new bounds, or empty when nothing changed (the same size, a size beyond
    /// `limits`, or a shrink `Resampler` cannot do).
    @discardableResult
    public func scalePicture(toWidth newWidth: Int, height newHeight: Int, limits: ImageLimits = .default) -> IntRect {
        if isStroking { end() }
        guard newWidth != width || newHeight != height, limits.allows(width: newWidth, height: newHeight),
            Resampler.canScale(width: width, height: height, toWidth: newWidth, height: newHeight)
        else { return .empty }
        var newBackground = background
        if case .image(let image) = background {
            guard var scaled = image.scaled(toWidth: newWidth, height: newHeight) else { return .empty }
            // Still opaque, whatever the rounding of the filter's weights.
            for i in scaled.pixels.indices { scaled.pixels[i] |= 0xFF00_0000 }
            newBackground = .image(scaled)
        }
        let (oldWidth, oldHeight) = (width, height)
        let done = replaceCanvas(width: newWidth, height: newHeight, background: newBackground) { old, new in
            Resampler.scale(old, width: oldWidth, height: oldHeight, into: new, width: newWidth, height: newHeight)
        }
        return done ? bounds : .empty
    }

    /// Turns or mirrors the picture. Returns the new bounds (empty for `.identity`).
    @discardableResult
    public func orient(_ orientation: Orientation) -> IntRect {
        if isStroking { end() }
        guard orientation != .identity else { return .empty }
        var newBackground = background
        if case .image(let image) = background { newBackground = .image(image.oriented(orientation)) }
        let (w, h) = orientation.size(width: width, height: height)
        let (oldWidth, oldHeight) = (width, height)
        replaceCanvas(width: w, height: h, background: newBackground) { old, new in
            orientation.apply(old, width: oldWidth, height: oldHeight, into: new)
            return true
        }
        return bounds
    }

    /// The picture without its border of one color: the smallest rectangle outside which every
    /// pixel shows the color of the top-left corner (else of the bottom-right corner, for a
    /// border only on the right and bottom), as the picture is saved, each channel within
    /// `tolerance` (0 to 255) of the corner's. Nil when there is no such border, or the whole
    /// picture is one color.
    ///
    /// The tolerance is what makes a photo's border one color: a JPEG's flat white margin
    /// decodes to whites a few levels apart, most of all in the 8 x 8 blocks beside the
    /// content, and an exact match stopped at that noise, leaving a ring of margin around it.
    /// A fully transparent corner is matched exactly all the same: transparency is never noisy
    /// (PNG and WebP keep it as it was), and a soft shadow fading out into it is content, to
    /// keep to its last faint pixel rather than cut where it is still 1/8 opaque.
    public func autocropRect(tolerance: Int = 0) -> IntRect? {
        settle()
        let corners = [0, width * height - 1].map { shownPixel($0) }
        for color in corners {
            let border = ColorMatch(color, tolerance: color >> 24 == 0 ? 0 : tolerance)
            if let content = contentBounds(unlike: border), content != bounds { return content }
        }
        return nil
    }

    /// Replaces the whole canvas: width x height on `background`, the paint cleared and then
    /// written by `write` (row-major, `width` per row). For the history going back across a
    /// canvas change; the caller knows the size is one the canvas had.
    func resetCanvas(
        width w: Int, height h: Int, background newBackground: Background,
        write: (UnsafeMutablePointer<UInt32>) -> Void
    ) {
        if isStroking { end() }
        replaceCanvas(width: w, height: h, background: newBackground) { _, new in
            new.initialize(repeating: 0, count: w * h)
            write(new)
            return true
        }
    }

    // MARK: Helpers

    /// The pixel at index `i` (`y * width + x`) as it is saved: paint over the background
    /// (paint alone on a transparent one). The caller settles pending merges first.
    @inline(__always)
    func shownPixel(_ i: Int) -> UInt32 {
        let p = paint.pixel(x: i % width, y: i / width)
        switch background {
        case .color(let c): return Pixel.over(p, backdrop: c.pixel)
        case .transparent: return p
        case .image(let image): return Pixel.over(p, backdrop: image.pixels[i])
        }
    }

    /// The bounds of the pixels that do not show the `border`'s color; nil when none.
    func contentBounds(unlike border: ColorMatch) -> IntRect? {
        func rowDiffers(_ y: Int) -> Bool {
            let row = y * width
            for x in 0..<width where !border.matches(shownPixel(row + x)) { return true }
            return false
        }
        guard let top = (0..<height).first(where: rowDiffers) else { return nil }
        let bottom = (top..<height).last(where: rowDiffers) ?? top
        var left = width - 1
        var right = 0
        for y in top...bottom {
            let row = y * width
            var x = 0
            while x < left && border.matches(shownPixel(row + x)) { x += 1 }
            left = min(left, x)
            x = width - 1
            while x > right && border.matches(shownPixel(row + x)) { x -= 1 }
            right = max(right, x)
        }
        return IntRect(x0: left, y0: top, x1: max(left, right), y1: bottom)
    }

    /// `image` cut to `rect` of its own coordinates, the part outside it filled with `fill`.
    static func recut(_ image: PixelImage, to rect: IntRect, fill: UInt32) -> PixelImage {
        var out = PixelImage(width: rect.width, height: rect.height, fill: fill)
        let kept = rect.intersection(IntRect(x: 0, y: 0, width: image.width, height: image.height))
        guard !kept.isEmpty else { return out }
        for y in kept.y..<kept.maxY {
            let from = y * image.width + kept.x
            let to = (y - rect.y) * rect.width + (kept.x - rect.x)
            out.pixels.replaceSubrange(to..<(to + kept.width), with: image.pixels[from..<(from + kept.width)])
        }
        return out
    }

    /// Reallocates the canvas as w x h: `fill(old, new)` writes the new paint from the old
    /// (false: it could not, and the canvas stays as it was), both row-major. The old paint is
    /// laid out in one buffer for it, and the new one cut into tiles afterwards, so at the peak
    /// the engine holds the old paint and the new, as buffers, and the tiles of either. The
    /// stroke image starts empty; the view is composited again (the shown region now, the whole
    /// canvas when first read).
    @discardableResult
    func replaceCanvas(
        width w: Int, height h: Int, background newBackground: Background,
        fill: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>) -> Bool
    ) -> Bool {
        settle()
        let old = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        paint.copy(into: old)
        let new = UnsafeMutablePointer<UInt32>.allocate(capacity: w * h)
        let done = fill(old, new)
        old.deallocate()
        if done {
            paint = PaintLayer(width: w, height: h, copying: new)
            width = w
            height = h
            background = newBackground
            coverage = CoverageLayer(width: w, height: h)
        }
        new.deallocate()
        clip = bounds
        resetView()
        return done
    }
}

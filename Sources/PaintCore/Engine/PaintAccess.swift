extension StrokeEngine {
    // MARK: Document changes

    /// Replaces the background, keeping the paint; an image of the wrong size is refused.
    /// Returns the changed view rectangle.
    @discardableResult
    public func setBackground(_ newBackground: Background) -> IntRect {
        if case .image(let image) = newBackground, image.width != width || image.height != height {
            return .empty
        }
        background = newBackground
        recomposite(bounds)
        return bounds
    }

    /// Replaces the paint layer with an image of the same size (the caller checks the size);
    /// a stroke in progress is merged first. Squares of one value share one tile.
    public func replacePaint(with image: PixelImage) {
        if isStroking { end() }
        guard image.width == width, image.height == height else { return }
        replacePaint(with: TiledPicture(image))
    }

    /// Replaces the paint with `picture`'s tiles (same size only; otherwise nothing happens).
    public func replacePaint(with picture: TiledPicture) {
        if isStroking { end() }
        guard picture.width == width, picture.height == height else { return }
        settle()
        paint = PaintLayer(picture)
        recomposite(bounds)
    }

    /// Removes all paint; returns the changed view rectangle.
    @discardableResult
    public func clearPaint() -> IntRect {
        clearPaint(in: bounds)
    }

    /// Removes the paint inside `rect` (and the clip), so the background shows there; returns
    /// the changed view rectangle. Tiles cleared whole release their memory.
    @discardableResult
    public func clearPaint(in rect: IntRect) -> IntRect {
        if isStroking { end() }
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return .empty }
        settle()
        paint.clear(r)
        recomposite(r)
        return r
    }

    /// Writes `image` into the paint layer with its top-left corner at (x, y) and recomposites
    /// that region; returns it. A stroke in progress is merged first.
    @discardableResult
    public func restorePaint(_ image: PixelImage, atX x: Int, y: Int) -> IntRect {
        if isStroking { end() }
        let target = IntRect(x: x, y: y, width: image.width, height: image.height)
        let r = target.intersection(bounds)
        guard !r.isEmpty else { return .empty }
        settle()
        image.pixels.withUnsafeBufferPointer { src in
            for row in 0..<r.height {
                let from = src.baseAddress! + (r.y - y + row) * image.width + (r.x - x)
                paint.write(y: r.y + row, x0: r.x, count: r.width, from: from)
            }
        }
        recomposite(r)
        return r
    }

    /// A copy of the paint layer (premultiplied).
    public func paintImage() -> PixelImage {
        paintImage(in: bounds)
    }

    /// A copy of the paint inside `rect` (clipped to the canvas), premultiplied.
    public func paintImage(in rect: IntRect) -> PixelImage {
        settle()
        let r = rect.intersection(bounds)
        var out = PixelImage(width: r.width, height: r.height)
        out.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<r.height {
                paint.read(y: r.y + y, x0: r.x, count: r.width, into: dst.baseAddress! + y * r.width)
            }
        }
        return out
    }

    /// The picture as it is saved: the paint flattened onto the background, or the paint alone
    /// (premultiplied, with alpha) when the background is transparent. A stroke in progress is
    /// not included. With `rect`, just that part (clipped to the canvas).
    public func flattenedImage(in rect: IntRect? = nil) -> PixelImage {
        var out = paintImage(in: rect ?? bounds)
        background.flatten(&out, at: (rect ?? bounds).intersection(bounds))
        return out
    }

    /// The picture as it is saved, taken now by reference (the paint's tiles and the
    /// background, no pixel copied) and flattened later, on any thread: what a save writes
    /// while drawing goes on. Finished strokes are merged first; one in progress is not in it.
    public func pictureSnapshot() -> PictureSnapshot {
        PictureSnapshot(paint: paintSnapshot(), background: background)
    }

    /// The paint layer as it is now, by reference to its tiles (no pixel is copied; the engine
    /// copies a tile before it next writes into it). Safe to read from another thread.
    public func paintSnapshot() -> PackedPixels {
        PackedPixels(tiles: snapshotPaint(bounds), coversRect: true)
    }

    /// The paint-layer pixel at (x, y), or nil outside the canvas.
    public func paintPixel(x: Int, y: Int) -> UInt32? {
        guard bounds.contains(x, y) else { return nil }
        settle()
        return paint.pixel(x: x, y: y)
    }

    /// The coverage of the stroke in progress at (x, y) (0...255), or nil outside the canvas.
    public func strokeCoverage(x: Int, y: Int) -> UInt8? {
        guard bounds.contains(x, y) else { return nil }
        drawDeferredBeforeReading()
        let t = paint.tile(x: x, y: y)
        guard isStroking, let tile = coverage.tiles[t], coverage.owner[t] == serial else { return 0 }
        return tile[(y & Tile.mask) * Tile.size + (x & Tile.mask)]
    }

    /// Bytes the engine holds for pixels now: full paint tiles, coverage tiles and the kept
    /// view (for the benchmark's memory figures).
    public var pixelBytes: Int {
        var coverageTiles = 0
        for t in 0..<coverage.count where coverage.tiles[t] != nil { coverageTiles += 1 }
        return paint.fullTileBytes + coverageTiles * Tile.coverageBytes
            + (view != nil && viewIsOwned ? viewRect.area * 4 : 0)
    }
}

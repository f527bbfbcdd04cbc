import Glibc

extension StrokeEngine {
    /// Starts a piece of text in `style`'s color and opacity (its width is not used): like
    /// `beginShape`, draws nothing yet. A stroke in progress is merged first.
    public func beginText(_ style: StrokeStyle) {
        if isStroking { end() }
        start(.text, style, at: nil)
    }

    /// Replaces the text in the stroke image by `mask` (the typesetter's coverage); returns the
    /// view rectangle that changed.
    ///
    /// The text is then exactly a stroke: composited live at the style's opacity, merged by
    /// `end` (where glyphs overlap, the mask already holds the max: no darker overlaps), and
    /// dropped by `cancel`. Typing or dragging the box calls this again with the whole box;
    /// only the pixels whose coverage differs are written and recomposited (a keystroke at the
    /// end of a long paragraph redraws a letter, not the paragraph), rows whose coverage is
    /// unchanged are skipped with one comparison.
    @discardableResult
    public func updateText(_ mask: CoverageMask) -> IntRect {
        guard activity == .text else { return .empty }
        let new = mask.bounds.intersection(clip)
        let area = strokeBounds.union(new)
        guard !area.isEmpty else { return .empty }
        var dirty = IntRect.empty
        mask.bytes.withUnsafeBufferPointer { source in
            guard let src = source.baseAddress else { return }
            for y in area.y..<area.maxY {
                let inMask = y >= new.y && y < new.maxY
                let maskRow = (y - mask.y) * mask.width - mask.x
                let tileRow = y & Tile.mask
                let rowTiles = (y >> Tile.shift) * coverage.across
                var changedFirst = Int.max
                var changedLast = Int.min
                Tile.segments(from: area.x, through: area.maxX - 1) { tx, a, b in
                    let origin = tx << Tile.shift
                    let t = rowTiles + tx
                    // The mask's part of a...b (empty when the mask has no such row).
                    let ma = inMask ? max(a, new.x) : b + 1
                    let mb = inMask ? min(b, new.maxX - 1) : b
                    let existing = coverage.owner[t] == serial ? coverage.tiles[t] : nil
                    if segmentIsUnchanged(
                        existing.map { $0 + tileRow * Tile.size + (a - origin) }, a, b, ma, mb,
                        ma <= mb ? src + (maskRow + ma) : src)
                    {
                        return
                    }
                    let row = claim(t) + tileRow * Tile.size
                    var inkFirst = Int.max
                    var inkLast = Int.min
                    for x in a...b {
                        let v = x >= ma && x <= mb ? src[maskRow + x] : 0
                        if v != 0 {
                            if inkFirst == Int.max { inkFirst = x }
                            inkLast = x
                        }
                        if v != row[x - origin] {
                            row[x - origin] = v
                            if changedFirst == Int.max { changedFirst = x }
                            changedLast = x
                        }
                    }
                    // Marks only grow until the merge: a chunk whose ink went away merges nothing.
                    if inkFirst <= inkLast {
                        CoverageLayer.mark(
                            row - tileRow * Tile.size, row: tileRow, from: inkFirst - origin, through: inkLast - origin)
                    }
                }
                guard changedFirst <= changedLast else { continue }
                if !defersComposite { compositeRow(y, changedFirst, changedLast) }
                dirty = dirty.union(IntRect(x: changedFirst, y: y, width: changedLast - changedFirst + 1, height: 1))
            }
        }
        strokeBounds = new
        if defersComposite { staleView = staleView.union(dirty) }
        return dirty
    }

    /// Shows the text in progress in another color or opacity (the user picked a color while
    /// typing); returns the view rectangle that changed. Its coverage stays as it is.
    @discardableResult
    public func restyleText(_ newStyle: StrokeStyle) -> IntRect {
        guard activity == .text, newStyle.sourcePixel != source || newStyle.alpha8 != alpha else { return .empty }
        style = newStyle
        source = newStyle.sourcePixel
        alpha = newStyle.alpha8
        // Each tile of the stroke image carries its stroke's color and opacity.
        for t in coverage.active {
            coverage.source[t] = source
            coverage.opacity[t] = UInt16(alpha)
        }
        guard !defersComposite else {
            staleView = staleView.union(strokeBounds)
            return strokeBounds
        }
        visitTouchedChunks { y, x0, x1 in compositeRow(y, x0, x1) }
        return strokeBounds
    }

    /// Whether coverage a...b of a row (`existing`: its pixel a, nil where the stroke image has
    /// no tile, which is zero) already holds what the mask gives it: the mask's bytes for
    /// ma...mb (`mask`: the mask's pixel ma), zero elsewhere.
    private func segmentIsUnchanged(
        _ existing: UnsafeMutablePointer<UInt8>?, _ a: Int, _ b: Int, _ ma: Int, _ mb: Int,
        _ mask: UnsafePointer<UInt8>
    ) -> Bool {
        guard let existing else { return ma > mb || isZero(mask, count: mb - ma + 1) }
        guard ma <= mb else { return isZero(existing, count: b - a + 1) }
        return isZero(existing, count: ma - a)
            && memcmp(existing + (ma - a), mask, mb - ma + 1) == 0
            && isZero(existing + (mb + 1 - a), count: b - mb)
    }

    private func isZero(_ p: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) != 0 { return false }
            i += 8
        }
        while i < count {
            if p[i] != 0 { return false }
            i += 1
        }
        return true
    }
}

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
            guard let cov = coverage.baseAddress else { return }
            for y in area.y..<area.maxY {
                let row = y * width
                let inMask = y >= new.y && y < new.maxY
                let maskRow = (y - mask.y) * mask.width - mask.x
                if rowIsUnchanged(y, area: area, new: inMask ? new : .empty, source: source, maskRow: maskRow) {
                    continue
                }
                var changedFirst = Int.max
                var changedLast = Int.min
                var inkFirst = Int.max
                var inkLast = Int.min
                for x in area.x..<area.maxX {
                    let v = inMask && x >= new.x && x < new.maxX ? source[maskRow + x] : 0
                    if v != 0 {
                        if inkFirst == Int.max { inkFirst = x }
                        inkLast = x
                    }
                    if v != cov[row + x] {
                        cov[row + x] = v
                        if changedFirst == Int.max { changedFirst = x }
                        changedLast = x
                    }
                }
                // Marks only grow until the merge: a chunk whose ink went away merges nothing.
                if inkFirst <= inkLast {
                    touched.mark(row: y, from: inkFirst, through: inkLast)
                    strokeRows = (min(strokeRows.min, y), max(strokeRows.max, y))
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
        guard !defersComposite else {
            staleView = staleView.union(strokeBounds)
            return strokeBounds
        }
        visitTouchedChunks { y, x0, x1 in compositeRow(y, x0, x1) }
        return strokeBounds
    }

    /// Whether row `y` of the stroke image already holds what the mask gives it inside `area`:
    /// the mask's bytes inside `new` (empty when the mask has no such row), zero elsewhere.
    private func rowIsUnchanged(
        _ y: Int, area: IntRect, new: IntRect, source: UnsafeBufferPointer<UInt8>, maskRow: Int
    ) -> Bool {
        guard let cov = coverage.baseAddress, let src = source.baseAddress else { return false }
        let row = y * width
        guard !new.isEmpty else { return isZero(cov + row + area.x, count: area.width) }
        return isZero(cov + row + area.x, count: new.x - area.x)
            && memcmp(cov + row + new.x, src + maskRow + new.x, new.width) == 0
            && isZero(cov + row + new.maxX, count: area.maxX - new.maxX)
    }

    private func isZero(_ p: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
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

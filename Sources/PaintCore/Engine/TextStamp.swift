extension StrokeEngine {
    /// Starts a piece of text in `style`'s color and opacity (its width is not used): like
    /// `beginShape`, draws nothing yet. A stroke in progress is merged first.
    public func beginText(_ style: StrokeStyle) {
        if isStroking { end() }
        start(.text, style, at: nil)
    }

    /// Replaces the text in the stroke image by `mask` (the typesetter's coverage); returns the
    /// changed view rectangle (the old text's bounds ∪ the new one's).
    ///
    /// The text is then exactly a stroke: composited live at the style's opacity, merged by
    /// `end` (where glyphs overlap, the mask already holds the max: no darker overlaps), and
    /// dropped by `cancel`. Typing or dragging the box calls this again; the work follows the
    /// old and new masks, never the canvas.
    @discardableResult
    public func updateText(_ mask: CoverageMask) -> IntRect {
        guard activity == .text else { return .empty }
        let old = strokeBounds
        clearStrokeImage()
        stamp(mask)
        return old.union(strokeBounds)
    }

    /// Copies the mask's coverage inside the clip into the (cleared) stroke image, row by row:
    /// only the stretch of each row that holds coverage is marked and recomposited.
    private func stamp(_ mask: CoverageMask) {
        let r = mask.bounds.intersection(clip)
        guard !r.isEmpty else { return }
        var dirty = IntRect.empty
        mask.bytes.withUnsafeBufferPointer { source in
            for y in r.y..<r.maxY {
                let from = (y - mask.y) * mask.width - mask.x
                var first = r.x
                while first < r.maxX && source[from + first] == 0 { first += 1 }
                guard first < r.maxX else { continue }
                var last = r.maxX - 1
                while source[from + last] == 0 { last -= 1 }
                let row = y * width
                for x in first...last where source[from + x] > coverage[row + x] {
                    coverage[row + x] = source[from + x]
                }
                touched.mark(row: y, from: first, through: last)
                if !defersComposite { compositeRow(y, first, last) }
                strokeRows = (min(strokeRows.min, y), max(strokeRows.max, y))
                dirty = dirty.union(IntRect(x: first, y: y, width: last - first + 1, height: 1))
            }
        }
        strokeBounds = strokeBounds.union(dirty)
        if defersComposite { staleView = staleView.union(dirty) }
    }
}

/// Where selected text shows: a selection is made of scalars in logical order, and its
/// highlight covers the glyphs that draw them wherever they stand on the line, so a selection
/// across the meeting of left-to-right and right-to-left text shows as the pieces that are
/// selected, not as one block between two carets.
extension TextLayout {
    /// The pixel columns, from the box's left, covered by the glyphs of scalars `scalars` of
    /// line `line`, left to right and merged where they touch; with `withBreak` (the line's
    /// break is selected too) a third of a line's height more at the line's end, as editors
    /// show a selected line break.
    public func highlightSpans(line: Int, scalars: Range<Int>, withBreak: Bool) -> [Range<Int>] {
        highlightPieces(line: line, scalars: scalars, withBreak: withBreak).map(\.pixels)
    }

    /// `highlightSpans` with each piece's exact left and right edges (pixels from the box's
    /// left, fractions too): where the window draws the highlight's sides when zoomed in, so
    /// they meet the caret's places rather than the nearest picture pixel's side.
    public func highlightPieces(
        line: Int, scalars: Range<Int>, withBreak: Bool
    ) -> [(pixels: Range<Int>, left: Double, right: Double)] {
        guard lines.indices.contains(line) else { return [] }
        let l = lines[line]
        var spans: [(from: Int, to: Int)] = []
        // Marks (no advance) sit inside their letter's span.
        for g in l.glyphs where g.advance > 0 && scalars.contains(g.cluster) {
            spans.append((g.x, g.x + g.advance))
        }
        if withBreak {
            let end = l.carets[l.count]
            let mark = max(64, lineHeight * 64 / 3)
            spans.append(l.isRightToLeft ? (end - mark, end) : (end, end + mark))
        }
        spans.sort { $0.from < $1.from }
        var merged: [(pixels: Range<Int>, left: Double, right: Double)] = []
        for s in spans {
            // 1/64 pixel to whole pixels, rounded (an arithmetic shift floors negatives too).
            let from = (s.from + 32) >> 6
            let to = max(from + 1, (s.to + 32) >> 6)
            let (left, right) = (Double(s.from) / 64, Double(s.to) / 64)
            if let last = merged.last, from <= last.pixels.upperBound {
                merged[merged.count - 1] = (
                    last.pixels.lowerBound..<max(last.pixels.upperBound, to), last.left, max(last.right, right)
                )
            } else {
                merged.append((from..<to, left, right))
            }
        }
        return merged
    }

    /// The scalar offset of line `line` whose glyph lies under `x` (box pixels): the start of
    /// the character a double click fell on; nil between or beyond the glyphs.
    public func scalar(line: Int, atX x: Double) -> Int? {
        guard lines.indices.contains(line) else { return nil }
        let target = Int((x * 64).rounded(.down))
        return lines[line].glyphs.first { $0.advance > 0 && $0.x <= target && target < $0.x + $0.advance }?.cluster
    }
}

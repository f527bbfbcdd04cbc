extension StrokeEngine {
    /// The tint of selected text: a light blue over white, as desktops show a selection.
    public static let highlightColor = Color(r: 0x33, g: 0x8E, b: 0xFF)
    /// How strongly the highlight tints what is under the text (of 255).
    static let highlightStrength: UInt16 = 96

    /// Tints `rects` of the view (canvas pixels) behind the text in progress: the selection of
    /// the text box being typed. The picture shows tinted there and the text's coverage is
    /// composited over the tint in its own color, so selected letters keep their color on a
    /// light blue ground. Only the view changes: the paint, the stroke image and so what `end`
    /// merges are untouched, and the tint goes when the text ends (`end`, `cancel`). Returns
    /// the view rectangle that changed.
    @discardableResult
    public func highlightText(_ rects: [IntRect]) -> IntRect {
        let new = activity == .text ? rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty } : []
        guard new != highlights else { return .empty }
        let old = highlights
        highlights = new
        var dirty = IntRect.empty
        for r in old + new {
            // A piece shown before and still shown stays as it is.
            if old.contains(r) && new.contains(r) { continue }
            recomposite(r)
            dirty = dirty.union(r)
        }
        return dirty
    }

    /// Takes the highlight away when the text in progress ends.
    func dropHighlights() {
        guard !highlights.isEmpty else { return }
        let old = highlights
        highlights = []
        for r in old { recomposite(r) }
    }

    /// `compose` for the tinted pixels of row y among x0...x1 (`target` holds pixel x0): the
    /// backdrop and paint flattened, tinted, then the text's coverage over that.
    func composeHighlights(_ y: Int, _ x0: Int, _ x1: Int, into target: UnsafeMutablePointer<UInt32>) {
        let tint = Self.highlightColor.pixel
        let r = y & Tile.mask
        let rowTiles = (y >> Tile.shift) * paint.across
        for rect in highlights where y >= rect.y && y < rect.maxY {
            let a = max(x0, rect.x)
            let b = min(x1, rect.maxX - 1)
            guard a <= b else { continue }
            for x in a...b {
                let t = rowTiles + (x >> Tile.shift)
                let lx = x & Tile.mask
                let p = paint.bases[t][r * paint.strides[t] + lx]
                let base = SpanCompositor.over(p, backdrop: backdropColor ?? background.backdrop(x, y))
                var shown = SpanCompositor.blend(base, source: tint, coverage: 255, opacity: Self.highlightStrength)
                if let tile = coverage.tiles[t] {
                    shown = SpanCompositor.blend(
                        shown, source: coverage.source[t], coverage: tile[r * Tile.size + lx],
                        opacity: coverage.opacity[t])
                }
                target[x - x0] = shown
            }
        }
    }
}

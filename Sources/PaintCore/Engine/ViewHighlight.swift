extension StrokeEngine {
    /// The tint of selected text: a light blue over white, as desktops show a selection.
    public static let highlightColor = Color(r: 0x33, g: 0x8E, b: 0xFF)
    /// How strongly the highlight tints what is under the text (of 255).
    static let highlightStrength: UInt16 = 96

    /// Tints `rects` of the view (canvas pixels) behind the text in progress: the selection of
    /// the text box being typed. The picture shows tinted there and the text's coverage is
    /// composited over the tint in its own color, so selected letters keep their color on a
    /// light blue ground. Only the view changes: the paint, the stroke image and so what `end`
    /// merges are untouched, and the tint goes when the text ends (`end`, `cancel`). `sides`
    /// (one per rectangle, or none) are the rectangles' exact left and right sides, which the
    /// window shows zoomed in (`sharpenHighlightEdges`). Returns the view rectangle that
    /// changed (with the pixel beyond each side, where a zoomed-in window shows a side).
    @discardableResult
    public func highlightText(_ rects: [IntRect], sides: [HighlightSides] = []) -> IntRect {
        var new: [IntRect] = []
        var newSides: [HighlightSides] = []
        if activity == .text {
            for (k, rect) in rects.enumerated() {
                let r = rect.intersection(bounds)
                guard !r.isEmpty else { continue }
                new.append(r)
                newSides.append(
                    sides.indices.contains(k) ? sides[k] : HighlightSides(left: Double(r.x), right: Double(r.maxX)))
            }
        }
        guard new != highlights || newSides != highlightSides else { return .empty }
        let old = highlights
        let oldSides = highlightSides
        highlights = new
        highlightSides = newSides
        var dirty = IntRect.empty
        for (k, r) in (old + new).enumerated() {
            let side = k < old.count ? oldSides[k] : newSides[k - old.count]
            // A piece shown before and still shown, with the same sides, stays as it is.
            if old.contains(r) && new.contains(r) && oldSides.contains(side) && newSides.contains(side) { continue }
            recomposite(r)
            dirty = dirty.union(IntRect(x: r.x - 1, y: r.y, width: r.width + 2, height: r.height).intersection(bounds))
        }
        return dirty
    }

    /// Zoomed in, a side of the highlight falls inside a picture pixel (where the selected
    /// letters start or end, as the caret stands): in `scaled`, the window pixels of `rect` (in
    /// the coordinates of the picture as shown at `zoom`, as `ViewScaler.render` gives them),
    /// the window columns of the picture pixel under each side show it tinted on the side of
    /// the highlight and plain on the other, by each column's middle. So the sides are drawn
    /// at the window's resolution, not the picture's.
    public func sharpenHighlightEdges(_ scaled: inout [UInt32], rect: IntRect, zoom: Zoom) {
        guard zoom > .actualSize, !highlights.isEmpty, scaled.count == rect.width * rect.height else { return }
        let factor = zoom.factor
        for (k, r) in highlights.enumerated() {
            let side = highlightSides[k]
            // The columns of the picture pixels under the two sides.
            for c in Set([Int(side.left.rounded(.down)), Int((side.right - 1e-9).rounded(.down))]) {
                guard c >= 0, c < width else { continue }
                let x0 = max(rect.x, zoom.scaledDown(c) - 1)
                let x1 = min(rect.maxX, zoom.scaledUp(c + 1) + 1)
                let y0 = max(rect.y, zoom.scaledDown(r.y) - 1)
                let y1 = min(rect.maxY, zoom.scaledUp(r.maxY) + 1)
                guard x0 < x1, y0 < y1 else { continue }
                var row = -1
                var plain: UInt32 = 0
                var tinted: UInt32 = 0
                for y in y0..<y1 {
                    let source = zoom.sourcePixel(y)
                    guard source >= r.y, source < r.maxY else { continue }
                    if source != row {
                        row = source
                        withUnsafeMutablePointer(to: &plain) { composePlain(source, c, c, into: $0) }
                        tinted = highlightedPixel(c, source)
                    }
                    for x in x0..<x1 where zoom.sourcePixel(x) == c {
                        let middle = (Double(x) + 0.5) / factor
                        let inside = middle >= side.left && middle < side.right
                        scaled[(y - rect.y) * rect.width + (x - rect.x)] = inside ? tinted : plain
                    }
                }
            }
        }
    }

    /// Takes the highlight away when the text in progress ends.
    func dropHighlights() {
        guard !highlights.isEmpty else { return }
        let old = highlights
        highlights = []
        highlightSides = []
        for r in old { recomposite(r) }
    }

    /// `compose` for the tinted pixels of row y among x0...x1 (`target` holds pixel x0): the
    /// backdrop and paint flattened, tinted, then the text's coverage over that.
    func composeHighlights(_ y: Int, _ x0: Int, _ x1: Int, into target: UnsafeMutablePointer<UInt32>) {
        for rect in highlights where y >= rect.y && y < rect.maxY {
            let a = max(x0, rect.x)
            let b = min(x1, rect.maxX - 1)
            guard a <= b else { continue }
            for x in a...b { target[x - x0] = highlightedPixel(x, y) }
        }
    }

    /// Pixel (x, y) as the highlight shows it: the backdrop and paint flattened, tinted, then
    /// the text's coverage over that.
    @inline(__always)
    func highlightedPixel(_ x: Int, _ y: Int) -> UInt32 {
        let r = y & Tile.mask
        let t = (y >> Tile.shift) * paint.across + (x >> Tile.shift)
        let lx = x & Tile.mask
        let p = paint.bases[t][r * paint.strides[t] + lx]
        let base = SpanCompositor.over(p, backdrop: backdropColor ?? background.backdrop(x, y))
        var shown = SpanCompositor.blend(
            base, source: Self.highlightColor.pixel, coverage: 255, opacity: Self.highlightStrength)
        if let tile = coverage.tiles[t] {
            shown = SpanCompositor.blend(
                shown, source: coverage.source[t], coverage: tile[r * Tile.size + lx], opacity: coverage.opacity[t])
        }
        return shown
    }
}

/// The exact left and right sides of a piece of the text highlight, in image pixels (fractions
/// too): where the selected letters start and end.
public struct HighlightSides: Equatable, Hashable, Sendable {
    public var left: Double
    public var right: Double

    public init(left: Double, right: Double) {
        self.left = left
        self.right = right
    }
}

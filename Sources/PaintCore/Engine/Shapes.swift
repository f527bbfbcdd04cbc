/// The geometric shapes the shape tools draw.
public enum ShapeKind: UInt8, Sendable, CaseIterable {
    case line = 1
    case dashedLine = 2
    case rectangle = 3
    case ellipse = 4
    /// A line with a filled head at its end (`ArrowHead`).
    case arrow = 5
    case dashedArrow = 6

    /// Lines and arrows: Shift turns them in 15° steps and the dashed toggle dashes them.
    public var isStraight: Bool {
        switch self {
        case .line, .dashedLine, .arrow, .dashedArrow: return true
        case .rectangle, .ellipse: return false
        }
    }

    /// The first drawing version that knows this kind: a step with it carries at least that
    /// version (`StrokeStyle.recording(_:)`), so a SwiftPaint from before the kind reports the
    /// step as from a newer SwiftPaint, not as damaged (it refuses a version it does not know).
    public var drawingVersion: DrawingVersion {
        switch self {
        case .line, .dashedLine, .rectangle, .ellipse: return .session6
        case .arrow, .dashedArrow: return .session15
        }
    }

    /// This kind dashed (`on`) or solid: lines and arrows; the others stay as they are.
    public func dashed(_ on: Bool) -> ShapeKind {
        switch self {
        case .line, .dashedLine: return on ? .dashedLine : .line
        case .arrow, .dashedArrow: return on ? .dashedArrow : .arrow
        case .rectangle, .ellipse: return self
        }
    }
}

/// One shape as dragged: its kind, the drag's two ends and whether it is filled.
public struct ShapeSpec: Hashable, Sendable {
    public var kind: ShapeKind
    /// Drag start (image coordinates).
    public var from: Point
    /// Drag end (image coordinates).
    public var to: Point
    /// Rectangle and ellipse: filled inside; ignored for lines and arrows.
    public var filled: Bool

    public init(kind: ShapeKind, from: Point, to: Point, filled: Bool) {
        self.kind = kind
        self.from = from
        self.to = to
        self.filled = filled
    }

    /// Dash length along the segment, as a multiple of the line width.
    public static let dashFactor = 3.0
    /// Gap between dashes (between the ends of consecutive dash segments; the round caps reach
    /// half a width into it from each side), as a multiple of the line width.
    public static let gapFactor = 2.0
}

extension StrokeStyle {
    /// This style as a step with a `kind` shape records it: with at least the drawing version
    /// that knows the kind (`ShapeKind.drawingVersion`; the rules drawn by are the same).
    public func recording(_ kind: ShapeKind) -> StrokeStyle {
        var style = self
        style.drawing = Swift.max(drawing, kind.drawingVersion)
        return style
    }
}

extension StrokeEngine {
    /// Starts a shape with `style` (its width is the outline/line width): like `begin`, but
    /// draws nothing yet. A stroke in progress is merged first.
    public func beginShape(_ style: StrokeStyle) {
        if isStroking { end() }
        start(.shape, style, at: nil)
    }

    /// Replaces the shape in the stroke image by `spec`; returns the changed view rectangle (the
    /// old shape's bounds ∪ the new shape's bounds).
    ///
    /// The previous shape's coverage is cleared chunk by chunk (only its touched chunks), the new
    /// one rasterized row by row (max-combined within the shape, anti-aliased over about a pixel)
    /// and recomposited where it grew: the work follows the two shapes, never the canvas.
    @discardableResult
    public func updateShape(_ spec: ShapeSpec) -> IntRect {
        guard activity == .shape, spec.from.isFinite, spec.to.isFinite else { return .empty }
        let old = strokeBounds
        clearStrokeImage()
        rasterize(spec)
        return old.union(strokeBounds)
    }

    /// Draws `spec` into the (cleared) stroke image with the current style.
    func rasterize(_ drag: ShapeSpec) {
        let w = style.width
        let spec = style.drawing >= .session8b ? Self.pixelAligned(drag, width: w) : drag
        let a = spec.from
        let b = spec.to
        switch spec.kind {
        case .line:
            _ = stamp(Capsule(from: a, to: b, width: w), fullDiscAtStart: false)
        case .dashedLine:
            for dash in Self.dashes(from: a, to: b, width: w, within: clip) {
                _ = stamp(Capsule(from: dash.0, to: dash.1, width: w), fullDiscAtStart: false)
            }
        case .rectangle where style.drawing >= .session7:
            squareRectangle(spec)
        case .rectangle:
            // Version 1 (`DrawingVersion.session6`): a capsule along each side, so the corners
            // are round; kept for the steps recorded then.
            if spec.filled { fillBox(spec) }
            let c1 = Point(x: b.x, y: a.y)
            let c2 = Point(x: a.x, y: b.y)
            _ = stamp(Capsule(from: a, to: c1, width: w), fullDiscAtStart: false)
            _ = stamp(Capsule(from: c1, to: b, width: w), fullDiscAtStart: false)
            _ = stamp(Capsule(from: b, to: c2, width: w), fullDiscAtStart: false)
            _ = stamp(Capsule(from: c2, to: a, width: w), fullDiscAtStart: false)
        case .ellipse:
            ellipse(spec)
        case .arrow, .dashedArrow:
            arrow(spec)
        }
    }

    /// `spec` with the centre lines of its straight edges moved (by at most half a pixel) so
    /// that, drawn `width` wide, the edges fall on pixel boundaries: a rectangle's four sides,
    /// and a line's (an arrow's shaft's) sides when it is horizontal or vertical (the Shift angles 0° and 90°; the
    /// round ends stay where they are). Odd widths dragged between pixel centres are there
    /// already; an even width centred on a pixel moves half a pixel right or down, so a
    /// 2 px line covers the clicked row and the one below. Diagonal lines, ellipses and widths
    /// that are not whole numbers are left as they are (version 4 shapes,
    /// `DrawingVersion.session8b`).
    public static func pixelAligned(_ spec: ShapeSpec, width: Double) -> ShapeSpec {
        guard width == width.rounded(.down), width.isFinite else { return spec }
        /// The nearest centre whose edges (± width / 2) are whole numbers; ties go up.
        func snap(_ c: Double) -> Double {
            guard c.isFinite, abs(c) < 1e12 else { return c }
            return (c - width / 2 + 0.5).rounded(.down) + width / 2
        }
        var out = spec
        let dx = abs(spec.to.x - spec.from.x)
        let dy = abs(spec.to.y - spec.from.y)
        switch spec.kind {
        case .rectangle:
            out.from = Point(x: snap(spec.from.x), y: snap(spec.from.y))
            out.to = Point(x: snap(spec.to.x), y: snap(spec.to.y))
        case .line, .dashedLine, .arrow, .dashedArrow:
            // Level or upright within rounding (Shift's 90° comes from a cosine, not exactly 0).
            if dy <= dx * 1e-9 && dx > 0 {
                let y = snap(spec.from.y)
                out.from.y = y
                out.to.y = y
            } else if dx <= dy * 1e-9 && dy > 0 {
                let x = snap(spec.from.x)
                out.from.x = x
                out.to.x = x
            }
        case .ellipse:
            break
        }
        return out
    }

    /// The dash segments of a dashed line: dashes of `dashFactor * width` every
    /// `(dashFactor + gapFactor) * width`, the first starting at `from`; only those that can
    /// reach `rect` (so a line to a far-away point costs nothing extra). A zero-length line is
    /// one dot.
    static func dashes(from a: Point, to b: Point, width: Double, within rect: IntRect) -> [(Point, Point)] {
        let dx = b.x - a.x
        let dy = b.y - a.y
        // Scaled so a segment to a far-away point does not overflow.
        let scale = max(abs(dx), abs(dy))
        guard scale > 0, scale.isFinite else { return [(a, a)] }
        let length = scale * ((dx / scale) * (dx / scale) + (dy / scale) * (dy / scale)).squareRoot()
        let dash = ShapeSpec.dashFactor * width
        let period = (ShapeSpec.dashFactor + ShapeSpec.gapFactor) * width
        // The part of the segment (as distances along it) within the rectangle grown by a width.
        var t0 = 0.0
        var t1 = length
        let m = width + 1
        let ux = dx / length
        let uy = dy / length
        for (p, u, lo, hi) in [
            (a.x, ux, Double(rect.x) - m, Double(rect.maxX) + m), (a.y, uy, Double(rect.y) - m, Double(rect.maxY) + m),
        ] {
            if u == 0 {
                if p < lo || p > hi { return [] }
            } else {
                let s0 = (lo - p) / u
                let s1 = (hi - p) / u
                t0 = max(t0, min(s0, s1))
                t1 = min(t1, max(s0, s1))
            }
        }
        guard t0 <= t1 else { return [] }
        let k0 = max(0, ((t0 - dash) / period).rounded(.down))
        // At most the dashes that fit in t0...t1 (bounded by the rectangle), even where a huge
        // length leaves no precision for the positions.
        let limit = Int((t1 - t0) / period) + 2
        var out: [(Point, Point)] = []
        for i in 0...limit {
            let s = (k0 + Double(i)) * period
            if s >= length || s > t1 { break }
            let e = min(s + dash, length)
            if e >= t0 {
                out.append((Point(x: a.x + ux * s, y: a.y + uy * s), Point(x: a.x + ux * e, y: a.y + uy * e)))
            }
        }
        return out
    }

    /// Full coverage on the pixels whose centres lie in the box between `from` and `to` (the
    /// outline capsules add the anti-aliased edge around it).
    private func fillBox(_ spec: ShapeSpec) {
        let minX = min(spec.from.x, spec.to.x)
        let maxX = max(spec.from.x, spec.to.x)
        let minY = min(spec.from.y, spec.to.y)
        let maxY = max(spec.from.y, spec.to.y)
        let x0 = max(clip.x, Int(clamping: minX - 0.5, .up))
        let x1 = min(clip.maxX - 1, Int(clamping: maxX - 0.5, .down))
        let y0 = max(clip.y, Int(clamping: minY - 0.5, .up))
        let y1 = min(clip.maxY - 1, Int(clamping: maxY - 0.5, .down))
        guard x0 <= x1, y0 <= y1 else { return }
        var bounds = ShapeBounds()
        for y in y0...y1 {
            shapeRow(y, x0, x1, inside: (x0, x1), insideFull: true, bounds: &bounds) { _ in 1 }
        }
        commit(bounds)
    }

    /// A rectangle with square (mitred) outer corners, as MS Paint, KolourPaint and GIMP draw
    /// it: the band between the box grown and the box shrunk by half the width (the whole grown
    /// box when filled, or when the width closes the hole). A pixel's coverage is the area of its
    /// square inside the band: along a side the same one-pixel ramp the capsules give
    /// (`width / 2 + 0.5 - distance`), at a corner the product of the two sides' overlaps.
    private func squareRectangle(_ spec: ShapeSpec) {
        let half = style.width / 2
        let cx = (spec.from.x + spec.to.x) / 2
        let cy = (spec.from.y + spec.to.y) / 2
        let bx = abs(spec.to.x - spec.from.x) / 2
        let by = abs(spec.to.y - spec.from.y) / 2
        // Half sizes of the outer box and of the hole.
        let ox = bx + half
        let oy = by + half
        let ix = bx - half
        let iy = by - half
        let hole = !spec.filled && ix > 0 && iy > 0
        let y0 = max(clip.y, Int(clamping: cy - oy - 1, .down))
        let y1 = min(clip.maxY - 1, Int(clamping: cy + oy, .down))
        guard y0 <= y1, cx.isFinite, cy.isFinite, ox.isFinite, oy.isFinite else { return }
        let xa = max(clip.x, Int(clamping: cx - ox - 1, .down))
        let xb = min(clip.maxX - 1, Int(clamping: cx + ox, .down))
        guard xa <= xb else { return }
        // Pixels certainly fully covered by the outer box (or by the hole), shrunk by a pixel
        // so rounding never wrongly includes one; the others are measured.
        let solid = (max(xa, Int(clamping: cx - ox, .up) + 1), min(xb, Int(clamping: cx + ox - 1, .down) - 1))
        let inHole = (max(xa, Int(clamping: cx - ix, .up) + 1), min(xb, Int(clamping: cx + ix - 1, .down) - 1))
        var bounds = ShapeBounds()
        for y in y0...y1 {
            let dy = abs(Double(y) + 0.5 - cy)
            let outerRow = Self.overlap(dy, oy)
            guard outerRow > 0 else { continue }
            let holeRow = hole ? Self.overlap(dy, iy) : 0
            let inside: (Int, Int)
            let insideFull: Bool
            if holeRow >= 1 {
                (inside, insideFull) = (inHole, false)
            } else if holeRow == 0 && outerRow >= 1 {
                (inside, insideFull) = (solid, true)
            } else {
                (inside, insideFull) = ((xb + 1, xb), false)
            }
            shapeRow(y, xa, xb, inside: inside, insideFull: insideFull, bounds: &bounds) { px in
                let dx = abs(px - cx)
                let outer = Self.overlap(dx, ox) * outerRow
                return holeRow > 0 ? outer - Self.overlap(dx, ix) * holeRow : outer
            }
        }
        commit(bounds)
    }

    /// The length of a pixel's extent along one axis (its centre `distance` from the box's
    /// centre) inside a box of half size `half` around that centre: 0...1.
    @inline(__always)
    static func overlap(_ distance: Double, _ half: Double) -> Double {
        max(0, min(distance + 0.5, half) - max(distance - 0.5, -half))
    }

    /// An ellipse inscribed in the box between `from` and `to`: the points within half the
    /// width of its curve, plus its inside when filled.
    private func ellipse(_ spec: ShapeSpec) {
        let w = style.width
        let cx = (spec.from.x + spec.to.x) / 2
        let cy = (spec.from.y + spec.to.y) / 2
        let a = abs(spec.to.x - spec.from.x) / 2
        let b = abs(spec.to.y - spec.from.y) / 2
        // A flat ellipse is its long axis (or a dot).
        if !(a > 1e-6 && b > 1e-6) {
            let p = a > b ? Point(x: cx - a, y: cy) : Point(x: cx, y: cy - b)
            let q = a > b ? Point(x: cx + a, y: cy) : Point(x: cx, y: cy + b)
            _ = stamp(Capsule(from: p, to: q, width: w), fullDiscAtStart: false)
            return
        }
        let outer = w / 2 + 0.5
        let filled = spec.filled
        let ia2 = 1 / (a * a)
        let ib2 = 1 / (b * b)
        let ia4 = ia2 * ia2
        let ib4 = ib2 * ib2
        let centreDistance = -min(a, b)
        // Candidate rows and columns: inside the ellipse grown by the outer radius and a margin
        // (the distance estimate is exact on the axes and first-order accurate elsewhere).
        let ao = a + outer + 2
        let bo = b + outer + 2
        // For an outline, the hole certainly farther than `outer` inside the curve.
        let ah = a - outer - 2
        let bh = b - outer - 2
        let y0 = max(clip.y, Int(clamping: cy - bo - 0.5, .down))
        let y1 = min(clip.maxY - 1, Int(clamping: cy + bo - 0.5, .up))
        guard y0 <= y1 else { return }
        let clipX0 = clip.x
        let clipX1 = clip.maxX - 1
        var bounds = ShapeBounds()
        for y in y0...y1 {
            let ry = Double(y) + 0.5 - cy
            let qo = 1 - (ry / bo) * (ry / bo)
            guard qo > 0 else { continue }
            let ho = ao * qo.squareRoot()
            let xa = max(clipX0, Int(clamping: cx - ho - 0.5, .down))
            let xb = min(clipX1, Int(clamping: cx + ho - 0.5, .up))
            guard xa <= xb else { continue }
            // The inside run: fully covered (filled: centres inside the curve) or skipped (the
            // outline's hole), shrunk by a pixel so rounding never wrongly includes a pixel.
            var inside = (xb + 1, xb)
            let (ai, bi) = filled ? (a, b) : (ah, bh)
            if ai > 0 && bi > 0 {
                let qi = 1 - (ry / bi) * (ry / bi)
                if qi > 0 {
                    let hi = ai * qi.squareRoot()
                    let ia = max(xa, Int(clamping: cx - hi - 0.5, .up) + 1)
                    let ib = min(xb, Int(clamping: cx + hi - 0.5, .down) - 1)
                    if ia <= ib { inside = (ia, ib) }
                }
            }
            let ry2b4 = ry * ry * ib4
            let ry2b2 = ry * ry * ib2
            shapeRow(y, xa, xb, inside: inside, insideFull: filled, bounds: &bounds) { px in
                let rx = px - cx
                let r2 = rx * rx * ia2 + ry2b2
                let d: Double
                if r2 < 1e-18 {
                    d = centreDistance
                } else {
                    let r = r2.squareRoot()
                    d = (r - 1) * r / (rx * rx * ia4 + ry2b4).squareRoot()
                }
                return outer - (filled ? d : abs(d))
            }
        }
        commit(bounds)
    }

    /// The pixels a shape part changed, gathered while rasterizing.
    struct ShapeBounds {
        var x0 = Int.max
        var x1 = Int.min
        var y0 = Int.max
        var y1 = Int.min
    }

    /// Records a shape part's changed pixels in the activity's bounds.
    func commit(_ b: ShapeBounds) {
        guard b.y0 <= b.y1 else { return }
        strokeBounds = strokeBounds.union(IntRect(x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1))
    }

    /// Raises the coverage of pixels xa...xb of row y (already clipped): the `inside` run to full
    /// (or leaves it alone when not `insideFull`), the others to `cover(centre x)` (a coverage
    /// in pixels, clamped to 0...1). Marks and recomposites each piece where it grew, tile by tile.
    @inline(__always)
    func shapeRow(
        _ y: Int, _ xa: Int, _ xb: Int, inside: (Int, Int), insideFull: Bool, bounds: inout ShapeBounds,
        cover: (Double) -> Double
    ) {
        let r = y & Tile.mask
        let rowTiles = (y >> Tile.shift) * coverage.across
        let hasInside = inside.0 <= inside.1
        for k in 0..<3 {
            // Left of the inside, the inside, right of it (or the whole run when there is none).
            let p0: Int
            let p1: Int
            let full: Bool
            switch k {
            case 0: (p0, p1, full) = hasInside ? (xa, inside.0 - 1, false) : (xa, xb, false)
            case 1: (p0, p1, full) = hasInside && insideFull ? (inside.0, inside.1, true) : (1, 0, false)
            default: (p0, p1, full) = hasInside ? (inside.1 + 1, xb, false) : (1, 0, false)
            }
            Tile.segments(from: p0, through: p1) { tx, x, through in
                let origin = tx << Tile.shift
                let tile = claim(rowTiles + tx)
                let row = tile + r * Tile.size
                var first = Int.max
                var last = Int.min
                if full {
                    if let run = Self.raiseToFull(row, x - origin, through - origin) {
                        first = run.first + origin
                        last = run.last + origin
                    }
                } else {
                    for px in x...through {
                        let c = cover(Double(px) + 0.5)
                        guard c > 0 else { continue }
                        let m: UInt8 = c >= 1 ? 255 : UInt8(c * 255 + 0.5)
                        guard m > row[px - origin] else { continue }
                        row[px - origin] = m
                        if first == Int.max { first = px }
                        last = px
                    }
                }
                guard first <= last else { return }
                CoverageLayer.mark(tile, row: r, from: first - origin, through: last - origin)
                compositeRow(y, first, last)
                bounds.x0 = min(bounds.x0, first)
                bounds.x1 = max(bounds.x1, last)
                bounds.y0 = min(bounds.y0, y)
                bounds.y1 = max(bounds.y1, y)
            }
        }
    }
}

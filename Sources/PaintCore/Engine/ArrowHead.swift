/// The head of an arrow: a filled triangle whose tip is the drag's end, pointing along the drag,
/// sized from the line width (as MS Paint, Snipping Tool and Flameshot draw theirs).
///
/// The shaft runs from the drag's start to `base`, the middle of the triangle's back edge, so
/// the tip is the triangle's own sharp corner rather than a round cap, and the shaft's round
/// end lies inside the head. Both go into the one stroke image, max-combined, so where they
/// overlap the arrow is no darker than elsewhere: it merges at the set opacity exactly once.
public struct ArrowHead: Sendable, Equatable {
    /// The point of the arrow: the drag's end.
    public let tip: Point
    /// The back corners of the head, left and right of the shaft.
    public let left: Point
    public let right: Point
    /// Where the shaft stops: the middle of the head's back edge.
    public let base: Point

    /// The head's length as a multiple of the width (KolourPaint and Flameshot: about 4 to 5).
    public static let lengthFactor = 4.5
    /// The least head length in pixels, so that a 1 or 2 px arrow still shows a head.
    public static let minimumLength = 10.0
    /// Half the back edge's width as a fraction of the head's length: a point of about 46°.
    public static let spread = 0.42

    /// The head of an arrow `width` wide from `from` to `to`; nil when the two are the same
    /// point (a click: the shaft is a dot, as a line's) or not finite. An arrow shorter than its
    /// head is all head, the head shrunk to the arrow's length.
    public init?(from: Point, to: Point, width: Double) {
        let dx = to.x - from.x
        let dy = to.y - from.y
        // Scaled so an arrow to a far-away point does not overflow.
        let scale = max(abs(dx), abs(dy))
        guard scale > 0, scale.isFinite, width.isFinite, width > 0 else { return nil }
        let length = scale * ((dx / scale) * (dx / scale) + (dy / scale) * (dy / scale)).squareRoot()
        let ux = dx / length
        let uy = dy / length
        let head = min(max(Self.lengthFactor * width, Self.minimumLength), length)
        let half = Self.spread * head
        tip = to
        base = Point(x: to.x - ux * head, y: to.y - uy * head)
        // Left and right of the direction of travel, in image coordinates (y down).
        left = Point(x: base.x + uy * half, y: base.y - ux * half)
        right = Point(x: base.x - uy * half, y: base.y + ux * half)
        // The corners' turning direction, so every normal points inward whichever way the
        // arrow points.
        let turn = (left.x - tip.x) * (right.y - tip.y) - (left.y - tip.y) * (right.x - tip.x)
        let sign = turn >= 0 ? 1.0 : -1.0
        // A fourth edge across the tip, square to the arrow, touches the triangle only at its
        // point: the distance ramp would otherwise smear past an acute corner (1.3 px beyond
        // the tip at this spread), blunting the point it is meant to sharpen.
        let across = Edge(
            Point(x: tip.x - uy, y: tip.y + ux), Point(x: tip.x + uy, y: tip.y - ux), sign: sign)
        edges = [
            Edge(tip, left, sign: sign), Edge(left, right, sign: sign), Edge(right, tip, sign: sign), across,
        ]
    }

    /// The triangle's edges (tip to left, left to right, right to tip) and the line across its
    /// point, made once per head.
    let edges: [Edge]

    /// One edge as its inward unit normal and offset: a point p lies `nx * p.x + ny * p.y - c`
    /// pixels inside it (negative outside).
    struct Edge: Sendable, Equatable {
        let nx: Double
        let ny: Double
        let c: Double

        init(_ a: Point, _ b: Point, sign: Double) {
            let ex = b.x - a.x
            let ey = b.y - a.y
            let length = (ex * ex + ey * ey).squareRoot()
            nx = length > 0 ? -ey / length * sign : 0
            ny = length > 0 ? ex / length * sign : 0
            c = nx * a.x + ny * a.y
        }
    }

    /// How far `point` lies inside the triangle: the least of its distances inside the four
    /// edges (negative outside). The rasterizer's coverage is this plus half a pixel, clamped,
    /// the same one-pixel ramp the capsules and the rectangle give at their edges.
    @inline(__always)
    public func depth(of point: Point) -> Double {
        let e0 = edges[0]
        let e1 = edges[1]
        let e2 = edges[2]
        let e3 = edges[3]
        return min(
            min(e0.nx * point.x + e0.ny * point.y - e0.c, e1.nx * point.x + e1.ny * point.y - e1.c),
            min(e2.nx * point.x + e2.ny * point.y - e2.c, e3.nx * point.x + e3.ny * point.y - e3.c))
    }
}

extension StrokeEngine {
    /// An arrow: the shaft (dashed when the kind says so) from the drag's start to the head's
    /// base, and the head filled, both into the stroke image so they merge once.
    func arrow(_ spec: ShapeSpec) {
        let w = style.width
        guard let head = ArrowHead(from: spec.from, to: spec.to, width: w) else {
            _ = stamp(Capsule(from: spec.from, to: spec.to, width: w), fullDiscAtStart: false)
            return
        }
        if spec.kind == .dashedArrow {
            for dash in Self.dashes(from: spec.from, to: head.base, width: w, within: clip) {
                _ = stamp(Capsule(from: dash.0, to: dash.1, width: w), fullDiscAtStart: false)
            }
        } else {
            _ = stamp(Capsule(from: spec.from, to: head.base, width: w), fullDiscAtStart: false)
        }
        fillHead(head)
    }

    /// Rasterizes the head row by row: each row's run is cut from the three edges' half-planes
    /// (the pixels that can be touched, and those certainly fully inside, filled without
    /// measuring); the others get `depth + 0.5` as coverage.
    private func fillHead(_ head: ArrowHead) {
        let edges = head.edges
        let ys = [head.tip.y, head.left.y, head.right.y]
        guard let minY = ys.min(), let maxY = ys.max(), minY.isFinite, maxY.isFinite else { return }
        let y0 = max(clip.y, Int(clamping: minY - 1, .down))
        let y1 = min(clip.maxY - 1, Int(clamping: maxY, .down))
        guard y0 <= y1 else { return }
        var bounds = ShapeBounds()
        for y in y0...y1 {
            let cy = Double(y) + 0.5
            /// The x interval of points on this row at least `t` inside every edge.
            func interval(_ t: Double) -> (Double, Double) {
                var lo = -Double.infinity
                var hi = Double.infinity
                for e in edges {
                    let rest = e.ny * cy - e.c
                    if e.nx > 0 {
                        lo = max(lo, (t - rest) / e.nx)
                    } else if e.nx < 0 {
                        hi = min(hi, (t - rest) / e.nx)
                    } else if rest < t {
                        return (1, 0)
                    }
                }
                return (lo, hi)
            }
            let (lo, hi) = interval(-0.5)
            guard lo <= hi else { continue }
            let xa = max(clip.x, Int(clamping: lo - 0.5, .down))
            let xb = min(clip.maxX - 1, Int(clamping: hi - 0.5, .up))
            guard xa <= xb else { continue }
            // Fully covered: centres at least half a pixel inside, shrunk by a pixel so rounding
            // never wrongly includes one.
            let (flo, fhi) = interval(0.5)
            var inside = (xb + 1, xb)
            if flo <= fhi {
                let ia = max(xa, Int(clamping: flo - 0.5, .up) + 1)
                let ib = min(xb, Int(clamping: fhi - 0.5, .down) - 1)
                if ia <= ib { inside = (ia, ib) }
            }
            shapeRow(y, xa, xb, inside: inside, insideFull: true, bounds: &bounds) { px in
                head.depth(of: Point(x: px, y: cy)) + 0.5
            }
        }
        commit(bounds)
    }
}

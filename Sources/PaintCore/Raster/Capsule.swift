/// A round-capped segment: every point within `radius` of the segment from `a` to `b`.
///
/// The rasterizer asks it two things per row: the x-intervals that lie within some distance of
/// the segment (so the inside of a row is filled without per-pixel math), and the exact distance
/// for the few anti-aliased pixels at the intervals' ends.
public struct Capsule: Sendable {
    public let a: Point
    public let b: Point
    public let radius: Double
    let dx: Double
    let dy: Double
    let length: Double
    /// 1 / |b - a|^2, or 0 for a disc (a == b), which makes the projection parameter 0.
    let inverseLengthSquared: Double
    /// 1 / dy and 1 / dx (0 where that difference is 0): the band's edges per row are
    /// multiplications, not divisions.
    let inverseDy: Double
    let inverseDx: Double

    /// A capsule of diameter `width` from `a` to `b`.
    public init(from a: Point, to b: Point, width: Double) {
        self.a = a
        self.b = b
        radius = width / 2
        dx = b.x - a.x
        dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        length = lengthSquared.squareRoot()
        inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
        inverseDy = dy != 0 ? 1 / dy : 0
        inverseDx = dx != 0 ? 1 / dx : 0
    }

    /// Whether every value `StrokeEngine.stamp` rounds on this capsule's rows lies well within
    /// ±1e15 (so `Int(clamping:)` needs none of its guards): the ends and the radius within
    /// 2^24 of the origin, and neither difference tiny unless zero, nor dy more than 2^20
    /// times dx. Then on a row of the capsule |y - a.y| < 2^26, the end discs' cuts lie within
    /// |a.x| + r, the band's cut along the segment within |a.x| + (|y - a.y| |dy| + dx^2 +
    /// dy^2) / |dx| < 2^48, the band's cut across it (dx == 0) within |a.x| + r, and a span
    /// takes the band only between the cuts along it (a NaN or infinite edge from a tiny dy
    /// fails `bandLo <= bandHi`). So the roundings agree bit for bit with the guarded ones.
    var roundsInRange: Bool {
        let far = 16_777_216.0  // 2^24
        let tiny = 1.0 / 1_048_576  // 2^-20
        guard abs(a.x) <= far, abs(a.y) <= far, abs(b.x) <= far, abs(b.y) <= far, abs(radius) <= far else {
            return false
        }
        guard dy == 0 || abs(dy) >= tiny else { return false }
        return dx == 0 || (abs(dx) >= tiny && abs(dy) <= abs(dx) * 1_048_576)
    }

    /// The bounding box of the points within `radius + margin`, in image coordinates.
    public func bounds(margin: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        Self.bounds(from: a, to: b, radius: radius, margin: margin)
    }

    /// `bounds(margin:)` of the capsule of `radius` from `a` to `b`, without making it (its
    /// length and reciprocals cost a square root and three divisions).
    @inline(__always)
    static func bounds(from a: Point, to b: Point, radius: Double, margin: Double) -> (
        minX: Double, minY: Double, maxX: Double, maxY: Double
    ) {
        let r = radius + margin
        return (min(a.x, b.x) - r, min(a.y, b.y) - r, max(a.x, b.x) + r, max(a.y, b.y) + r)
    }

    /// Distance from (px, py) to the segment.
    @inline(__always)
    public func distance(_ px: Double, _ py: Double) -> Double {
        let ax = px - a.x
        let ay = py - a.y
        let t = min(max((ax * dx + ay * dy) * inverseLengthSquared, 0), 1)
        let ex = ax - t * dx
        let ey = ay - t * dy
        return (ex * ex + ey * ey).squareRoot()
    }

    /// What every span of the horizontal line at `y` shares, whatever its distance: the row's
    /// offsets from the ends and the band's cut along the segment. `StrokeEngine.stamp` works
    /// a row's outer span, its inside span and its front limit out of one of these.
    struct Row {
        /// y - a.y and its square.
        let ay: Double
        let ay2: Double
        /// (y - b.y)^2.
        let by2: Double
        /// (y - a.y) * dx and (y - a.y) * dy.
        let ayDx: Double
        let ayDy: Double
        /// Where the line through `a` across the segment cuts the row (dx != 0), and the
        /// band's cut along the segment: the x between those lines.
        let startEdge: Double
        let alongLo: Double
        let alongHi: Double
    }

    /// The parts of the spans of the row at `y` that do not depend on their distance.
    @inline(__always)
    func row(atY y: Double) -> Row {
        let ay = y - a.y
        let by = y - b.y
        let ayDy = ay * dy
        var startEdge = 0.0
        var alongLo = 0.0
        var alongHi = 0.0
        if dx != 0 {
            startEdge = a.x - ayDy * inverseDx
            let v = a.x + (length * length - ayDy) * inverseDx
            alongLo = min(startEdge, v)
            alongHi = max(startEdge, v)
        }
        return Row(
            ay: ay, ay2: ay * ay, by2: by * by, ayDx: ay * dx, ayDy: ayDy, startEdge: startEdge, alongLo: alongLo,
            alongHi: alongHi)
    }

    /// The x-interval of `row` lying within `r` of the segment (`r2` is r * r, `rl` is
    /// r * length), and the half-width of the start disc's cut (its square root, -1 when the
    /// row misses that disc).
    ///
    /// The capsule is convex, so its cut by a line is one interval: the union of the cuts of the
    /// two end discs and of the swept band between them. Returns lo > hi when the line misses.
    @inline(__always)
    func span(_ row: Row, r2: Double, rl: Double) -> (lo: Double, hi: Double, startHalfWidth: Double) {
        var lo = Double.infinity
        var hi = -Double.infinity
        var startHalfWidth = -1.0
        let da = r2 - row.ay2
        if da >= 0 {
            let h = da.squareRoot()
            startHalfWidth = h
            lo = a.x - h
            hi = a.x + h
        }
        let db = r2 - row.by2
        if db >= 0 {
            let h = db.squareRoot()
            lo = min(lo, b.x - h)
            hi = max(hi, b.x + h)
        }
        guard length > 0 else { return (lo, hi, startHalfWidth) }
        // The band: |cross(p - a, d)| <= r * |d| and 0 <= dot(p - a, d) <= |d|^2, both linear in x.
        var bandLo = -Double.infinity
        var bandHi = Double.infinity
        if dy != 0 {
            let u = a.x + (row.ayDx - rl) * inverseDy
            let v = a.x + (row.ayDx + rl) * inverseDy
            bandLo = min(u, v)
            bandHi = max(u, v)
        } else if abs(row.ayDx) > rl {
            return (lo, hi, startHalfWidth)
        }
        if dx != 0 {
            bandLo = max(bandLo, row.alongLo)
            bandHi = min(bandHi, row.alongHi)
        } else if row.ayDy < 0 || row.ayDy > length * length {
            return (lo, hi, startHalfWidth)
        }
        if bandLo <= bandHi {
            lo = min(lo, bandLo)
            hi = max(hi, bandHi)
        }
        return (lo, hi, startHalfWidth)
    }
}

extension StrokeEngine {
    /// Adds a capsule's coverage to the stroke image (max-combined) and recomposites the pixels
    /// whose coverage grew (or adds them to the event's `collected` runs). `level` is the coverage of its inside (255: full; less for a pen
    /// pressed lightly with pressure on opacity).
    ///
    /// With `fullDiscAtStart`, the disc around the capsule's start was already stamped (it ended
    /// the previous segment), so its fully covered inside is skipped: a wide brush moving a few
    /// pixels then only visits the thin crescent it adds, not its whole width on every row.
    ///
    /// With `keeping` (a provisional piece), each run's coverage is kept in `provisional` before
    /// it is raised, so the next sample can put it back.
    func stamp(_ capsule: Capsule, fullDiscAtStart: Bool, level: UInt8 = 255, keeping: Bool = false) -> IntRect {
        keeping
            ? stamp(capsule, fullDiscAtStart: fullDiscAtStart, level: level, runs: KeepRuns.self)
            : stamp(capsule, fullDiscAtStart: fullDiscAtStart, level: level, runs: LeaveRuns.self)
    }

    /// `stamp` with the keeping of runs fixed at compile time (`K`), the span rounding chosen
    /// by the capsule.
    @inline(__always)
    func stamp<K: RunKeeping>(_ capsule: Capsule, fullDiscAtStart: Bool, level: UInt8, runs: K.Type) -> IntRect {
        guard capsule.roundsInRange else {
            return stamp(
                capsule, fullDiscAtStart: fullDiscAtStart, level: level, rounding: ClampedRounding.self,
                inside: SpanInside.self, runs: K.self)
        }
        return Self.measuresInside(capsule, fullDiscAtStart: fullDiscAtStart)
            ? stamp(
                capsule, fullDiscAtStart: fullDiscAtStart, level: level, rounding: InRangeRounding.self,
                inside: MeasuredInside.self, runs: K.self)
            : stamp(
                capsule, fullDiscAtStart: fullDiscAtStart, level: level, rounding: InRangeRounding.self,
                inside: SpanInside.self, runs: K.self)
    }

    /// Whether `stamp` measures every pixel it visits of a capsule that `roundsInRange` by its
    /// distance, the inside too, rather than working out each row's inside span and filling it.
    ///
    /// A short continuing piece of a thin brush visits only the few pixels in front of its
    /// start disc: measuring its two or three inside pixels of a row costs less than the inside
    /// span (a second span and two roundings). A piece longer than the brush is wide visits
    /// whole rows of inside, which the span fills for less. The coverage is the same byte for
    /// byte: a pixel of the inside span has its centre within `radius - 0.5` of the segment (up
    /// to the rounding error of the span's arithmetic, far below 10^-6 pixel for coordinates
    /// within 2^24), so its distance gives coverage c >= 1 - 10^-6, which `raiseRim` turns into
    /// `level` exactly as the fill does (c * level + 0.5 >= level when c >= 1 - 0.5 / 255).
    /// `StampInsideTests` hold the two ways to each other on dense sets of capsules.
    @inline(__always)
    static func measuresInside(_ capsule: Capsule, fullDiscAtStart: Bool) -> Bool {
        fullDiscAtStart && capsule.radius <= 4 && capsule.length <= 2 * capsule.radius
    }

    /// `stamp`, rounding each row's span ends with `R`, finding the inside as `I` says and
    /// keeping runs as `K` says: six specializations of one body, the ones for ordinary capsules
    /// without the range guards of `Int(clamping:)` (seven roundings a row), the ones for final
    /// pieces without a word of the keeping (a run-time flag there cost straight strokes 2 % in
    /// register pressure), the ones that measure every pixel (`MeasuredInside`, see
    /// `measuresInside`) without the inside span's code.
    func stamp<R: SpanRounding, I: InsideRule, K: RunKeeping>(
        _ capsule: Capsule, fullDiscAtStart: Bool, level: UInt8, rounding: R.Type, inside: I.Type, runs: K.Type
    ) -> IntRect {
        let box = capsule.bounds(margin: 0.5)
        let y0 = max(clip.y, Int(clamping: box.minY - 0.5, .up))
        let y1 = min(clip.maxY - 1, Int(clamping: box.maxY - 0.5, .down))
        guard y0 <= y1, box.maxX > Double(clip.x), box.minX < Double(clip.maxX) else { return .empty }
        let clipX0 = clip.x
        let clipX1 = clip.maxX - 1
        let outerRadius = capsule.radius + 0.5
        let innerRadius = capsule.radius - 0.5
        // Each row's spans take these squares and products as `Capsule.span` would.
        let outerR2 = outerRadius * outerRadius
        let outerRL = outerRadius * capsule.length
        let innerR2 = innerRadius * innerRadius
        let innerRL = innerRadius * capsule.length
        let across = coverage.across
        // A measured inside is only ever chosen after a full disc (`measuresInside`): known at
        // compile time there, so its body has no test of it.
        let fullDisc = !I.usesSpan || fullDiscAtStart
        // Whether each run is composited now and whether this event collects its runs
        // (`stampPath`): asked once, not for every run.
        let composites = !defersComposite
        let collecting = collected.rows > 0
        let runs = collected.sink
        var dirtyX0 = Int.max
        var dirtyX1 = Int.min
        var dirtyY0 = Int.max
        var dirtyY1 = Int.min
        for y in y0...y1 {
            let cy = Double(y) + 0.5
            // What the row's outer and inside spans, its front limit and the skipped inside
            // share is worked out once.
            let row = capsule.row(atY: cy)
            let outer = capsule.span(row, r2: outerR2, rl: outerRL)
            guard outer.lo <= outer.hi else { continue }
            // Pixel x is touched when its centre x + 0.5 lies strictly inside (lo, hi).
            let xa = max(clipX0, R.down(outer.lo - 0.5) + 1)
            let xb = min(clipX1, R.up(outer.hi - 0.5) - 1)
            guard xa <= xb else { continue }
            // Behind the start point (seen along the segment) the capsule is the start disc
            // itself, which the previous segment stamped: nothing there can grow. Only pixels
            // frontFrom...frontThrough, on the far side of the line through the start point
            // across the segment, are visited.
            var frontFrom = xa
            var frontThrough = xb
            if fullDisc {
                // Pixel x is behind when (x + 0.5 - a.x) * dx + (cy - a.y) * dy <= 0: left of
                // (or right of, dx < 0) that line's cut of the row.
                let limit = row.startEdge - 0.5
                if capsule.dx > 0 {
                    frontFrom = max(xa, R.down(limit) + 1)
                } else if capsule.dx < 0 {
                    frontThrough = min(xb, R.up(limit) - 1)
                } else if row.ayDy <= 0 {
                    continue
                }
                guard frontFrom <= frontThrough else { continue }
            }
            var ia = xb + 1
            var ib = xb
            // The start disc's cut at the inside's distance: the inside span's, and the
            // skipped inside's below.
            var startHalfWidth = -1.0
            if I.usesSpan && innerRadius > 0 {
                let inner = capsule.span(row, r2: innerR2, rl: innerRL)
                startHalfWidth = inner.startHalfWidth
                if inner.lo <= inner.hi {
                    ia = max(xa, R.up(inner.lo - 0.5))
                    ib = min(xb, R.down(inner.hi - 0.5))
                    if ia > ib {
                        ia = xb + 1
                        ib = xb
                    }
                }
            } else if fullDisc && innerRadius > 1 {
                let h2 = innerR2 - row.ay2
                if h2 > 0 { startHalfWidth = h2.squareRoot() }
            }
            // Skip the start disc's inside, shrunk by a pixel on each side so rounding in the
            // previous segment's span can never leave a pixel unvisited.
            var skipFrom = xb + 1
            var skipThrough = xb
            if fullDisc && innerRadius > 1 && startHalfWidth > 0 {
                let h = startHalfWidth
                skipFrom = max(xa, R.up(capsule.a.x - h - 0.5) + 1)
                skipThrough = min(xb, R.down(capsule.a.x + h - 0.5) - 1)
                if skipFrom > skipThrough {
                    skipFrom = xb + 1
                    skipThrough = xb
                }
            }
            let r = y & Tile.mask
            let rowTiles = (y >> Tile.shift) * across
            var rowFirst = Int.max
            var rowLast = Int.min
            // Each piece left and right of the skipped inside is raised on its own, tile by tile.
            var piece = (from: xa, through: skipFrom - 1)
            for _ in 0..<2 {
                piece = (max(piece.from, frontFrom), min(piece.through, frontThrough))
                var x = piece.from
                while x <= piece.through {
                    let tx = x >> Tile.shift
                    let origin = tx << Tile.shift
                    let through = min(piece.through, origin + Tile.mask)
                    let t = rowTiles + tx
                    let tile = claim(t)
                    if K.keeps {
                        provisional.keep(y, x, through - x + 1, from: tile + r * Tile.size + (x - origin))
                    }
                    let run = raise(
                        x, through, capsule: capsule, outerRadius: outerRadius, cy: cy,
                        coverage: tile + r * Tile.size, origin: origin, insideFrom: ia, insideThrough: ib, level: level,
                        inside: I.self)
                    if run.first <= run.last {
                        CoverageLayer.mark(tile, row: r, from: run.first - origin, through: run.last - origin)
                        // Composited now, unless the event collects its runs to composite
                        // once (`stampPath`). Only a full inside takes the constant-alpha path.
                        if composites && !(collecting && runs.add(y, run.first, run.last)) {
                            compositeOwnRun(
                                y, run.first, run.last, tile: t, coverage: tile + r * Tile.size - origin,
                                fullFrom: level == 255 ? ia : Int.max, fullThrough: ib)
                        }
                        rowFirst = min(rowFirst, run.first)
                        rowLast = max(rowLast, run.last)
                    }
                    x = through + 1
                }
                piece = (skipThrough + 1, xb)
            }
            guard rowFirst <= rowLast else { continue }
            dirtyX0 = min(dirtyX0, rowFirst)
            dirtyX1 = max(dirtyX1, rowLast)
            if dirtyY0 == Int.max { dirtyY0 = y }
            dirtyY1 = y
        }
        guard dirtyY0 <= dirtyY1 else { return .empty }
        let dirty = IntRect(x0: dirtyX0, y0: dirtyY0, x1: dirtyX1, y1: dirtyY1)
        strokeBounds = strokeBounds.union(dirty)
        if !composites { staleView = staleView.union(dirty) }
        return dirty
    }

    /// Raises the coverage of pixels pa...pb of a row (all in one tile, whose row of coverage
    /// starts at canvas column `origin`): rim pixels by their distance, the inside
    /// (insideFrom...insideThrough) to full. Returns the first and last pixel that grew (first >
    /// last when none did). With `MeasuredInside` there is no inside: every pixel is measured
    /// in one loop. A method, not a closure: captured counters would be boxed.
    @inline(__always)
    func raise<I: InsideRule>(
        _ pa: Int, _ pb: Int, capsule: Capsule, outerRadius: Double, cy: Double,
        coverage row: UnsafeMutablePointer<UInt8>,
        origin: Int, insideFrom ia: Int, insideThrough ib: Int, level: UInt8, inside: I.Type
    ) -> (first: Int, last: Int) {
        var first = Int.max
        var last = Int.min
        var x = pa
        let leftRimEnd = I.usesSpan ? min(pb, ia - 1) : pb
        while x <= leftRimEnd {
            if raiseRim(capsule, outerRadius, x, cy, row, origin, level) {
                if first == Int.max { first = x }
                last = x
            }
            x += 1
        }
        guard I.usesSpan else { return (first, last) }
        let insideFrom = max(pa, ia)
        let insideThrough = min(pb, ib)
        if insideFrom <= insideThrough,
            let run = level == 255
                ? Self.raiseToFull(row, insideFrom - origin, insideThrough - origin)
                : Self.raiseToLevel(row, insideFrom - origin, insideThrough - origin, level)
        {
            first = min(first, run.first + origin)
            last = run.last + origin
        }
        x = max(pa, ib + 1, leftRimEnd + 1)
        while x <= pb {
            if raiseRim(capsule, outerRadius, x, cy, row, origin, level) {
                if first == Int.max { first = x }
                last = x
            }
            x += 1
        }
        return (first, last)
    }

    /// Raises one anti-aliased rim pixel's coverage (falling from `level` to 0 across one
    /// pixel); returns whether it grew.
    @inline(__always)
    func raiseRim(
        _ capsule: Capsule, _ outerRadius: Double, _ x: Int, _ cy: Double, _ row: UnsafeMutablePointer<UInt8>,
        _ origin: Int, _ level: UInt8
    ) -> Bool {
        let c = outerRadius - capsule.distance(Double(x) + 0.5, cy)
        guard c > 0 else { return false }
        let m: UInt8 = c >= 1 ? level : UInt8(c * Double(level) + 0.5)
        guard m > row[x - origin] else { return false }
        row[x - origin] = m
        return true
    }

    /// Raises coverage i0...i1 of `row` to at least `level`; returns the first and last index
    /// that grew.
    @inline(__always)
    static func raiseToLevel(_ row: UnsafeMutablePointer<UInt8>, _ i0: Int, _ i1: Int, _ level: UInt8) -> (
        first: Int, last: Int
    )? {
        var first = Int.max
        var last = Int.min
        for i in i0...i1 where row[i] < level {
            row[i] = level
            if first == Int.max { first = i }
            last = i
        }
        return first <= last ? (first, last) : nil
    }

    /// Sets coverage i0...i1 of `row` to full; returns the first and last index that were not
    /// full yet.
    ///
    /// Scans eight bytes at a time: inside a stroke most of a row is already full. (`row` is
    /// 8-byte aligned: tile rows are 64 bytes apart from a malloc'd start.)
    @inline(__always)
    static func raiseToFull(_ row: UnsafeMutablePointer<UInt8>, _ i0: Int, _ i1: Int) -> (first: Int, last: Int)? {
        let base = UnsafeMutableRawPointer(row)
        var first = i0
        while first <= i1 {
            if first & 7 == 0 && first + 7 <= i1 {
                if base.load(fromByteOffset: first, as: UInt64.self) == ~0 {
                    first += 8
                    continue
                }
            }
            if row[first] != 255 { break }
            first += 1
        }
        guard first <= i1 else { return nil }
        var last = i1
        while last > first {
            if (last + 1) & 7 == 0 && last - 7 >= first {
                if base.load(fromByteOffset: last - 7, as: UInt64.self) == ~0 {
                    last -= 8
                    continue
                }
            }
            if row[last] != 255 { break }
            last -= 1
        }
        fill(row + first, count: last - first + 1)
        return (first, last)
    }

    /// Sets `count` bytes at `p` to 255. The inside of a thin brush's row is a few pixels: for up
    /// to eight, two overlapping 4-byte stores (or up to three byte stores) instead of a call
    /// to memset.
    @inline(__always)
    static func fill(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        guard count <= 8 else {
            p.initialize(repeating: 255, count: count)
            return
        }
        if count >= 4 {
            let raw = UnsafeMutableRawPointer(p)
            raw.storeBytes(of: UInt32.max, as: UInt32.self)
            raw.storeBytes(of: UInt32.max, toByteOffset: count - 4, as: UInt32.self)
        } else {
            // count 1...3: bytes 0, count / 2 and count - 1 are all of them.
            p[0] = 255
            p[count >> 1] = 255
            p[count - 1] = 255
        }
    }
}

/// Whether `stamp` keeps each run in `provisional` before raising it: a compile-time choice,
/// so the body for final pieces is free of it.
protocol RunKeeping {
    static var keeps: Bool { get }
}

/// A provisional piece: its runs are kept, for the next sample to put back.
enum KeepRuns: RunKeeping {
    @inline(__always) static var keeps: Bool { true }
}

/// A final piece: nothing is kept.
enum LeaveRuns: RunKeeping {
    @inline(__always) static var keeps: Bool { false }
}

/// How `stamp` finds a row's inside (the pixels raised to `level` without measuring): a
/// compile-time choice, so each body carries only its own way.
protocol InsideRule {
    static var usesSpan: Bool { get }
}

/// The row's inside span (a second span of the capsule, `radius - 0.5`) is filled.
enum SpanInside: InsideRule {
    @inline(__always) static var usesSpan: Bool { true }
}

/// Every pixel visited is measured by its distance, the inside too (`measuresInside`).
enum MeasuredInside: InsideRule {
    @inline(__always) static var usesSpan: Bool { false }
}

/// How `stamp` rounds a row's span ends to pixel columns.
protocol SpanRounding {
    static func down(_ value: Double) -> Int
    static func up(_ value: Double) -> Int
}

/// `Int(clamping:)`: saturating, for any value (a capsule far off the canvas, a degenerate one).
enum ClampedRounding: SpanRounding {
    @inline(__always) static func down(_ value: Double) -> Int { Int(clamping: value, .down) }
    @inline(__always) static func up(_ value: Double) -> Int { Int(clamping: value, .up) }
}

/// The same results for values strictly within ±1e15 and not NaN (where `Int(clamping:)`'s
/// range guards never fire): what every rounding of a capsule with `roundsInRange` is.
enum InRangeRounding: SpanRounding {
    @inline(__always) static func down(_ value: Double) -> Int {
        let t = Int(value)
        return Double(t) > value ? t - 1 : t
    }

    @inline(__always) static func up(_ value: Double) -> Int {
        let t = Int(value)
        return Double(t) < value ? t + 1 : t
    }
}

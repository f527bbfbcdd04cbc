@testable import PaintCore

/// `StrokeEngine.stamp` as it was before session 18 (each row's outer and inside spans solved by
/// two `Capsule.span` calls, the skipped inside's root taken again): the oracle any faster row
/// loop is held to, byte for byte, by `StampReferenceTests`. Kept verbatim, only renamed.
extension StrokeEngine {
    /// The old `stamp<R, I, K>`.
    func referenceStamp<R: SpanRounding, I: InsideRule, K: RunKeeping>(
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
            let outer = capsule.referenceSpan(atY: cy, within: outerRadius)
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
                let along = (cy - capsule.a.y) * capsule.dy
                // Pixel x is behind when (x + 0.5 - a.x) * dx + along <= 0.
                let limit = capsule.a.x - along * capsule.inverseDx - 0.5
                if capsule.dx > 0 {
                    frontFrom = max(xa, R.down(limit) + 1)
                } else if capsule.dx < 0 {
                    frontThrough = min(xb, R.up(limit) - 1)
                } else if along <= 0 {
                    continue
                }
                guard frontFrom <= frontThrough else { continue }
            }
            var ia = xb + 1
            var ib = xb
            if I.usesSpan && innerRadius > 0 {
                let inner = capsule.referenceSpan(atY: cy, within: innerRadius)
                if inner.lo <= inner.hi {
                    ia = max(xa, R.up(inner.lo - 0.5))
                    ib = min(xb, R.down(inner.hi - 0.5))
                    if ia > ib {
                        ia = xb + 1
                        ib = xb
                    }
                }
            }
            // Skip the start disc's inside, shrunk by a pixel on each side so rounding in the
            // previous segment's span can never leave a pixel unvisited.
            var skipFrom = xb + 1
            var skipThrough = xb
            if fullDisc && innerRadius > 1 {
                let dy = cy - capsule.a.y
                let h2 = innerRadius * innerRadius - dy * dy
                if h2 > 0 {
                    let h = h2.squareRoot()
                    skipFrom = max(xa, R.up(capsule.a.x - h - 0.5) + 1)
                    skipThrough = min(xb, R.down(capsule.a.x + h - 0.5) - 1)
                    if skipFrom > skipThrough {
                        skipFrom = xb + 1
                        skipThrough = xb
                    }
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
                    let run = referenceRaise(
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
    func referenceRaise<I: InsideRule>(
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
}

extension Capsule {
    /// The old `Capsule.span(atY:within:)`: the x-interval of the horizontal line at `y` lying
    /// within `r` of the segment.
    ///
    /// The capsule is convex, so its cut by a line is one interval: the union of the cuts of the
    /// two end discs and of the swept band between them. Returns lo > hi when the line misses.
    @inline(__always)
    func referenceSpan(atY y: Double, within r: Double) -> (lo: Double, hi: Double) {
        var lo = Double.infinity
        var hi = -Double.infinity
        let r2 = r * r
        let ay = y - a.y
        let da = r2 - ay * ay
        if da >= 0 {
            let h = da.squareRoot()
            lo = a.x - h
            hi = a.x + h
        }
        let by = y - b.y
        let db = r2 - by * by
        if db >= 0 {
            let h = db.squareRoot()
            lo = min(lo, b.x - h)
            hi = max(hi, b.x + h)
        }
        guard length > 0 else { return (lo, hi) }
        // The band: |cross(p - a, d)| <= r * |d| and 0 <= dot(p - a, d) <= |d|^2, both linear in x.
        var bandLo = -Double.infinity
        var bandHi = Double.infinity
        let rl = r * length
        if dy != 0 {
            let u = a.x + (ay * dx - rl) * inverseDy
            let v = a.x + (ay * dx + rl) * inverseDy
            bandLo = min(u, v)
            bandHi = max(u, v)
        } else if abs(ay * dx) > rl {
            return (lo, hi)
        }
        if dx != 0 {
            let u = a.x - ay * dy * inverseDx
            let v = a.x + (length * length - ay * dy) * inverseDx
            bandLo = max(bandLo, min(u, v))
            bandHi = min(bandHi, max(u, v))
        } else {
            let along = ay * dy
            if along < 0 || along > length * length { return (lo, hi) }
        }
        if bandLo <= bandHi {
            lo = min(lo, bandLo)
            hi = max(hi, bandHi)
        }
        return (lo, hi)
    }
}

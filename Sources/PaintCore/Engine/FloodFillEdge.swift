extension StrokeEngine {
    /// The coverage a fill gives a pixel just outside its area, so that the fill's edge blends
    /// into the anti-aliased outline around it instead of leaving a pale ring (the pixels a line
    /// covered only in part are a mix of the line and the area's color, and are too far from that
    /// color to match it).
    ///
    /// The pixel `p` is read as the area's color `t` mixed with the outline's color `o` (the
    /// color beyond the edge): a = (p − t)·(o − t) / |o − t|², its projection onto the line from
    /// `t` to `o`, within 0...1. Painted under the outline, the fill would make it
    /// d = a·o + (1 − a)·f. A fill merges its color `f` over a pixel by a coverage c
    /// (c·f + (1 − c)·p), so c is the one that brings the pixel closest to d: least squares over
    /// the four premultiplied channels, c = (d − p)·(f − p) / |f − p|², within 0...1, as a byte
    /// (rounded). A pixel of the outline's own color (a = 1) keeps its color; one of the fill's
    /// color, or with no outline beyond it (`o` = `t`), gets nothing.
    public static func edgeCoverage(pixel p: UInt32, target t: UInt32, outline o: UInt32, fill f: UInt32) -> UInt8 {
        @inline(__always) func channel(_ v: UInt32, _ k: Int) -> Double { Double(v >> UInt32(8 * k) & 0xFF) }
        guard let a = outlineShare(pixel: p, target: t, outline: o) else { return 0 }
        // c: the fill's strength that brings the pixel closest to a·o + (1 − a)·f.
        var toward = 0.0
        var reach = 0.0
        for k in 0..<4 {
            let wanted = a * channel(o, k) + (1 - a) * channel(f, k)
            let step = channel(f, k) - channel(p, k)
            toward += (wanted - channel(p, k)) * step
            reach += step * step
        }
        guard reach > 0 else { return 0 }
        let c = min(max(toward / reach, 0), 1)
        return UInt8(c * 255 + 0.5)
    }

    /// Gives the pixels just outside a finished fill search their `edgeCoverage` (version 2
    /// fills, `DrawingVersion.session7`): those not matching the target that touch a filled
    /// pixel on a side. The outline's color for each is the pixel of its 3 x 3 neighbourhood,
    /// filled ones left out, farthest from the target. `state` holds the search's bytes (0 not fillable, 2 filled) for
    /// the rows `ready` says were prepared; `filled` bounds the filled pixels; `read` gives a
    /// row's pixels as the search saw them. Returns the edge pixels given coverage, or `.empty`.
    func blendFillEdge(
        in area: IntRect, state: UnsafeMutablePointer<UInt8>, ready: UnsafeMutableBufferPointer<Bool>,
        filled: IntRect, target: UInt32,
        read: (_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<UInt32>) -> Void
    ) -> IntRect {
        let fill = style.sourcePixel
        // The candidates, and the columns their neighbourhoods reach.
        let xs = max(area.x, filled.x - 1)
        let xe = min(area.maxX - 1, filled.maxX)
        let ys = max(area.y, filled.y - 1)
        let ye = min(area.maxY - 1, filled.maxY)
        let rx = max(area.x, xs - 1)
        let count = min(area.maxX - 1, xe + 1) - rx + 1
        guard xs <= xe, ys <= ye, count > 0 else { return .empty }
        // Rows ys - 1 ... ye + 1 in a ring of three.
        let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: 3 * count)
        defer { rows.deallocate() }
        @inline(__always) func pixels(_ y: Int) -> UnsafeMutablePointer<UInt32> { rows + ((y % 3 + 3) % 3) * count }
        @inline(__always) func stateAt(_ x: Int, _ y: Int) -> UInt8 {
            guard y >= area.y, y < area.maxY, x >= area.x, x < area.maxX, ready[y - area.y] else { return 0 }
            return state[(y - area.y) * area.width + x - area.x]
        }
        for y in max(area.y, ys - 1)...ys { read(y, rx, count, pixels(y)) }
        var bounds = IntRect.empty
        for y in ys...ye {
            if y + 1 < area.maxY { read(y + 1, rx, count, pixels(y + 1)) }
            for x in xs...xe where stateAt(x, y) == 0 {
                guard
                    stateAt(x - 1, y) == 2 || stateAt(x + 1, y) == 2 || stateAt(x, y - 1) == 2 || stateAt(x, y + 1) == 2
                else { continue }
                let p = pixels(y)[x - rx]
                var outline = p
                var farthest = Self.distance2(p, target)
                for ny in y - 1...y + 1 where ny >= area.y && ny < area.maxY {
                    // Filled neighbours are the area's color, not the outline (and where the
                    // view is composited afresh they already show the fill).
                    for nx in x - 1...x + 1 where nx >= rx && nx < rx + count && stateAt(nx, ny) != 2 {
                        let q = pixels(ny)[nx - rx]
                        let d = Self.distance2(q, target)
                        if d > farthest {
                            farthest = d
                            outline = q
                        }
                    }
                }
                let m = Self.edgeCoverage(pixel: p, target: target, outline: outline, fill: fill)
                guard m > 0 else { continue }
                let tile = claim((y >> Tile.shift) * coverage.across + (x >> Tile.shift))
                let r = y & Tile.mask
                let i = r * Tile.size + (x & Tile.mask)
                tile[i] = max(tile[i], m)
                CoverageLayer.mark(tile, row: r, from: x & Tile.mask, through: x & Tile.mask)
                bounds = bounds.union(IntRect(x: x, y: y, width: 1, height: 1))
            }
        }
        return bounds
    }

    /// The squared distance between two pixels over their four channels.
    @inline(__always)
    static func distance2(_ a: UInt32, _ b: UInt32) -> Int {
        var sum = 0
        for k in 0..<4 {
            let d = Int(a >> UInt32(8 * k) & 0xFF) - Int(b >> UInt32(8 * k) & 0xFF)
            sum += d * d
        }
        return sum
    }

    /// How much of the outline color `o` the pixel `p` holds over the searched color `t`: the
    /// least-squares a in p ≈ t + a·(o − t) over the four premultiplied channels, within 0...1;
    /// nil when the outline is the searched color. Both fill edge rules (`edgeCoverage`,
    /// drawing version 2, and `filledEdgePixel`) start from it.
    @inline(__always)
    static func outlineShare(pixel p: UInt32, target t: UInt32, outline o: UInt32) -> Double? {
        @inline(__always) func channel(_ v: UInt32, _ k: Int) -> Double { Double(v >> UInt32(8 * k) & 0xFF) }
        var along = 0.0
        var span = 0.0
        for k in 0..<4 {
            let line = channel(o, k) - channel(t, k)
            along += (channel(p, k) - channel(t, k)) * line
            span += line * line
        }
        guard span > 0 else { return nil }
        return min(max(along / span, 0), 1)
    }
}

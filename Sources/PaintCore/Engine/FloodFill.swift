extension StrokeEngine {
    /// Starts a fill: full coverage on the 4-connected region of the view (what the user sees)
    /// whose colors are within `tolerance` (0...255, the largest channel difference; 0 = exact)
    /// of the view pixel under `point`, within `clip`. The preview is composited and the fill is
    /// left in progress like a stroke: `end()` merges it at the style's opacity, `cancel()` drops
    /// it. Returns the changed view rectangle. A point outside the canvas (or the clip) does
    /// nothing and returns `.empty`. A stroke in progress is merged first.
    ///
    /// Scanline: each popped seed grows into a whole run of its row, and the rows above and below
    /// are scanned along that run for new seeds, kept on an explicit stack (no recursion).
    @discardableResult
    public func beginFill(_ style: StrokeStyle, at point: Point, tolerance: Int) -> IntRect {
        if isStroking { end() }
        // The fill floods what the view shows: it must show everything so far.
        refreshStaleView()
        guard point.isFinite else { return .empty }
        let sx = Int(clamping: point.x, .down)
        let sy = Int(clamping: point.y, .down)
        guard clip.contains(sx, sy) else { return .empty }
        start(.fill, style, at: nil)

        let tol = UInt32(min(max(tolerance, 0), 255))
        let target = view[sy * width + sx]
        let view = UnsafePointer(self.view.baseAddress!)
        let cov = coverage.baseAddress!
        let w = width
        let cx0 = clip.x
        let cx1 = clip.maxX - 1
        let cy0 = clip.y
        let cy1 = clip.maxY - 1
        let tb = target & 0xFF
        let tg = target >> 8 & 0xFF
        let tr = target >> 16 & 0xFF
        let ta = target >> 24
        /// Whether pixel i is unfilled and of the target's color (within the tolerance).
        @inline(__always) func fillable(_ i: Int) -> Bool {
            guard cov[i] == 0 else { return false }
            let p = view[i]
            if tol == 0 { return p == target }
            @inline(__always) func near(_ c: UInt32, _ t: UInt32) -> Bool { (c > t ? c - t : t - c) <= tol }
            return near(p & 0xFF, tb) && near(p >> 8 & 0xFF, tg) && near(p >> 16 & 0xFF, tr) && near(p >> 24, ta)
        }

        var bx0 = Int.max
        var bx1 = Int.min
        var by0 = Int.max
        var by1 = Int.min
        // Seeds as (y << 32 | x).
        var stack: [Int] = [sy << 32 | sx]
        stack.reserveCapacity(1024)
        while let seed = stack.popLast() {
            let y = seed >> 32
            let x = seed & 0xFFFF_FFFF
            let row = y * w
            guard fillable(row + x) else { continue }
            var l = x
            while l > cx0 && fillable(row + l - 1) { l -= 1 }
            var r = x
            while r < cx1 && fillable(row + r + 1) { r += 1 }
            (cov + row + l).update(repeating: 255, count: r - l + 1)
            touched.mark(row: y, from: l, through: r)
            bx0 = min(bx0, l)
            bx1 = max(bx1, r)
            by0 = min(by0, y)
            by1 = max(by1, y)
            // One seed per run of fillable pixels along l...r in the rows above and below.
            for ny in stride(from: y - 1, through: y + 1, by: 2) where ny >= cy0 && ny <= cy1 {
                let nrow = ny * w
                var i = l
                while i <= r {
                    if fillable(nrow + i) {
                        stack.append(ny << 32 | i)
                        i += 1
                        while i <= r && fillable(nrow + i) { i += 1 }
                    } else {
                        i += 1
                    }
                }
            }
        }
        guard by0 <= by1 else { return .empty }
        strokeRows = (by0, by1)
        strokeBounds = IntRect(x0: bx0, y0: by0, x1: bx1, y1: by1)
        // Composite after the search: the search reads the view, which must not change under it.
        touched.visit(rows: by0, through: by1, width: width, clearing: false) { y, x0, x1 in
            compositeRow(y, x0, x1)
        }
        return strokeBounds
    }
}

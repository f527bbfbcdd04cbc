extension StrokeEngine {
    /// Starts a fill: full coverage on the 4-connected region of the view (what the user sees)
    /// whose colors are within `tolerance` (0...255, the largest channel difference; 0 = exact)
    /// of the view pixel under `point`, within `clip`. Over a transparent background the paint
    /// itself is searched (premultiplied, alpha compared like the colors): the checkerboard
    /// the view shows there is not part of the picture, so a click on a transparent area fills
    /// all of it, not one square of the checkerboard. The preview is composited and the fill is
    /// left in progress like a stroke: `end()` merges it at the style's opacity, `cancel()` drops
    /// it. Returns the changed view rectangle. A point outside the canvas (or the clip) does
    /// nothing and returns `.empty`. A stroke in progress is merged first. A version 3 fill
    /// (`DrawingVersion.session8`) also fills the soft outline around the area, up to
    /// `edgeReach` pixels deep, where its pixels are a mix of the outline and the area's color
    /// (`filledEdgePixel`); version 2 gave the pixels just outside the area a coverage
    /// (`edgeCoverage`); version 1 left them as they were.
    ///
    /// Scanline: each popped seed grows into a whole run of its row, and the rows above and below
    /// are scanned along that run for new seeds, kept on an explicit stack (no recursion). The
    /// search works on one byte per pixel of the clip (whether it matches the target, whether it
    /// is filled), each row composited and compared when the search first reaches it: the view
    /// may be kept only for the window's part of the canvas.
    @discardableResult
    public func beginFill(_ style: StrokeStyle, at point: Point, tolerance: Int) -> IntRect {
        if isStroking { end() }
        // The fill floods what the view shows: it must show everything so far.
        refreshStaleView()
        guard point.isFinite else { return .empty }
        let sx = Int(clamping: point.x, .down)
        let sy = Int(clamping: point.y, .down)
        guard clip.contains(sx, sy) else { return .empty }
        let searchesPaint = background == .transparent
        // The paint is read from its tiles: merge what a finished stroke left pending first.
        if searchesPaint { settle() }
        start(.fill, style, at: nil)

        let area = clip
        let target = searchesPaint ? paint.pixel(x: sx, y: sy) : viewPixel(x: sx, y: sy) ?? 0
        let match = ColorMatch(target, tolerance: tolerance)
        /// Whether a shown pixel is of the target's color (within the tolerance).
        @inline(__always) func matches(_ p: UInt32) -> Bool { match.matches(p) }
        // Per pixel of the clip: 0 not fillable, 1 fillable, 2 filled. Rows are prepared on first use.
        let w = area.width
        let state = UnsafeMutablePointer<UInt8>.allocate(capacity: area.area)
        let ready = UnsafeMutableBufferPointer<Bool>.allocate(capacity: area.height)
        ready.initialize(repeating: false)
        let shown = UnsafeMutablePointer<UInt32>.allocate(capacity: w)
        defer {
            state.deallocate()
            ready.deallocate()
            shown.deallocate()
        }
        @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
            let line = state + (y - area.y) * w
            if !ready[y - area.y] {
                ready[y - area.y] = true
                if searchesPaint {
                    paint.read(y: y, x0: area.x, count: w, into: shown)
                    for i in 0..<w { line[i] = matches(shown[i]) ? 1 : 0 }
                } else {
                    withViewPixels(in: IntRect(x: area.x, y: y, width: w, height: 1)) { pixels, _ in
                        for i in 0..<w { line[i] = matches(pixels[i]) ? 1 : 0 }
                    }
                }
            }
            return line
        }
        let cx0 = area.x
        let cx1 = area.maxX - 1
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
            let line = row(y)
            guard line[x - cx0] == 1 else { continue }
            var l = x
            while l > cx0 && line[l - 1 - cx0] == 1 { l -= 1 }
            var r = x
            while r < cx1 && line[r + 1 - cx0] == 1 { r += 1 }
            (line + (l - cx0)).update(repeating: 2, count: r - l + 1)
            fillCoverage(y, l, r)
            bx0 = min(bx0, l)
            bx1 = max(bx1, r)
            by0 = min(by0, y)
            by1 = max(by1, y)
            // One seed per run of fillable pixels along l...r in the rows above and below.
            for ny in stride(from: y - 1, through: y + 1, by: 2) where ny >= area.y && ny < area.maxY {
                let next = row(ny)
                var i = l
                while i <= r {
                    if next[i - cx0] == 1 {
                        stack.append(ny << 32 | i)
                        i += 1
                        while i <= r && next[i - cx0] == 1 { i += 1 }
                    } else {
                        i += 1
                    }
                }
            }
        }
        guard by0 <= by1 else { return .empty }
        strokeBounds = IntRect(x0: bx0, y0: by0, x1: bx1, y1: by1)
        /// Row y's pixels x0..<x0+count as the search saw them.
        func read(_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<UInt32>) {
            if searchesPaint {
                paint.read(y: y, x0: x0, count: count, into: into)
            } else {
                withViewPixels(in: IntRect(x: x0, y: y, width: count, height: 1)) { pixels, _ in
                    into.update(from: pixels, count: count)
                }
            }
        }
        if style.drawing >= .session8 {
            // Version 3: the soft outline around the area, up to `edgeReach` deep, takes the
            // fill exactly where it is a mix of the outline and the area's color.
            let edge = blendFillRamps(
                in: area, state: state, ready: ready, filled: strokeBounds, target: target, read: read)
            strokeBounds = strokeBounds.union(edge)
        } else if style.drawing >= .session7 {
            // Version 2: the pixels along the edge blend into the outline (version 1 left them).
            let edge = blendFillEdge(
                in: area, state: state, ready: ready, filled: strokeBounds, target: target, read: read)
            strokeBounds = strokeBounds.union(edge)
        }
        // Composite after the search: the search reads the view, which must not change under it.
        visitTouchedChunks { y, x0, x1 in compositeRow(y, x0, x1) }
        showFillEdge()
        return strokeBounds
    }

    /// Full coverage on pixels l...r of row y, tile by tile.
    private func fillCoverage(_ y: Int, _ l: Int, _ r: Int) {
        let tileRow = y & Tile.mask
        let rowTiles = (y >> Tile.shift) * coverage.across
        Tile.segments(from: l, through: r) { tx, from, through in
            let origin = tx << Tile.shift
            let tile = claim(rowTiles + tx)
            (tile + tileRow * Tile.size + (from - origin)).update(repeating: 255, count: through - from + 1)
            CoverageLayer.mark(tile, row: tileRow, from: from - origin, through: through - origin)
        }
    }
}

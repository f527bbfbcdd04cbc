import CPrefetch

extension StrokeEngine {
    // MARK: The region the view keeps

    /// The part of the canvas whose view pixels the engine keeps up to date (the whole canvas
    /// until `showRegion` is called).
    public var shownRegion: IntRect { viewIsWholeCanvas ? bounds : viewRect }

    /// Keeps the view for `rect` (clipped to the canvas) and nothing else: the window asks for
    /// what it shows, so a large picture costs view memory only for the window's worth of it.
    /// Pixels already composited are kept, the rest is composited now. Strokes outside the
    /// region change the paint and report their rectangles as usual, they just composite
    /// nothing; `withViewPixels` and `viewPixel` composite such pixels when asked.
    public func showRegion(_ rect: IntRect) {
        drawDeferredBeforeReading()
        let r = rect.intersection(bounds)
        if !viewIsWholeCanvas && viewIsOwned && r == viewRect && (view != nil || r.isEmpty) { return }
        let old = viewIsOwned ? view : nil
        let oldRect = viewRect
        let oldStride = viewStride
        viewIsWholeCanvas = false
        viewIsOwned = true
        viewRect = r
        viewStride = r.width
        view = nil
        // A buffer of another size is composited afresh into a new one, after the old one is
        // gone: never two window-sized views at once.
        let kept = old == nil || oldRect.width != r.width ? IntRect.empty : r.intersection(oldRect)
        if kept.isEmpty {
            old?.deallocate()
            guard !r.isEmpty else { return }
            let new = UnsafeMutablePointer<UInt32>.allocate(capacity: r.area)
            view = new
            composite(r, into: new, stride: r.width)
            return
        }
        // The same width (a scroll): the rows that stay are moved in place, the rest composited.
        guard let old else { return }
        let buffer = oldRect.height == r.height ? old : UnsafeMutablePointer<UInt32>.allocate(capacity: r.area)
        let shiftX = kept.x - r.x
        let fromX = kept.x - oldRect.x
        let rows = kept.y..<kept.maxY
        // Moving down: the bottom rows first, so no row is overwritten before it moves.
        for y in (r.y > oldRect.y ? Array(rows) : rows.reversed()) {
            (buffer + (y - r.y) * r.width + shiftX).update(
                from: old + (y - oldRect.y) * oldStride + fromX, count: kept.width)
        }
        if buffer != old { old.deallocate() }
        view = buffer
        for y in r.y..<r.maxY {
            let row = buffer + (y - r.y) * r.width
            guard y >= kept.y, y < kept.maxY else {
                compose(y, r.x, r.maxX - 1, into: row)
                continue
            }
            if r.x < kept.x { compose(y, r.x, kept.x - 1, into: row) }
            if kept.maxX < r.maxX { compose(y, kept.maxX, r.maxX - 1, into: row + (kept.maxX - r.x)) }
        }
        overlayFloating(r, into: buffer, stride: r.width)
    }

    /// Keeps the view for `rect` (clipped to the canvas) in memory the caller owns: `storage`
    /// holds the view pixel of the region's top-left corner, rows `stride` pixels apart. The
    /// window passes the part of its own shared-memory image that shows the canvas, so the view
    /// and the image on its way to the screen are one buffer. Everything is composited anew
    /// when the storage or region changes; the caller keeps the storage alive until it calls
    /// `showRegion` again, and does not write into it meanwhile.
    public func showRegion(_ rect: IntRect, in storage: UnsafeMutablePointer<UInt32>, stride: Int) {
        if keepsView(rect, in: storage, stride: stride) { return }
        let r = rect.intersection(bounds)
        if viewIsOwned { view?.deallocate() }
        viewIsWholeCanvas = false
        viewIsOwned = false
        viewRect = r
        viewStride = stride
        view = r.isEmpty ? nil : storage
        if let view { composite(r, into: view, stride: stride) }
    }

    /// Whether `showRegion(rect, in: storage, stride: stride)` would find its view there already
    /// and write nothing into `storage`.
    public func keepsView(_ rect: IntRect, in storage: UnsafeMutablePointer<UInt32>, stride: Int) -> Bool {
        !viewIsOwned && view == storage && viewRect == rect.intersection(bounds) && viewStride == stride
    }

    /// Whether the view lives in memory the caller passed to `showRegion(_:in:stride:)`.
    public var viewIsInCallerStorage: Bool { !viewIsOwned && view != nil }

    /// Composites the whole view now when it is the whole canvas and not composited yet.
    func ensureWholeView() {
        guard viewIsWholeCanvas, view == nil || viewRect != bounds || !viewIsOwned else { return }
        showRegion(bounds)
        viewIsWholeCanvas = true
        staleView = .empty
    }

    /// Drops the kept view after the canvas changed size: the whole canvas is composited again
    /// when next read, or the shown region (clipped to the new canvas) right away.
    func resetView() {
        if viewIsOwned { view?.deallocate() }
        staleView = .empty
        if viewIsWholeCanvas {
            view = nil
            viewRect = .empty
        } else if viewIsOwned {
            view = nil
            let region = viewRect.intersection(bounds)
            viewRect = .empty
            showRegion(region)
        } else if let storage = view {
            let region = viewRect.intersection(bounds)
            view = nil
            showRegion(region, in: storage, stride: viewStride)
        }
    }

    /// The opaque view of the whole canvas, row-major, `width` per row (see `Pixel` for the
    /// layout), for tests and benchmarks: the engine keeps the whole view from then on.
    ///
    /// Valid until the engine is released, the canvas changes size or `showRegion` is called;
    /// read it right after a call returns its dirty rect.
    public var viewPixels: UnsafeBufferPointer<UInt32> {
        drawDeferredBeforeReading()
        if !(viewRect == bounds && view != nil && viewIsOwned) {
            viewIsWholeCanvas = true
            ensureWholeView()
        }
        return UnsafeBufferPointer(start: view, count: width * height)
    }

    /// The view pixel at (x, y), or nil outside the canvas.
    public func viewPixel(x: Int, y: Int) -> UInt32? {
        guard bounds.contains(x, y) else { return nil }
        drawDeferredBeforeReading()
        if let view, viewRect.contains(x, y) { return view[(y - viewRect.y) * viewStride + x - viewRect.x] }
        var pixel: UInt32 = 0
        composite(IntRect(x: x, y: y, width: 1, height: 1), into: &pixel, stride: 1)
        return pixel
    }

    /// Runs `body` on the view pixels of `rect` (clipped to the canvas): a pointer to its
    /// top-left pixel and the row stride. Inside the kept region these are the kept pixels;
    /// elsewhere they are composited into a temporary buffer for the call.
    public func withViewPixels<R>(in rect: IntRect, _ body: (UnsafePointer<UInt32>, Int) -> R) -> R {
        drawDeferredBeforeReading()
        let r = rect.intersection(bounds)
        if viewIsWholeCanvas { ensureWholeView() }
        if let view, !r.isEmpty, viewRect.intersection(r) == r {
            return body(view + (r.y - viewRect.y) * viewStride + (r.x - viewRect.x), viewStride)
        }
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, r.area))
        defer { scratch.deallocate() }
        composite(r, into: scratch, stride: r.width)
        return body(scratch, r.width)
    }

    /// Composites `rect` (inside the canvas) into `target` (row stride `stride`) from the
    /// paint, the stroke image, the background and a floating picture, without touching the
    /// kept view.
    public func composite(_ rect: IntRect, into target: UnsafeMutablePointer<UInt32>, stride: Int) {
        drawDeferredBeforeReading()
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { compose(y, r.x, r.maxX - 1, into: target + (y - r.y) * stride) }
        overlayFloating(r, into: target, stride: stride)
    }

    // MARK: Compositing

    /// Writes the view pixels x0...x1 of row y where the view is kept: background, paint, and
    /// the stroke image at its strokes' opacities.
    @inline(__always)
    func compositeRow(_ y: Int, _ x0: Int, _ x1: Int) {
        guard let view, y >= viewRect.y, y < viewRect.maxY else { return }
        let a = max(x0, viewRect.x)
        let b = min(x1, viewRect.maxX - 1)
        guard a <= b else { return }
        compose(y, a, b, into: view + (y - viewRect.y) * viewStride + (a - viewRect.x))
    }

    /// Pixels x0...x1 of row y clipped to the view (a...b), the view's row indexed by canvas
    /// column, and the backdrop's one color; nil when none of them is shown, or when there is
    /// no one backdrop color, in which case the shown pixels have been composed already.
    @inline(__always)
    private func shownRun(_ y: Int, _ x0: Int, _ x1: Int) -> (
        Int, Int, UnsafeMutablePointer<UInt32>, UInt32
    )? {
        guard let view, y >= viewRect.y, y < viewRect.maxY else { return nil }
        let a = max(x0, viewRect.x)
        let b = min(x1, viewRect.maxX - 1)
        guard a <= b else { return nil }
        let row = view + (y - viewRect.y) * viewStride - viewRect.x
        guard let backdrop = backdropColor else {
            compose(y, a, b, into: row + a)
            return nil
        }
        return (a, b, row, backdrop)
    }

    /// `compositeRow` for pixels x0...x1 of row y that lie in tile `t` of the stroke in progress
    /// (`cover`: its coverage row, indexed by canvas column), of which fullFrom...fullThrough are
    /// known to be fully covered: those take the constant-alpha path. One tile, so its pointers
    /// are worked out once, and the rim's few pixels go straight to the compositor. Out of line:
    /// inlined into `stamp`, its set-up was paid on every row, collected or not.
    @inline(never)
    func compositeOwnRun(
        _ y: Int, _ x0: Int, _ x1: Int, tile t: Int, coverage cover: UnsafeMutablePointer<UInt8>, fullFrom: Int,
        fullThrough: Int
    ) {
        guard let (a, b, row, backdrop) = shownRun(y, x0, x1) else { return }
        let paintStride = paint.strides[t]
        let paintRow = paint.bases[t] + (y & Tile.mask) * paintStride - (x0 & ~Tile.mask)
        // `stamp` goes down the rows, and the next row's run lies about under this one: its
        // view, paint and coverage lines are asked for now, to arrive while that row's spans
        // are worked out. A brush's rows are a view stride apart, so few of them stay in the
        // first-level cache from one move to the next. (A prefetch never faults: the row below
        // the last, or in the next tile, is only a wasted hint.)
        swiftpaint_prefetch_for_write(row + a + viewStride)
        swiftpaint_prefetch_for_write(row + b + viewStride)
        swiftpaint_prefetch(paintRow + a + paintStride)
        swiftpaint_prefetch(paintRow + b + paintStride)
        swiftpaint_prefetch(cover + a + Tile.size)
        let opacity = UInt16(alpha)
        let f0 = max(a, fullFrom)
        let f1 = min(b, fullThrough)
        let rimEnd = f0 <= f1 ? f0 : b + 1
        if a < rimEnd {
            SpanCompositor.composite(
                paint: paintRow + a, coverage: cover + a, view: row + a, count: rimEnd - a, source: source,
                opacity: opacity, backdrop: backdrop)
        }
        guard f0 <= f1 else { return }
        SpanCompositor.compositeFull(
            paint: paintRow + f0, view: row + f0, count: f1 - f0 + 1, source: source, opacity: opacity,
            backdrop: backdrop, memo: &fullBlendMemo)
        if f1 < b {
            SpanCompositor.composite(
                paint: paintRow + f1 + 1, coverage: cover + f1 + 1, view: row + f1 + 1, count: b - f1, source: source,
                opacity: opacity, backdrop: backdrop)
        }
    }

    /// `compositeRow` for pixels a stroke changed: runs of full coverage take the constant-alpha
    /// path, found from the coverage bytes (equal to `compose`, bit for bit).
    func compositeStrokeRun(_ y: Int, _ x0: Int, _ x1: Int) {
        guard let (a, b, row, backdrop) = shownRun(y, x0, x1) else { return }
        // The collected runs are composited down the rows: the next row's view lines are asked
        // for now (see `compositeOwnRun`).
        swiftpaint_prefetch_for_write(row + a + viewStride)
        swiftpaint_prefetch_for_write(row + b + viewStride)
        let r = y & Tile.mask
        let rowTiles = (y >> Tile.shift) * paint.across
        Tile.segments(from: a, through: b) { tx, from, through in
            let t = rowTiles + tx
            guard let tile = coverage.tiles[t] else {
                composeOverColor(t, r, from, through, row + from, backdrop)
                return
            }
            let origin = tx << Tile.shift
            let paintStride = paint.strides[t]
            let paintRow = paint.bases[t] + r * paintStride - origin
            let cover = tile + r * Tile.size - origin
            swiftpaint_prefetch(paintRow + from + paintStride)
            swiftpaint_prefetch(cover + from + Tile.size)
            let src = coverage.source[t]
            let opacity = coverage.opacity[t]
            var x = from
            while x <= through {
                var end = x
                if cover[x] == 255 {
                    // Through a wide brush's inside eight bytes at a time, then byte by byte.
                    while end + 8 <= through && UnsafeRawPointer(cover + end + 1).loadUnaligned(as: UInt64.self) == ~0 {
                        end += 8
                    }
                    while end < through && cover[end + 1] == 255 { end += 1 }
                    Self.compositeFullApart(
                        paint: paintRow + x, view: row + x, count: end - x + 1, source: src, opacity: opacity,
                        backdrop: backdrop, memo: &fullBlendMemo)
                } else {
                    while end < through && cover[end + 1] != 255 { end += 1 }
                    Self.compositeApart(
                        paint: paintRow + x, coverage: cover + x, view: row + x, count: end - x + 1, source: src,
                        opacity: opacity, backdrop: backdrop)
                }
                x = end + 1
            }
        }
    }

    /// `SpanCompositor.compositeFull` and `composite` as calls, for `compositeStrokeRun`: inlined,
    /// their loops' lane constants were set up for every tile of every run, most of whose pieces
    /// are a few pixels of a rim or an inside.
    @inline(never)
    static func compositeFullApart(
        paint: UnsafeMutablePointer<UInt32>, view: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32,
        opacity: UInt16, backdrop: UInt32, memo: inout SpanCompositor.FullBlendMemo
    ) {
        SpanCompositor.compositeFull(
            paint: paint, view: view, count: count, source: source, opacity: opacity, backdrop: backdrop,
            memo: &memo)
    }

    @inline(never)
    static func compositeApart(
        paint: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>, view: UnsafeMutablePointer<UInt32>,
        count: Int, source: UInt32, opacity: UInt16, backdrop: UInt32
    ) {
        // Most rim pieces are one pixel: no loop to set up.
        if count == 1 {
            view[0] = SpanCompositor.compositePixel(
                paint[0], source: source, coverage: coverage[0], opacity: opacity, backdrop: backdrop)
            return
        }
        SpanCompositor.composite(
            paint: paint, coverage: coverage, view: view, count: count, source: source, opacity: opacity,
            backdrop: backdrop)
    }

    /// Composites pixels x0...x1 of row y into `target` (which holds pixel x0 first). The single
    /// place that defines what the screen shows.
    @inline(__always)
    func compose(_ y: Int, _ x0: Int, _ x1: Int, into target: UnsafeMutablePointer<UInt32>) {
        composePlain(y, x0, x1, into: target)
        // The selection of a text box being typed, tinted behind its letters.
        if !highlights.isEmpty { composeHighlights(y, x0, x1, into: target) }
    }

    /// `compose` without the highlight.
    @inline(__always)
    func composePlain(_ y: Int, _ x0: Int, _ x1: Int, into target: UnsafeMutablePointer<UInt32>) {
        let r = y & Tile.mask
        let rowTiles = (y >> Tile.shift) * paint.across
        var x = x0
        if let backdrop = backdropColor {
            while x <= x1 {
                let tx = x >> Tile.shift
                let through = min(x1, (tx << Tile.shift) + Tile.mask)
                composeOverColor(rowTiles + tx, r, x, through, target + (x - x0), backdrop)
                x = through + 1
            }
            return
        }
        while x <= x1 {
            let tx = x >> Tile.shift
            let through = min(x1, (tx << Tile.shift) + Tile.mask)
            composeSegment(rowTiles + tx, y, r, x, through, target + (x - x0))
            x = through + 1
        }
    }

    /// `compose` for pixels x0...x1 of one tile `t` (tile row `r`) over one backdrop color.
    @inline(__always)
    private func composeOverColor(
        _ t: Int, _ r: Int, _ x0: Int, _ x1: Int, _ target: UnsafeMutablePointer<UInt32>, _ backdrop: UInt32
    ) {
        let count = x1 - x0 + 1
        let lx = x0 & Tile.mask
        let stride = paint.strides[t]
        let p = paint.bases[t] + r * stride + lx
        if let tile = coverage.tiles[t] {
            SpanCompositor.composite(
                paint: p, coverage: tile + r * Tile.size + lx, view: target, count: count,
                source: coverage.source[t], opacity: coverage.opacity[t], backdrop: backdrop)
        } else if stride == 0 {
            target.update(repeating: SpanCompositor.over(p[0], backdrop: backdrop), count: count)
        } else {
            SpanCompositor.flatten(paint: p, view: target, count: count, backdrop: backdrop)
        }
    }

    /// `compose` for pixels x0...x1 of row y that lie in tile `t` (tile row `r`), over a
    /// checkerboard or an image.
    private func composeSegment(
        _ t: Int, _ y: Int, _ r: Int, _ x0: Int, _ x1: Int, _ target: UnsafeMutablePointer<UInt32>
    ) {
        let lx = x0 & Tile.mask
        let count = x1 - x0 + 1
        let p = paint.bases[t] + r * paint.strides[t] + lx
        let cov = coverage.tiles[t].map { $0 + r * Tile.size + lx }
        let src = coverage.source[t]
        let opacity = coverage.opacity[t]
        switch background {
        case .color(let color):
            composeOverColor(t, r, x0, x1, target, color.pixel)
        case .transparent:
            for i in 0..<count {
                let blended =
                    cov.map { SpanCompositor.blend(p[i], source: src, coverage: $0[i], opacity: opacity) } ?? p[i]
                target[i] = SpanCompositor.over(blended, backdrop: Background.checker(x0 + i, y))
            }
        case .image(let image):
            image.pixels.withUnsafeBufferPointer { backdrops in
                let b = backdrops.baseAddress! + y * width + x0
                if let cov {
                    SpanCompositor.composite(
                        paint: p, coverage: cov, view: target, count: count, source: src, opacity: opacity, backdrops: b
                    )
                } else {
                    SpanCompositor.flatten(paint: p, view: target, count: count, backdrops: b)
                }
            }
        }
    }

    /// Recomposites a rectangle of the view from the buffers (after a change that is not a
    /// stroke: a new background, a loaded image, an undo).
    public func recomposite(_ rect: IntRect) {
        drawDeferredBeforeReading()
        guard view != nil else { return }
        let r = rect.intersection(viewRect)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { compositeRow(y, r.x, r.maxX - 1) }
        if let view {
            overlayFloating(r, into: view + (r.y - viewRect.y) * viewStride + (r.x - viewRect.x), stride: viewStride)
        }
    }
}

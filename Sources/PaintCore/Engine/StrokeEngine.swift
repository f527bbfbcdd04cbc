/// The one stroke engine every tool draws through.
///
/// It keeps three canvas-sized buffers (reallocated when the canvas changes size: a crop, a
/// canvas resize, a scale or a quarter turn, see `CanvasGeometry.swift`):
/// - the **paint layer** (main image), premultiplied pixels;
/// - the **stroke image**, 8-bit coverage of the stroke in progress, combined across segments by
///   max so a stroke that crosses itself is not darker at the crossing;
/// - the **view**, opaque pixels ready for the screen: background, paint and the live stroke
///   composited at the stroke's opacity, exactly as the merge will leave them.
///
/// `begin`, `move` and `end` take image coordinates and return the rectangle of the view that
/// changed. The work of one `move` is proportional to the pixels its segment touches; `end`
/// visits only the 8-pixel row chunks the stroke touched.
public final class StrokeEngine {
    /// Canvas width in pixels.
    public internal(set) var width: Int
    /// Canvas height in pixels.
    public internal(set) var height: Int
    /// What shows through unpainted pixels.
    public internal(set) var background: Background

    var paint: UnsafeMutableBufferPointer<UInt32>
    var coverage: UnsafeMutableBufferPointer<UInt8>
    var view: UnsafeMutableBufferPointer<UInt32>
    var touched: ChunkMask

    var style = StrokeStyle()
    var source: UInt32 = 0
    var alpha: UInt32 = 255
    var lastPoint: Point?
    /// What is in progress: nothing, a freehand stroke, a shape, a fill or a piece of text.
    enum Activity { case idle, stroke, shape, fill, text }
    var activity = Activity.idle
    /// Rows min...max that hold marked chunks of the stroke in progress.
    var strokeRows: (min: Int, max: Int) = (Int.max, Int.min)
    var strokeBounds = IntRect.empty
    /// While true, strokes leave the view as it is and only note where it is stale: a replay
    /// (opening a file's history, restoring a journal, re-rendering under a removed stroke)
    /// shows nothing until it ends, so compositing every segment would be wasted. A fill, which
    /// reads the view, brings it up to date first; turning this off does too.
    public var defersComposite = false {
        didSet { if !defersComposite { refreshStaleView() } }
    }
    /// Where the view lags behind the paint and coverage while compositing is deferred.
    var staleView = IntRect.empty

    /// Recomposites whatever deferred strokes left stale.
    func refreshStaleView() {
        guard !staleView.isEmpty else { return }
        let stale = staleView
        staleView = .empty
        recomposite(stale)
    }

    /// Pixels outside this rectangle are left alone by strokes and clears (the history uses it
    /// to re-render one region when a past stroke is removed). The whole canvas by default.
    public var clip: IntRect {
        didSet { clip = clip.intersection(bounds) }
    }

    /// A canvas of the given size (at least 1 x 1), with no paint on `background`.
    public init(width: Int, height: Int, background: Background = .color(.white)) {
        self.width = max(1, width)
        self.height = max(1, height)
        let count = self.width * self.height
        self.background = background
        paint = .allocate(capacity: count)
        paint.initialize(repeating: 0)
        coverage = .allocate(capacity: count)
        coverage.initialize(repeating: 0)
        view = .allocate(capacity: count)
        view.initialize(repeating: 0)
        touched = ChunkMask(width: self.width, height: self.height)
        clip = IntRect(x: 0, y: 0, width: self.width, height: self.height)
        if case .image(let image) = background, image.width != self.width || image.height != self.height {
            self.background = .color(.white)
        }
        recomposite(IntRect(x: 0, y: 0, width: self.width, height: self.height))
    }

    /// A canvas holding `image` as its paint.
    public convenience init(image: PixelImage, background: Background = .color(.white)) {
        self.init(width: image.width, height: image.height, background: background)
        replacePaint(with: image)
    }

    deinit {
        paint.deallocate()
        coverage.deallocate()
        view.deallocate()
        touched.deallocate()
    }

    /// The whole canvas.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Whether a stroke is in progress.
    public var isStroking: Bool { activity != .idle }

    /// The opaque view pixels, row-major, `width` per row (see `Pixel` for the layout).
    ///
    /// Valid until the engine is released or the canvas changes size; read it right after a
    /// call returns its dirty rect.
    public var viewPixels: UnsafeBufferPointer<UInt32> { UnsafeBufferPointer(view) }

    // MARK: Strokes

    /// Starts a stroke at `point`, stamping a disc there; returns the changed view rectangle.
    ///
    /// A stroke already in progress is merged first, so no paint is ever dropped.
    @discardableResult
    public func begin(_ style: StrokeStyle, at point: Point) -> IntRect {
        var dirty = IntRect.empty
        if isStroking { dirty = end() }
        guard point.isFinite else { return dirty }
        start(.stroke, style, at: point)
        return dirty.union(stamp(Capsule(from: point, to: point, width: style.width), fullDiscAtStart: false))
    }

    /// Starts `activity` with `style`: the one place a stroke, shape or fill sets up the
    /// source color, opacity and bounds.
    func start(_ newActivity: Activity, _ newStyle: StrokeStyle, at point: Point?) {
        style = newStyle
        source = newStyle.sourcePixel
        alpha = newStyle.alpha8
        lastPoint = point
        activity = newActivity
        strokeBounds = .empty
        strokeRows = (Int.max, Int.min)
    }

    /// Extends the stroke with a round-capped segment to `point`; returns the changed view
    /// rectangle (empty when nothing new is covered).
    @discardableResult
    public func move(to point: Point) -> IntRect {
        guard activity == .stroke, let last = lastPoint, point.isFinite else { return .empty }
        lastPoint = point
        return stamp(Capsule(from: last, to: point, width: style.width), fullDiscAtStart: true)
    }

    /// Merges the stroke into the paint layer at its opacity and clears the stroke image.
    ///
    /// The view already shows these exact pixels, so nothing on screen changes; the returned
    /// rectangle is the stroke's bounds (what an undo step would have to restore).
    @discardableResult
    public func end() -> IntRect {
        guard isStroking else { return .empty }
        let src = source
        let a = alpha
        let opacity = UInt16(a)
        let paintBase = paint.baseAddress!
        let coverageBase = coverage.baseAddress!
        touched.drain(rows: strokeRows.min, through: strokeRows.max, width: width) { y, x0, x1 in
            let i = y * width + x0
            SpanCompositor.merge(
                paint: paintBase + i, coverage: coverageBase + i, count: x1 - x0 + 1, source: src, opacity: opacity)
        }
        return finishStroke()
    }

    /// Calls `body(y, x0, x1)` for each run of row chunks the stroke in progress touched.
    func visitTouchedChunks(_ body: (Int, Int, Int) -> Void) {
        guard isStroking else { return }
        touched.visit(rows: strokeRows.min, through: strokeRows.max, width: width, clearing: false, body)
    }

    /// The pixels the stroke in progress has touched so far (what `end` will merge into).
    public var strokeBoundsSoFar: IntRect { strokeBounds }

    /// Drops the stroke in progress without painting; returns the view rectangle restored.
    @discardableResult
    public func cancel() -> IntRect {
        guard isStroking else { return .empty }
        touched.drain(rows: strokeRows.min, through: strokeRows.max, width: width) { y, x0, x1 in
            let row = y * width
            for i in (row + x0)...(row + x1) { coverage[i] = 0 }
            compositeRow(y, x0, x1)
        }
        return finishStroke()
    }

    func finishStroke() -> IntRect {
        lastPoint = nil
        activity = .idle
        strokeRows = (Int.max, Int.min)
        let bounds = strokeBounds
        strokeBounds = .empty
        return bounds
    }

    // MARK: Rasterizing

    /// Adds a capsule's coverage to the stroke image (max-combined) and recomposites the pixels
    /// whose coverage grew.
    ///
    /// With `fullDiscAtStart`, the disc around the capsule's start was already stamped (it ended
    /// the previous segment), so its fully covered inside is skipped: a wide brush moving a few
    /// pixels then only visits the thin crescent it adds, not its whole width on every row.
    func stamp(_ capsule: Capsule, fullDiscAtStart: Bool) -> IntRect {
        let box = capsule.bounds(margin: 0.5)
        let y0 = max(clip.y, Int(clamping: box.minY - 0.5, .up))
        let y1 = min(clip.maxY - 1, Int(clamping: box.maxY - 0.5, .down))
        guard y0 <= y1, box.maxX > Double(clip.x), box.minX < Double(clip.maxX) else { return .empty }
        let clipX0 = clip.x
        let clipX1 = clip.maxX - 1
        let outerRadius = capsule.radius + 0.5
        let innerRadius = capsule.radius - 0.5
        var dirtyX0 = Int.max
        var dirtyX1 = Int.min
        var dirtyY0 = Int.max
        var dirtyY1 = Int.min
        for y in y0...y1 {
            let cy = Double(y) + 0.5
            let outer = capsule.span(atY: cy, within: outerRadius)
            guard outer.lo <= outer.hi else { continue }
            // Pixel x is touched when its centre x + 0.5 lies strictly inside (lo, hi).
            let xa = max(clipX0, Int(clamping: outer.lo - 0.5, .down) + 1)
            let xb = min(clipX1, Int(clamping: outer.hi - 0.5, .up) - 1)
            guard xa <= xb else { continue }
            // Behind the start point (seen along the segment) the capsule is the start disc
            // itself, which the previous segment stamped: nothing there can grow. Only pixels
            // frontFrom...frontThrough, on the far side of the line through the start point
            // across the segment, are visited.
            var frontFrom = xa
            var frontThrough = xb
            if fullDiscAtStart {
                let along = (cy - capsule.a.y) * capsule.dy
                // Pixel x is behind when (x + 0.5 - a.x) * dx + along <= 0.
                let limit = capsule.a.x - along * capsule.inverseDx - 0.5
                if capsule.dx > 0 {
                    frontFrom = max(xa, Int(clamping: limit, .down) + 1)
                } else if capsule.dx < 0 {
                    frontThrough = min(xb, Int(clamping: limit, .up) - 1)
                } else if along <= 0 {
                    continue
                }
                guard frontFrom <= frontThrough else { continue }
            }
            var ia = xb + 1
            var ib = xb
            if innerRadius > 0 {
                let inner = capsule.span(atY: cy, within: innerRadius)
                if inner.lo <= inner.hi {
                    ia = max(xa, Int(clamping: inner.lo - 0.5, .up))
                    ib = min(xb, Int(clamping: inner.hi - 0.5, .down))
                    if ia > ib {
                        ia = xb + 1
                        ib = xb
                    }
                }
            }
            let row = y * width
            // Skip the start disc's inside, shrunk by a pixel on each side so rounding in the
            // previous segment's span can never leave a pixel unvisited.
            var skipFrom = xb + 1
            var skipThrough = xb
            if fullDiscAtStart && innerRadius > 1 {
                let dy = cy - capsule.a.y
                let h2 = innerRadius * innerRadius - dy * dy
                if h2 > 0 {
                    let h = h2.squareRoot()
                    skipFrom = max(xa, Int(clamping: capsule.a.x - h - 0.5, .up) + 1)
                    skipThrough = min(xb, Int(clamping: capsule.a.x + h - 0.5, .down) - 1)
                    if skipFrom > skipThrough {
                        skipFrom = xb + 1
                        skipThrough = xb
                    }
                }
            }
            var rowFirst = Int.max
            var rowLast = Int.min
            // Each piece left and right of the skipped inside is recomposited on its own.
            var piece = (from: xa, through: skipFrom - 1)
            for _ in 0..<2 {
                piece = (max(piece.from, frontFrom), min(piece.through, frontThrough))
                if piece.from <= piece.through {
                    let run = raise(
                        piece.from, piece.through, capsule: capsule, outerRadius: outerRadius, cy: cy, row: row,
                        insideFrom: ia,
                        insideThrough: ib)
                    if run.first <= run.last {
                        touched.mark(row: y, from: run.first, through: run.last)
                        if !defersComposite { compositeRow(y, run.first, run.last, fullFrom: ia, fullThrough: ib) }
                        rowFirst = min(rowFirst, run.first)
                        rowLast = max(rowLast, run.last)
                    }
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
        strokeRows = (min(strokeRows.min, dirtyY0), max(strokeRows.max, dirtyY1))
        let dirty = IntRect(x0: dirtyX0, y0: dirtyY0, x1: dirtyX1, y1: dirtyY1)
        strokeBounds = strokeBounds.union(dirty)
        if defersComposite { staleView = staleView.union(dirty) }
        return dirty
    }

    /// Raises the coverage of pixels pa...pb of a row: rim pixels by their distance, the inside
    /// (insideFrom...insideThrough) to full. Returns the first and last pixel that grew
    /// (first > last when none did). A method, not a closure: captured counters would be boxed.
    @inline(__always)
    func raise(
        _ pa: Int, _ pb: Int, capsule: Capsule, outerRadius: Double, cy: Double, row: Int, insideFrom ia: Int,
        insideThrough ib: Int
    ) -> (first: Int, last: Int) {
        var first = Int.max
        var last = Int.min
        var x = pa
        let leftRimEnd = min(pb, ia - 1)
        while x <= leftRimEnd {
            if raiseRim(capsule, outerRadius, x, cy, row) {
                if first == Int.max { first = x }
                last = x
            }
            x += 1
        }
        let insideFrom = max(pa, ia)
        let insideThrough = min(pb, ib)
        if insideFrom <= insideThrough, let run = raiseToFull(row + insideFrom, row + insideThrough) {
            first = min(first, run.first - row)
            last = run.last - row
        }
        x = max(pa, ib + 1, leftRimEnd + 1)
        while x <= pb {
            if raiseRim(capsule, outerRadius, x, cy, row) {
                if first == Int.max { first = x }
                last = x
            }
            x += 1
        }
        return (first, last)
    }

    /// Raises one anti-aliased rim pixel's coverage (falling from 1 to 0 across one pixel);
    /// returns whether it grew.
    @inline(__always)
    func raiseRim(_ capsule: Capsule, _ outerRadius: Double, _ x: Int, _ cy: Double, _ row: Int) -> Bool {
        let c = outerRadius - capsule.distance(Double(x) + 0.5, cy)
        guard c > 0 else { return false }
        let m: UInt8 = c >= 1 ? 255 : UInt8(c * 255 + 0.5)
        guard m > coverage[row + x] else { return false }
        coverage[row + x] = m
        return true
    }

    /// Sets coverage i0...i1 to full; returns the first and last index that were not full yet.
    ///
    /// Scans eight bytes at a time: inside a stroke most of a row is already full.
    @inline(__always)
    func raiseToFull(_ i0: Int, _ i1: Int) -> (first: Int, last: Int)? {
        let base = UnsafeMutableRawPointer(coverage.baseAddress!)
        var first = i0
        while first <= i1 {
            if first & 7 == 0 && first + 7 <= i1 {
                if base.load(fromByteOffset: first, as: UInt64.self) == ~0 {
                    first += 8
                    continue
                }
            }
            if coverage[first] != 255 { break }
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
            if coverage[last] != 255 { break }
            last -= 1
        }
        (base + first).initializeMemory(as: UInt8.self, repeating: 255, count: last - first + 1)
        return (first, last)
    }

    // MARK: Compositing

    /// Writes view pixels x0...x1 of row y: background, paint, and the live stroke at its
    /// opacity. The single place that defines what the screen shows.
    @inline(__always)
    func compositeRow(_ y: Int, _ x0: Int, _ x1: Int) {
        let row = y * width
        let src = source
        let a = alpha
        let opacity = UInt16(a)
        let count = x1 - x0 + 1
        let i = row + x0
        switch background {
        case .color(let color):
            SpanCompositor.composite(
                paint: paint.baseAddress! + i, coverage: coverage.baseAddress! + i, view: view.baseAddress! + i,
                count: count,
                source: src, opacity: opacity, backdrop: color.pixel)
        case .transparent:
            for x in x0...x1 {
                let j = row + x
                let p = SpanCompositor.blend(paint[j], source: src, coverage: coverage[j], opacity: opacity)
                view[j] = SpanCompositor.over(p, backdrop: Background.checker(x, y))
            }
        case .image(let image):
            image.pixels.withUnsafeBufferPointer { backdrop in
                SpanCompositor.composite(
                    paint: paint.baseAddress! + i, coverage: coverage.baseAddress! + i, view: view.baseAddress! + i,
                    count: count,
                    source: src, opacity: opacity, backdrops: backdrop.baseAddress! + i)
            }
        }
    }

    /// `compositeRow` for pixels x0...x1 of which fullFrom...fullThrough are known to be fully
    /// covered: those take the constant-alpha path.
    @inline(__always)
    func compositeRow(_ y: Int, _ x0: Int, _ x1: Int, fullFrom: Int, fullThrough: Int) {
        let f0 = max(x0, fullFrom)
        let f1 = min(x1, fullThrough)
        guard f0 <= f1, case .color(let color) = background else {
            compositeRow(y, x0, x1)
            return
        }
        if x0 < f0 { compositeRow(y, x0, f0 - 1) }
        let i = y * width + f0
        SpanCompositor.compositeFull(
            paint: paint.baseAddress! + i, view: view.baseAddress! + i, count: f1 - f0 + 1, source: source,
            opacity: UInt16(alpha), backdrop: color.pixel)
        if f1 < x1 { compositeRow(y, f1 + 1, x1) }
    }

    /// Recomposites a rectangle of the view from the buffers (after a change that is not a
    /// stroke: a new background, a loaded image, an undo).
    public func recomposite(_ rect: IntRect) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY { compositeRow(y, r.x, r.maxX - 1) }
    }

    // MARK: Document changes

    /// Replaces the background, keeping the paint; an image of the wrong size is refused.
    /// Returns the changed view rectangle.
    @discardableResult
    public func setBackground(_ newBackground: Background) -> IntRect {
        if case .image(let image) = newBackground, image.width != width || image.height != height {
            return .empty
        }
        background = newBackground
        recomposite(bounds)
        return bounds
    }

    /// Replaces the paint layer with an image of the same size (the caller checks the size);
    /// a stroke in progress is merged first.
    public func replacePaint(with image: PixelImage) {
        if isStroking { end() }
        guard image.width == width, image.height == height else { return }
        image.pixels.withUnsafeBufferPointer { source in
            _ = paint.update(fromContentsOf: source)
        }
        recomposite(bounds)
    }

    /// Removes all paint; returns the changed view rectangle.
    @discardableResult
    public func clearPaint() -> IntRect {
        clearPaint(in: bounds)
    }

    /// Removes the paint inside `rect` (and the clip), so the background shows there; returns
    /// the changed view rectangle.
    @discardableResult
    public func clearPaint(in rect: IntRect) -> IntRect {
        if isStroking { end() }
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return .empty }
        if r == bounds {
            paint.update(repeating: 0)
        } else {
            for y in r.y..<r.maxY {
                (paint.baseAddress! + y * width + r.x).update(repeating: 0, count: r.width)
            }
        }
        recomposite(r)
        return r
    }

    /// Runs `body` on the paint layer's pixels (row-major, `width` per row); for the history's
    /// packing, which must not copy a 4K canvas just to read it.
    func withPaint<R>(_ body: (UnsafeMutablePointer<UInt32>) -> R) -> R {
        body(paint.baseAddress!)
    }

    /// Writes `image` into the paint layer with its top-left corner at (x, y) and recomposites
    /// that region; returns it. A stroke in progress is merged first.
    @discardableResult
    public func restorePaint(_ image: PixelImage, atX x: Int, y: Int) -> IntRect {
        if isStroking { end() }
        let target = IntRect(x: x, y: y, width: image.width, height: image.height)
        let r = target.intersection(bounds)
        guard !r.isEmpty else { return .empty }
        image.pixels.withUnsafeBufferPointer { src in
            for row in 0..<r.height {
                let from = src.baseAddress! + (r.y - y + row) * image.width + (r.x - x)
                (paint.baseAddress! + (r.y + row) * width + r.x).update(from: from, count: r.width)
            }
        }
        recomposite(r)
        return r
    }

    /// A copy of the paint layer (premultiplied).
    public func paintImage() -> PixelImage {
        PixelImage(width: width, height: height, pixels: Array(paint)) ?? PixelImage(width: width, height: height)
    }

    /// A copy of the paint inside `rect` (clipped to the canvas), premultiplied.
    public func paintImage(in rect: IntRect) -> PixelImage {
        let r = rect.intersection(bounds)
        var out = PixelImage(width: r.width, height: r.height)
        for y in 0..<r.height {
            let from = (r.y + y) * width + r.x
            out.pixels.replaceSubrange((y * r.width)..<((y + 1) * r.width), with: paint[from..<(from + r.width)])
        }
        return out
    }

    /// The picture as it is saved: the paint flattened onto the background, or the paint alone
    /// (premultiplied, with alpha) when the background is transparent. A stroke in progress is
    /// not included. With `rect`, just that part (clipped to the canvas).
    public func flattenedImage(in rect: IntRect? = nil) -> PixelImage {
        let r = (rect ?? bounds).intersection(bounds)
        var out = PixelImage(width: r.width, height: r.height)
        out.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<r.height {
                let row = (r.y + y) * width
                for x in 0..<r.width {
                    let i = row + r.x + x
                    let p = paint[i]
                    let o = y * r.width + x
                    switch background {
                    case .color(let color): dst[o] = Pixel.over(p, backdrop: color.pixel)
                    case .transparent: dst[o] = p
                    case .image(let image): dst[o] = Pixel.over(p, backdrop: image.pixels[i])
                    }
                }
            }
        }
        return out
    }

    /// The paint-layer pixel at (x, y), or nil outside the canvas.
    public func paintPixel(x: Int, y: Int) -> UInt32? {
        bounds.contains(x, y) ? paint[y * width + x] : nil
    }

    /// The view pixel at (x, y), or nil outside the canvas.
    public func viewPixel(x: Int, y: Int) -> UInt32? {
        bounds.contains(x, y) ? view[y * width + x] : nil
    }

    /// The stroke coverage at (x, y) (0...255), or nil outside the canvas.
    public func strokeCoverage(x: Int, y: Int) -> UInt8? {
        bounds.contains(x, y) ? coverage[y * width + x] : nil
    }
}

extension Int {
    /// Converts after rounding in the given direction, saturating instead of trapping on huge or
    /// non-finite values (a pointer far outside the canvas must not crash). Truncates and
    /// adjusts rather than calling `rounded`, which is a libm call on baseline x86-64.
    @inline(__always)
    init(clamping value: Double, _ rule: FloatingPointRoundingRule) {
        guard value > -1e15 else {
            self = value.isNaN ? 0 : -(1 << 50)
            return
        }
        guard value < 1e15 else {
            self = 1 << 50
            return
        }
        let t = Int(value)
        let back = Double(t)
        switch rule {
        case .down: self = back > value ? t - 1 : t
        case .up: self = back < value ? t + 1 : t
        default: self = Int(value.rounded(rule))
        }
    }
}

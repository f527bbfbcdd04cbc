/// The one stroke engine every tool draws through.
///
/// It keeps three images, the first two in 64 x 64 tiles (see `Tile`) so memory follows what
/// is painted, not the canvas size:
/// - the **paint layer** (main image), premultiplied pixels (`PaintLayer`: copy-on-write tiles
///   the history's snapshots share, one shared tile for every square of a single value);
/// - the **stroke image**, 8-bit coverage of the stroke in progress, combined across segments by
///   max so a stroke that crosses itself is not darker at the crossing (`CoverageLayer`: a tile
///   only where the stroke touched);
/// - the **view**, opaque pixels ready for the screen: background, paint and the live stroke
///   composited at the stroke's opacity, exactly as the merge will leave them. It is kept only
///   for the region the window shows (`showRegion`); elsewhere it is composited when asked for.
///
/// `begin`, `move` and `end` take image coordinates and return the rectangle of the view that
/// changed. The work of one `move` is proportional to the pixels its segment touches. `end`
/// only hands the stroke's tiles over to be merged: the view already shows the merged pixels,
/// and the merge runs a few tiles at a time (`mergePendingTiles`, when the program is idle),
/// or for one tile when a later stroke touches it, or all at once before anything reads the
/// paint. So no release waits for the merge of a huge stroke.
public final class StrokeEngine {
    /// Canvas width in pixels.
    public internal(set) var width: Int
    /// Canvas height in pixels.
    public internal(set) var height: Int
    /// What shows through unpainted pixels.
    public internal(set) var background: Background {
        didSet { backdropColor = Self.color(of: background) }
    }
    /// The background's pixel when it is one color (the common case, composited without
    /// looking at the `Background` enum per span), else nil.
    var backdropColor: UInt32?

    static func color(of background: Background) -> UInt32? {
        if case .color(let color) = background { return color.pixel }
        return nil
    }

    var paint: PaintLayer
    var coverage: CoverageLayer
    /// The view pixels of `viewRect`, row-major, `viewStride` per row; nil when none is kept.
    var view: UnsafeMutablePointer<UInt32>?
    var viewStride = 0
    /// Whether the engine allocated `view` (else the caller lent it: the window's image).
    var viewIsOwned = true
    /// The part of the canvas the view keeps.
    var viewRect = IntRect.empty
    /// Until `showRegion` is called the view is the whole canvas, composited the first time it
    /// is read: an engine that never shows (a replay, the history's background rebuild) never
    /// pays for it, and one that does shows only what `showRegion` asks for.
    var viewIsWholeCanvas = true

    var style = StrokeStyle()
    /// The freehand stroke's samples turned into pieces (curves, stabilizer, pressure).
    var path = StrokePath()
    /// The stroke image under the provisional pieces, as it was before they were stamped.
    let provisional = SavedCoverage()
    /// What moves made with `deferred` left for `drawDeferred` (see StrokeEngine+Deferred).
    var deferred = DeferredPieces()
    var source: UInt32 = 0
    var alpha: UInt32 = 255
    /// The serial of the stroke in progress (or of the next one): its coverage tiles carry it.
    var serial: UInt32 = 1
    var lastPoint: Point?
    /// The last serial given to a snapshot of the paint.
    var snapshotSerial = 0
    /// What is in progress: nothing, a freehand stroke, a shape, a fill or a piece of text.
    enum Activity { case idle, stroke, shape, fill, text }
    var activity = Activity.idle
    var strokeBounds = IntRect.empty
    /// The paint a version 3 fill in progress gives the pixels along its edge (`blendFillRamps`),
    /// written into the paint when it ends: until then the history's before-snapshot shares the
    /// paint as it was, and `cancel` has nothing to undo.
    var fillEdge: [EdgePixel] = []
    /// The view pixels an event with several pieces changed, composited once when it ends.
    let collected = RowRuns()
    /// The last fully covered view pixel worked out (`SpanCompositor.compositeFullBlend`).
    var fullBlendMemo = SpanCompositor.FullBlendMemo()
    /// While true, strokes leave the view as it is and only note where it is stale: a replay
    /// (opening a file's history, restoring a journal, re-rendering under a removed stroke)
    /// shows nothing until it ends, so compositing every segment would be wasted. A fill, which
    /// reads the view, brings it up to date first; turning this off does too.
    public var defersComposite = false {
        didSet { if !defersComposite { refreshStaleView() } }
    }
    /// Where the view lags behind the paint and coverage while compositing is deferred.
    var staleView = IntRect.empty
    /// View rectangles tinted behind the text in progress (`highlightText`).
    var highlights: [IntRect] = []
    /// The exact left and right sides of each of `highlights` (image pixels, fractions too),
    /// for the window zoomed in (`sharpenHighlightEdges`).
    var highlightSides: [HighlightSides] = []
    /// The picture floating over the view while it is placed (`showPastePreview`): laid over
    /// every view composited meanwhile, not only the pixels kept when it was shown.
    var floating: FloatingPicture?

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
        self.background = background
        paint = PaintLayer(width: self.width, height: self.height)
        coverage = CoverageLayer(width: self.width, height: self.height)
        clip = IntRect(x: 0, y: 0, width: self.width, height: self.height)
        if case .image(let image) = background, image.width != self.width || image.height != self.height {
            self.background = .color(.white)
        }
        backdropColor = Self.color(of: self.background)
    }

    /// A canvas holding `image` as its paint.
    public convenience init(image: PixelImage, background: Background = .color(.white)) {
        self.init(width: image.width, height: image.height, background: background)
        replacePaint(with: image)
    }

    /// A canvas holding `picture` as its paint: its tiles are taken over as they are (a decoder
    /// writes them; nothing is copied).
    public convenience init(picture: TiledPicture, background: Background = .color(.white)) {
        self.init(width: picture.width, height: picture.height, background: background)
        replacePaint(with: picture)
    }

    deinit { if viewIsOwned { view?.deallocate() } }

    /// The whole canvas.
    public var bounds: IntRect { IntRect(x: 0, y: 0, width: width, height: height) }

    /// Whether a stroke is in progress.
    public var isStroking: Bool { activity != .idle }

    // MARK: Strokes

    /// Starts a stroke at `point`, stamping a disc there; returns the changed view rectangle.
    /// `pressure` (0...1) is the pen's, 1 for a mouse; it matters when the style's dynamics
    /// ask for it.
    ///
    /// A stroke already in progress is merged first, so no paint is ever dropped.
    @discardableResult
    public func begin(_ style: StrokeStyle, at point: Point, pressure: Double = 1) -> IntRect {
        var dirty = IntRect.empty
        if isStroking { dirty = end() }
        guard point.isFinite, pressure.isFinite else { return dirty }
        start(.stroke, style, at: point)
        path.begin(style, at: StrokePath.Sample(point: point, pressure: pressure))
        return dirty.union(stampPath())
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
    }

    /// Extends the stroke to `point` (a round-capped segment, or the curve through the samples
    /// with the style's dynamics); returns the changed view rectangle (empty when nothing new is
    /// covered).
    ///
    /// With `deferred`, nothing is stamped yet: the pieces wait for `drawDeferred` (which the
    /// engine also calls before anything reads the view or the stroke image, or when a turn
    /// gathers too many), and the empty rectangle is returned: `drawDeferred` returns everything
    /// the turn changed. A window that reads several samples at once then stamps the
    /// provisional piece to the pointer once, not once per sample, and shows exactly the pixels
    /// the samples fed one at a time would have left (see StrokeEngine+Deferred).
    @discardableResult
    public func move(to point: Point, pressure: Double = 1, deferred later: Bool = false) -> IntRect {
        guard activity == .stroke, lastPoint != nil, point.isFinite, pressure.isFinite else { return .empty }
        lastPoint = point
        // The turn's last sample so far is still only in `path`: gathered before it goes.
        if deferred.isPending && !deferred.isGathered { gatherPath() }
        path.add(StrokePath.Sample(point: point, pressure: pressure))
        guard later || deferred.isPending else { return stampPath() }
        deferPath()
        guard later else { return drawDeferred() }
        // A long turn (a burst read at once) stamps what it gathered early, but what that
        // changed is still reported by `drawDeferred`: the window shows only what it returns.
        if deferred.final.count >= DeferredPieces.limit { drawDeferredBeforeReading() }
        return .empty
    }

    /// Draws what the release adds to a freehand stroke (a stabilized line drawn on to where
    /// the pointer let go); returns the changed view rectangle. `end` does it too: call it
    /// first to show those pixels before the merge.
    @discardableResult
    public func finishPath() -> IntRect {
        guard activity == .stroke else { return .empty }
        let drawn = drawDeferred()
        defer { provisional.discard() }
        guard path.finish() else { return drawn }
        return drawn.union(stampPath())
    }

    /// Ends the stroke: it is merged into the paint layer at its opacity, and the stroke image
    /// is free for the next one.
    ///
    /// The view already shows these exact pixels, so nothing on screen changes, and the merge
    /// itself is left to `mergePendingTiles` (or to whatever reads the paint next): this call
    /// takes time proportional to the tiles the stroke touched, not its pixels. The returned
    /// rectangle is the stroke's bounds (what an undo step would have to restore).
    @discardableResult
    public func end() -> IntRect {
        guard isStroking else { return .empty }
        dropHighlights()
        finishPath()
        if !fillEdge.isEmpty { writeFillEdge() }
        coverage.pending.append(contentsOf: coverage.active)
        coverage.active.removeAll(keepingCapacity: true)
        serial = serial == UInt32.max ? 1 : serial + 1
        return finishStroke()
    }

    /// Calls `body(y, x0, x1)` for each run of row chunks the stroke in progress touched.
    func visitTouchedChunks(_ body: (Int, Int, Int) -> Void) {
        guard isStroking else { return }
        drawDeferredBeforeReading()
        for t in coverage.active {
            guard let tile = coverage.tiles[t] else { continue }
            let x = (t % coverage.across) << Tile.shift
            let y = (t / coverage.across) << Tile.shift
            CoverageLayer.visitMarks(tile, clearing: false) { r, x0, x1 in
                body(y + r, x + x0, min(width - 1, x + x1))
            }
        }
    }

    /// The pixels the stroke in progress has touched so far (what `end` will merge into).
    public var strokeBoundsSoFar: IntRect {
        drawDeferredBeforeReading()
        return strokeBounds
    }

    /// Drops the stroke in progress without painting; returns the view rectangle restored.
    @discardableResult
    public func cancel() -> IntRect {
        guard isStroking else { return .empty }
        dropHighlights()
        provisional.discard()
        deferred.clear()
        clearStrokeTiles()
        return finishStroke()
    }

    /// Zeroes the stroke image where the activity in progress touched it, recomposites those
    /// chunks and gives its tiles back; the activity goes on (with nothing drawn).
    func clearStrokeImage() {
        clearStrokeTiles()
        strokeBounds = .empty
    }

    private func clearStrokeTiles() {
        for t in coverage.active {
            guard let tile = coverage.tiles[t] else { continue }
            let x = (t % coverage.across) << Tile.shift
            let y = (t / coverage.across) << Tile.shift
            CoverageLayer.visitMarks(tile, clearing: true) { r, x0, x1 in
                (tile + r * Tile.size + x0).update(repeating: 0, count: x1 - x0 + 1)
                if x + x0 < width { compositeRow(y + r, x + x0, min(width - 1, x + x1)) }
            }
            coverage.release(t)
        }
        coverage.active.removeAll(keepingCapacity: true)
    }

    func finishStroke() -> IntRect {
        fillEdge.removeAll()
        deferred.clear()
        lastPoint = nil
        activity = .idle
        let bounds = strokeBounds
        strokeBounds = .empty
        return bounds
    }

    // MARK: Coverage tiles

    /// The coverage tile `t` for the activity in progress, allocated on first touch; a
    /// finished stroke's tile there is merged first.
    @inline(__always)
    func claim(_ t: Int) -> UnsafeMutablePointer<UInt8> {
        if let tile = coverage.tiles[t], coverage.owner[t] == serial { return tile }
        return claimNew(t)
    }

    @inline(never)
    private func claimNew(_ t: Int) -> UnsafeMutablePointer<UInt8> {
        if coverage.tiles[t] != nil { mergeTile(t) }
        let tile = coverage.take()
        coverage.tiles[t] = tile
        coverage.owner[t] = serial
        coverage.source[t] = source
        coverage.opacity[t] = UInt16(alpha)
        coverage.active.append(t)
        return tile
    }

    /// Merges tile `t`'s coverage (a finished stroke's) into the paint and gives the tile back.
    func mergeTile(_ t: Int) {
        guard let tile = coverage.tiles[t] else { return }
        let src = coverage.source[t]
        let opacity = coverage.opacity[t]
        let pixels = paint.writableTile(t)
        CoverageLayer.visitMarks(tile, clearing: true) { r, x0, x1 in
            let i = r * Tile.size + x0
            SpanCompositor.merge(
                paint: pixels + i, coverage: tile + i, count: x1 - x0 + 1, source: src, opacity: opacity)
        }
        coverage.release(t)
        // An eraser can empty a tile: then it goes back to the shared transparent one.
        if src == 0 { releaseIfTransparent(t) }
    }

    private func releaseIfTransparent(_ t: Int) {
        let x0 = (t % paint.across) << Tile.shift
        let y0 = (t / paint.across) << Tile.shift
        let start = paint.row(t, 0)
        if PaintTile.uniformValue(
            of: start, stride: Tile.size, count: min(Tile.size, width - x0), rows: min(Tile.size, height - y0)) == 0
        {
            paint.set(t, PaintLayer.transparent)
        }
    }

    /// Whether finished strokes still wait to be merged into the paint.
    public var hasPendingMerges: Bool { !coverage.pending.isEmpty }

    /// Merges up to `limit` tiles of finished strokes into the paint (about 5 µs each); returns
    /// whether more remain. The window calls this while no input is waiting.
    @discardableResult
    public func mergePendingTiles(limit: Int) -> Bool {
        var done = 0
        while done < limit, let t = coverage.pending.popLast() {
            guard coverage.tiles[t] != nil, coverage.owner[t] != serial || !isStroking else { continue }
            mergeTile(t)
            done += 1
        }
        return !coverage.pending.isEmpty
    }

    /// Merges every finished stroke: called before anything reads or writes the paint.
    func settle() {
        drawDeferredBeforeReading()
        while let t = coverage.pending.popLast() {
            if coverage.tiles[t] != nil && (coverage.owner[t] != serial || !isStroking) { mergeTile(t) }
        }
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

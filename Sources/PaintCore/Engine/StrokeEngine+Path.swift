/// Freehand strokes through `StrokePath`: the pieces it makes are stamped, the provisional
/// ones after the stroke image under them is saved, and taken back before the next ones.
extension StrokeEngine {
    /// Stamps what the path made last: takes back the provisional pieces (unless the path
    /// keeps them), stamps the final ones, saves what lies under the new provisional ones and
    /// stamps them; returns the changed view rectangle. The work is the pixels these pieces
    /// touch.
    ///
    /// When more than one thing changes the view (a restore, several pieces), the changed runs
    /// are collected and each pixel composited once at the end, with its final coverage: the
    /// pieces of a curve overlap by most of their width.
    func stampPath() -> IntRect {
        stamp(
            restoring: !path.keepsProvisional && !provisional.rect.isEmpty, final: path.final,
            provisional: path.provisional)
    }

    /// Takes back the provisional pieces stamped last when `restores` (else they stay), stamps
    /// `final`, then saves what lies under `newProvisional` and stamps it: `stampPath` for one
    /// sample, `drawDeferred` for the samples of a turn. Returns the changed view rectangle.
    func stamp(restoring restores: Bool, final: [StrokePiece], provisional newProvisional: [StrokePiece]) -> IntRect {
        let collects = view != nil && !defersComposite && (restores || final.count + newProvisional.count > 1)
        if collects { startCollecting(final, newProvisional) }
        var dirty = IntRect.empty
        if restores {
            dirty = restoreProvisional()
        } else {
            provisional.discard()
        }
        for piece in final { dirty = dirty.union(stamp(piece)) }
        if !newProvisional.isEmpty {
            save(under: newProvisional)
            for piece in newProvisional { dirty = dirty.union(stamp(piece, keeping: true)) }
        }
        if collects { compositeCollected() }
        return dirty
    }

    /// Starts collecting the rows of the view the pieces and the restore can change.
    private func startCollecting(_ final: [StrokePiece], _ newProvisional: [StrokePiece]) {
        var box = provisional.rect
        for piece in final { box = box.union(Self.pixelBounds(of: piece)) }
        for piece in newProvisional { box = box.union(Self.pixelBounds(of: piece)) }
        let y0 = max(box.y, viewRect.y)
        let y1 = min(box.maxY, viewRect.maxY)
        collected.start(top: y0, rows: y1 - y0)
    }

    /// Composites the runs collected, each once, and stops collecting.
    private func compositeCollected() {
        collected.visit { y, x0, x1 in compositeStrokeRun(y, x0, x1) }
        collected.stop()
    }

    /// The pixels `piece` can touch (its bounds with a pixel to spare).
    static func pixelBounds(of piece: StrokePiece) -> IntRect {
        let b = Capsule.bounds(from: piece.from, to: piece.to, radius: piece.width / 2, margin: 1)
        return IntRect(
            x0: Int(clamping: b.minX, .down), y0: Int(clamping: b.minY, .down), x1: Int(clamping: b.maxX, .up),
            y1: Int(clamping: b.maxY, .up))
    }

    /// Stamps `piece`; `keeping`: a provisional piece, whose runs `provisional` keeps first.
    func stamp(_ piece: StrokePiece, keeping: Bool = false) -> IntRect {
        stamp(
            Capsule(from: piece.from, to: piece.to, width: piece.width), fullDiscAtStart: piece.continues,
            level: piece.level, keeping: keeping)
    }

    /// The stroke in progress's coverage tile holding pixel (x, y), or nil where it has none.
    @inline(__always)
    func ownTile(x: Int, y: Int) -> UnsafeMutablePointer<UInt8>? {
        let t = (y >> Tile.shift) * coverage.across + (x >> Tile.shift)
        guard let tile = coverage.tiles[t], coverage.owner[t] == serial else { return nil }
        return tile + (y & Tile.mask) * Tile.size
    }

    /// Calls `body(x0, x1, row)` for the pieces of row y from x0 through x1 that lie in one tile
    /// each; `row` points at the tile's row (its column 0), nil where the stroke has no tile.
    @inline(__always)
    func visitRow(_ y: Int, _ x0: Int, _ x1: Int, _ body: (Int, Int, UnsafeMutablePointer<UInt8>?) -> Void) {
        var x = x0
        while x <= x1 {
            let through = min(x1, (x | Tile.mask))
            body(x, through, ownTile(x: x, y: y))
            x = through + 1
        }
    }

    /// Starts keeping the stroke image under `pieces` (their bounding box within the clip):
    /// `stamp` keeps each run before it raises it.
    func save(under pieces: [StrokePiece]) {
        var box = IntRect.empty
        for piece in pieces { box = box.union(Self.pixelBounds(of: piece)) }
        provisional.start(box.intersection(clip))
    }

    /// Puts back the stroke image kept under the provisional pieces; the runs that changed are
    /// composited (collected, or noted as stale while compositing is deferred). Returns their
    /// bounds.
    func restoreProvisional() -> IntRect {
        guard !provisional.rect.isEmpty else { return .empty }
        var changedX0 = Int.max
        var changedX1 = Int.min
        var changedY0 = Int.max
        var changedY1 = Int.min
        let runs = collected.sink
        let composites = !defersComposite
        // Last kept first (a run kept twice is put back as it was before the first piece).
        var end = provisional.byteEnd
        var i = provisional.count
        while i > 0 {
            i -= 1
            let (y, x0, count, before) = provisional.run(i, endingAt: end)
            end -= count
            // The tile is the stroke's: a provisional piece claimed it or found it claimed.
            guard let row = ownTile(x: x0, y: y) else { continue }
            let now = row + (x0 & Tile.mask)
            let from = Self.firstDifference(now, before, count)
            guard from < count else { continue }
            let through = Self.lastDifference(now, before, count)
            for k in from...through { now[k] = before[k] }
            let first = x0 + from
            let last = x0 + through
            changedX0 = min(changedX0, first)
            changedX1 = max(changedX1, last)
            changedY0 = min(changedY0, y)
            changedY1 = max(changedY1, y)
            if composites && !runs.add(y, first, last) { compositeRow(y, first, last) }
        }
        provisional.discard()
        guard changedY0 <= changedY1 else { return .empty }
        let changed = IntRect(x0: changedX0, y0: changedY0, x1: changedX1, y1: changedY1)
        if defersComposite { staleView = staleView.union(changed) }
        return changed
    }

    /// The first of the `count` bytes at `a` and `b` that differ (`count` when none does),
    /// compared eight at a time.
    @inline(__always)
    static func firstDifference(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var i = 0
        while i + 8 <= count {
            let x =
                UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self)
            // Little-endian: the byte at the lowest address is the word's lowest.
            if x != 0 { return i + x.littleEndian.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < count && a[i] == b[i] { i += 1 }
        return i
    }

    /// The last of the `count` bytes at `a` and `b` that differ (one must), compared eight at
    /// a time from the end.
    @inline(__always)
    static func lastDifference(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var end = count
        while end >= 8 {
            let x =
                UnsafeRawPointer(a + end - 8).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(b + end - 8).loadUnaligned(as: UInt64.self)
            if x != 0 { return end - 1 - x.littleEndian.leadingZeroBitCount >> 3 }
            end -= 8
        }
        while a[end - 1] == b[end - 1] { end -= 1 }
        return end - 1
    }
}

/// The stroke image under a stroke's provisional pieces, kept so the next sample can take them
/// back: coverage only ever grows by max, so restoring these bytes undoes them exactly.
struct SavedCoverage {
    /// The pixels saved (image coordinates); empty when nothing is.
    var rect = IntRect.empty
    var bytes: [UInt8] = []
    /// Pixel runs (within one tile each) a restore changed, to recomposite after the new pieces
    /// are stamped, with where in `shown` their coverage as the view shows it is kept.
    var restored: [(y: Int, x0: Int, x1: Int, at: Int)] = []
    /// The restored runs' coverage before the restore: what the view shows there.
    var shown: [UInt8] = []

    mutating func discard() {
        rect = .empty
        restored.removeAll(keepingCapacity: true)
    }
}

/// Freehand strokes through `StrokePath`: the pieces it makes are stamped, the provisional
/// ones after the stroke image under them is saved, and taken back before the next ones.
extension StrokeEngine {
    /// Stamps what the path made last: takes back the provisional pieces (unless the path
    /// keeps them), stamps the final ones, saves what lies under the new provisional ones and
    /// stamps them; returns the changed view rectangle. The work is the pixels these pieces
    /// touch.
    func stampPath() -> IntRect {
        var dirty = IntRect.empty
        if path.keepsProvisional {
            provisional.discard()
        } else {
            dirty = restoreProvisional()
        }
        for piece in path.final { dirty = dirty.union(stamp(piece)) }
        if !path.provisional.isEmpty {
            save(under: path.provisional)
            for piece in path.provisional { dirty = dirty.union(stamp(piece)) }
        }
        recompositeRestored()
        return dirty
    }

    func stamp(_ piece: StrokePiece) -> IntRect {
        stamp(
            Capsule(from: piece.from, to: piece.to, width: piece.width), fullDiscAtStart: piece.continues,
            level: piece.level)
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

    /// Saves the stroke image under `pieces` (their bounding box within the clip).
    func save(under pieces: [StrokePiece]) {
        var box = IntRect.empty
        for piece in pieces {
            let b = Capsule(from: piece.from, to: piece.to, width: piece.width).bounds(margin: 1)
            box = box.union(
                IntRect(
                    x0: Int(clamping: b.minX, .down), y0: Int(clamping: b.minY, .down), x1: Int(clamping: b.maxX, .up),
                    y1: Int(clamping: b.maxY, .up)))
        }
        let r = box.intersection(clip)
        provisional.rect = r
        guard !r.isEmpty else { return }
        let count = r.width * r.height
        if provisional.bytes.count < count { provisional.bytes = [UInt8](repeating: 0, count: count) }
        provisional.bytes.withUnsafeMutableBufferPointer { saved in
            for y in r.y..<r.maxY {
                let line = saved.baseAddress! + (y - r.y) * r.width - r.x
                visitRow(y, r.x, r.maxX - 1) { x0, x1, row in
                    if let row {
                        (line + x0).update(from: row + (x0 & Tile.mask), count: x1 - x0 + 1)
                    } else {
                        (line + x0).update(repeating: 0, count: x1 - x0 + 1)
                    }
                }
            }
        }
    }

    /// Puts back the stroke image saved under the provisional pieces; notes the runs that
    /// changed (and what they held, which the view shows) and returns their bounds.
    func restoreProvisional() -> IntRect {
        let r = provisional.rect
        guard !r.isEmpty else { return .empty }
        provisional.rect = .empty
        var changed = IntRect.empty
        var used = 0
        if provisional.shown.count < r.width * r.height {
            provisional.shown = [UInt8](repeating: 0, count: r.width * r.height)
        }
        // Out of `provisional` while its buffers are open (their storage moves, nothing is copied).
        var runs = provisional.restored
        provisional.restored = []
        defer { provisional.restored = runs }
        provisional.bytes.withUnsafeBufferPointer { saved in
            provisional.shown.withUnsafeMutableBufferPointer { shown in
                for y in r.y..<r.maxY {
                    let line = saved.baseAddress! + (y - r.y) * r.width - r.x
                    visitRow(y, r.x, r.maxX - 1) { x0, x1, row in
                        // A tile made after the save held zeros then; none: nothing to restore.
                        guard let row else { return }
                        var first = x0
                        while first <= x1 && row[first & Tile.mask] == line[first] { first += 1 }
                        guard first <= x1 else { return }
                        var last = x1
                        while row[last & Tile.mask] == line[last] { last -= 1 }
                        let count = last - first + 1
                        (shown.baseAddress! + used).update(from: row + (first & Tile.mask), count: count)
                        (row + (first & Tile.mask)).update(from: line + first, count: count)
                        runs.append((y, first, last, used))
                        used += count
                        changed = changed.union(IntRect(x0: first, y0: y, x1: last, y1: y))
                    }
                }
            }
        }
        return changed
    }

    /// Taken-back pixels whose coverage now differs from what the view shows are composited
    /// again (most were covered again by the new pieces, to the same coverage).
    func recompositeRestored() {
        provisional.shown.withUnsafeBufferPointer { shown in
            for run in provisional.restored {
                guard let row = ownTile(x: run.x0, y: run.y) else { continue }
                let base = run.x0 & ~Tile.mask
                var x = run.x0
                while x <= run.x1 {
                    guard row[x - base] != shown[run.at + x - run.x0] else {
                        x += 1
                        continue
                    }
                    let start = x
                    while x <= run.x1 && row[x - base] != shown[run.at + x - run.x0] { x += 1 }
                    if defersComposite {
                        staleView = staleView.union(IntRect(x0: start, y0: run.y, x1: x - 1, y1: run.y))
                    } else {
                        compositeRow(run.y, start, x - 1)
                    }
                }
            }
        }
        provisional.restored.removeAll(keepingCapacity: true)
    }
}

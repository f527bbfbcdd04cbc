/// The pieces of a turn's samples (`move(to:pressure:deferred:)`) waiting to be stamped.
///
/// A window that reads the samples queued since its last frame feeds them one by one and then
/// presents once. Each sample's provisional piece (the straight tail to the pointer) would be
/// stamped and taken back by the next sample, unseen: of N samples in a turn, N - 1 of those
/// stamps are wasted. Deferred, the samples only run through `StrokePath`; what they make is
/// gathered here and stamped at once by `drawDeferred`:
/// - the final pieces of every sample, in order;
/// - a provisional piece that the next sample keeps (`StrokePath.keepsProvisional`: the curve
///   passes within 1/64 pixel of its end) joins them, as it would have stayed had it been
///   stamped; one the next sample replaces is dropped, never stamped;
/// - the last sample's provisional pieces, stamped as provisional (saved first), so the next
///   turn can take them back;
/// - whether the turn's first sample takes back the provisional pieces stamped before it.
///
/// The stroke image comes out byte for byte as with one sample per turn: coverage grows by
/// max, which does not depend on the order of the stamps, and a provisional piece taken back
/// leaves exactly the bytes it found. So do the view (each pixel is composited from its final
/// coverage) and whatever is merged: `StrokeDeferredTests` compare them.
struct DeferredPieces {
    /// Whether samples wait to be stamped.
    var isPending = false
    /// Whether their pieces are in `final` and `provisional`; while a turn has one sample they
    /// are only in the path (`StrokePath.final`, `.provisional`), not copied.
    var isGathered = false
    /// Whether the turn's first sample takes back the provisional pieces stamped before it.
    var restores = false
    var final: [StrokePiece] = []
    var provisional: [StrokePiece] = []
    /// What `drawDeferred` changed when the engine called it itself (before a read), for the
    /// caller's next `drawDeferred` to report.
    var drawn = IntRect.empty

    /// Final pieces gathered before they are stamped without waiting for `drawDeferred` (a
    /// caller that never calls it holds a bounded list).
    static let limit = 512

    mutating func clear() {
        isPending = false
        isGathered = false
        restores = false
        final.removeAll(keepingCapacity: true)
        provisional.removeAll(keepingCapacity: true)
        drawn = .empty
    }
}

extension StrokeEngine {
    /// Stamps what moves made with `deferred` left for later, as those moves would have stamped
    /// it one by one; returns the changed view rectangle (with what the engine drew itself
    /// since the last call, before a read). The window calls it once a frame, before it
    /// presents.
    @discardableResult
    public func drawDeferred() -> IntRect {
        drawDeferredBeforeReading()
        let drawn = deferred.drawn
        deferred.drawn = .empty
        return drawn
    }

    /// Stamps the deferred pieces, keeping their rectangle for `drawDeferred` to report: what
    /// reads the view or the stroke image calls it first.
    @inline(__always)
    func drawDeferredBeforeReading() {
        if deferred.isPending { stampDeferred() }
    }

    @inline(never)
    private func stampDeferred() {
        deferred.isPending = false
        let dirty: IntRect
        if deferred.isGathered {
            deferred.isGathered = false
            dirty = stamp(restoring: deferred.restores, final: deferred.final, provisional: deferred.provisional)
            deferred.final.removeAll(keepingCapacity: true)
            deferred.provisional.removeAll(keepingCapacity: true)
        } else {
            // One sample: its pieces are the path's, as `stampPath` would stamp them.
            dirty = stamp(restoring: deferred.restores, final: path.final, provisional: path.provisional)
        }
        deferred.drawn = deferred.drawn.union(dirty)
        deferred.restores = false
    }

    /// Notes the sample just added to the path (see `DeferredPieces`): the turn's first only
    /// marks the turn pending; a later one gathers its pieces after the turn's.
    func deferPath() {
        guard deferred.isPending else {
            deferred.isPending = true
            deferred.restores = !path.keepsProvisional && !provisional.rect.isEmpty
            return
        }
        if path.keepsProvisional { deferred.final.append(contentsOf: deferred.provisional) }
        deferred.final.append(contentsOf: path.final)
        deferred.provisional.removeAll(keepingCapacity: true)
        deferred.provisional.append(contentsOf: path.provisional)
    }

    /// Copies the pieces of the turn's one sample so far out of the path, before the next
    /// sample replaces them.
    func gatherPath() {
        deferred.isGathered = true
        deferred.final.append(contentsOf: path.final)
        deferred.provisional.append(contentsOf: path.provisional)
    }
}

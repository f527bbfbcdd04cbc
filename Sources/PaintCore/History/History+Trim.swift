/// Keeping the history under its memory cap, mostly in idle slices.
///
/// Past the cap the oldest region snapshots are deflated, then dropped, then the oldest
/// keyframes (see `History`). Deflating is the slow part (a 4K stroke's snapshot takes a few
/// milliseconds), so a step does not do it: it may leave the history up to an eighth over the
/// cap (`trimSlack`), and idle slices deflate a bounded number of bytes each, one snapshot
/// after the other, until it is under again. Only a step that takes the history past the cap
/// and the slack trims it at once, as before (a replay without idle time, or input that never
/// pauses). A snapshot being deflated stays warm in its step until its deflated copy is
/// complete, so undo reads it as it was at every moment.
extension History {
    /// A region snapshot being deflated, a slice at a time.
    struct DeflateJob {
        let step: Int
        /// The warm snapshot (held, so its words stay where the deflater reads them).
        let source: PackedPixels
        let deflater: Deflater
        /// Bytes of its words fed so far.
        var offset = 0
    }

    /// How far over the cap a step may leave the history for idle slices to trim: an eighth.
    public var trimSlack: Int { memoryCap / 8 }

    /// Bytes of snapshots still held as the engine's tiles (waiting in the pack queue): those
    /// tiles are mostly the engine's own paint, so they do not make a step trim at once (a 4K
    /// keyframe would count 33 MB until packed).
    var unpackedBytes: Int {
        var bytes = 0
        for target in packQueue { bytes += snapshot(at: target).map { $0.isPacked ? 0 : $0.byteCount } ?? 0 }
        if let job = packJob { bytes += snapshot(at: job.target).map { $0.isPacked ? 0 : $0.byteCount } ?? 0 }
        return bytes
    }

    /// After a step: keyframes thinned to their quarter of the cap; the rest of the trimming
    /// left to idle slices unless the packed snapshots are past the cap and the slack, or
    /// those still to be packed hold more than the cap by themselves.
    func trimAfterStep() {
        thinKeyframes()
        let unpacked = unpackedBytes
        if snapshotBytes - unpacked > memoryCap + trimSlack || unpacked > memoryCap { trimToCap() }
    }

    /// Whether idle slices still have trimming to do.
    var needsTrimming: Bool {
        snapshotBytes > memoryCap
            && (deflateJob != nil || oldestWarm < entries.count || oldestSnapshot < entries.count
                || !keyframes.isEmpty)
    }

    /// Keeps keyframes to a quarter of the cap by dropping every other one (the interval
    /// doubles, so the replay after a dropped snapshot grows but stays bounded).
    func thinKeyframes() {
        while keyframeBytes > memoryCap / 4 && keyframes.count > 1 {
            for (n, key) in keyframes.keys.sorted().enumerated() where n % 2 == 1 { dropKeyframe(key) }
            keyframeInterval *= 2
        }
    }

    /// Trims at once: thins keyframes, then deflates region snapshots oldest first (undo
    /// inflates them: a few ms instead of a replay), then drops them oldest first, then
    /// keyframes oldest first, until under the cap.
    func trimToCap() {
        thinKeyframes()
        while snapshotBytes > memoryCap && oldestWarm < entries.count {
            if var before = entries[oldestWarm].before {
                if !before.isPacked {
                    let packed = before.packed()
                    snapshotBytes += packed.byteCount - before.byteCount
                    retire(before)
                    entries[oldestWarm].before = packed
                    before = packed
                }
                if let cold = before.deflatedCopy() {
                    snapshotBytes += cold.byteCount - before.byteCount
                    retire(before)
                    entries[oldestWarm].before = cold
                }
            }
            oldestWarm += 1
        }
        dropOldest(untilFreed: Int.max)
    }

    /// Drops region snapshots oldest first, then keyframes oldest first, while over the cap and
    /// until about `limit` bytes are let go of.
    private func dropOldest(untilFreed limit: Int) {
        var freed = 0
        while snapshotBytes > memoryCap && oldestSnapshot < entries.count && freed < limit {
            if let before = entries[oldestSnapshot].before {
                snapshotBytes -= before.byteCount
                freed += before.byteCount
                retire(before)
                entries[oldestSnapshot].before = nil
            }
            oldestSnapshot += 1
        }
        while snapshotBytes > memoryCap && freed < limit, let oldest = keyframes.keys.min() {
            freed += keyframes[oldest]?.byteCount ?? 0
            dropKeyframe(oldest)
        }
    }

    /// One slice of trimming: deflates about `budget` bytes of the oldest warm snapshot
    /// (putting the deflated copy in its place when complete), or, once every snapshot is
    /// deflated, drops the oldest ones, about a megabyte's worth.
    func trimSlice(budget: Int) -> IdleStep {
        thinKeyframes()
        if deflateJob == nil {
            while oldestWarm < entries.count {
                guard let before = entries[oldestWarm].before, before.isPacked, !before.isDeflated,
                    before.storageByteCount > 0, let deflater = Deflater(level: 1)
                else {
                    oldestWarm += 1
                    continue
                }
                deflateJob = DeflateJob(step: oldestWarm, source: before, deflater: deflater)
                break
            }
        }
        guard var job = deflateJob else {
            dropOldest(untilFreed: Self.freedAtOnceBytes * 4)
            return .drop
        }
        let total = job.source.storageByteCount
        let end = min(total, job.offset + max(1, budget))
        let fed = job.source.withStorageBytes { bytes in
            job.deflater.feed(UnsafeRawBufferPointer(rebasing: bytes[job.offset..<end]), last: end == total)
        }
        job.offset = end
        guard fed, job.deflater.isFinished else {
            deflateJob = fed ? job : nil
            if !fed { oldestWarm = max(oldestWarm, job.step + 1) }
            return .deflate
        }
        deflateJob = nil
        // The step may have changed meanwhile (trimmed at once, or undone and replaced).
        guard job.step < entries.count, let current = entries[job.step].before,
            current.sharesStorage(with: job.source)
        else { return .deflate }
        if let cold = current.coldCopy(job.deflater.output) {
            snapshotBytes += cold.byteCount - current.byteCount
            retire(current)
            entries[job.step].before = cold
        }
        oldestWarm = max(oldestWarm, job.step + 1)
        return .deflate
    }
}

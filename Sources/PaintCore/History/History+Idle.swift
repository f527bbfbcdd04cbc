extension History {
    /// A snapshot held as tiles: a step's, or a keyframe's.
    enum PackTarget: Equatable {
        case step(Int)
        case keyframe(Int)
    }

    /// A snapshot being packed, a slice at a time.
    struct PackJob {
        let target: PackTarget
        let snapshot: TileSnapshot
        var packer: RunPacker
        let reader: TileReader
        let coversRect: Bool
    }

    /// Snapshots of at most this many pixels are packed when taken (well under a millisecond);
    /// larger ones by `idleWork`.
    static let packAtOnceLimit = 1 << 16

    /// `snapshot` packed now when small (or when `atOnce`), else queued for `idleWork` as is.
    func adopt(_ snapshot: PackedPixels, as target: PackTarget, atOnce: Bool) -> PackedPixels {
        if atOnce || snapshot.pixelsToPack <= Self.packAtOnceLimit { return snapshot.packed() }
        packQueue.append(target)
        return snapshot
    }

    /// Forgets queued packing of steps from `cursor` on and of keyframes past it (they are gone).
    func forgetPacking(after cursor: Int) {
        func gone(_ target: PackTarget) -> Bool {
            switch target {
            case .step(let i): return i >= cursor
            case .keyframe(let key): return key > cursor
            }
        }
        packQueue.removeAll(where: gone)
        if let job = packJob, gone(job.target) {
            job.reader.release()
            packJob = nil
        }
        if let job = deflateJob, job.step >= cursor { deflateJob = nil }
    }

    /// What one idle slice did (for the benchmark, which times each kind).
    public enum IdleStep: Sendable, CaseIterable {
        case nothing
        /// Merged finished strokes' tiles into the paint.
        case merge
        /// Took a keyframe that fell due while a stroke was being merged.
        case keyframe
        /// Freed part of what snapshots the history no longer holds kept alive.
        case free
        /// Started packing a snapshot, packed part of one, or put the packed one in place of
        /// its tiles.
        case pack
        /// Deflated part of a region snapshot past the cap (or put the deflated copy in place).
        case deflate
        /// Dropped the oldest snapshots past the cap.
        case drop
    }

    /// Whether `idleWork` has anything left to do for `engine`.
    public func hasIdleWork(engine: StrokeEngine) -> Bool {
        engine.hasPendingMerges || keyframeDue || hasRetired || packJob != nil || !packQueue.isEmpty
            || needsTrimming
    }

    /// Does a slice of the work recording steps left for later, about `budget` pixels' worth
    /// (the default is well under a millisecond): merging finished strokes into the paint,
    /// taking a keyframe that fell due while one was being merged, letting go of the tiles of
    /// snapshots that were packed, packing large snapshots, deflating or dropping the oldest
    /// snapshots while over the memory cap. Returns whether more remains. The
    /// window calls this while no input is waiting; nothing depends on it being called, it only
    /// gives memory back sooner.
    @discardableResult
    public func idleWork(engine: StrokeEngine, budget: Int = 1 << 17) -> Bool {
        if engine.hasPendingMerges {
            engine.mergePendingTiles(limit: max(1, budget / Tile.pixels))
            lastIdleStep = .merge
        } else if keyframeDue && !engine.isStroking {
            takeKeyframe(engine, atOnce: false)
            lastIdleStep = .keyframe
        } else if hasRetired {
            freeRetired(tileLimit: max(1, budget / Tile.pixels * 2))
            lastIdleStep = .free
        } else if packJob != nil || !packQueue.isEmpty {
            // Packing writes fresh memory (page faults): half the pixels of a merge slice.
            packSlice(budget: max(1, budget / 2))
            lastIdleStep = .pack
        } else if needsTrimming {
            // Bytes of words for zlib (level 1 deflates about 64 KB a millisecond here).
            lastIdleStep = trimSlice(budget: max(1, budget / 4))
        } else {
            lastIdleStep = .nothing
        }
        return hasIdleWork(engine: engine)
    }

    /// Keeps a snapshot the history no longer holds, to let it go in idle slices: the tiles
    /// of a tile snapshot a few at a time, a large packed one by itself. Freeing is giving
    /// memory back to the system, page by page: 64 tiles take about 0.1 ms, so the 2,040 of a
    /// 4K keyframe's would take some 3 ms at once, and dropping half the packed keyframes
    /// (8 MB each) took 1.3 to 1.9 ms, in a slice an input event would wait behind.
    func retire(_ snapshot: PackedPixels?) {
        guard let snapshot else { return }
        if let tiles = snapshot.tiles?.tiles {
            if !tiles.isEmpty { retiredTiles.append(tiles) }
        } else if snapshot.byteCount > Self.freedAtOnceBytes {
            retiredPacked.append(snapshot)
        }
    }

    /// Packed snapshots up to this size (256 KiB) are freed when let go of.
    static let freedAtOnceBytes = 1 << 18

    /// Whether snapshots let go of are still held, to be freed by idle slices.
    var hasRetired: Bool { !retiredTiles.isEmpty || !retiredPacked.isEmpty }

    /// Frees everything retired, here and now: for a history that no idle slice serves while
    /// it grows (a replay, on a thread no input waits for). Left to the slices, every keyframe
    /// a 2,000-step 4K replay thins (some 140 MB of them) stays alive until the window takes
    /// the history over, and the program's peak is that much higher.
    public func freeRetiredNow() {
        retiredPacked = []
        retiredTiles = []
    }

    /// Hands everything retired to the reclaimer; without one, frees one retired packed
    /// snapshot, else lets go of up to `limit` retired tiles (the last
    /// one held frees a tile's pixels).
    func freeRetired(tileLimit limit: Int) {
        if let reclaimer {
            reclaimer.take(&retiredPacked, &retiredTiles)
            return
        }
        if retiredPacked.popLast() != nil { return }
        var left = limit
        while left > 0, var tiles = retiredTiles.popLast() {
            let n = min(left, tiles.count)
            // Alone now (the snapshot that held it is gone), so this releases in place.
            tiles.removeLast(n)
            left -= n
            if !tiles.isEmpty { retiredTiles.append(tiles) }
        }
    }

    /// Packs about `budget` pixels of the oldest queued snapshot; when it is done, it replaces
    /// the tiles it was packed from.
    private func packSlice(budget: Int) {
        if packJob == nil {
            while let target = packQueue.first {
                packQueue.removeFirst()
                if let snapshot = self.snapshot(at: target), let tiles = snapshot.tiles {
                    let reader = TileReader(tiles)
                    packJob = PackJob(
                        target: target, snapshot: tiles, packer: RunPacker(spans: tiles.spans()), reader: reader,
                        coversRect: snapshot.coversRect)
                    // Listing a large footprint's spans is a slice of its own.
                    return
                }
            }
        }
        // Taken out while packing, so its words are not shared (and copied) on append.
        guard var job = packJob else { return }
        packJob = nil
        guard job.packer.pack(job.reader, budget: budget) else {
            packJob = job
            return
        }
        job.reader.release()
        // The snapshot may have been packed meanwhile (trimming) or replaced.
        guard let current = snapshot(at: job.target), let tiles = current.tiles, tiles.serial == job.snapshot.serial
        else {
            return
        }
        let packed = PackedPixels(&job.packer, rect: current.rect, coversRect: job.coversRect)
        let change = packed.byteCount - current.byteCount
        snapshotBytes += change
        retire(current)
        switch job.target {
        case .step(let i): entries[i].before = packed
        case .keyframe(let key):
            keyframes[key] = packed
            keyframeBytes += change
        }
    }

    func snapshot(at target: PackTarget) -> PackedPixels? {
        switch target {
        case .step(let i): return i < entries.count ? entries[i].before : nil
        case .keyframe(let key): return keyframes[key]
        }
    }
}

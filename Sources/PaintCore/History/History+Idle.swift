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
    }

    /// Whether `idleWork` has anything left to do for `engine`.
    public func hasIdleWork(engine: StrokeEngine) -> Bool {
        engine.hasPendingMerges || keyframeDue || packJob != nil || !packQueue.isEmpty
    }

    /// Does a slice of the work recording steps left for later, about `budget` pixels' worth
    /// (the default is well under a millisecond): merging finished strokes into the paint,
    /// taking a keyframe that fell due while one was being merged, packing large snapshots.
    /// Returns whether more remains. The window calls this while no input is waiting; nothing
    /// depends on it being called, it only gives memory back sooner.
    @discardableResult
    public func idleWork(engine: StrokeEngine, budget: Int = 1 << 17) -> Bool {
        if engine.hasPendingMerges {
            engine.mergePendingTiles(limit: max(1, budget / Tile.pixels))
        } else if keyframeDue && !engine.isStroking {
            takeKeyframe(engine, atOnce: false)
        } else {
            packSlice(budget: budget)
        }
        return hasIdleWork(engine: engine)
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
                    break
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
        let packed = PackedPixels(job.packer, rect: current.rect, coversRect: job.coversRect)
        let change = packed.byteCount - current.byteCount
        snapshotBytes += change
        switch job.target {
        case .step(let i): entries[i].before = packed
        case .keyframe(let key):
            keyframes[key] = packed
            keyframeBytes += change
        }
        trimToCap()
    }

    private func snapshot(at target: PackTarget) -> PackedPixels? {
        switch target {
        case .step(let i): return i < entries.count ? entries[i].before : nil
        case .keyframe(let key): return keyframes[key]
        }
    }
}

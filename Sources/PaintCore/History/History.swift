/// Undo and redo over the operation log, without a step limit.
///
/// Every operation is kept. Each also keeps the paint pixels its region held before it ran, so
/// undo restores just that region; those snapshots are bounded by `memoryCap` (oldest dropped
/// first). Undoing a step whose snapshot was dropped rebuilds the paint from the starting
/// picture by replaying the log up to that step, which the engine does bit for bit.
public final class History {
    /// One step: the operation and, while memory allows, the paint it replaced.
    struct Entry {
        let operation: Operation
        let region: IntRect
        var before: PixelImage?
    }

    private var entries: [Entry] = []
    /// How many entries are applied; entries past it can be redone.
    public private(set) var cursor = 0
    /// The paint the document started from (nil: transparent).
    private let base: PixelImage?
    /// The most bytes of before-snapshots kept.
    public let memoryCap: Int
    /// Bytes of before-snapshots held now.
    public private(set) var snapshotBytes = 0

    /// A history starting from `base` paint.
    public init(base: PixelImage?, memoryCap: Int = 256 << 20) {
        self.base = base
        self.memoryCap = max(0, memoryCap)
    }

    public var canUndo: Bool { cursor > 0 }
    public var canRedo: Bool { cursor < entries.count }
    /// Steps recorded (applied or undone).
    public var count: Int { entries.count }

    /// The paint the history starts from (nil: transparent).
    public var startingPaint: PixelImage? { base }

    /// Every recorded operation, applied and undone, oldest first.
    public var operations: [Operation] { entries.map(\.operation) }

    /// Records a stroke that the engine has drawn live and not yet merged: snapshots the pixels
    /// the stroke touched, then merges it. Returns the stroke's bounds (empty: nothing drawn,
    /// nothing recorded).
    @discardableResult
    public func commitLiveStroke(_ operation: Operation, engine: StrokeEngine) -> IntRect {
        let region = engine.strokeBoundsSoFar
        let before = engine.paintRegion(region)
        let bounds = engine.end()
        guard !bounds.isEmpty else { return .empty }
        push(Entry(operation: operation, region: region, before: before))
        return bounds
    }

    /// Carries out an operation (a replayed stroke, a clear, or a history move) and records it;
    /// returns the changed view rectangle.
    @discardableResult
    public func perform(_ operation: Operation, engine: StrokeEngine) -> IntRect {
        switch operation {
        case .undo: return undo(engine: engine)
        case .redo: return redo(engine: engine)
        case .saved: return .empty
        case .stroke, .clear:
            if engine.isStroking { engine.end() }
            let region = operation.region(in: engine)
            let before = engine.paintRegion(region)
            let dirty = operation.apply(to: engine)
            push(Entry(operation: operation, region: region, before: before))
            return dirty.union(operation == .clear ? engine.bounds : .empty)
        }
    }

    /// Steps back; returns the changed view rectangle.
    @discardableResult
    public func undo(engine: StrokeEngine) -> IntRect {
        guard canUndo else { return .empty }
        if engine.isStroking { engine.end() }
        cursor -= 1
        let entry = entries[cursor]
        if let before = entry.before {
            return engine.restorePaint(before, atX: entry.region.x, y: entry.region.y)
        }
        // The snapshot was dropped to stay under the cap: rebuild from the start.
        if let base {
            engine.replacePaint(with: base)
        } else {
            engine.clearPaint()
        }
        for e in entries[0..<cursor] { e.operation.apply(to: engine) }
        return engine.bounds
    }

    /// Steps forward again; returns the changed view rectangle.
    @discardableResult
    public func redo(engine: StrokeEngine) -> IntRect {
        guard canRedo else { return .empty }
        if engine.isStroking { engine.end() }
        let entry = entries[cursor]
        cursor += 1
        let dirty = entry.operation.apply(to: engine)
        return entry.operation == .clear ? engine.bounds : dirty
    }

    private func push(_ entry: Entry) {
        // A new step after undos forgets the undone ones, as every editor does.
        for dropped in entries[cursor...] { snapshotBytes -= dropped.before.map(Self.bytes) ?? 0 }
        entries.removeSubrange(cursor...)
        entries.append(entry)
        cursor = entries.count
        snapshotBytes += entry.before.map(Self.bytes) ?? 0
        var oldest = 0
        while snapshotBytes > memoryCap && oldest < entries.count {
            if let before = entries[oldest].before {
                snapshotBytes -= Self.bytes(before)
                entries[oldest].before = nil
            }
            oldest += 1
        }
    }

    private static func bytes(_ image: PixelImage) -> Int { image.pixels.count * 4 }
}

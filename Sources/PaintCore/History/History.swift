/// Undo and redo over the operation log, without a step limit.
///
/// Every operation is kept. Each also keeps the paint pixels its region held before it ran
/// (run-length packed), so undo restores just that region: one unpack, whatever the step. Every
/// `keyframeInterval` steps a packed copy of the whole paint layer is kept too, for the time
/// the oldest region snapshots no longer fit. All of it lives under `memoryCap`, and the region
/// snapshots come first, because they are what makes every undo cheap: keyframes may hold a
/// quarter of the cap (past that every other one goes and the interval doubles), then the
/// oldest region snapshots go, then the oldest keyframes. Undoing a step whose snapshot was
/// dropped restores the nearest keyframe below it and replays the steps in between that touch
/// the step's region, which the engine does bit for bit; with no keyframe below, it replays
/// from the start.
///
/// A canvas change (crop, canvas size, scale, turn) is a step too. Region snapshots, keyframes
/// and regions are in the coordinates of the canvas they were taken on, so the steps fall into
/// stretches of one canvas, each started by a canvas change; a region is rebuilt only from
/// snapshots of its own stretch, and anything reaching back past a canvas change renders the
/// whole picture again from a whole-canvas state (see `History+Canvas.swift`).
///
/// Snapshots are taken by reference to the engine's tiles (`TileSnapshot`), so recording a step
/// costs time in proportion to its tiles, not its pixels; small ones are packed right away,
/// large ones (a stroke across a 4K canvas, a keyframe) by `idleWork`, a slice at a time, while
/// the program waits for input. The same slices merge finished strokes into the paint, deflate
/// and drop the oldest snapshots past the cap (`History+Trim.swift`), and hand what the history
/// lets go of to a thread that frees it (`Reclaimer`).
public final class History {
    /// One step: the operation and, while memory allows, the paint it replaced.
    struct Entry {
        let operation: Operation
        let region: IntRect
        var before: PackedPixels?
        /// Taken out by a later `.removeStroke` that is applied now.
        var removed = false
        /// For a background change or a canvas change: the background before it.
        var previousBackground: Background?
        /// The canvas before the step (only a canvas change makes it differ from the one after).
        var canvasBefore = IntRect.empty
        /// For a canvas change: whether the engine carried it out (a replayed journal asking
        /// for a size beyond the limits is refused and changes nothing).
        var changedCanvas = false
        /// How a re-render treats the step, and the step a removal targets (-1 for none): kept
        /// beside the operation so a re-render's scans read plain fields, not the payload.
        let replay: Replay
        let removesStep: Int

        enum Replay { case regional, always, background, never }

        init(operation: Operation, region: IntRect, before: PackedPixels?) {
            self.operation = operation
            self.region = region
            self.before = before
            switch operation {
            case .stroke, .shape, .text: replay = .regional
            case .fill, .clear, .clearRect, .paste, .moveRect, .orientRect: replay = .always
            case .background: replay = .background
            // A re-render stays on one canvas: a canvas change starts the stretch it renders.
            case .canvas, .undo, .redo, .removeStroke: replay = .never
            }
            if case .removeStroke(let step) = operation { removesStep = step } else { removesStep = -1 }
        }
    }

    var entries: [Entry] = []
    /// How many entries are applied; entries past it can be redone.
    public private(set) var cursor = 0
    /// The paint the document started from (nil: transparent), sharing the engine's tiles.
    let base: PackedPixels?
    /// The most bytes of before-snapshots kept.
    public let memoryCap: Int
    /// Bytes of snapshots and keyframes held now.
    public internal(set) var snapshotBytes = 0
    /// Packed whole-canvas paint as it stood before step `key` (after steps 0..<key).
    var keyframes: [Int: PackedPixels] = [:]
    /// Bytes of `keyframes`, also counted in `snapshotBytes`.
    public internal(set) var keyframeBytes = 0
    /// Steps between keyframes: an undo past the dropped snapshots replays at most this many.
    /// Starts at `initialKeyframeInterval` and doubles whenever keyframes are thinned.
    public internal(set) var keyframeInterval = History.initialKeyframeInterval
    public static let initialKeyframeInterval = 16

    /// The memory cap when none is given: 256 MB.
    public static let defaultMemoryCap = 256 << 20

    /// Snapshots still held as tiles, to pack in `idleWork` (oldest first).
    var packQueue: [PackTarget] = []
    /// The snapshot being packed, a slice at a time.
    var packJob: PackJob?
    /// A keyframe is due but the engine was busy (a stroke being merged): `idleWork` takes it.
    var keyframeDue = false
    /// Tiles of snapshots let go of, freed a bounded number per idle slice (`retire`).
    var retiredTiles: [ContiguousArray<PaintTile>] = []
    /// Large packed snapshots let go of, freed one per idle slice.
    var retiredPacked: [PackedPixels] = []
    /// Frees large snapshots on a thread of its own (else idle slices free them one at a time).
    public var reclaimer: Reclaimer?
    /// What the last `idleWork` slice did.
    public internal(set) var lastIdleStep = IdleStep.nothing

    /// A history starting from `base` paint.
    public init(base: PixelImage?, memoryCap: Int = defaultMemoryCap) {
        self.base = base.map { PackedPixels(tiles: TileSnapshot(image: $0), coversRect: true) }
        self.memoryCap = max(0, memoryCap)
    }

    /// A history starting from the paint `engine` holds now, sharing its tiles: no copy of the
    /// opened picture is made until a stroke changes a tile of it.
    public init(startingFrom engine: StrokeEngine, memoryCap: Int = defaultMemoryCap) {
        base = PackedPixels(tiles: engine.snapshotPaint(engine.bounds), coversRect: true)
        self.memoryCap = max(0, memoryCap)
    }

    public var canUndo: Bool { cursor > 0 }
    public var canRedo: Bool { cursor < entries.count }
    /// Steps recorded (applied or undone).
    public var count: Int { entries.count }

    /// The canvas the history starts on (the starting picture's, else the one the first step
    /// found); nil while nothing is recorded on a blank canvas.
    public var startingCanvas: IntRect? {
        base?.rect ?? entries.first?.canvasBefore
    }

    /// The background the history starts on (`engine` being the one it records): the one the
    /// first step that changed the background found, else the engine's own. A saved history and
    /// a journal start their replay on it, so undoing to the start shows it again.
    public func startingBackground(engine: StrokeEngine) -> Background {
        background(atStep: 0, engine: engine)
    }

    /// Every recorded operation, applied and undone, oldest first.
    public var operations: [Operation] { entries.map(\.operation) }

    /// Records a stroke that the engine has drawn live and not yet merged: snapshots the pixels
    /// the stroke touched, then merges it. Returns the stroke's bounds (empty: nothing drawn,
    /// nothing recorded).
    ///
    /// The snapshot holds the touched tiles by reference and the merge is left to the engine's
    /// idle slices: this takes time in proportion to the stroke's tiles, not its pixels.
    @discardableResult
    public func commitLiveStroke(_ operation: Operation, engine: StrokeEngine) -> IntRect {
        commitStroke(operation, engine: engine, atOnce: false)
    }

    private func commitStroke(_ operation: Operation, engine: StrokeEngine, atOnce: Bool) -> IntRect {
        // What the release adds (a stabilized line drawn on to its end) belongs to the step.
        engine.finishPath()
        let region = engine.strokeBoundsSoFar
        let before = PackedPixels(tiles: engine.snapshotFootprint(), coversRect: false)
        let bounds = engine.end()
        guard !bounds.isEmpty else { return .empty }
        if atOnce { engine.settle() }
        push(Entry(operation: operation, region: region, before: before), engine: engine, atOnce: atOnce)
        return bounds
    }

    /// Carries out an operation (a replayed stroke, a clear, or a history move) and records it;
    /// returns the changed view rectangle. `live` (the window's own steps): a stroke, shape,
    /// fill or text leaves its merge and the packing of its snapshot to idle slices, as a
    /// released stroke does (a fill of a whole 4K canvas: 66 -> 35 ms); a replay, which has no
    /// idle time, does both at once.
    @discardableResult
    public func perform(_ operation: Operation, engine: StrokeEngine, live: Bool = false) -> IntRect {
        switch operation {
        case .undo: return undo(engine: engine)
        case .redo: return redo(engine: engine)
        case .removeStroke(let step): return removeStroke(at: step, engine: engine)
        case .stroke, .shape, .fill, .text:
            // Drawn as the live session draws it, so the snapshot is the footprint.
            if engine.isStroking { engine.end() }
            guard operation.drawLive(into: engine) else {
                push(Entry(operation: operation, region: .empty, before: nil), engine: engine, atOnce: true)
                return .empty
            }
            let dirty = engine.strokeBoundsSoFar
            if engine.strokeBoundsSoFar.isEmpty {
                engine.end()
                push(Entry(operation: operation, region: .empty, before: nil), engine: engine, atOnce: true)
                return dirty
            }
            // `dirty` holds all the step drew: drawing it finished its path (a stabilized line's
            // end), so the commit adds nothing to what the view redraws.
            _ = commitStroke(operation, engine: engine, atOnce: !live)
            return dirty
        case .background(let background):
            if engine.isStroking { engine.end() }
            var entry = Entry(operation: operation, region: .empty, before: nil)
            entry.previousBackground = engine.background
            let dirty = engine.setBackground(background)
            push(entry, engine: engine, atOnce: true)
            return dirty
        case .canvas(let change):
            return performCanvasChange(change, engine: engine)
        case .clear, .clearRect, .paste, .moveRect, .orientRect:
            if engine.isStroking { engine.end() }
            let region = operation.region(in: engine)
            let before = PackedPixels(tiles: engine.snapshotPaint(region), coversRect: true)
            let dirty = operation.apply(to: engine)
            engine.settle()
            push(Entry(operation: operation, region: region, before: before), engine: engine, atOnce: true)
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
        if case .removeStroke(let step) = entry.operation { entries[step].removed = false }
        if case .canvas(let change) = entry.operation { return undoCanvasChange(entry, change, engine: engine) }
        if let previous = entry.previousBackground { return engine.setBackground(previous) }
        if let before = entry.before {
            return engine.unpackPaint(before)
        }
        // The snapshot was dropped to stay under the cap. Only the step's region differs between
        // before and after it, so only that region is rebuilt: from the nearest keyframe below,
        // replaying the steps in between clipped to the region.
        let region = entry.region.isEmpty ? engine.bounds : entry.region
        render(region, upTo: cursor, engine: engine)
        return region
    }

    /// Steps forward again; returns the changed view rectangle.
    @discardableResult
    public func redo(engine: StrokeEngine) -> IntRect {
        guard canRedo else { return .empty }
        if engine.isStroking { engine.end() }
        let entry = entries[cursor]
        cursor += 1
        switch entry.operation {
        case .removeStroke(let step):
            entries[step].removed = true
            render(entry.region, upTo: cursor, engine: engine)
            return entry.region
        case .clear, .background:
            entry.operation.apply(to: engine)
            return engine.bounds
        default:
            return entry.operation.apply(to: engine)
        }
    }

    // MARK: Removing a past stroke

    /// The newest text step (not removed) whose ink's bounding box holds `point`, looked for
    /// down to the newest clear or canvas change: where a double click opens text again, which
    /// falls as often between two letters or inside an "o" as on a letter's ink.
    public func text(around point: Point) -> Int? {
        guard point.isFinite else { return nil }
        let x = Int(clamping: point.x, .down)
        let y = Int(clamping: point.y, .down)
        for index in stride(from: cursor - 1, through: 0, by: -1) where !entries[index].removed {
            switch entries[index].operation {
            case .clear, .canvas: return nil
            case .text(_, let spec) where spec.mask.bounds.contains(x, y): return index
            default: continue
            }
        }
        return nil
    }

    /// The applied stroke whose footprint lies under `point` (within `slack` pixels of its
    /// rim), topmost first; nil when none does or a clear hides everything beneath.
    public func stroke(at point: Point, slack: Double = 3) -> Int? {
        // The point as it lies on the canvas of each step: taken back through every canvas
        // change on the way down.
        var point = point
        for index in stride(from: cursor - 1, through: 0, by: -1) where !entries[index].removed {
            switch entries[index].operation {
            case .clear: return nil
            case .canvas(let change) where entries[index].changedCanvas:
                let canvas = entries[index].canvasBefore
                point = change.unmap(point, width: canvas.width, height: canvas.height)
            case .stroke(let style, let points, _):
                let reach = style.width / 2 + slack
                if points.count == 1 {
                    if Capsule(from: points[0], to: points[0], width: 0).distance(point.x, point.y) <= reach {
                        return index
                    }
                }
                for (a, b) in zip(points, points.dropFirst())
                where Capsule(from: a, to: b, width: 0).distance(point.x, point.y) <= reach {
                    return index
                }
            case .shape(let style, let spec):
                if spec.isHit(
                    by: point, reach: style.width / 2 + slack, width: style.width,
                    squareCorners: style.drawing >= .session7)
                {
                    return index
                }
            case .text(_, let spec):
                if spec.isHit(by: point, reach: slack) { return index }
            default: continue
            }
        }
        return nil
    }

    /// The samples of the stroke at `step` (for a hover outline), where they lie on the canvas
    /// now (carried through every canvas change since), or nil.
    public func strokePoints(at step: Int) -> (style: StrokeStyle, points: [Point])? {
        guard entries.indices.contains(step) else { return nil }
        var found: (style: StrokeStyle, points: [Point])
        switch entries[step].operation {
        case .stroke(let style, let points, _):
            found = (style, points)
        case .shape(let style, let spec):
            found = (style, spec.outline(width: style.width))
        case .text(let style, let spec):
            found = (style, spec.outline)
        default:
            return nil
        }
        for entry in entries[step..<max(step, cursor)] where entry.changedCanvas {
            guard case .canvas(let change) = entry.operation else { continue }
            let canvas = entry.canvasBefore
            found.points = found.points.map { change.map($0, width: canvas.width, height: canvas.height) }
        }
        return found
    }

    /// Takes the stroke at `step` out of the picture: its region is rendered again from what
    /// lies beneath (its own before-snapshot when kept) and every later step, clipped to that
    /// region. Recorded as a step of its own, so it can be undone.
    @discardableResult
    public func removeStroke(at step: Int, engine: StrokeEngine) -> IntRect {
        guard step >= 0, step < cursor, !entries[step].removed, entries[step].operation.isRemovable else {
            return .empty
        }
        if engine.isStroking { engine.end() }
        // A stroke drawn before the canvas changed lies elsewhere now, perhaps scaled: the whole
        // picture is rendered again (see `History+Canvas.swift`).
        let crossesCanvasChange = lastCanvasChange(before: cursor).map { $0 >= step } ?? false
        let region = crossesCanvasChange ? engine.bounds : entries[step].region
        let before = engine.packPaint(region)
        entries[step].removed = true
        render(region, upTo: cursor, engine: engine, removing: step)
        push(Entry(operation: .removeStroke(step: step), region: region, before: before), engine: engine, atOnce: true)
        return region
    }

    /// Renders `region` as steps 0..<end leave it (skipping removed ones): from the nearest
    /// kept snapshot that is still true, else from the starting picture. `removing` is a step
    /// being removed right now (its removal is not recorded yet).
    private func render(_ requested: IntRect, upTo end: Int, engine: StrokeEngine, removing: Int? = nil) {
        // A fill floods what the whole picture shows, and a move carries paint from elsewhere,
        // so a replay that includes either cannot be clipped to a region: it renders the whole
        // canvas.
        let hasFill = firstWholeCanvasStep.map { $0 < end } ?? false
        let region = hasFill ? engine.bounds : requested
        // Start from the latest step whose before-snapshot covers the region and is still
        // true: a snapshot taken before a stroke that a later step removed still shows that
        // stroke, so it is usable only when every removal from there on targets a step at or
        // above it. Else start from the starting picture. Only snapshots on the canvas as it
        // is now count: past a canvas change, the whole picture is rendered instead.
        let canvasStart = lastCanvasChange(before: end).map { $0 + 1 } ?? 0
        var start = 0
        var startPixels: PackedPixels?
        var lowestRemovedAbove = removing ?? Int.max
        for index in stride(from: end, through: canvasStart, by: -1) {
            scannedEntries += 1
            // The paint before step `index`: its own snapshot (for its region) or a keyframe.
            if lowestRemovedAbove >= index {
                if index < end, let before = entries[index].before, before.coversRect,
                    before.rect.intersection(region) == region
                {
                    start = index
                    startPixels = before
                    break
                }
                if let keyframe = keyframes[index] {
                    start = index
                    startPixels = keyframe
                    break
                }
            }
            if index > 0, entries[index - 1].removesStep >= 0 {
                lowestRemovedAbove = min(lowestRemovedAbove, entries[index - 1].removesStep)
            }
        }
        if startPixels == nil && canvasStart > 0 {
            return renderWholePicture(upTo: end, engine: engine, removing: removing)
        }
        let savedClip = engine.clip
        let finalBackground = engine.background
        if hasFill, case let atStart = background(atStep: start, engine: engine), atStart != engine.background {
            engine.setBackground(atStart)
        }
        engine.clip = region
        // The region is recomposited once at the end, not stroke by stroke.
        let deferred = engine.defersComposite
        engine.defersComposite = true
        if let startPixels {
            // A fill reads the view, so the view must show the restored paint before replaying.
            engine.unpackPaint(startPixels, clip: region, recomposite: hasFill)
        } else if let base {
            engine.unpackPaint(base, clip: region, recomposite: hasFill)
        } else {
            engine.clearPaint()
        }
        scannedEntries += end - start
        for index in start..<end where !entries[index].removed {
            switch entries[index].replay {
            // A stroke or shape changes nothing outside its region: most of a long history
            // misses a small region and costs nothing to skip.
            case .regional:
                if !entries[index].region.intersection(region).isEmpty { entries[index].operation.apply(to: engine) }
            case .always: entries[index].operation.apply(to: engine)
            case .background where hasFill: entries[index].operation.apply(to: engine)
            default: continue
            }
        }
        engine.clip = savedClip
        if engine.background != finalBackground { engine.setBackground(finalBackground) }
        engine.defersComposite = deferred
        engine.recomposite(region)
    }

    /// The background in effect before step `step`: the one the first later step that changed
    /// the background (a background step, a canvas change) found, else the engine's, which
    /// nothing has changed since (the engine stands at a step at or after `step`).
    func background(atStep step: Int, engine: StrokeEngine) -> Background {
        entries[min(step, entries.count)...].first { $0.previousBackground != nil }?.previousBackground
            ?? engine.background
    }

    /// Steps whose region snapshot is held deflated, and steps whose snapshot was dropped (for
    /// tests and the benchmark).
    public var coldSnapshotCounts: (deflated: Int, dropped: Int) {
        var deflated = 0
        var dropped = 0
        for entry in entries {
            if let before = entry.before {
                if before.isDeflated { deflated += 1 }
            } else if case .canvas(let change) = entry.operation {
                if entry.changedCanvas && change.inverse == nil { dropped += 1 }
            } else if !entry.region.isEmpty && entry.previousBackground == nil {
                dropped += 1
            }
        }
        return (deflated, dropped)
    }

    /// Entries a re-render looked at (found a starting point among, or replayed), for tests:
    /// removing a stroke costs a visit per step above it, never a scan of the whole history.
    var scannedEntries = 0

    /// Tests turn this off to exercise the keyframe path without tuning a cap.
    var keepsRegionSnapshots = true

    func push(_ entry: Entry, engine: StrokeEngine, atOnce: Bool) {
        var entry = entry
        if !keepsRegionSnapshots { entry.before = nil }
        if entry.canvasBefore.isEmpty { entry.canvasBefore = engine.bounds }
        // A new step after undos forgets the undone ones, as every editor does.
        if cursor < entries.count {
            for dropped in entries[cursor...] {
                snapshotBytes -= dropped.before?.byteCount ?? 0
                retire(dropped.before)
            }
            for key in keyframes.keys where key > cursor { dropKeyframe(key) }
            entries.removeSubrange(cursor...)
            forgetPacking(after: cursor)
            if let first = firstWholeCanvasStep, first >= cursor { firstWholeCanvasStep = nil }
            while let last = canvasChanges.last, last >= cursor { canvasChanges.removeLast() }
        }
        if firstWholeCanvasStep == nil {
            switch entry.operation {
            case .fill, .moveRect, .orientRect: firstWholeCanvasStep = entries.count
            default: break
            }
        }
        if entry.changedCanvas { canvasChanges.append(entries.count) }
        oldestSnapshot = min(oldestSnapshot, entries.count)
        oldestWarm = min(oldestWarm, entries.count)
        entry.before = entry.before.map { adopt($0, as: .step(entries.count), atOnce: atOnce) }
        entries.append(entry)
        cursor = entries.count
        snapshotBytes += entry.before?.byteCount ?? 0
        if cursor - newestKeyframe >= keyframeInterval {
            if engine.hasPendingMerges || engine.isStroking {
                keyframeDue = true
            } else {
                takeKeyframe(engine, atOnce: atOnce)
            }
        }
        trimAfterStep()
    }

    /// Keeps a snapshot of the whole paint as it stands after the current step.
    func takeKeyframe(_ engine: StrokeEngine, atOnce: Bool) {
        keyframeDue = false
        guard keyframes[cursor] == nil else { return }
        let snapshot = PackedPixels(tiles: engine.snapshotPaint(engine.bounds), coversRect: true)
        let keyframe = adopt(snapshot, as: .keyframe(cursor), atOnce: atOnce)
        keyframes[cursor] = keyframe
        newestKeyframe = max(newestKeyframe, cursor)
        keyframeBytes += keyframe.byteCount
        snapshotBytes += keyframe.byteCount
    }

    func dropKeyframe(_ key: Int) {
        guard let keyframe = keyframes.removeValue(forKey: key) else { return }
        retire(keyframe)
        if key == newestKeyframe { newestKeyframe = keyframes.keys.max() ?? 0 }
        keyframeBytes -= keyframe.byteCount
        snapshotBytes -= keyframe.byteCount
    }

    /// The step of the newest keyframe (0 when there is none): the next one is due
    /// `keyframeInterval` steps after it.
    private var newestKeyframe = 0
    /// The first step that is a fill, a move or a turned selection: a re-render that includes it
    /// cannot be clipped to a region. Kept up to date on every push, so a removal does not scan
    /// the history.
    private var firstWholeCanvasStep: Int?
    /// The steps that changed the canvas, in order (kept on every push, for the same reason).
    private var canvasChanges: [Int] = []

    /// The last step below `end` that changed the canvas, if any.
    private func lastCanvasChange(before end: Int) -> Int? {
        // Binary search: a log read back may hold many canvas changes.
        var low = 0
        var high = canvasChanges.count
        while low < high {
            let mid = (low + high) / 2
            if canvasChanges[mid] < end { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? canvasChanges[low - 1] : nil
    }
    /// Entries below this index hold no region snapshot any more.
    var oldestSnapshot = 0
    /// Entries below this index hold their region snapshot deflated, or none.
    var oldestWarm = 0
    /// The region snapshot being deflated by idle slices (`History+Trim.swift`).
    var deflateJob: DeflateJob?

}

/// Canvas changes in the history: crop, canvas size, scale, turns and mirrors.
///
/// A turn or a mirror is undone by its inverse, exactly, with nothing kept. A crop, a canvas
/// size or a scale loses pixels, so its step keeps the whole paint from before it (packed, under
/// the same memory cap as every snapshot) and the background; undo puts both back. When that
/// snapshot was dropped for memory, or a stroke drawn before a canvas change is removed, the
/// whole picture is rendered again: from the nearest whole-canvas state below (a keyframe, a
/// whole snapshot, or the starting picture), replaying every step in between, canvas changes
/// included, which the engine does bit for bit.
///
/// Why the whole picture and not the stroke's region carried through the change: after a scale
/// a stroke's pixels are spread by the filter over a region no rectangle maps to exactly, and
/// a fill or a move after the change would read beyond any region anyway. One rule for every
/// kind of change is simple to trust; removing a stroke from before a canvas change is rare, and
/// costs one replay from the keyframe below it (a 4K turn is milliseconds, a scale well under a
/// second, see BENCHMARKS.md).
extension History {
    /// Carries out a canvas change and records it; returns the changed view rectangle (the new
    /// canvas), empty when the engine refused the change (still recorded, as a step that changed
    /// nothing, so the steps keep the numbers the journal gave them).
    func performCanvasChange(_ change: CanvasChange, engine: StrokeEngine) -> IntRect {
        if engine.isStroking { engine.end() }
        let canvas = engine.bounds
        let before = change.inverse == nil ? engine.packPaint(canvas) : nil
        let background = engine.background
        let dirty = change.apply(to: engine)
        var entry = Entry(operation: .canvas(change), region: dirty.isEmpty ? .empty : canvas, before: nil)
        entry.canvasBefore = canvas
        if !dirty.isEmpty {
            entry.before = before
            entry.previousBackground = background
            entry.changedCanvas = true
        }
        push(entry, engine: engine, atOnce: true)
        return dirty
    }

    /// Takes a canvas change back (the cursor already stands before it); returns the changed
    /// view rectangle.
    func undoCanvasChange(_ entry: Entry, _ change: CanvasChange, engine: StrokeEngine) -> IntRect {
        guard entry.changedCanvas else { return .empty }
        if let before = entry.before, let background = entry.previousBackground {
            engine.resetCanvas(width: before.rect.width, height: before.rect.height, background: background) {
                before.unpack(into: $0, stride: before.rect.width, clip: before.rect)
            }
        } else if let inverse = change.inverse {
            inverse.apply(to: engine)
        } else {
            renderWholePicture(upTo: cursor, engine: engine)
        }
        return engine.bounds
    }

    /// Renders the whole picture as steps 0..<end leave it (skipping removed ones), canvas
    /// changes included: from the latest whole-canvas state that is still true (see `render`
    /// for which snapshots are), else from the starting picture. `removing` is a step being
    /// removed right now.
    func renderWholePicture(upTo end: Int, engine: StrokeEngine, removing: Int? = nil) {
        var start = 0
        var startPixels: PackedPixels?
        var lowestRemovedAbove = removing ?? Int.max
        for index in stride(from: end, through: 0, by: -1) {
            if lowestRemovedAbove >= index {
                if index < end, let before = entries[index].before, before.coversRect,
                    before.rect == entries[index].canvasBefore
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
            if index > 0, case .removeStroke(let target) = entries[index - 1].operation {
                lowestRemovedAbove = min(lowestRemovedAbove, target)
            }
        }
        let background = background(atStep: start, engine: engine)
        // Nothing is shown until the end: the engine composites once, when this is turned off
        // (or, inside a replay that defers already, when the replay ends).
        let deferred = engine.defersComposite
        engine.defersComposite = true
        if let startPixels {
            let r = startPixels.rect
            engine.resetCanvas(width: r.width, height: r.height, background: background) {
                startPixels.unpack(into: $0, stride: r.width, clip: r)
            }
        } else if let base {
            let r = base.rect
            engine.resetCanvas(width: r.width, height: r.height, background: background) {
                base.unpack(into: $0, stride: r.width, clip: r)
            }
        } else {
            let canvas = entries.first?.canvasBefore ?? engine.bounds
            engine.resetCanvas(width: canvas.width, height: canvas.height, background: background) { _ in }
        }
        for entry in entries[start..<end] where !entry.removed {
            switch entry.operation {
            case .undo, .redo, .removeStroke: continue
            default: entry.operation.apply(to: engine)
            }
        }
        engine.defersComposite = deferred
    }
}

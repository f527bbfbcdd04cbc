import Glibc
import PaintCore

/// Painting: strokes and shapes drawn live while the button is held, fills, and every change
/// committed as one step of the history (`perform`, `record`), undo and redo.
extension Session {
    /// Starts a stroke in the engine and starts recording its samples; `pressure` is a pen's
    /// (as stored), nil for a mouse.
    func beginStroke(_ style: StrokeStyle, button: PointerButton, at point: Point, pressure: UInt16? = nil) {
        let stored = pressure.map { [$0] } ?? []
        redraw(engine.begin(style, at: point, pressure: Operation.pressure(stored, 0)))
        gesture = .stroke(Gesture.LiveStroke(button: button, style: style))
        strokeSamples = Gesture.StrokeSamples(points: [point], pressure: stored)
        lastPaintPoint = point
    }

    /// Feeds one more pointer sample to the stroke in progress (a pen's sample without
    /// pressure keeps the last one); it is drawn when the effects are taken.
    func extendStroke(to point: Point, pressure: UInt16? = nil) {
        guard case .stroke = gesture, engine.isStroking else { return }
        // Appended where they are (`strokeSamples`, not the gesture's payload).
        if let last = strokeSamples.pressure.last { strokeSamples.pressure.append(pressure ?? last) }
        // Deferred: the samples the window reads in one turn are stamped together when it takes
        // the effects (`takeEffects`), the tail to the pointer once, not once per sample.
        engine.move(
            to: point, pressure: Operation.pressure(strokeSamples.pressure, strokeSamples.points.count), deferred: true)
        strokeSamples.points.append(point)
        lastPaintPoint = point
    }

    /// Starts a shape where the button went down; it follows the pointer until release.
    func beginShape(_ style: StrokeStyle, button: PointerButton, at point: Point, modifiers: Modifiers) {
        engine.beginShape(style)
        gesture = .shape(Gesture.LiveShape(button: button, style: style, from: point, spec: nil))
        updateShape(from: point, to: point, modifiers: modifiers)
    }

    /// Redraws the shape in progress from `from` to the pointer; Shift constrains lines and
    /// arrows to 15° steps and rectangles and ellipses to squares and circles.
    func updateShape(from: Point, to raw: Point, modifiers: Modifiers) {
        guard case .shape(var live) = gesture, let kind = settings.tool.shapeKind else { return }
        var to = raw
        let dx = raw.x - from.x
        let dy = raw.y - from.y
        if modifiers.contains(.shift) {
            if kind.isStraight {
                let step = Double.pi / 12
                let angle = (atan2(dy, dx) / step).rounded() * step
                let length = (dx * dx + dy * dy).squareRoot()
                to = Point(x: from.x + length * cos(angle), y: from.y + length * sin(angle))
            } else {
                let side = max(abs(dx), abs(dy))
                to = Point(x: from.x + (dx < 0 ? -side : side), y: from.y + (dy < 0 ? -side : side))
            }
        }
        let spec = ShapeSpec(
            kind: kind.dashed(settings.lineDashed), from: from, to: to,
            filled: settings.shapeFilled)
        live.spec = spec
        gesture = .shape(live)
        redraw(engine.updateShape(spec))
    }

    /// Fills the region under `point` and commits it at once (a click, no drag).
    func fill(at point: Point, style: StrokeStyle) {
        let tolerance = settings.fillTolerance
        let dirty = engine.beginFill(style, at: point, tolerance: tolerance)
        guard engine.isStroking else { return }
        redraw(dirty)
        let operation = Operation.fill(style, at: point, tolerance: tolerance)
        if !history.commitLiveStroke(operation, engine: engine).isEmpty { record(operation) }
    }

    /// Merges the stroke or shape in progress and records it as an operation. Safe to call when
    /// there is none; also the emergency path when the program must exit mid-stroke.
    public func commitStroke() {
        // Whatever finishes a stroke (saving, undo, a new document…) puts a paste and a text
        // box down too.
        putDownPaste()
        commitText()
        let live = gesture
        guard live.paintingButton != nil else { return }
        gesture = .idle
        let samples = strokeSamples
        strokeSamples = Gesture.StrokeSamples()
        guard engine.isStroking else { return }
        let operation: Operation
        switch live {
        case .stroke(let stroke):
            // What the release adds (a stabilized line drawn on to its end) is shown first.
            redraw(engine.finishPath())
            operation = .stroke(stroke.style, points: samples.points, pressure: samples.pressure)
        case .shape(let shape):
            guard let spec = shape.spec else { return cancelStroke() }
            // Recorded as the journal reads it back: an arrow with the version that knows it.
            operation = .shape(shape.style.recording(spec.kind), spec)
        default:
            return
        }
        if !history.commitLiveStroke(operation, engine: engine).isEmpty { record(operation) }
    }

    /// Drops the stroke or shape in progress (Escape): nothing is recorded.
    func cancelStroke() {
        guard engine.isStroking else { return }
        redraw(engine.cancel())
        if gesture.paintingButton != nil {
            gesture = .idle
            strokeSamples = Gesture.StrokeSamples()
        }
    }

    /// Carries out `operation` as one step of the history: the stroke in progress (and a
    /// floating paste) is committed first, the view redrawn where the picture changed, the
    /// step recorded.
    func perform(_ operation: Operation) {
        commitStroke()
        redraw(history.perform(operation, engine: engine, live: true))
        followCanvasSize()
        record(operation)
    }

    /// After a step that changed the canvas's size (a crop, a scale, a turn, or their undo):
    /// the window lays the picture out again (fitted again, at most 100 % as on open, when the
    /// zoom was fitted: `zoomFitted`), and what pointed into the old canvas (the selection, the
    /// stroke under the pointer) goes.
    func followCanvasSize() {
        guard layout.imageWidth != engine.width || layout.imageHeight != engine.height else { return }
        let shown = layout.showing(imageWidth: engine.width, imageHeight: engine.height)
        if zoomFitted {
            fit(shown, enlarging: false)
        } else {
            setLayout(shown)
        }
        redraw(engine.bounds)
        setSelection(nil)
        setHoverStroke(nil)
    }

    /// A committed change: the document notes it, the toolbar shows it (a new recent color
    /// through `changeSettings`; undo and redo through `takeEffects`, when their state changed)
    /// and the journal hears of it.
    func record(_ operation: Operation) {
        // A message says what happened last: the next change to the picture takes it away
        // (whatever announces this change sets its own message after it).
        if !message.isEmpty { setMessage("") }
        switch operation {
        case .stroke(let style, _, _), .shape(let style, _), .fill(let style, _, _), .text(let style, _):
            if style.tool == .brush { changeSettings { $0.remember(style.color) } }
        default: break
        }
        document.noteCommitted(operation)
        if let saving { saving.step = History.step(saving.step, after: operation, cursor: history.cursor) }
        noteForHistoryRebuild(operation)
        sink?.record(operation)
        recordedChanges += 1
    }

    /// Steps back in the history (Ctrl+Z).
    public func undo() {
        // While text is typed, undo is the box's (Session+TextEditing).
        if liveText != nil { return undoTextEdit() }
        commitStroke()
        setHoverStroke(nil)
        // Undo past what was drawn since opening reaches the saved steps: wait for them.
        if !history.canUndo { completeHistoryRebuild() }
        guard history.canUndo else { return setMessage("Nothing to undo") }
        perform(.undo)
    }

    /// Steps forward again (Ctrl+Shift+Z, Ctrl+Y).
    public func redo() {
        if redoTextEdit() { return }
        commitStroke()
        setHoverStroke(nil)
        guard history.canRedo else { return setMessage("Nothing to redo") }
        perform(.redo)
    }
}

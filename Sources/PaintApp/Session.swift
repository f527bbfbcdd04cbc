import Glibc
import PaintCore
import PaintIO

/// Where the user is going when the document is left: the program closes, or another
/// document takes this one's place.
public enum Leaving: Sendable, Equatable {
    case quit
    /// A blank canvas (Ctrl+N).
    case newDocument
    /// The picture at this absolute path (Ctrl+O).
    case open(String)
}

/// What the window layer is asked to do with the desktop clipboard.
public enum ClipboardRequest: Equatable, Sendable {
    /// Offer this PNG as the clipboard's content (Ctrl+C).
    case offer([UInt8])
    /// Fetch the clipboard's picture and hand it to `Session.paste(png:)` (Ctrl+V).
    case fetch
}

/// What the bottom bar is doing: showing status, or asking the user something.
public enum SessionMode: Sendable, Equatable {
    case normal
    /// Asking for a file name; `then` is where the user was going when the save was asked for
    /// by leaving an untitled document.
    case savePrompt(TextField, then: Leaving?)
    /// Asking which picture to open.
    case openPrompt(TextField)
    /// Asking for a background: a PNG file, a color (#rrggbb) or "transparent".
    case backgroundPrompt(TextField)
    /// Unsaved changes and the document is being left: Save / Discard / Cancel.
    case confirmLeave(Leaving)
    /// A drawing left by a crash can be restored: Restore / Discard. The text is the question.
    case offerRestore(String)

    /// The answers offered in the status bar, default first.
    public var answers: [Answer] {
        switch self {
        case .confirmLeave: return [.save, .discard, .cancel]
        case .offerRestore: return [.restore, .discard]
        default: return []
        }
    }
}

/// An answer to a question in the status bar.
public enum Answer: String, Sendable, CaseIterable {
    case save = "Save"
    case discard = "Discard"
    case cancel = "Cancel"
    case restore = "Restore"
}

/// What a restore gives back.
public struct RestoredDocument {
    /// The rebuilt picture; nil when it could not be rebuilt (`message` says why).
    public var engine: StrokeEngine?
    /// Its steps, for undo.
    public var history: History?
    /// The history step that was last saved, if any.
    public var savedStep: Int?
    /// The file it saves to.
    public var path: String?
    /// What to tell the user.
    public var message: String
    /// PNG bytes of the picture its history starts from.
    public var baseBytes: [UInt8]?

    /// Makes a result.
    public init(
        engine: StrokeEngine?, history: History?, savedStep: Int? = nil, path: String?, message: String,
        baseBytes: [UInt8]? = nil
    ) {
        self.baseBytes = baseBytes
        self.engine = engine
        self.history = history
        self.savedStep = savedStep
        self.path = path
        self.message = message
    }
}

/// A crash journal that can be restored, as the program found it at start-up.
public struct RestoreOffer {
    /// The question, e.g. "Restore the drawing from 14:32 (12 strokes)?".
    public let question: String
    /// Rebuilds the drawing: the engine, the path it saves to, and a status message; nil when
    /// the journal could not be read after all (the reason is in the message).
    public let restore: () -> RestoredDocument
    /// Throws the journal away.
    public let discard: () -> Void

    /// Makes an offer.
    public init(
        question: String,
        restore: @escaping () -> RestoredDocument,
        discard: @escaping () -> Void
    ) {
        self.question = question
        self.restore = restore
        self.discard = discard
    }
}

/// The running program without its window: it takes platform-free input events, drives the
/// stroke engine, and reports what must be redrawn. The window layer owns one and only
/// translates events in and pixels out.
public final class Session {
    /// The canvas and its stroke engine.
    public private(set) var engine: StrokeEngine
    /// Geometry of the window.
    public private(set) var layout: Layout

    public private(set) var tool: Tool = .brush
    public private(set) var primary: Color = .black
    public private(set) var secondary: Color = .white
    /// Brush diameter in image pixels, 1...200.
    public private(set) var brushWidth: Double = 5
    /// Opacity in percent, 1...100.
    public private(set) var opacityPercent = 100

    /// The file the document saves to; nil until it has one.
    public private(set) var path: String?
    /// Whether there are changes since the last save.
    public private(set) var isModified = false
    /// Undo and redo.
    public private(set) var history: History
    /// The history step that is on disk (nil: none is, or it was undone and overwritten).
    private var savedStep: Int?
    /// PNG bytes of the picture the history starts from (saved with the history).
    public var baseBytes: [UInt8]?
    /// Whether saves carry the editing history in the PNG (`--no-history` turns it off).
    public var savesHistory = true
    /// The last message for the status bar ("Saved to …", an error).
    public private(set) var message = ""
    public private(set) var mode: SessionMode = .normal
    /// The toolbar item under the pointer and the one being pressed.
    public private(set) var hovered: ToolbarItem?
    /// The pointer the window should show: a crosshair over the picture, a hand while panning,
    /// the arrow elsewhere.
    public var pointerShape: PointerShape {
        if panAnchor != nil || placing?.grab != nil { return .move }
        if strokeButton != nil { return .crosshair }
        guard let p = lastPointer, colorEditor == nil else { return .arrow }
        if let rect = placing?.rect, layout.windowRect(forImageRect: rect).contains(p.x, p.y) { return .move }
        return layout.visibleImage.contains(p.x, p.y) ? .crosshair : .arrow
    }
    /// Where the pointer was last seen in the window.
    private var lastPointer: (x: Int, y: Int)?
    public private(set) var pressed: ToolbarItem?
    /// The image pixel under the pointer, when it is over the image.
    public private(set) var pointerPixel: (x: Int, y: Int)?

    // Output, taken by the window layer after each batch of events.
    /// Image pixels whose view changed since the last `takeCanvasDirty`.
    public private(set) var canvasDirty = IntRect.empty
    /// The toolbar must be redrawn (a setting, hover or press changed).
    public private(set) var toolbarDirty = true
    /// The status bar must be redrawn (message, pointer position, file name, a question).
    public private(set) var statusDirty = true
    /// The whole window must be redrawn (resize, scroll, new image).
    public private(set) var layoutChanged = true
    /// Set when the program should exit, with its exit code.
    public private(set) var exitCode: Int32?

    private var strokeButton: PointerButton?
    /// What the button is drawing: a freehand stroke or a shape from a start point.
    private enum Live {
        case stroke
        case shape(from: Point)
    }
    private var live = Live.stroke
    private var shapeSpec: ShapeSpec?
    /// Rectangles and ellipses filled; lines dashed (toolbar toggles).
    public private(set) var shapeFilled = false
    public private(set) var lineDashed = false
    /// Flood fill tolerance, 0 (exact) ... 255: the width slider sets it while the fill tool is on.
    public private(set) var fillTolerance = 32
    private var strokeStyle = StrokeStyle()
    private var strokePoints: [Point] = []
    /// Where committed operations go (the crash journal); nil runs without one.
    public var sink: OperationSink?
    /// Makes the documents New and Open switch to, each with its journal.
    public var opener = DocumentOpener(options: CommandLineOptions(), journalFolder: nil)
    private var pendingRestore: RestoreOffer?
    private var lastPaintPoint: Point?
    private var sliderDrag: ToolbarItem?
    private var panAnchor: (x: Int, y: Int, scrollX: Int, scrollY: Int)?

    /// A session on `engine`, saving to `path` when it has one. `history` holds the steps that
    /// made the picture (a new one starts from the engine's paint when nil is given and the
    /// engine is blank).
    public init(
        engine: StrokeEngine, path: String?, windowWidth: Int, windowHeight: Int, message: String = "",
        history: History? = nil, savedStep: Int? = 0
    ) {
        self.engine = engine
        self.history = history ?? History(base: nil)
        self.savedStep = savedStep
        self.path = path
        self.message = message
        layout = Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: engine.width, imageHeight: engine.height)
    }

    // MARK: Derived state

    /// The window title: `name.png — SwiftPaint`, with a leading `*` while modified.
    public var title: String {
        (isModified ? "*" : "") + displayName + " — SwiftPaint"
    }

    /// The document's file name, or "Untitled".
    public var displayName: String {
        path.map(FileSystem.lastComponent) ?? "Untitled"
    }

    /// The style the next stroke with `button` would use.
    public func strokeStyle(for button: PointerButton) -> StrokeStyle {
        StrokeStyle(
            tool: tool.strokeTool, color: button == .right ? secondary : primary,
            opacity: Double(opacityPercent) / 100, width: brushWidth)
    }

    /// The tooltip for the hovered toolbar item: what it is and its key.
    public var tooltip: String? {
        switch hovered {
        case .tool(let t): return "\(t.title) (\(t.key))"
        case .swatch(let i): return "\(Palette.colors[i].hex) — left click: primary, right click: secondary"
        case .recent(let i):
            return i < recentColors.count ? "Recently used \(recentColors[i].hex)" : "Colors you use appear here"
        case .currentColors:
            return "Primary \(primary.hex), secondary \(secondary.hex) — click to edit (right: secondary); X swaps"
        case .widthSlider:
            if tool == .fill { return "Fill tolerance \(fillTolerance) (0 = exact color; [ and ])" }
            return "Brush width \(Int(brushWidth)) px ([ and ])"
        case .filledToggle: return "Filled rectangles and ellipses: " + (shapeFilled ? "on" : "off")
        case .dashedToggle: return "Dashed lines: " + (lineDashed ? "on" : "off")
        case .opacitySlider: return "Opacity \(opacityPercent)% (1…9 = 10…90%, 0 = 100%)"
        case .undo: return "Undo (Ctrl+Z)"
        case .redo: return "Redo (Ctrl+Shift+Z, Ctrl+Y)"
        case .background:
            return "Background: left click primary color, right click secondary (Ctrl+B: image or transparent)"
        case .clear: return "Clear the canvas"
        case .save: return "Save (Ctrl+S), Save as (Ctrl+Shift+S)"
        case .newDocument: return "New picture (Ctrl+N)"
        case .open: return "Open a picture (Ctrl+O)"
        case nil: return nil
        }
    }

    /// Takes and resets the changed image rectangle.
    public func takeCanvasDirty() -> IntRect {
        defer { canvasDirty = .empty }
        return canvasDirty
    }

    /// Marks the toolbar as drawn.
    public func didRedrawToolbar() { toolbarDirty = false }

    /// Marks the status bar as drawn.
    public func didRedrawStatus() { statusDirty = false }

    /// Marks a whole-window redraw as done.
    public func didRedrawLayout() {
        layoutChanged = false
        toolbarDirty = false
        statusDirty = false
    }

    // MARK: Events

    /// Feeds one input event.
    public func handle(_ event: InputEvent) {
        switch event {
        case .resize(let w, let h):
            setLayout(layout.resized(width: w, height: h))
        case .closeRequest:
            requestClose()
        case .key(let key, let modifiers):
            handleKey(key, modifiers)
        case .press(let x, let y, let button, let modifiers):
            handlePress(x, y, button, modifiers)
        case .motion(let x, let y, let modifiers):
            handleMotion(x, y, modifiers)
        case .release(let x, let y, let button, _):
            handleRelease(x, y, button)
        case .leave:
            lastPointer = nil
            setHovered(nil)
            if pointerPixel != nil {
                pointerPixel = nil
                statusDirty = true
            }
        }
    }

    private func setLayout(_ new: Layout) {
        guard new != layout else { return }
        layout = new
        layoutChanged = true
        toolbarDirty = true
        statusDirty = true
    }

    private func setHovered(_ item: ToolbarItem?) {
        guard item != hovered else { return }
        hovered = item
        toolbarDirty = true
    }

    /// Shows a message in the status bar.
    public func show(_ text: String) { setMessage(text) }

    private func setMessage(_ text: String) {
        message = text
        statusDirty = true
    }

    private func handlePress(_ x: Int, _ y: Int, _ button: PointerButton, _ modifiers: Modifiers) {
        lastPointer = (x, y)
        switch button {
        case .wheelUp, .wheelDown, .wheelLeft, .wheelRight:
            if modifiers.contains(.control) && (button == .wheelUp || button == .wheelDown) {
                // Ctrl+wheel zooms about the pointer, as in GIMP, Krita and browsers.
                zoom(by: button == .wheelUp ? 1 : -1, aroundWindowX: x, y: y)
            } else {
                scroll(button, modifiers)
            }
            return
        default: break
        }
        if colorEditor != nil {
            // A click outside the open editor closes it, as a popover does.
            finishEditing(.cancel)
            return
        }
        if !mode.answers.isEmpty {
            if let chosen = answerButtons().first(where: { $0.1.contains(x, y) })?.0 { answer(chosen) }
            return
        }
        if case .savePrompt = mode { return }
        if strokeButton != nil { return }
        if let p = placing, layout.canvasArea.contains(x, y), button == .left || button == .right {
            // A pasted picture is waiting: grab it, or (outside it) put it down.
            let point = layout.imagePoint(windowX: x, windowY: y)
            let grabX = Int(point.x.rounded(.down)) - p.x
            let grabY = Int(point.y.rounded(.down)) - p.y
            if button == .left && p.rect.contains(p.x + grabX, p.y + grabY) {
                placing?.grab = (grabX, grabY)
            } else {
                putDownPaste()
            }
            return
        }
        if let item = layout.item(atX: x, y: y) {
            pressToolbar(item, x: x, button: button)
            return
        }
        guard layout.canvasArea.contains(x, y) else { return }
        if button == .middle {
            panAnchor = (x, y, layout.scrollX, layout.scrollY)
            return
        }
        let point = layout.imagePoint(windowX: x, windowY: y)
        if modifiers.contains(.control) {
            pickColor(at: point, into: button)
            return
        }
        switch tool {
        case .strokeEraser:
            removeStroke(at: point)
            return
        case .picker:
            pickColor(at: point, into: button)
            return
        case .fill:
            fill(at: point, style: strokeStyle(for: button))
            return
        case .line, .rectangle, .ellipse:
            strokeButton = button
            beginShape(strokeStyle(for: button), at: point, modifiers: modifiers)
            return
        case .brush, .eraser:
            break
        }
        strokeButton = button
        if modifiers.contains(.shift), let from = lastPaintPoint {
            // Shift+click: a straight stroke from the last painted point (GIMP, Krita).
            beginStroke(strokeStyle(for: button), at: from)
            extendStroke(to: point)
        } else {
            beginStroke(strokeStyle(for: button), at: point)
        }
    }

    private func handleMotion(_ x: Int, _ y: Int, _ modifiers: Modifiers) {
        lastPointer = (x, y)
        if let grab = placing?.grab {
            let point = layout.imagePoint(windowX: x, windowY: y)
            movePlacing(toX: Int(point.x.rounded(.down)) - grab.x, y: Int(point.y.rounded(.down)) - grab.y)
            return
        }
        if strokeButton != nil {
            if case .shape(let from) = live {
                updateShape(from: from, to: layout.imagePoint(windowX: x, windowY: y), modifiers: modifiers)
                return
            }
            extendStroke(to: layout.imagePoint(windowX: x, windowY: y))
            // The status bar's pointer position waits for the release: nothing but the canvas
            // redraws per pointer event while painting.
            return
        }
        if let slider = sliderDrag {
            setSlider(slider, x: x)
            return
        }
        if let anchor = panAnchor {
            setLayout(layout.scrolled(toX: anchor.scrollX - (x - anchor.x), y: anchor.scrollY - (y - anchor.y)))
            return
        }
        setHovered(layout.item(atX: x, y: y))
        updateStrokeHover(x, y)
        updatePointerPixel(x, y)
    }

    private func updatePointerPixel(_ x: Int, _ y: Int) {
        let p = layout.imagePoint(windowX: x, windowY: y)
        let pixel = (x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
        let new: (x: Int, y: Int)? = layout.visibleImage.contains(x, y) ? pixel : nil
        if new?.x != pointerPixel?.x || new?.y != pointerPixel?.y {
            pointerPixel = new
            statusDirty = true
        }
    }

    private func handleRelease(_ x: Int, _ y: Int, _ button: PointerButton) {
        if placing?.grab != nil && button == .left {
            placing?.grab = nil
            return
        }
        if strokeButton == button {
            commitStroke()
            updatePointerPixel(x, y)
            return
        }
        if sliderDrag != nil {
            sliderDrag = nil
            pressed = nil
            toolbarDirty = true
            return
        }
        if button == .middle {
            panAnchor = nil
            return
        }
        if let item = pressed {
            pressed = nil
            toolbarDirty = true
            if layout.item(atX: x, y: y) == item { activate(item) }
        }
    }

    private func pressToolbar(_ item: ToolbarItem, x: Int, button: PointerButton) {
        switch item {
        case .tool(let t):
            select(t)
        case .swatch(let i):
            if button == .right { secondary = Palette.colors[i] } else { primary = Palette.colors[i] }
            toolbarDirty = true
        case .recent(let i):
            guard i < recentColors.count else { return }
            if button == .right { secondary = recentColors[i] } else { primary = recentColors[i] }
            toolbarDirty = true
        case .currentColors:
            openColorEditor(button == .right ? .secondary : .primary)
        case .filledToggle:
            shapeFilled.toggle()
            toolbarDirty = true
        case .dashedToggle:
            lineDashed.toggle()
            toolbarDirty = true
        case .widthSlider, .opacitySlider:
            sliderDrag = item
            pressed = item
            setSlider(item, x: x)
        case .background:
            if button == .middle {
                promptBackground()
            } else {
                setBackground(.color(button == .right ? secondary : primary))
            }
        case .undo, .redo, .clear, .newDocument, .open, .save:
            pressed = item
            toolbarDirty = true
        }
    }

    private func activate(_ item: ToolbarItem) {
        switch item {
        case .clear: clear()
        case .undo: undo()
        case .redo: redo()
        case .save: save()
        case .newDocument: requestLeave(to: .newDocument)
        case .open: promptOpen()
        default: break
        }
    }

    private func setSlider(_ item: ToolbarItem, x: Int) {
        if item == .widthSlider && tool == .fill {
            setTolerance(Int((layout.sliderFraction(.widthSlider, atX: x) * 255).rounded()))
        } else if item == .widthSlider {
            setWidth(layout.widthValue(atX: x))
        } else {
            setOpacity(layout.opacityValue(atX: x))
        }
    }

    /// Zooms in (`steps` > 0) or out by powers of two, keeping the image point under window
    /// pixel (x, y) where it is (the canvas centre for keys).
    public func zoom(by steps: Int, aroundWindowX x: Int? = nil, y: Int? = nil) {
        let area = layout.canvasArea
        let target = min(max(layout.zoom + steps, Layout.zoomRange.lowerBound), Layout.zoomRange.upperBound)
        guard target != layout.zoom else {
            return setMessage(steps > 0 ? "Zoomed in as far as it goes" : "Zoomed out as far as it goes")
        }
        setLayout(
            layout.zoomed(to: target, keepingWindowX: x ?? area.x + area.width / 2, y: y ?? area.y + area.height / 2))
        setHoverStroke(nil)
    }

    /// Back to 100 %.
    public func resetZoom() { zoom(by: -layout.zoom) }

    private func scroll(_ button: PointerButton, _ modifiers: Modifiers) {
        let step = 48
        var dx = 0
        var dy = 0
        switch button {
        case .wheelUp: if modifiers.contains(.shift) { dx = -step } else { dy = -step }
        case .wheelDown: if modifiers.contains(.shift) { dx = step } else { dy = step }
        case .wheelLeft: dx = -step
        case .wheelRight: dx = step
        default: return
        }
        setLayout(layout.scrolled(toX: layout.scrollX + dx, y: layout.scrollY + dy))
    }

    // MARK: Strokes

    /// Starts a stroke in the engine and starts recording its samples.
    private func beginStroke(_ style: StrokeStyle, at point: Point) {
        canvasDirty = canvasDirty.union(engine.begin(style, at: point))
        live = .stroke
        strokeStyle = style
        strokePoints = [point]
        lastPaintPoint = point
    }

    /// Feeds one more pointer sample to the stroke in progress.
    private func extendStroke(to point: Point) {
        guard engine.isStroking else { return }
        canvasDirty = canvasDirty.union(engine.move(to: point))
        strokePoints.append(point)
        lastPaintPoint = point
    }

    /// Starts a shape where the button went down; it follows the pointer until release.
    private func beginShape(_ style: StrokeStyle, at point: Point, modifiers: Modifiers) {
        engine.beginShape(style)
        strokeStyle = style
        live = .shape(from: point)
        updateShape(from: point, to: point, modifiers: modifiers)
    }

    /// Redraws the shape in progress from `from` to the pointer; Shift constrains lines to 15°
    /// steps and rectangles and ellipses to squares and circles.
    private func updateShape(from: Point, to raw: Point, modifiers: Modifiers) {
        guard let kind = tool.shapeKind else { return }
        var to = raw
        let dx = raw.x - from.x
        let dy = raw.y - from.y
        if modifiers.contains(.shift) {
            if kind == .line {
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
            kind: kind == .line && lineDashed ? .dashedLine : kind, from: from, to: to, filled: shapeFilled)
        shapeSpec = spec
        canvasDirty = canvasDirty.union(engine.updateShape(spec))
    }

    /// Fills the region under `point` and commits it at once (a click, no drag).
    private func fill(at point: Point, style: StrokeStyle) {
        let dirty = engine.beginFill(style, at: point, tolerance: fillTolerance)
        guard engine.isStroking else { return }
        canvasDirty = canvasDirty.union(dirty)
        let operation = Operation.fill(style, at: point, tolerance: fillTolerance)
        if !history.commitLiveStroke(operation, engine: engine).isEmpty { record(operation) }
    }

    /// Merges the stroke or shape in progress and records it as an operation. Safe to call when
    /// there is none; also the emergency path when the program must exit mid-stroke.
    public func commitStroke() {
        // Whatever finishes a stroke (saving, undo, a new document…) puts a paste down too.
        putDownPaste()
        strokeButton = nil
        guard engine.isStroking else { return }
        let operation: Operation
        switch live {
        case .stroke: operation = .stroke(strokeStyle, points: strokePoints)
        case .shape:
            guard let spec = shapeSpec else { return cancelStroke() }
            operation = .shape(strokeStyle, spec)
        }
        live = .stroke
        shapeSpec = nil
        strokePoints = []
        let bounds = history.commitLiveStroke(operation, engine: engine)
        if !bounds.isEmpty { record(operation) }
    }

    private func cancelStroke() {
        guard engine.isStroking else { return }
        canvasDirty = canvasDirty.union(engine.cancel())
        strokeButton = nil
        strokePoints = []
        live = .stroke
        shapeSpec = nil
    }

    /// A committed change: the document is modified and the journal hears of it.
    private func record(_ operation: Operation) {
        switch operation {
        case .stroke(let style, _), .shape(let style, _), .fill(let style, _, _):
            if style.tool == .brush { remember(style.color) }
        default: break
        }
        if let saved = savedStep, saved >= history.cursor, operation != .undo, operation != .redo {
            // The saved step was undone and a new step replaced it: no undo reaches it again.
            savedStep = nil
        }
        updateModified()
        toolbarDirty = true
        sink?.record(operation, session: self)
    }

    /// Steps back in the history (Ctrl+Z).
    public func undo() {
        commitStroke()
        setHoverStroke(nil)
        guard history.canUndo else { return setMessage("Nothing to undo") }
        canvasDirty = canvasDirty.union(history.undo(engine: engine))
        record(.undo)
    }

    /// Steps forward again (Ctrl+Shift+Z, Ctrl+Y).
    public func redo() {
        commitStroke()
        setHoverStroke(nil)
        guard history.canRedo else { return setMessage("Nothing to redo") }
        canvasDirty = canvasDirty.union(history.redo(engine: engine))
        record(.redo)
    }

    /// Modified unless the history stands exactly on the saved step.
    private func updateModified() {
        let modified = savedStep != history.cursor
        if modified != isModified {
            isModified = modified
            statusDirty = true
        }
    }

    // MARK: Keys

    private func handleKey(_ key: Key, _ modifiers: Modifiers) {
        if var editor = colorEditor {
            let action = editor.key(key)
            colorEditor = editor
            editorDirty = true
            if let action { finishEditing(action) }
            return
        }
        switch mode {
        case .savePrompt(let field, let then):
            let commit: (String) -> Void = { target in
                if self.save(to: PathDisplay.absolute(target)), let then { self.proceed(to: then) }
            }
            editPrompt(key, field, wrap: { .savePrompt($0, then: then) }, cancelled: "Save cancelled", commit: commit)
            return
        case .openPrompt(let field):
            let commit: (String) -> Void = { self.open(PathDisplay.absolute($0)) }
            editPrompt(key, field, wrap: { .openPrompt($0) }, cancelled: "Open cancelled", commit: commit)
            return
        case .backgroundPrompt(let field):
            let commit: (String) -> Void = { self.setBackground(fromText: $0) }
            editPrompt(key, field, wrap: { .backgroundPrompt($0) }, cancelled: "Background unchanged", commit: commit)
            return
        case .confirmLeave, .offerRestore:
            // Enter takes the default (first) answer; each answer's initial letter picks it.
            let answers = mode.answers
            switch key {
            case .enter: answers.first.map(answer)
            case .escape:
                // Escape never throws work away: it cancels, or (for a restore offer) leaves the
                // journal where it is for the next start.
                if answers.contains(.cancel) {
                    answer(.cancel)
                } else {
                    mode = .normal
                    pendingRestore = nil
                    setMessage("The earlier drawing is kept; it will be offered again at the next start")
                }
            case .character(let c):
                if let match = answers.first(where: { $0.rawValue.first?.lowercased() == c.lowercased() }) {
                    answer(match)
                }
            default: break
            }
            return
        case .normal:
            break
        }
        if modifiers.contains(.control) {
            guard case .character(let c) = key else { return }
            switch Character(c.lowercased()) {
            case "s": if modifiers.contains(.shift) { promptSaveAs(then: nil) } else { save() }
            case "q", "w": requestClose()
            case "n": requestLeave(to: .newDocument)
            case "o": promptOpen()
            case "c": copy()
            case "v": requestPaste()
            case "=", "+": zoom(by: 1)
            case "-": zoom(by: -1)
            case "0": resetZoom()
            case "z": if modifiers.contains(.shift) { redo() } else { undo() }
            case "b": promptBackground()
            case "y": redo()
            default: break
            }
            return
        }
        switch key {
        case .escape where placing != nil:
            dropPaste()
        case .enter where placing != nil:
            putDownPaste()
        case .escape:
            cancelStroke()
        case .character(let c):
            if let digit = c.wholeNumberValue, c.isASCII {
                setOpacity(digit == 0 ? 100 : digit * 10)
                return
            }
            switch c {
            case "[" where tool == .fill: setTolerance(fillTolerance - 8)
            case "]" where tool == .fill: setTolerance(fillTolerance + 8)
            case "[": setWidth(brushWidth - widthStep(down: true))
            case "]": setWidth(brushWidth + widthStep(down: false))
            case "l", "L": select(.line)
            case "r", "R": select(.rectangle)
            case "o", "O": select(.ellipse)
            case "f", "F": select(.fill)
            case "i", "I": select(.picker)
            case "x", "X": swapColors()
            case "b", "B": select(.brush)
            case "e": select(.eraser)
            case "E": select(.strokeEraser)
            default: break
            }
        default:
            break
        }
    }

    /// One key in a path field in the status bar: Enter commits the text, Escape cancels, Tab
    /// completes file names, anything else edits.
    private func editPrompt(
        _ key: Key, _ field: TextField, wrap: (TextField) -> SessionMode, cancelled: String, commit: (String) -> Void
    ) {
        var field = field
        switch key {
        case .enter:
            mode = .normal
            statusDirty = true
            let text = field.text.trimmingSpaces
            guard !text.isEmpty else { return }
            commit(text)
        case .escape:
            mode = .normal
            setMessage(cancelled)
        case .tab:
            let candidates = field.complete()
            mode = wrap(field)
            setMessage(
                candidates.isEmpty
                    ? "" : candidates.prefix(8).joined(separator: "  ") + (candidates.count > 8 ? "  …" : ""))
        default:
            if field.handle(key) {
                mode = wrap(field)
                statusDirty = true
            }
        }
    }

    // MARK: Colors

    /// The last colors used, most recent first (at most `Layout.recentCount`).
    public private(set) var recentColors: [Color] = []

    private func remember(_ color: Color) {
        guard recentColors.first != color else { return }
        recentColors.removeAll { $0 == color }
        recentColors.insert(color, at: 0)
        if recentColors.count > Layout.recentCount { recentColors.removeLast() }
        toolbarDirty = true
    }

    /// The color editor while it is open.
    public private(set) var colorEditor: ColorEditor?
    /// The editor panel must be redrawn.
    public private(set) var editorDirty = false

    /// Opens the color editor for the primary or secondary color.
    public func openColorEditor(_ target: ColorEditor.Target) {
        commitStroke()
        colorEditor = ColorEditor(target: target, color: target == .primary ? primary : secondary)
        editorDirty = true
    }

    /// Where the editor panel sits in the window: under the current colors.
    public var colorEditorFrame: IntRect {
        let anchor = layout.rect(of: .currentColors)
        return IntRect(x: anchor.x, y: Layout.toolbarHeight + 2, width: ColorEditor.width, height: ColorEditor.height)
    }

    /// Marks the editor panel as drawn.
    public func didRedrawEditor() { editorDirty = false }

    /// Asks for the editor panel to be drawn again (it was uncovered).
    public func markEditorDirty() { editorDirty = colorEditor != nil }

    /// A button press in the editor panel (panel coordinates).
    public func editorPress(x: Int, y: Int) {
        guard var editor = colorEditor else { return }
        let action = editor.press(x: x, y: y)
        colorEditor = editor
        editorDirty = true
        if let action { finishEditing(action) }
    }

    /// Pointer motion over the editor panel with the button held.
    public func editorDrag(x: Int) {
        guard var editor = colorEditor else { return }
        editor.drag(x: x)
        colorEditor = editor
        editorDirty = true
    }

    /// The button came up over the editor panel.
    public func editorRelease() {
        colorEditor?.release()
    }

    private func finishEditing(_ action: ColorEditor.Action) {
        guard let editor = colorEditor else { return }
        colorEditor = nil
        editorDirty = true
        guard action == .accept else { return }
        if editor.target == .primary { primary = editor.color } else { secondary = editor.color }
        remember(editor.color)
        toolbarDirty = true
    }

    // MARK: Background

    /// Replaces the background (an undoable step; the paint stays).
    public func setBackground(_ background: Background) {
        commitStroke()
        canvasDirty = canvasDirty.union(history.perform(.background(background), engine: engine))
        record(.background(background))
    }

    /// Opens the background prompt.
    public func promptBackground() {
        mode = .backgroundPrompt(TextField(""))
        setMessage("")
    }

    /// A background from what the user typed: "transparent", a color, or a PNG file. Returns
    /// why not when the file cannot be used (also shown in the status bar).
    @discardableResult
    public func setBackground(fromText text: String) -> String? {
        switch text.lowercased() {
        case "transparent", "none":
            setBackground(.transparent)
            setMessage("Transparent background: saved pictures keep alpha")
            return nil
        case "white":
            setBackground(.color(.white))
            return nil
        case "black":
            setBackground(.color(.black))
            return nil
        default:
            break
        }
        if let color = Color(hex: text) {
            setBackground(.color(color))
            return nil
        }
        let path = PathDisplay.absolute(text)
        do {
            let image = try ImageFile.load(path: path)
            setBackground(Background.fitted(image, width: engine.width, height: engine.height))
            setMessage("Background: \(PathDisplay.abbreviatingHome(path))")
            return nil
        } catch {
            setMessage(error.description)
            return error.description
        }
    }

    /// The background picture named on the command line (`--background FILE`). It is a step of
    /// the document, so the journal and the saved history carry the picture; on a document that
    /// is not on disk yet it is where the document starts, so closing without drawing asks
    /// nothing. Returns why not when the file cannot be used.
    public func setStartingBackground(file: String, documentExists: Bool) -> String? {
        let wasUnmodified = !isModified
        if let problem = setBackground(fromText: file) { return problem }
        if wasUnmodified && !documentExists {
            savedStep = history.cursor
            updateModified()
        }
        return nil
    }

    /// Width steps grow with the width, so `]` feels the same at 3 px and at 150 px.
    private func widthStep(down: Bool) -> Double {
        let w = down ? brushWidth - 1 : brushWidth
        return max(1, (w * 0.15).rounded())
    }

    // MARK: Settings

    /// Chooses a tool.
    public func select(_ t: Tool) {
        tool = t
        toolbarDirty = true
        if t != .strokeEraser { setHoverStroke(nil) }
    }

    // MARK: Stroke eraser

    /// The samples of the stroke a stroke-eraser click would remove (image coordinates), for
    /// the window to outline; empty when none.
    public private(set) var hoverOutline: [Point] = []
    private var hoverStroke: Int?

    private func updateStrokeHover(_ x: Int, _ y: Int) {
        // A paste being placed owns the outline.
        guard placing == nil else { return }
        guard tool == .strokeEraser, layout.visibleImage.contains(x, y) else { return setHoverStroke(nil) }
        // Three window pixels of slack at any zoom.
        setHoverStroke(history.stroke(at: layout.imagePoint(windowX: x, windowY: y), slack: 3 / layout.scale))
    }

    private func setHoverStroke(_ step: Int?) {
        guard step != hoverStroke else { return }
        // The outline is drawn over the window, not into the picture: repainting the old
        // outline's box from the picture removes it.
        canvasDirty = canvasDirty.union(outlineBounds())
        hoverStroke = step
        hoverOutline = step.flatMap { history.strokePoints(at: $0)?.points } ?? []
        canvasDirty = canvasDirty.union(outlineBounds())
    }

    private func outlineBounds() -> IntRect {
        guard let first = hoverOutline.first else { return .empty }
        var r = IntRect(x: Int(first.x) - 2, y: Int(first.y) - 2, width: 5, height: 5)
        for p in hoverOutline where p.isFinite && abs(p.x) < 1e6 && abs(p.y) < 1e6 {
            r = r.union(IntRect(x: Int(p.x) - 2, y: Int(p.y) - 2, width: 5, height: 5))
        }
        return r.intersection(engine.bounds)
    }

    /// Removes the topmost stroke under `point` (the stroke eraser's click).
    private func removeStroke(at point: Point) {
        guard let step = history.stroke(at: point) else { return setMessage("No stroke here to remove") }
        setHoverStroke(nil)
        canvasDirty = canvasDirty.union(history.removeStroke(at: step, engine: engine))
        record(.removeStroke(step: step))
        setMessage("Stroke removed (Ctrl+Z brings it back)")
    }

    /// Sets the brush width (clamped to 1...200).
    public func setWidth(_ w: Double) {
        let clamped = min(max(w.rounded(), 1), 200)
        guard clamped != brushWidth else { return }
        brushWidth = clamped
        toolbarDirty = true
    }

    /// Sets the fill tolerance (clamped to 0...255).
    public func setTolerance(_ value: Int) {
        let clamped = min(max(value, 0), 255)
        guard clamped != fillTolerance else { return }
        fillTolerance = clamped
        toolbarDirty = true
    }

    /// Sets the opacity in percent (clamped to 1...100).
    public func setOpacity(_ percent: Int) {
        let clamped = min(max(percent, 1), 100)
        guard clamped != opacityPercent else { return }
        opacityPercent = clamped
        toolbarDirty = true
    }

    /// Sets the primary color.
    public func setPrimary(_ c: Color) {
        primary = c
        toolbarDirty = true
    }

    /// Swaps primary and secondary colors.
    public func swapColors() {
        swap(&primary, &secondary)
        toolbarDirty = true
    }

    private func pickColor(at point: Point, into button: PointerButton) {
        guard let pixel = engine.viewPixel(x: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down))) else {
            return
        }
        let c = Pixel.unpack(pixel)
        let color = Color(r: c.r, g: c.g, b: c.b)
        if button == .right { secondary = color } else { primary = color }
        setMessage("Picked \(color.hex)")
    }

    // MARK: Document

    /// Removes all paint.
    public func clear() {
        commitStroke()
        canvasDirty = canvasDirty.union(history.perform(.clear, engine: engine))
        record(.clear)
        setMessage("Canvas cleared")
    }

    /// Saves to the document's file, or asks for a name when it has none.
    public func save() {
        guard let path else {
            promptSaveAs(then: nil)
            return
        }
        save(to: path)
    }

    /// Opens the file-name prompt with the current name filled in; after a successful save the
    /// user goes on to `then`.
    public func promptSaveAs(then: Leaving?) {
        let suggestion = path ?? Self.defaultSavePath()
        mode = .savePrompt(TextField(PathDisplay.abbreviatingHome(suggestion)), then: then)
        setMessage("")
    }

    /// Opens the prompt for a picture to open, in the current document's folder.
    public func promptOpen() {
        commitStroke()
        let folder = path.map(FileSystem.parentFolder) ?? FileSystem.parentFolder(Self.defaultSavePath())
        mode = .openPrompt(TextField(PathDisplay.abbreviatingHome(folder) + "/"))
        setMessage("")
    }

    /// Where an untitled drawing is offered to go: ~/Pictures when it exists, else the current
    /// folder.
    static func defaultSavePath() -> String {
        let pictures = PathDisplay.expandingTilde("~/Pictures")
        let folder = FileSystem.kind(pictures) == .folder ? pictures : FileSystem.currentFolder
        return folder + "/untitled.png"
    }

    /// Writes the picture to `target` atomically; reports success or the reason in the status
    /// bar. The document stays modified when it fails.
    @discardableResult
    public func save(to target: String) -> Bool {
        commitStroke()
        let withAlpha = engine.background == .transparent
        var png: [UInt8]
        do {
            png = try PNGCodec.encode(engine.flattenedImage(), withAlpha: withAlpha)
            if savesHistory {
                // The hash covers what a reader decodes from this file, so reopening checks
                // exactly that. A history that cannot be embedded leaves a plain PNG.
                let saved = try PNGCodec.decode(png, name: target)
                let archive = DocumentLoader.archive(for: self, baseBytes: baseBytes, saved: saved)
                if let withHistory = try? HistoryChunk.embed(archive, into: png) { png = withHistory }
            }
            try AtomicFile.write(png, to: target)
        } catch {
            setMessage(error.description)
            return false
        }
        sink?.saved(path: target, session: self)
        path = target
        savedStep = history.cursor
        updateModified()
        setMessage("Saved to \(PathDisplay.abbreviatingHome(target))")
        return true
    }

    // MARK: Closing

    /// Opens the picture at `target` (absolute) in place of this document: read first, so a
    /// file that cannot be opened is reported before anything is asked or changed.
    public func open(_ target: String) {
        switch opener.load(target) {
        case .success(let document):
            pendingOpen = document
            requestLeave(to: .open(target))
        case .failure(let error):
            setMessage(error.description)
        }
    }

    // MARK: Clipboard

    /// What the window should do with the clipboard next; it takes it with
    /// `takeClipboardRequest`.
    public private(set) var clipboardRequest: ClipboardRequest?

    /// The pending clipboard request, cleared.
    public func takeClipboardRequest() -> ClipboardRequest? {
        defer { clipboardRequest = nil }
        return clipboardRequest
    }

    /// Copies the whole picture, as it would be saved, to the clipboard (Ctrl+C).
    public func copy() {
        commitStroke()
        do {
            let png = try PNGCodec.encode(engine.flattenedImage(), withAlpha: engine.background == .transparent)
            clipboardRequest = .offer(png)
            setMessage("Copied the picture (\(engine.width) × \(engine.height)) to the clipboard")
        } catch {
            setMessage(error.description)
        }
    }

    /// Asks the window for the clipboard's picture (Ctrl+V); it arrives in `paste(png:)`.
    public func requestPaste() {
        commitStroke()
        clipboardRequest = .fetch
    }

    /// Lays a PNG from the clipboard over the paint at the top-left corner of the visible part
    /// of the canvas, as one step that undo takes back. What does not fit is cropped.
    public func paste(png: [UInt8]) {
        commitStroke()
        let image: PixelImage
        do {
            image = try PNGCodec.decode(png, name: "the clipboard")
        } catch {
            return setMessage(error.description)
        }
        let visible = layout.visibleImage
        let corner = layout.imagePoint(windowX: visible.x, windowY: visible.y)
        placing = Placing(
            image: image, x: max(0, Int(corner.x.rounded(.down))), y: max(0, Int(corner.y.rounded(.down))))
        showPlacing(previous: .empty)
        setMessage(
            "Pasted \(image.width) × \(image.height): drag it into place; Enter or a click outside puts it down,"
                + " Escape drops it")
    }

    // MARK: Placing a paste

    /// A pasted picture waiting to be put down: shown over the canvas (not yet in the paint),
    /// dragged into place with the left button.
    private struct Placing {
        var image: PixelImage
        var x: Int
        var y: Int
        /// While dragged: where the picture was grabbed, from its top-left corner.
        var grab: (x: Int, y: Int)?
        var rect: IntRect { IntRect(x: x, y: y, width: image.width, height: image.height) }
    }
    private var placing: Placing?

    /// Whether a pasted picture is waiting to be put down.
    public var isPlacingPaste: Bool { placing != nil }

    /// Redraws the picture being placed (after a move from `previous`) and its outline.
    private func showPlacing(previous: IntRect) {
        canvasDirty = canvasDirty.union(outlineBounds())
        let old = previous.intersection(engine.bounds)
        if !old.isEmpty {
            engine.recomposite(old)
            canvasDirty = canvasDirty.union(old)
        }
        guard let p = placing else {
            hoverOutline = []
            return
        }
        canvasDirty = canvasDirty.union(engine.showPastePreview(p.image, atX: p.x, y: p.y))
        let (x0, y0) = (Double(p.x), Double(p.y))
        let (x1, y1) = (Double(p.x + p.image.width), Double(p.y + p.image.height))
        hoverOutline = [
            Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1), Point(x: x0, y: y0),
        ]
        canvasDirty = canvasDirty.union(outlineBounds())
    }

    private func movePlacing(toX x: Int, y: Int) {
        guard var p = placing, x != p.x || y != p.y else { return }
        let old = p.rect
        p.x = x
        p.y = y
        placing = p
        showPlacing(previous: old)
    }

    /// Puts the pasted picture down where it is, as one step of the history. Only what lies
    /// on the canvas is kept: the step, the journal and the saved history hold no pixels
    /// nobody will see.
    private func putDownPaste() {
        guard let p = placing else { return }
        placing = nil
        showPlacing(previous: p.rect)
        let onCanvas = p.rect.intersection(engine.bounds)
        guard !onCanvas.isEmpty else { return setMessage("The pasted picture was off the canvas; nothing was pasted") }
        let kept = p.image.cropped(
            to: IntRect(x: onCanvas.x - p.x, y: onCanvas.y - p.y, width: onCanvas.width, height: onCanvas.height))
        let operation = Operation.paste(kept, x: onCanvas.x, y: onCanvas.y)
        canvasDirty = canvasDirty.union(history.perform(operation, engine: engine))
        record(operation)
        let cropped = onCanvas != p.rect
        setMessage(
            "Pasted \(kept.width) × \(kept.height) at \(onCanvas.x), \(onCanvas.y)"
                + (cropped ? ", cropped to the canvas" : ""))
    }

    /// Drops the pasted picture without putting it down (Escape).
    private func dropPaste() {
        guard let p = placing else { return }
        placing = nil
        showPlacing(previous: p.rect)
        setMessage("Paste dropped")
    }

    /// A picture read for Open, waiting for the answer about this document's changes.
    private var pendingOpen: LoadedDocument?

    /// The window is asked to close: quit at once when saved, else ask.
    public func requestClose() { requestLeave(to: .quit) }

    /// Leaves the document for `leaving`: at once when it is saved, else after asking
    /// Save / Discard / Cancel.
    public func requestLeave(to leaving: Leaving) {
        commitStroke()
        if isModified {
            mode = .confirmLeave(leaving)
            statusDirty = true
        } else {
            proceed(to: leaving)
        }
    }

    /// Goes where the user was going, the document being saved or given up.
    private func proceed(to leaving: Leaving) {
        switch leaving {
        case .quit:
            finish()
        case .newDocument:
            switchDocument(to: opener.blank(width: engine.width, height: engine.height))
        case .open(let target):
            let loaded: Result<LoadedDocument, ImageFileError>
            if let pending = pendingOpen, pending.path == target {
                loaded = .success(pending)
            } else {
                loaded = opener.load(target)
            }
            pendingOpen = nil
            switch loaded {
            case .success(let document): switchDocument(to: opener.attach(document, offeringLeftOver: true))
            case .failure(let error): setMessage(error.description)
            }
        }
    }

    /// Makes `opened` the document: the old one's journal goes (it was saved or given up), the
    /// new one's takes its place.
    private func switchDocument(to opened: DocumentOpener.Opened) {
        sink?.closedCleanly()
        sink = opened.journal
        let document = opened.document
        replaceDocument(
            engine: document.engine, history: document.history, savedStep: document.savedStep, path: document.path)
        baseBytes = document.baseBytes
        setHoverStroke(nil)
        setMessage(opened.journalProblem ?? document.message)
        if let offer = opened.restoreOffer { self.offer(offer) }
    }

    /// Leaves with nothing to lose: the journal goes.
    private func finish() {
        sink?.closedCleanly()
        exitCode = 0
    }

    /// SIGTERM, SIGHUP: finish the stroke in progress, make the journal durable, and exit. The
    /// journal stays when there are unsaved changes, so the next start offers to restore them.
    public func terminate() {
        commitStroke()
        if isModified {
            sink?.flush()
            exitCode = 0
        } else {
            finish()
        }
    }

    /// The X server is gone: no more X calls. Record the stroke in progress as finished and make
    /// the journal durable; the caller exits.
    public func emergencyStop() {
        commitStroke()
        sink?.flush()
    }

    /// Offers to restore a drawing left by a crash (shown in the status bar).
    public func offer(_ restore: RestoreOffer) {
        pendingRestore = restore
        mode = .offerRestore(restore.question)
        statusDirty = true
    }

    /// Replaces the document with another (restored) one.
    private func replaceDocument(
        engine newEngine: StrokeEngine, history newHistory: History, savedStep step: Int?, path newPath: String?
    ) {
        engine = newEngine
        history = newHistory
        savedStep = step
        path = newPath
        layout = Layout(
            windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, imageWidth: engine.width,
            imageHeight: engine.height, zoom: layout.zoom)
        layoutChanged = true
        toolbarDirty = true
        statusDirty = true
        updateModified()
        lastPaintPoint = nil
    }

    /// Answers the question in the status bar.
    public func answer(_ answer: Answer) {
        let asked = mode
        mode = .normal
        statusDirty = true
        switch (asked, answer) {
        case (.confirmLeave(let leaving), .save):
            if let path {
                if save(to: path) { proceed(to: leaving) }
            } else {
                promptSaveAs(then: leaving)
            }
        case (.confirmLeave(let leaving), .discard):
            proceed(to: leaving)
        case (.offerRestore, .restore):
            guard let offer = pendingRestore else { return }
            pendingRestore = nil
            let restored = offer.restore()
            if let engine = restored.engine {
                replaceDocument(
                    engine: engine, history: restored.history ?? History(base: nil), savedStep: restored.savedStep,
                    path: restored.path)
                baseBytes = restored.baseBytes
            }
            setMessage(restored.message)
        case (.offerRestore, .discard):
            pendingRestore?.discard()
            pendingRestore = nil
            setMessage("The earlier drawing was discarded")
        default:
            pendingOpen = nil
            setMessage("")
        }
    }

    /// The answer buttons' rectangles in the status bar, right-aligned, in `mode.answers` order.
    public func answerButtons() -> [(Answer, IntRect)] {
        let bar = layout.statusBar
        let answers = mode.answers
        var x = bar.maxX - 8 - 76 * answers.count
        return answers.map { answer in
            defer { x += 76 }
            return (answer, IntRect(x: x + 4, y: bar.y + 3, width: 72, height: bar.height - 6))
        }
    }
}

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
    /// Fetch the clipboard's text and hand it to `Session.paste(text:)` (Ctrl+V in a field).
    case fetchText
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
    /// Save as would write over another file (the absolute path): Replace / Cancel; `then` as
    /// for the save prompt.
    case confirmReplace(String, then: Leaving?)

    /// The answers offered in the status bar, default first.
    public var answers: [Answer] {
        switch self {
        case .confirmLeave: return [.save, .discard, .cancel]
        case .offerRestore: return [.restore, .discard]
        case .confirmReplace: return [.cancel, .replace]
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
    case replace = "Replace"
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
    public internal(set) var engine: StrokeEngine
    /// Geometry of the window.
    public internal(set) var layout: Layout

    public internal(set) var tool: Tool = .brush
    public internal(set) var primary: Color = .black
    public internal(set) var secondary: Color = .white
    /// Brush diameter in image pixels, 1...200.
    public internal(set) var brushWidth: Double = 5
    /// Opacity in percent, 1...100.
    public internal(set) var opacityPercent = 100

    /// The file the document saves to; nil until it has one.
    public internal(set) var path: String?
    /// Whether there are changes since the last save.
    public internal(set) var isModified = false
    /// Undo and redo.
    public internal(set) var history: History
    /// The history step that is on disk (nil: none is, or it was undone and overwritten).
    var savedStep: Int?
    /// PNG bytes of the picture the history starts from (saved with the history).
    public var baseBytes: [UInt8]?
    /// Whether saves carry the editing history in the PNG (`--no-history` turns it off).
    public var savesHistory = true
    /// The last message for the status bar ("Saved to …", an error).
    public internal(set) var message = ""
    public internal(set) var mode: SessionMode = .normal
    /// The toolbar item under the pointer and the one being pressed.
    public internal(set) var hovered: ToolbarItem?
    /// The pointer the window should show: a crosshair over the picture, a hand while panning,
    /// the arrow elsewhere.
    public var pointerShape: PointerShape {
        if panAnchor != nil || placing?.grab != nil { return .move }
        if strokeButton != nil { return .crosshair }
        guard let p = lastPointer, colorEditor == nil else { return .arrow }
        if let rect = placing?.rect, layout.windowRect(forImageRect: rect).contains(p.x, p.y) { return .move }
        if tool == .select, let rect = selection, layout.windowRect(forImageRect: rect).contains(p.x, p.y) {
            return .move
        }
        return layout.visibleImage.contains(p.x, p.y) ? .crosshair : .arrow
    }
    /// Where the pointer was last seen in the window.
    var lastPointer: (x: Int, y: Int)?
    public internal(set) var pressed: ToolbarItem?
    /// The image pixel under the pointer, when it is over the image.
    public internal(set) var pointerPixel: (x: Int, y: Int)?

    // Output, taken by the window layer after each batch of events.
    /// Image pixels whose view changed since the last `takeCanvasDirty`.
    public internal(set) var canvasDirty = IntRect.empty
    /// The toolbar must be redrawn (a setting, hover or press changed).
    public internal(set) var toolbarDirty = true
    /// The status bar must be redrawn (message, pointer position, file name, a question).
    public internal(set) var statusDirty = true
    /// The whole window must be redrawn (resize, scroll, new image).
    public internal(set) var layoutChanged = true
    /// Set when the program should exit, with its exit code.
    public internal(set) var exitCode: Int32?

    var strokeButton: PointerButton?
    /// What the button is drawing: a freehand stroke or a shape from a start point.
    enum Live {
        case stroke
        case shape(from: Point)
    }
    var live = Live.stroke
    var shapeSpec: ShapeSpec?
    /// Rectangles and ellipses filled; lines dashed (toolbar toggles).
    public internal(set) var shapeFilled = false
    public internal(set) var lineDashed = false
    /// Flood fill tolerance, 0 (exact) ... 255: the width slider sets it while the fill tool is on.
    public internal(set) var fillTolerance = 32
    var strokeStyle = StrokeStyle()
    var strokePoints: [Point] = []
    /// Where committed operations go (the crash journal); nil runs without one.
    public var sink: OperationSink?
    /// Makes the documents New and Open switch to, each with its journal.
    public var opener = DocumentOpener(options: CommandLineOptions(), journalFolder: nil)
    var pendingRestore: RestoreOffer?
    var lastPaintPoint: Point?
    var sliderDrag: ToolbarItem?
    var panAnchor: (x: Int, y: Int, scrollX: Int, scrollY: Int)?

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

    // MARK: State of the parts in Session+*.swift

    /// The last colors used, most recent first (at most `Layout.recentCount`).
    public internal(set) var recentColors: [Color] = []
    /// The color editor while it is open.
    public internal(set) var colorEditor: ColorEditor?
    /// The editor panel must be redrawn.
    public internal(set) var editorDirty = false
    /// The samples of the stroke a stroke-eraser click would remove (image coordinates), for
    /// the window to outline; empty when none.
    public internal(set) var hoverOutline: [Point] = []
    /// The history step of that stroke.
    var hoverStroke: Int?
    /// A picture read for Open, waiting for the answer about this document's changes.
    var pendingOpen: LoadedDocument?
    /// What the window should do with the clipboard next; it takes it with
    /// `takeClipboardRequest`.
    public internal(set) var clipboardRequest: ClipboardRequest?
    /// A pasted picture floating over the canvas until it is put down.
    var placing: Placing?
    /// The selected rectangle of image pixels (the select tool), outlined; nil when none.
    public internal(set) var selection: IntRect?
    /// While a selection is being dragged out: the pixel it started at.
    var selectionAnchor: (x: Int, y: Int)?
    /// Text an input method is composing into the prompt's field, shown at its cursor.
    public internal(set) var preedit: Preedit?
    /// The prompt's field as last drawn (clicks place its cursor where the user sees it).
    var promptView: TextFieldView?

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
        case .doubleClick(let x, let y):
            doubleClick(x, y)
        case .leave:
            lastPointer = nil
            setHovered(nil)
            if pointerPixel != nil {
                pointerPixel = nil
                statusDirty = true
            }
        }
    }

    func setLayout(_ new: Layout) {
        guard new != layout else { return }
        layout = new
        layoutChanged = true
        toolbarDirty = true
        statusDirty = true
    }

    func setHovered(_ item: ToolbarItem?) {
        guard item != hovered else { return }
        hovered = item
        toolbarDirty = true
    }

    /// Shows a message in the status bar.
    public func show(_ text: String) { setMessage(text) }

    func setMessage(_ text: String) {
        message = text
        statusDirty = true
    }

    func handlePress(_ x: Int, _ y: Int, _ button: PointerButton, _ modifiers: Modifiers) {
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
        if pressPromptField(x, y, modifiers) { return }
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
        case .select:
            if button == .left { pressSelect(at: point) }
            return
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

    func handleMotion(_ x: Int, _ y: Int, _ modifiers: Modifiers) {
        lastPointer = (x, y)
        if let grab = placing?.grab {
            let point = layout.imagePoint(windowX: x, windowY: y)
            movePlacing(toX: Int(point.x.rounded(.down)) - grab.x, y: Int(point.y.rounded(.down)) - grab.y)
            return
        }
        if selectionAnchor != nil {
            dragSelection(to: layout.imagePoint(windowX: x, windowY: y))
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

    func updatePointerPixel(_ x: Int, _ y: Int) {
        let p = layout.imagePoint(windowX: x, windowY: y)
        let pixel = (x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)))
        let new: (x: Int, y: Int)? = layout.visibleImage.contains(x, y) ? pixel : nil
        if new?.x != pointerPixel?.x || new?.y != pointerPixel?.y {
            pointerPixel = new
            statusDirty = true
        }
    }

    func handleRelease(_ x: Int, _ y: Int, _ button: PointerButton) {
        if placing?.grab != nil && button == .left {
            placing?.grab = nil
            return
        }
        if selectionAnchor != nil && button == .left {
            selectionAnchor = nil
            if let r = selection { setMessage("Selected \(r.width) × \(r.height) at \(r.x), \(r.y)") }
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

    func pressToolbar(_ item: ToolbarItem, x: Int, button: PointerButton) {
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

    func activate(_ item: ToolbarItem) {
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

    func setSlider(_ item: ToolbarItem, x: Int) {
        if item == .widthSlider && tool == .fill {
            setTolerance(Int((layout.sliderFraction(.widthSlider, atX: x) * 255).rounded()))
        } else if item == .widthSlider {
            setWidth(layout.widthValue(atX: x))
        } else {
            setOpacity(layout.opacityValue(atX: x))
        }
    }

    /// Zooms in (`steps` > 0) or out by `steps` of `Zoom.steps`, keeping the image point under
    /// window pixel (x, y) where it is (the canvas centre for keys).
    public func zoom(by steps: Int, aroundWindowX x: Int? = nil, y: Int? = nil) {
        var target = layout.zoom
        for _ in 0..<abs(steps) { target = (steps > 0 ? target.stepIn : target.stepOut) ?? target }
        guard target != layout.zoom else {
            return setMessage(steps > 0 ? "Zoomed in as far as it goes" : "Zoomed out as far as it goes")
        }
        zoom(to: target, aroundWindowX: x, y: y)
    }

    /// Shows the picture at `zoom`, keeping the image point under window pixel (x, y) where it
    /// is (the canvas centre by default).
    public func zoom(to zoom: Zoom, aroundWindowX x: Int? = nil, y: Int? = nil) {
        let area = layout.canvasArea
        setLayout(
            layout.zoomed(
                to: zoom.clamped, keepingWindowX: x ?? area.x + area.width / 2, y: y ?? area.y + area.height / 2))
        setHoverStroke(nil)
    }

    /// Back to 100 %.
    public func resetZoom() { zoom(to: .actualSize) }

    func scroll(_ button: PointerButton, _ modifiers: Modifiers) {
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
    func beginStroke(_ style: StrokeStyle, at point: Point) {
        canvasDirty = canvasDirty.union(engine.begin(style, at: point))
        live = .stroke
        strokeStyle = style
        strokePoints = [point]
        lastPaintPoint = point
    }

    /// Feeds one more pointer sample to the stroke in progress.
    func extendStroke(to point: Point) {
        guard engine.isStroking else { return }
        canvasDirty = canvasDirty.union(engine.move(to: point))
        strokePoints.append(point)
        lastPaintPoint = point
    }

    /// Starts a shape where the button went down; it follows the pointer until release.
    func beginShape(_ style: StrokeStyle, at point: Point, modifiers: Modifiers) {
        engine.beginShape(style)
        strokeStyle = style
        live = .shape(from: point)
        updateShape(from: point, to: point, modifiers: modifiers)
    }

    /// Redraws the shape in progress from `from` to the pointer; Shift constrains lines to 15°
    /// steps and rectangles and ellipses to squares and circles.
    func updateShape(from: Point, to raw: Point, modifiers: Modifiers) {
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
    func fill(at point: Point, style: StrokeStyle) {
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

    func cancelStroke() {
        guard engine.isStroking else { return }
        canvasDirty = canvasDirty.union(engine.cancel())
        strokeButton = nil
        strokePoints = []
        live = .stroke
        shapeSpec = nil
    }

    /// A committed change: the document is modified and the journal hears of it.
    func record(_ operation: Operation) {
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
        sink?.record(operation)
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
    func updateModified() {
        let modified = savedStep != history.cursor
        if modified != isModified {
            isModified = modified
            statusDirty = true
        }
    }

    // MARK: Settings

    /// Chooses a tool.
    public func select(_ t: Tool) {
        tool = t
        toolbarDirty = true
        if t != .strokeEraser { setHoverStroke(nil) }
        if t != .select { setSelection(nil) }
    }

}

import PaintCore
import PaintText

/// The text box being typed: what it says and where, the style it is shown in, and its layout
/// and coverage as last stamped into the engine's stroke image.
struct LiveText {
    var box: TextBox
    var style: StrokeStyle
    var layout: TextLayout
    /// The coverage in the stroke image (canvas coordinates, clipped to the canvas).
    var mask: CoverageMask
    /// Text an input method is composing at the caret: shown in the box, not typed yet.
    var preedit: Preedit?
    /// The image pixels the overlay covered when last shown: drawn again from the picture
    /// when the box changes, so no old frame or caret stays on screen.
    var overlayShown = IntRect.empty
    /// The box is text put down earlier, opened again (its old step taken out): undoing past
    /// its first edit puts the old text back.
    var reopened = false
    /// The box's own undo while it is typed.
    var edits = TextEdits()
    /// The selected text last offered as the PRIMARY selection (nil when the selection
    /// emptied since): a selection offered again only when it changed.
    var primaryOffered: String?

    /// What the box's undo keeps and puts back.
    var editState: TextEdits.State { TextEdits.State(box: box, style: style) }

    /// The text as shown: the box's, with the composition at the caret.
    var shownText: String {
        guard let preedit, !preedit.text.isEmpty else { return box.text }
        var text = box.text
        let at = text.unicodeScalars.index(text.startIndex, offsetBy: box.caret)
        text.insert(contentsOf: preedit.text, at: at)
        return text
    }

    /// The caret as shown: the box's, moved into the composition to the input method's caret.
    var shownCaret: (line: Int, scalarOffset: Int) {
        let caret = box.caretPosition
        guard let preedit else { return caret }
        let inside = preedit.text.prefix(max(0, preedit.caret)).unicodeScalars.count
        return (caret.line, caret.scalarOffset + inside)
    }
}

/// Where the text box and its caret are, for the window to draw over the picture (never into
/// it), in image coordinates.
public struct TextOverlay: Equatable, Sendable {
    /// The box: as wide as its widest line (at least a few pixels), as tall as its lines.
    public var frame: IntRect
    /// The caret's x (a fraction of a pixel) and its top and bottom rows.
    public var caretX: Double
    public var caretTop: Int
    public var caretBottom: Int
}

/// The text tool: a click places a box, typing fills it (through the input method), the font
/// list and the toolbar set its font, a drag moves it; Escape, Ctrl+Enter, a click outside, a
/// tool change or anything that commits a stroke puts it down as one step of the history.
extension Session {
    // MARK: State

    /// The text being typed, as the box holds it (nil when no box is open).
    public var editedText: String? { liveText?.box.text }

    /// The box and caret to draw over the picture while text is typed.
    public var textOverlay: TextOverlay? {
        guard let live = liveText else { return nil }
        let layout = live.layout
        let caretPosition = live.shownCaret
        let caret = layout.caret(line: caretPosition.line, offset: caretPosition.scalarOffset)
        let minimum = max(4, live.box.font.size / 3)
        return TextOverlay(
            frame: IntRect(
                x: live.box.x, y: live.box.y, width: max(layout.width, minimum),
                height: max(layout.height, layout.lineHeight)),
            caretX: Double(live.box.x) + caret.x, caretTop: live.box.y + caret.top,
            caretBottom: live.box.y + caret.bottom)
    }

    /// The image pixels the overlay covers, grown by the frame's margin: what must be drawn
    /// again from the picture when it moves or goes.
    func textOverlayBounds() -> IntRect {
        guard let overlay = textOverlay else { return .empty }
        let margin = Int((Double(textFrameMargin + 2) / layout.zoom.factor).rounded(.up)) + 1
        let caret = IntRect(
            x: Int(overlay.caretX.rounded(.down)) - 1, y: overlay.caretTop, width: 3,
            height: overlay.caretBottom - overlay.caretTop)
        let r = overlay.frame.union(caret)
        return IntRect(x: r.x - margin, y: r.y - margin, width: r.width + 2 * margin, height: r.height + 2 * margin)
            .intersection(engine.bounds)
    }

    /// How far outside the text the box's frame reaches, window pixels (5 at 96 dpi); a press
    /// there (or inside) belongs to the box.
    public var textFrameMargin: Int { layout.ui.px(5) }

    /// The box's frame in window coordinates, with its margin: where the window draws the
    /// dashed frame, all round at the margin outside the text, where a press still belongs to
    /// the box, so the caret at a line's end stays clear of it (drawn 2 px out, the frame ran
    /// under that caret).
    public var textFrameInWindowRect: IntRect? { textFrameInWindow() }

    /// The box's frame in window coordinates, with its margin.
    func textFrameInWindow() -> IntRect? {
        guard let overlay = textOverlay else { return nil }
        let f = overlay.frame
        let o = layout.imageOrigin
        let z = layout.zoom
        let m = textFrameMargin
        let x0 = z.scaledDown(f.x) + o.x - m
        let y0 = z.scaledDown(f.y) + o.y - m
        let x1 = z.scaledUp(f.maxX) + o.x + m
        let y1 = z.scaledUp(f.maxY) + o.y + m
        return IntRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The caret bar the window draws, in window coordinates, its white edge included (a dark
    /// bar of 2 px, at 96 dpi, between two white columns).
    public var textCaretBar: IntRect? {
        textCaretInWindow.map { IntRect(x: $0.x - 1, y: $0.y, width: max(2, layout.ui.px(2)) + 2, height: $0.height) }
    }

    /// The style text is shown and merged in: the primary color at the current opacity.
    var textStyle: StrokeStyle {
        StrokeStyle(
            tool: .brush, color: settings.primary, opacity: Double(settings.opacityPercent) / 100, width: 1)
    }

    // MARK: Pointer

    /// A press on the canvas with the text tool. On the box's text the caret goes where it
    /// was pressed (with Shift the selection stretches there) and a drag selects; on its
    /// frame's margin a drag moves the box; outside it, the box is put down; with no box, a new
    /// one starts with its top-left corner at the press.
    func pressText(at point: Point, windowX x: Int, y: Int, modifiers: Modifiers = []) {
        if let live = liveText {
            guard let frame = textFrameInWindow(), frame.contains(x, y) else {
                commitText()
                return
            }
            gesture = .textBox(
                grabX: Int(point.x.rounded(.down)) - live.box.x, grabY: Int(point.y.rounded(.down)) - live.box.y,
                pressX: x, pressY: y, moving: false)
            guard textInnerFrameInWindow()?.contains(x, y) == true else { return }
            let at = textOffset(atWindowX: x, y: y) ?? live.box.caret
            var pressed = live
            pressed.preedit = nil
            pressed.box.moveCaret(extending: modifiers.contains(.shift)) { $0.select(from: at, to: at) }
            liveText = pressed
            refreshText(live.preedit == nil ? .caret : .reshape)
            gesture = .selectingText(anchor: pressed.box.anchor ?? pressed.box.caret)
            return
        }
        // A new box starts on the picture, not on the gray around it.
        guard layout.visibleImage.contains(x, y) else { return }
        startText(atX: Int(point.x.rounded(.down)), y: Int(point.y.rounded(.down)))
    }

    /// The pointer moved with the box held: past three pixels from the press, the box follows.
    func dragText(toWindowX x: Int, y: Int) {
        guard case .textBox(let grabX, let grabY, let pressX, let pressY, let moving) = gesture else { return }
        guard moving || abs(x - pressX) > 3 || abs(y - pressY) > 3 else { return }
        gesture = .textBox(grabX: grabX, grabY: grabY, pressX: pressX, pressY: pressY, moving: true)
        let point = layout.imagePoint(windowX: x, windowY: y)
        moveText(toX: Int(point.x.rounded(.down)) - grabX, y: Int(point.y.rounded(.down)) - grabY)
    }

    /// Moves the box so its top-left corner is at image pixel (x, y).
    func moveText(toX x: Int, y: Int) {
        guard var live = liveText, live.box.x != x || live.box.y != y else { return }
        let before = live.editState
        live.box.x = x
        live.box.y = y
        liveText = live
        refreshText(.place)
        recordTextEdit(.move, from: before)
    }

    /// The pointer shape over the box: an I-beam over its text, the move arrows on its frame.
    func textPointerShape(atWindowX x: Int, y: Int) -> PointerShape? {
        if case .textBox(_, _, _, _, true) = gesture { return .move }
        if case .selectingText = gesture { return .text }
        guard let frame = textFrameInWindow(), frame.contains(x, y) else { return nil }
        return textInnerFrameInWindow()?.contains(x, y) == true ? .text : .move
    }

    // MARK: Starting, putting down, cancelling

    /// Opens a box at image pixel (x, y) holding `text` (empty for a new one) in the current
    /// font, color and opacity.
    func startText(atX x: Int, y: Int, text: String = "") {
        commitStroke()
        guard let typesetter else { return setMessage("Cannot set text: FreeType could not start") }
        let box = TextBox(x: x, y: y, font: settings.textFont, text: text)
        let layout = typesetter.layout("", font: box.font)
        guard !layout.lines.isEmpty else { return setMessage("Cannot set text: no scalable font is installed") }
        let style = textStyle
        engine.beginText(style)
        liveText = LiveText(box: box, style: style, layout: layout, mask: CoverageMask(x: x, y: y, width: 0, height: 0))
        refreshText(.reshape)
        // The keys that put it down are named: a keyboard user has no click outside, and
        // Escape keeps the text (as GIMP's and Paint.NET's do), where some programs drop it.
        setMessage("Type your text — Enter: new line, Ctrl+Enter or Esc: done")
    }

    /// Puts the box down as one step of the history; a box with nothing drawn leaves no step.
    /// What it records is the coverage shown, so the step replays to these exact pixels.
    /// True when a step was recorded.
    @discardableResult func commitText() -> Bool {
        guard var live = liveText else { return false }
        closeFontChooser(accepting: true)
        if live.preedit != nil {
            // A composition not finished is not typed: the text goes down without it.
            live.preedit = nil
            liveText = live
            refreshText(.reshape)
            live = liveText ?? live
        }
        endTextBox()
        guard !live.box.isBlank, !live.mask.isBlank else {
            redraw(engine.cancel())
            return false
        }
        let spec = TextSpec(
            mask: live.mask.trimmed(to: engine.bounds), text: live.box.text, font: live.box.font, x: live.box.x,
            y: live.box.y)
        let operation = Operation.text(live.style, spec)
        let recorded = !history.commitLiveStroke(operation, engine: engine).isEmpty
        if recorded { record(operation) }
        setMessage("")
        return recorded
    }

    /// Drops the box being typed (its own undo taken back past its start, a blank box a redo
    /// closes): nothing is recorded; text that was opened again goes back as it was.
    func cancelText() {
        guard let live = liveText else { return }
        closeFontChooser(accepting: true)
        endTextBox()
        redraw(engine.cancel())
        if live.reopened && history.canUndo {
            perform(.undo)
            return setMessage("The text is back as it was")
        }
        setMessage("Text cancelled")
    }

    /// A double click with the text tool on text put down earlier opens it again to edit: its
    /// step is taken out (as the stroke eraser does), the box comes back with its text, font,
    /// color and opacity, and it goes down again as a new step. True when there was such text.
    func reopenText(atWindowX x: Int, y: Int) -> Bool {
        guard settings.tool == .text, layout.visibleImage.contains(x, y) else { return false }
        if let live = liveText, !live.box.isBlank || live.reopened { return false }
        let point = layout.imagePoint(windowX: x, windowY: y)
        // On the ink of the newest step there, or else anywhere in a text's box (between its
        // letters, inside an "o").
        guard let step = history.stroke(at: point, slack: 1) ?? history.text(around: point),
            history.operations.indices.contains(step),
            case .text(let style, let spec) = history.operations[step]
        else { return false }
        // Turned, scaled, cropped or moved since, it no longer stands where its box says.
        let since = history.operations[(step + 1)..<history.cursor]
        if since.contains(where: {
            switch $0 {
            case .canvas, .orientRect, .moveRect: return true
            default: return false
            }
        }) {
            setMessage("This text was moved, turned or scaled: it cannot be edited again")
            return false
        }
        // The first click of the double click opened an empty box there: it goes.
        if liveText != nil {
            endTextBox()
            redraw(engine.cancel())
        }
        perform(.removeStroke(step: step))
        changeSettings {
            $0.textFont = spec.font
            $0.primary = style.color
            $0.setOpacity(Int((style.opacity * 100).rounded()))
        }
        startText(atX: spec.x, y: spec.y, text: spec.text)
        liveText?.reopened = true
        setMessage("Editing the text again — Ctrl+Enter or Esc: done")
        return true
    }

    /// Forgets the box (its overlay redrawn away); the engine's text is the caller's.
    private func endTextBox() {
        // The highlight goes first, with the window pixels its sides reached when zoomed in.
        redraw(engine.highlightText([]))
        redraw(liveText?.overlayShown ?? .empty)
        redraw(textOverlayBounds())
        liveText = nil
        switch gesture {
        case .textBox, .selectingText: gesture = .idle
        default: break
        }
    }

    // MARK: Showing

    /// What changed in the box, and so what must be done again.
    enum TextRefresh {
        /// Its text or font: shaped, drawn and stamped again.
        case reshape
        /// Its place: drawn and stamped again (the layout holds).
        case place
        /// Only the caret: the overlay is redrawn.
        case caret
    }

    /// Shows the box as it now is: the engine's stroke image gets the new coverage (only what
    /// changed is recomposited), the overlay follows.
    func refreshText(_ what: TextRefresh) {
        guard var live = liveText, let typesetter else { return }
        redraw(live.overlayShown)
        if what == .reshape { live.layout = typesetter.layout(live.shownText, font: live.box.font) }
        if what != .caret {
            live.mask = typesetter.rasterize(live.layout, atX: live.box.x, y: live.box.y, clip: engine.bounds)
            redraw(engine.updateText(live.mask))
        }
        let pieces = textHighlightPieces(live)
        redraw(engine.highlightText(pieces.map(\.rect), sides: pieces.map(\.sides)))
        liveText = live
        live.overlayShown = textOverlayBounds()
        liveText = live
        redraw(live.overlayShown)
        offerPrimarySelection()
    }

    /// After a change of settings: the box takes the new font, color and opacity.
    func followSettings() {
        guard var live = liveText else { return }
        let before = live.editState
        defer { recordTextEdit(.style, from: before) }
        let style = textStyle
        if style != live.style {
            live.style = style
            liveText = live
            redraw(engine.restyleText(style))
        }
        if live.box.font != settings.textFont {
            live.box.font = settings.textFont
            liveText = live
            refreshText(.reshape)
        }
    }

    /// The caret in window coordinates (where an input method puts its candidate window).
    var textCaretInWindow: IntRect? {
        guard let overlay = textOverlay else { return nil }
        let o = layout.imageOrigin
        let x = Int((overlay.caretX * layout.zoom.factor).rounded(.down)) + o.x
        let top = layout.zoom.scaledDown(overlay.caretTop) + o.y
        let bottom = layout.zoom.scaledUp(overlay.caretBottom) + o.y
        return IntRect(x: x, y: top, width: 1, height: max(1, bottom - top))
    }
}

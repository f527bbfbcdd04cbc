import PaintCore
import PaintText

/// The font list panel of the text tool (under the font button), and the panel the window
/// shows: the size dialog, the color editor or the font list.
extension Session {
    /// Where the font list sits in the window: under the font button, inside the window.
    public var fontChooserFrame: IntRect {
        let anchor = layout.rect(of: .font)
        let (width, height) = FontChooser.size(layout.ui)
        let x = max(0, min(anchor.x, layout.windowWidth - width))
        return IntRect(x: x, y: layout.toolbar.maxY + layout.ui.px(2), width: width, height: height)
    }

    /// The panel floating over the window and where it sits; nil when none is open.
    public var panelFrame: IntRect? {
        // The dialogs are modal: they come first.
        if fileDialog != nil { return fileDialogFrame }
        if sizeDialog != nil { return sizeDialogFrame }
        if colorEditor != nil { return colorEditorFrame }
        if fontChooser != nil { return fontChooserFrame }
        return nil
    }

    /// The open panel drawn, in its own coordinates.
    public func renderPanel(measure: TextMeasuring) -> ChromeStrip? {
        if fileDialog != nil { return renderFileDialog(measure: measure) }
        if let dialog = sizeDialog { return dialog.render(measure: measure) }
        if let editor = colorEditor {
            let (strip, field) = editor.drawn(measure: measure)
            let frame = colorEditorFrame
            colorEditorField = field.moved(byX: frame.x, y: frame.y)
            return strip
        }
        if let chooser = fontChooser { return chooser.render(measure: measure) { familyPreview($0) } }
        return nil
    }

    /// Opens the font list on the current family (the font button).
    public func openFontChooser() {
        guard let typesetter else { return setMessage("Cannot list fonts: FreeType could not start") }
        let families = typesetter.catalog.families
        guard !families.isEmpty else { return setMessage("No scalable fonts are installed") }
        colorEditor = nil
        fontChooser = FontChooser(families: families, current: settings.textFont.family, scale: layout.ui)
        effects.editor = true
    }

    /// Closes the font list; without `accepting`, the family it opened with comes back.
    func closeFontChooser(accepting: Bool) {
        guard let chooser = fontChooser else { return }
        fontChooser = nil
        effects.editor = true
        if !accepting { changeSettings { $0.textFont.family = chooser.original } }
    }

    /// What a key or click in the list asks.
    func carryOut(_ action: FontChooser.Action) {
        switch action {
        case .preview(let family):
            changeSettings { $0.textFont.family = family }
        case .accept(let family):
            changeSettings { $0.textFont.family = family }
            closeFontChooser(accepting: true)
            setMessage("Font: \(family)")
        case .cancel:
            closeFontChooser(accepting: false)
        }
    }

    /// A key while the list is open: it has the keyboard (its search field).
    func handleFontChooserKey(_ key: Key, _ modifiers: Modifiers) {
        guard var chooser = fontChooser else { return }
        let action = chooser.key(key, modifiers)
        fontChooser = chooser
        effects.editor = true
        if let action { carryOut(action) }
    }

    /// A press in the list panel at window position (x, y): a row takes its family, the wheel
    /// scrolls.
    func pressFontChooser(_ x: Int, _ y: Int, _ button: PointerButton) {
        guard var chooser = fontChooser else { return }
        let frame = fontChooserFrame
        var action: FontChooser.Action?
        switch button {
        case .left: action = chooser.press(x: x - frame.x, y: y - frame.y)
        case .wheelUp: chooser.scroll(by: -3)
        case .wheelDown: chooser.scroll(by: 3)
        default: break
        }
        fontChooser = chooser
        effects.editor = true
        if let action { carryOut(action) }
    }

    /// The pointer over the list panel: the row under it is lit.
    func hoverFontChooser(_ x: Int, _ y: Int) {
        guard var chooser = fontChooser else { return }
        let frame = fontChooserFrame
        let before = chooser.hovered
        chooser.hover(x: x - frame.x, y: y - frame.y)
        guard chooser.hovered != before else { return }
        fontChooser = chooser
        effects.editor = true
    }

    /// A family's name set in that family, for its row in the list (made once).
    func familyPreview(_ family: String) -> (mask: CoverageMask, ascent: Int)? {
        let size = FontChooser.previewSize(layout.ui)
        if let known = familyPreviews[family], known.size == size { return (known.mask, known.ascent) }
        guard let typesetter else { return nil }
        let set = typesetter.layout(family, font: TextFont(family: family, size: size))
        let (width, _) = FontChooser.size(layout.ui)
        let clip = IntRect(x: 0, y: -2 * size, width: width, height: 5 * size)
        let mask = typesetter.rasterize(set, atX: 0, y: 0, clip: clip)
        familyPreviews[family] = (mask, set.ascent, size)
        return (mask, set.ascent)
    }
}

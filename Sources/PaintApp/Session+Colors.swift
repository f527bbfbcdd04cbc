import Glibc
import PaintCore
import PaintIO

/// Colors: the palette, recent colors, the color editor, the background.
extension Session {
    // MARK: Colors

    func remember(_ color: Color) {
        guard recentColors.first != color else { return }
        recentColors.removeAll { $0 == color }
        recentColors.insert(color, at: 0)
        if recentColors.count > Layout.recentCount { recentColors.removeLast() }
        toolbarDirty = true
    }

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

    func finishEditing(_ action: ColorEditor.Action) {
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
    func widthStep(down: Bool) -> Double {
        let w = down ? brushWidth - 1 : brushWidth
        return max(1, (w * 0.15).rounded())
    }
}

import Glibc
import PaintCore
import PaintIO

/// Colors: the palette, recent colors, the color editor, the background.
extension Session {
    // MARK: Colors

    /// Opens the color editor for the primary or secondary color.
    public func openColorEditor(_ target: ColorEditor.Target) {
        // The text being typed stays open: its color follows the editor's.
        if liveText == nil { commitStroke() }
        fontChooser = nil
        colorEditor = ColorEditor(
            target: target, color: target == .primary ? settings.primary : settings.secondary, scale: layout.ui)
        effects.editor = true
    }

    /// Where the editor panel sits in the window: under the current colors.
    public var colorEditorFrame: IntRect {
        // Below the toolbar under the current colors, moved left where it would leave the window.
        let anchor = layout.rect(of: .currentColors)
        let (width, height) = ColorEditor.size(layout.ui)
        let x = max(0, min(anchor.x, layout.windowWidth - width))
        return IntRect(x: x, y: layout.toolbar.maxY + layout.ui.px(2), width: width, height: height)
    }

    /// The left button pressed in the editor panel at window position (x, y): a slider starts
    /// following the pointer, OK and Cancel close the editor.
    func pressEditor(_ x: Int, _ y: Int, _ modifiers: Modifiers = []) {
        guard var editor = colorEditor else { return }
        if let view = colorEditorField, view.frame.contains(x, y) {
            // In the hex field a click places the cursor (Shift: selects to it), as in every
            // other text field; before, it did nothing and the code could only be retyped whole.
            editor.moveCursor(to: view.index(atX: x), extending: modifiers.contains(.shift))
            colorEditor = editor
            effects.editor = true
            return
        }
        let frame = colorEditorFrame
        let action = editor.press(x: x - frame.x, y: y - frame.y)
        colorEditor = editor
        effects.editor = true
        if let action {
            finishEditing(action)
        } else if let problem = editor.hexProblem {
            setMessage(problem)
        } else {
            gesture = .editor
        }
    }

    /// The pointer at window x with an editor slider held.
    func dragEditor(_ x: Int) {
        guard var editor = colorEditor else { return }
        editor.drag(x: x - colorEditorFrame.x)
        colorEditor = editor
        effects.editor = true
    }

    func finishEditing(_ action: ColorEditor.Action) {
        guard let editor = colorEditor else { return }
        colorEditor = nil
        effects.editor = true
        if case .editor = gesture { gesture = .idle }
        guard action == .accept else { return }
        changeSettings {
            if editor.target == .primary { $0.primary = editor.color } else { $0.secondary = editor.color }
            $0.remember(editor.color)
        }
    }

    /// Sets the color of `button` to the picture's color at `point`: the view's pixel, or,
    /// over a transparent background, the paint's own color (the checkerboard the view shows
    /// there is no color of the picture); a transparent pixel picks nothing.
    func pickColor(at point: Point, into button: PointerButton) {
        let x = Int(point.x.rounded(.down))
        let y = Int(point.y.rounded(.down))
        let transparent = engine.background == .transparent
        guard
            let pixel = transparent
                ? engine.paintPixel(x: x, y: y).map(Pixel.unpremultiply) : engine.viewPixel(x: x, y: y)
        else { return }
        let c = Pixel.unpack(pixel)
        guard c.a > 0 else { return setMessage("Nothing to pick there: the picture is transparent") }
        let color = Color(r: c.r, g: c.g, b: c.b)
        changeSettings { $0.setColor(color, for: button) }
        setMessage(c.a < 255 ? "Picked \(color.hex) (the paint there is partly transparent)" : "Picked \(color.hex)")
    }

    // MARK: Background

    /// Replaces the background (an undoable step; the paint stays).
    public func setBackground(_ background: Background) {
        perform(.background(background))
    }

    /// A background from what the user typed: "transparent", a color, or a picture file.
    /// Returns why not when the file cannot be used (also shown in the status bar). `aside`
    /// (the window's dialog): a picture is decoded on a thread of its own (`startPaste`) and
    /// becomes the background once it is done; nil is returned at once.
    @discardableResult
    public func setBackground(fromText text: String, aside: Bool = false) -> String? {
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
        if aside && PictureHeader.read(path: path) != nil {
            startPaste(.background(path))
            return nil
        }
        do {
            let decoded = try ImageFile.decode(path: path)
            setBackground(
                picture: decoded.image, from: path,
                damaged: decoded.damage.map { $0.message(name: PathDisplay.abbreviatingHome(path)) })
            return nil
        } catch {
            setMessage(error.description)
            return error.description
        }
    }

    /// `image`, from the file at `path`, as the background: fitted to the canvas, one step. A
    /// damaged file's picture (what could be read of it) says so (`damaged`).
    func setBackground(picture image: PixelImage, from path: String, damaged: String? = nil) {
        setBackground(Background.fitted(image, width: engine.width, height: engine.height))
        if let damaged { return setMessage("\(damaged); the background shows what could be read") }
        setMessage("Background: \(PathDisplay.abbreviatingHome(path))")
    }

    /// The background picture named on the command line (`--background FILE`). It is a step of
    /// the document, so the journal and the saved history carry the picture, and it leaves the
    /// document modified whether its file exists or not: the pixels are not what the file holds
    /// (or there is no file yet), so closing asks before the picture is lost. Returns why not
    /// when the file cannot be used (nothing changes then).
    public func setStartingBackground(file: String) -> String? {
        setBackground(fromText: file)
    }
}

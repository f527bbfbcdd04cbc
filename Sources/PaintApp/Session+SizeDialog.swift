import PaintCore

/// The picture size dialog in the window: opened by Ctrl+R (scale) and Ctrl+Shift+R (canvas
/// size), modal, centred over the canvas; OK or Enter carries out its change as one step.
extension Session {
    /// Opens the dialog on the picture's size.
    public func openSizeDialog(_ kind: SizeDialog.Kind) {
        commitStroke()
        colorEditor = nil
        closeFontChooser(accepting: true)
        sizeDialog = SizeDialog(kind: kind, width: engine.width, height: engine.height, scale: layout.ui)
        effects.editor = true
        setMessage("Type the sizes or drag a label; Alt+K: keep aspect; Esc cancels")
    }

    /// Where the dialog sits: centred over the canvas area, inside the window.
    public var sizeDialogFrame: IntRect {
        let area = layout.canvasArea
        let (w, h) = (sizeDialog?.width ?? 0, sizeDialog?.height ?? 0)
        let x = max(0, min(area.x + (area.width - w) / 2, layout.windowWidth - w))
        let y = max(0, min(area.y + (area.height - h) / 3, layout.windowHeight - h))
        return IntRect(x: x, y: y, width: w, height: h)
    }

    func keySizeDialog(_ key: Key, _ modifiers: Modifiers) {
        guard var dialog = sizeDialog else { return }
        if key == .character("v") && modifiers.contains(.control) { return requestTextPaste() }
        let action = dialog.key(key, modifiers)
        sizeDialog = dialog
        effects.editor = true
        if let action { finishSizeDialog(action) }
    }

    /// The left button pressed in the dialog at window position (x, y).
    func pressSizeDialog(_ x: Int, _ y: Int) {
        guard var dialog = sizeDialog else { return }
        let frame = sizeDialogFrame
        let action = dialog.press(x: x - frame.x, y: y - frame.y)
        sizeDialog = dialog
        effects.editor = true
        if let action {
            finishSizeDialog(action)
        } else if dialog.isDragging {
            gesture = .editor
        }
    }

    /// The pointer at window x with a label held: its number follows.
    func dragSizeDialog(_ x: Int) {
        guard var dialog = sizeDialog else { return }
        dialog.drag(x: x - sizeDialogFrame.x)
        sizeDialog = dialog
        effects.editor = true
    }

    func finishSizeDialog(_ action: SizeDialog.Action) {
        guard let dialog = sizeDialog else { return }
        sizeDialog = nil
        effects.editor = true
        if case .editor = gesture { gesture = .idle }
        switch action {
        case .cancel:
            setMessage(dialog.kind == .scale ? "Scale cancelled" : "Canvas size unchanged")
        case .accept(let change):
            let (w, h) = change.size(width: engine.width, height: engine.height)
            let done = dialog.kind == .scale ? "Scaled to \(w) × \(h)" : "Canvas \(w) × \(h)"
            changeCanvas(change, saying: done)
        }
    }
}

import Glibc
import PaintCore
import PaintIO

/// Keys: shortcuts, prompts and questions answered from the keyboard.
extension Session {
    // MARK: Keys

    func handleKey(_ key: Key, _ modifiers: Modifiers) {
        if var editor = colorEditor {
            let action = editor.key(key)
            colorEditor = editor
            editorDirty = true
            if let action { finishEditing(action) }
            return
        }
        switch mode {
        case .savePrompt(let field, let then):
            let commit: (String) -> Void = { typed in
                let target = PathDisplay.absolute(typed)
                // Another picture of that name is never overwritten without asking.
                if target != self.path && FileSystem.exists(target) {
                    self.mode = .confirmReplace(target, then: then)
                    self.statusDirty = true
                } else if self.save(to: target), let then {
                    self.proceed(to: then)
                }
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
        case .confirmLeave, .offerRestore, .confirmReplace:
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
            case "c": if !copySelection() { copy() }
            case "x": cutSelection()
            case "a": selectAll()
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
        case .escape where selection != nil:
            setSelection(nil)
        case .delete where selection != nil, .backspace where selection != nil:
            clearSelection()
        case .enter where placing != nil:
            putDownPaste()
        case .left where placing != nil, .right where placing != nil, .up where placing != nil,
            .down where placing != nil:
            // Arrow keys nudge a floating picture a pixel at a time (ten with Shift), as in MS Paint.
            let step = modifiers.contains(.shift) ? 10 : 1
            let (dx, dy): (Int, Int) =
                key == .left ? (-step, 0) : key == .right ? (step, 0) : key == .up ? (0, -step) : (0, step)
            if let p = placing { movePlacing(toX: p.x + dx, y: p.y + dy) }
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
            case "s", "S": select(.select)
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
    func editPrompt(
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
}

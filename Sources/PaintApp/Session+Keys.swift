import Glibc
import PaintCore
import PaintIO

/// Keys: shortcuts, prompts and questions answered from the keyboard.
extension Session {
    // MARK: Keys

    func handleKey(_ key: Key, _ modifiers: Modifiers) {
        if fileDialog != nil { return keyFileDialog(key, modifiers) }
        if sizeDialog != nil { return keySizeDialog(key, modifiers) }
        if var editor = colorEditor {
            if key == .character("v") && modifiers.contains(.control) { return requestTextPaste() }
            let refused = colorEditor?.hexProblem
            let action = editor.key(key, modifiers)
            colorEditor = editor
            effects.editor = true
            if let problem = editor.hexProblem {
                setMessage(problem)
            } else if let refused, message == refused {
                // Edited since, or the editor closed: the reason no longer applies.
                setMessage("")
            }
            if let action { finishEditing(action) }
            return
        }
        if fontChooser != nil { return handleFontChooserKey(key, modifiers) }
        switch mode {
        case .qualityPrompt(let field, let target, let then):
            let commit: (String) -> Void = { self.commitQuality($0, target: target, then: then) }
            editPrompt(
                key, modifiers, field, wrap: { .qualityPrompt($0, target: target, then: then) },
                cancelled: "Save cancelled", commit: commit)
            return
        case .confirmLeave, .offerRestore, .confirmReplace, .chooseFormat, .confirmOverwrite:
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
                    setMode(.normal)
                    pendingRestore = nil
                    setMessage("The earlier drawing is kept; it will be offered again at the next start")
                }
            case .character(let c):
                guard let match = answers.first(where: { $0.rawValue.first?.lowercased() == c.lowercased() })
                else { break }
                if case .offerRestore(let question) = mode, match == .discard, !modifiers.contains(.alt) {
                    // The offer comes unasked, at start-up, over a canvas the user may already be
                    // typing shortcuts at: a stray "d" must not throw a drawing away for good.
                    // Restoring (Enter, "r") loses nothing, so it keeps its plain key.
                    if !question.hasSuffix(Self.discardHint) {
                        setMode(.offerRestore(question + Self.discardHint))
                    }
                    break
                }
                answer(match)
            default: break
            }
            return
        case .restoring:
            // Every key waits for the drawing; Escape stops restoring it (the journal stays).
            if key == .escape { stopRestore() }
            return
        case .normal:
            break
        }
        if handleTextKey(key, modifiers) { return }
        shortcut(for: key, modifiers)?()
    }

    /// Added to the restore offer when "d" alone was pressed: what discards it.
    static let discardHint = " Alt+D or Discard throws it away."

    /// What `key` with `modifiers` does on the canvas (no prompt or question open), or nil when
    /// nothing. The window asks through `bindsKey` which of a key's characters on other layouts
    /// to send, so this is the one list of shortcuts.
    func shortcut(for key: Key, _ modifiers: Modifiers) -> (() -> Void)? {
        // An open menu or panel takes every key; F10 and Alt+letter open the menus.
        if let menus = menuShortcut(key, modifiers) { return menus }
        // The commands of the menus, with their keys (Commands.swift).
        if let command = Command.bound(to: key, modifiers) { return { command.run(self) } }
        if modifiers.contains(.control) { return nil }
        switch key {
        case .escape where pasteDecoding != nil:
            return cancelPaste
        case .escape where placing != nil:
            return dropPaste
        case .escape where selection != nil:
            return { self.setSelection(nil) }
        case .enter where placing != nil:
            return putDownPaste
        case .left where nudges, .right where nudges, .up where nudges, .down where nudges:
            // Arrow keys nudge a floating picture a pixel at a time (ten with Shift), as in MS Paint;
            // a selection is lifted to float first, as a drag inside it does (they scrolled).
            let step = modifiers.contains(.shift) ? 10 : 1
            let (dx, dy): (Int, Int) =
                key == .left ? (-step, 0) : key == .right ? (step, 0) : key == .up ? (0, -step) : (0, step)
            return {
                if self.placing == nil, let rect = self.selection { self.liftToMove(rect) }
                if let p = self.placing { self.movePlacing(toX: p.x + dx, y: p.y + dy) }
            }
        case .escape:
            return cancelStroke
        case .left, .right, .up, .down, .pageUp, .pageDown, .home, .end:
            return scrollKey(key, modifiers)
        case .character(let c):
            if let digit = c.wholeNumberValue, c.isASCII {
                return { self.setOpacity(digit == 0 ? 100 : digit * 10) }
            }
            switch c {
            // The width slider's value: the width, the fill tolerance or the text size.
            case "[": return { self.stepSlider(.widthSlider, down: true) }
            case "]": return { self.stepSlider(.widthSlider, down: false) }
            case "l", "L": return { self.select(.line) }
            case "a", "A": return { self.select(.arrow) }
            case "r", "R": return { self.select(.rectangle) }
            case "o", "O": return { self.select(.ellipse) }
            case "f", "F": return { self.select(.fill) }
            case "i", "I": return { self.select(.picker) }
            case "s", "S": return { self.select(.select) }
            case "t", "T": return { self.select(.text) }
            case "b", "B": return { self.select(.brush) }
            case "e": return { self.select(.eraser) }
            case "E": return { self.select(.strokeEraser) }
            default: return nil
            }
        default:
            return nil
        }
    }

    /// What a prompt says when Enter is pressed on an empty field.
    static func emptyAnswer(_ mode: SessionMode) -> String {
        switch mode {
        case .qualityPrompt: return "Type a quality from 1 to 100 (Esc cancels)"
        default: return "Type an answer (Esc cancels)"
        }
    }

    /// One key in a field in the status bar: Enter commits the text, Escape cancels, Ctrl+V
    /// pastes text, anything else edits.
    func editPrompt(
        _ key: Key, _ modifiers: Modifiers, _ field: TextField, wrap: (TextField) -> SessionMode, cancelled: String,
        commit: (String) -> Void
    ) {
        var field = field
        preedit = nil
        switch key {
        case .character(let c) where modifiers.contains(.control) && c.lowercased() == "v":
            requestTextPaste()
        case .enter:
            let text = field.text.trimmingSpaces
            guard !text.isEmpty else {
                // Nothing typed: the prompt stays, and says what it waits for.
                setMessage(Self.emptyAnswer(mode))
                return
            }
            setMode(.normal)
            commit(text)
        case .escape:
            setMode(.normal)
            setMessage(cancelled)
        default:
            if field.handle(key, modifiers) { setMode(wrap(field)) }
        }
    }
}

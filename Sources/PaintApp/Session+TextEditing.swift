import PaintCore
import PaintText

/// The keys of the text box being typed, and its own undo: while the box is open, Ctrl+Z and
/// Ctrl+Shift+Z / Ctrl+Y (and Edit > Undo / Redo) take back and do again the typing in it a
/// step at a time; once it is put down, the text is one step of the picture's history.
extension Session {
    // MARK: Keys

    /// A key while a box is being typed; false when it is not the box's (a shortcut such as
    /// Ctrl+S, which puts the box down on its way).
    func handleTextKey(_ key: Key, _ modifiers: Modifiers) -> Bool {
        guard var live = liveText else { return false }
        let before = live.editState
        // Shift with a caret key stretches the selection from where the caret was.
        let extending = modifiers.contains(.shift)
        if modifiers.contains(.control) {
            switch key {
            case .enter:
                commitText()
            case .character(let c) where c.lowercased() == "b":
                live.edits.endRun()
                liveText = live
                changeSettings { $0.textFont.bold.toggle() }
            case .character(let c) where c.lowercased() == "i":
                live.edits.endRun()
                liveText = live
                changeSettings { $0.textFont.italic.toggle() }
            case .character(let c) where c == "[" || c == "]":
                // The text's size a step down or up, as Ctrl+[ and Ctrl+] in Word and
                // LibreOffice: [ and ] alone are typed into the box.
                live.edits.endRun()
                liveText = live
                stepSlider(.widthSlider, down: c == "[")
            case .character(let c) where c.lowercased() == "v":
                requestTextPaste()
            case .character(let c) where c.lowercased() == "a":
                selectAllText()
            case .character(let c) where c.lowercased() == "c":
                copyText()
            case .character(let c) where c.lowercased() == "x":
                cutText()
            case .backspace, .delete:
                // Ctrl+Backspace, Ctrl+Delete: the word before or after the caret.
                live.box.deleteWord(forward: key == .delete)
                editText(live, .reshape, key == .delete ? .deleteForward : .deleteBackward, from: before)
            case .left, .right:
                let forward = (key == .right) != isRightToLeft(live)
                live.box.moveCaret(extending: extending) { $0.moveCaretByWord(forward: forward) }
                editText(live, .caret, nil, from: before)
            case .home, .end:
                live.box.moveCaret(extending: extending) { $0.moveCaretToTextEdge(end: key == .end) }
                editText(live, .caret, nil, from: before)
            default:
                return false
            }
            return true
        }
        var refresh = TextRefresh.reshape
        var kind: TextEdits.Kind?
        switch key {
        case .escape:
            // Escape leaves the text tool's typing with the text kept, as GIMP and Paint.NET do:
            // no work is lost to a key pressed to be done. Ctrl+Z takes it away.
            if commitText() { setMessage("Text put down — Ctrl+Z takes it away") }
            return true
        case .character(let c):
            // A word started after a space is a new step of the box's undo.
            let startsWord = !c.isWhitespace && live.box.characterBeforeCaret?.isWhitespace == true
            if !live.box.insert(String(c)) {
                setMessage("The text box is full (\(Typesetter.maximumScalars) characters)")
            }
            kind = .typing(startsWord: startsWord)
        case .enter:
            live.box.insert("\n")
            kind = .lineBreak
        case .backspace:
            live.box.deleteBackward()
            kind = .deleteBackward
        case .delete:
            live.box.deleteForward()
            kind = .deleteForward
        case .left, .right:
            // On a right-to-left line the arrows go the way the letters run on screen.
            let step = (key == .left) != isRightToLeft(live) ? -1 : 1
            if !extending, let selection = live.box.selection {
                // The selection ends at its edge on that side, as in any text field.
                let edge = step < 0 ? selection.lowerBound : selection.upperBound
                live.box.select(from: edge, to: edge)
            } else {
                live.box.moveCaret(extending: extending) { $0.moveCaret(by: step) }
            }
            refresh = .caret
        case .home, .end:
            live.box.moveCaret(extending: extending) { $0.moveCaretToLineEdge(end: key == .end) }
            refresh = .caret
        case .up, .down:
            let at = live.box.caretPosition
            let x = live.layout.caret(line: at.line, offset: at.scalarOffset).x
            let line = at.line + (key == .up ? -1 : 1)
            guard live.layout.lines.indices.contains(line) else {
                // Up on the first line goes to the text's start, Down on the last to its end
                // (with Shift, selecting to there), as GTK's and Qt's text fields do.
                live.box.moveCaret(extending: extending) { $0.moveCaretToTextEdge(end: key == .down) }
                refresh = .caret
                break
            }
            let target = live.layout.offset(nearX: x, y: (Double(line) + 0.5) * Double(live.layout.lineHeight))
            live.box.moveCaret(extending: extending) { $0.setCaret(line: target.line, scalarOffset: target.offset) }
            refresh = .caret
        case .tab, .pageUp, .pageDown:
            return true
        case .function:
            return false
        }
        editText(live, refresh, kind, from: before)
        return true
    }

    /// Whether the caret's line runs right to left.
    private func isRightToLeft(_ live: LiveText) -> Bool {
        let line = live.box.caretPosition.line
        return live.layout.lines.indices.contains(line) && live.layout.lines[line].isRightToLeft
    }

    /// Shows the box as `live` has it (a composition under way ends) and notes the edit in the
    /// box's undo (none for a caret move).
    private func editText(
        _ live: LiveText, _ refresh: TextRefresh, _ kind: TextEdits.Kind?, from before: TextEdits.State
    ) {
        var live = live
        live.preedit = nil
        liveText = live
        refreshText(refresh)
        if let kind { recordTextEdit(kind, from: before) }
    }

    /// Notes in the box's undo what was done to it since it was `before`.
    func recordTextEdit(_ kind: TextEdits.Kind, from before: TextEdits.State) {
        guard var live = liveText else { return }
        live.edits.record(kind, from: before, to: live.editState)
        liveText = live
    }

    /// Text from the clipboard typed into the box (Ctrl+V while typing): every line of it.
    func pasteIntoText(_ text: String) {
        guard var live = liveText else { return }
        let before = live.editState
        if !live.box.insert(text) { return setMessage("The text box cannot hold that much text") }
        editText(live, .reshape, .paste, from: before)
    }

    /// What an input method is composing, shown in the box at the caret.
    func setTextPreedit(_ preedit: Preedit?) {
        guard var live = liveText, live.preedit != preedit else { return }
        live.preedit = preedit
        liveText = live
        refreshText(.reshape)
    }

    // MARK: Undo in the box

    /// Whether Undo does something now: a step of the picture, or the box being typed.
    var canUndoNow: Bool { liveText != nil || history.canUndo }

    /// Whether Redo does something now: a step of the box being typed, or (with no box, or a
    /// blank one that would go) of the picture.
    var canRedoNow: Bool {
        // Asked at every event (`takeEffects`): no copy of the box when there is none.
        if liveText == nil { return history.canRedo }
        guard let live = liveText else { return false }
        return live.edits.canRedo || (closesOnRedo(live) && history.canRedo)
    }

    /// A blank new box with nothing to redo goes when Redo steps the picture forward: it holds
    /// nothing to lose, and putting it down would drop what Redo brings back.
    private func closesOnRedo(_ live: LiveText) -> Bool {
        !live.edits.canRedo && live.box.isBlank && !live.reopened
    }

    /// Ctrl+Z with a box open: takes back the box's last step. With none left, a box opened
    /// again goes back down as it was, and a new one (empty then) closes; what was on the
    /// canvas before stays.
    func undoTextEdit() {
        guard var live = liveText else { return }
        if let state = live.edits.undo(from: live.editState) {
            liveText = live
            return showTextState(state)
        }
        if live.reopened { return cancelText() }
        guard live.box.text.isEmpty else { return setMessage("Nothing more to undo in the text box") }
        cancelText()
        setMessage("Text box closed")
    }

    /// Ctrl+Shift+Z or Ctrl+Y with a box open: does the box's step taken back again. True when
    /// that was the box's to do (false: a blank box went, the picture's redo follows).
    func redoTextEdit() -> Bool {
        guard var live = liveText else { return false }
        if let state = live.edits.redo(from: live.editState) {
            liveText = live
            showTextState(state)
            return true
        }
        guard closesOnRedo(live) else {
            setMessage("Nothing to redo in the text box")
            return true
        }
        cancelText()
        return false
    }

    /// Puts the box back as `state` has it; the toolbar shows the font, color and opacity it
    /// is in again.
    private func showTextState(_ state: TextEdits.State) {
        guard var live = liveText else { return }
        let restyled = live.style != state.style
        live.box = state.box
        live.style = state.style
        // What an input method is composing stays, at the caret the step puts back: it is not
        // typed yet, so no step holds it.
        liveText = live
        if restyled { redraw(engine.restyleText(state.style)) }
        // The settings follow the box, so `followSettings` finds nothing to change.
        changeSettings {
            $0.textFont = state.box.font
            $0.primary = state.style.color
            $0.setOpacity(Int((state.style.opacity * 100).rounded()))
        }
        refreshText(.reshape)
    }
}

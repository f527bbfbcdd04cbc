import PaintCore

/// Text input: what the window needs to know to turn key presses into text or commands on any
/// keyboard layout, text an input method is composing, pasted text, and the pointer in a field.
extension Session {
    // MARK: Text input

    /// Whether a text field has the keyboard (a prompt in the status bar, or the color
    /// editor's hex field): the window then sends what the user typed, not command keys.
    public var acceptsText: Bool {
        colorEditor != nil || sizeDialog != nil || fileDialog != nil || promptField != nil || fontChooser != nil
            || liveText != nil
    }

    /// Whether character `c` with `modifiers` does something now. A key has several characters
    /// on today's keyboards (Ctrl+Я is Ctrl+Z on a Russian layout, `&` is `1` on AZERTY); the
    /// window sends the first of them that does something.
    public func bindsKey(_ c: Character, _ modifiers: Modifiers) -> Bool {
        if acceptsText {
            guard modifiers.contains(.control) else { return true }
            if liveText != nil && fontChooser == nil {
                // The box's own (bold, italic, paste, select all, copy, cut, the text's size) and
                // every shortcut, which puts it down.
                return ["b", "i", "v", "a", "c", "x", "[", "]"].contains(Character(c.lowercased()))
                    || shortcut(for: .character(c), modifiers) != nil
            }
            // The fields' own keys; in the file dialog Ctrl+H shows hidden files.
            return ["a", "u", "w", "v"].contains(Character(c.lowercased()))
                || (fileDialog != nil && c.lowercased() == "h")
        }
        switch mode {
        case .normal:
            return shortcut(for: .character(c), modifiers) != nil
        default:
            return mode.answers.contains { $0.rawValue.first?.lowercased() == c.lowercased() }
        }
    }

    /// The text an input method is composing, shown at the field's cursor; an empty text ends
    /// it.
    public func setPreedit(_ text: String, caret: Int) {
        if liveText != nil && fontChooser == nil {
            return setTextPreedit(text.isEmpty ? nil : Preedit(text: text, caret: caret))
        }
        let new = text.isEmpty || (promptField == nil && fileDialog == nil) ? nil : Preedit(text: text, caret: caret)
        guard new != preedit else { return }
        preedit = new
        if fileDialog != nil { effects.editor = true } else { effects.status = true }
    }

    /// Where the text cursor of the prompt's field is in the window, as last drawn (an input
    /// method opens its candidate window there).
    public var textCursor: IntRect? {
        if liveText != nil && fontChooser == nil { return textCaretInWindow }
        if fileDialog != nil { return fileDialogField?.cursor }
        guard promptField != nil else { return nil }
        return promptView?.cursor
    }

    /// Asks the window for the clipboard's text (Ctrl+V in a field); it arrives as an
    /// `InputEvent.pastedText`.
    func requestTextPaste() {
        effects.clipboard.append(.fetchText)
    }

    /// Types text from the clipboard into the field that has the keyboard: its first line,
    /// without control characters, at most 4,096 characters.
    func paste(text: String) {
        if liveText != nil && fontChooser == nil { return pasteIntoText(text) }
        let line = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        let clean = String(
            String.UnicodeScalarView(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        ).prefix(4096)
        if var dialog = fileDialog {
            dialog.paste(String(clean))
            fileDialog = dialog
            effects.editor = true
            return
        }
        if var dialog = sizeDialog {
            dialog.paste(String(clean))
            sizeDialog = dialog
            effects.editor = true
            return
        }
        if var editor = colorEditor {
            editor.paste(String(clean))
            colorEditor = editor
            effects.editor = true
            return
        }
        guard var field = promptField else { return setMessage("Nothing to paste text into") }
        field.insert(String(clean))
        promptField = field
    }

    /// The prompt's field, read and written in place of the mode's.
    var promptField: TextField? {
        get {
            switch mode {
            case .qualityPrompt(let field, _, _):
                return field
            default: return nil
            }
        }
        set {
            guard let field = newValue else { return }
            switch mode {
            case .qualityPrompt(_, let target, let then): mode = .qualityPrompt(field, target: target, then: then)
            default: return
            }
            effects.status = true
        }
    }

    /// A press in the prompt's field places its cursor there (Shift: extends the selection);
    /// true when the press was the field's.
    func pressPromptField(_ x: Int, _ y: Int, _ modifiers: Modifiers) -> Bool {
        guard var field = promptField, let view = promptView, view.frame.contains(x, y) else { return false }
        preedit = nil
        field.moveCursor(to: view.index(atX: x), extending: modifiers.contains(.shift))
        promptField = field
        return true
    }

    /// A third click quickly after a double click: in the text box, its line is selected.
    func tripleClick(_ x: Int, _ y: Int) {
        _ = selectTextUnit(atWindowX: x, y: y, line: true)
    }

    /// A double click in the prompt's field selects the word there; on the current colors it
    /// leaves the color editor open.
    func doubleClick(_ x: Int, _ y: Int) {
        if fileDialog != nil { return doubleClickFileDialog(x, y) }
        if var editor = colorEditor {
            // In the hex field: the code is selected. Elsewhere over the open editor: nothing
            // (no text behind it reopens).
            if let view = colorEditorField, view.frame.contains(x, y) {
                editor.selectWord(at: view.stops.last { $0.x <= x }?.index ?? 0)
                colorEditor = editor
                effects.editor = true
            }
            return
        }
        if layout.item(atX: x, y: y) == .currentColors, !blocksCanvas, sizeDialog == nil {
            // MS Paint's habit: a double click on the current colors. Its first click opened the
            // editor and its second, a click outside the panel, closed it: it opens again, in the
            // same turn, so no frame shows it closed (before, it flickered and stayed closed).
            return openColorEditor(.primary)
        }
        if selectTextUnit(atWindowX: x, y: y, line: false) { return }
        if reopenText(atWindowX: x, y: y) { return }
        guard var field = promptField, let view = promptView, view.frame.contains(x, y) else { return }
        // The word whose characters the click fell among: the stop left of the click.
        let left = view.stops.last { $0.x <= x }?.index ?? 0
        field.selectWord(at: left)
        promptField = field
    }
}

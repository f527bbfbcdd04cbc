/// Where the user is going when the document is left: the program closes, or another
/// document takes this one's place.
public enum Leaving: Sendable, Equatable {
    case quit
    /// A blank canvas (Ctrl+N).
    case newDocument
    /// A new picture made of the clipboard's picture (Ctrl+Shift+V), decoded and waiting in
    /// `Session.pendingPasteAsNew`.
    case pastedPicture
    /// The picture at this absolute path (Ctrl+O).
    case open(String)
}

/// What the bottom bar is doing: showing status, or asking the user something.
///
/// A new question is a case here, its answers in `answers`, its text in the status bar
/// (Chrome.swift), and what each answer does in `Session.answer`.
public enum SessionMode: Sendable, Equatable {
    case normal
    /// Unsaved changes and the document is being left: Save / Discard / Cancel.
    case confirmLeave(Leaving)
    /// A drawing left by a crash can be restored: Restore / Discard. The text is the question.
    case offerRestore(String)
    /// The drawing is being restored (`JournalRestore`): the text says how far it got. No
    /// answers; the canvas and every command wait, Escape stops it (the journal stays).
    case restoring(String)
    /// Save as would write over another file (the absolute path): Replace / Cancel; `then` is
    /// where the user was going when the save was asked for by leaving an untitled document.
    case confirmReplace(String, then: Leaving?)
    /// The name (absolute) ends in an extension SwiftPaint does not write: PNG / JPEG / WebP /
    /// Cancel, which gives it the chosen format's extension; `then` as for `confirmReplace`.
    case chooseFormat(String, then: Leaving?)
    /// Asking for the JPEG quality (1...100) before saving to the absolute path; `then` as for
    /// `confirmReplace`.
    case qualityPrompt(TextField, target: String, then: Leaving?)
    /// Saving over the document's own file (the absolute path), which another program changed
    /// since it was opened or saved here: Save as / Overwrite / Cancel; `then` as for the save
    /// prompt.
    case confirmOverwrite(String, then: Leaving?)

    /// Whether the canvas waits for the answer: a question with answer buttons must be answered
    /// first (the canvas is dimmed and shows a not-allowed pointer); a prompt with a text field
    /// lets drawing go on while it waits. A restore under way blocks it too: nothing is drawn
    /// onto the picture it is about to replace.
    public var blocksCanvas: Bool {
        if case .restoring = self { return true }
        return !answers.isEmpty
    }

    /// The answers offered in the status bar, default first.
    public var answers: [Answer] {
        switch self {
        case .confirmLeave: return [.save, .discard, .cancel]
        case .offerRestore: return [.restore, .discard]
        case .confirmReplace: return [.cancel, .replace]
        case .chooseFormat: return [.png, .jpeg, .webp, .cancel]
        case .confirmOverwrite: return [.saveAs, .overwrite, .cancel]
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
    case png = "PNG"
    case jpeg = "JPEG"
    case webp = "WebP"
    case saveAs = "Save as"
    case overwrite = "Overwrite"
}

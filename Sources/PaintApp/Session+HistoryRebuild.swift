import PaintCore

/// An opened picture's editing history, rebuilt in the background (`HistoryRebuild`): the
/// picture is on screen and can be drawn on at once; undo reaches the picture as opened until
/// the rebuilt history is taken over, with what was drawn meanwhile replayed on top of it.
extension Session {
    /// The descriptor the window polls while a history is being rebuilt: readable when done.
    public var historyRebuildDescriptor: Int32? { document.historyRebuild?.descriptor }

    /// Whether a saved history is still being rebuilt.
    public var isRebuildingHistory: Bool { document.historyRebuild != nil }

    /// The window saw `historyRebuildDescriptor` readable (`takeBackgroundWork`): takes the
    /// rebuilt history over when it is done and nothing is being drawn (a stroke, a text box,
    /// a floating picture). Done while something is, it waits for the input that puts it down
    /// (`feed` calls this again after each batch while a finished rebuild waits).
    public func checkHistoryRebuild() {
        guard let rebuild = document.historyRebuild, rebuild.checkFinished() else { return }
        guard !engine.isStroking, liveText == nil, placing == nil else { return }
        completeHistoryRebuild()
    }

    /// Takes the rebuilt history over, waiting for it if need be (a save does: the kept
    /// history must hold every step): its engine becomes the document's, with what was
    /// committed meanwhile replayed on it, and the crash journal starts again from the
    /// history's starting picture, so a restore gives back the whole history too.
    func completeHistoryRebuild() {
        guard let rebuild = document.historyRebuild else { return }
        commitStroke()
        document.historyRebuild = nil
        switch rebuild.finish() {
        case .found(let found, let detail):
            let steps = found.history.cursor
            for operation in rebuild.liveOperations { found.history.perform(operation, engine: found.engine) }
            var next = document
            next.engine = found.engine
            next.history = found.history
            next.savedStep = document.savedStep.map { $0 + steps }
            next.base = found.base
            next.log = found.log + rebuild.liveOperations
            document = next
            if let previous = sink {
                // The journal it replaces hears every change until the new one is made.
                let started = opener.startJournal(for: &document, replacing: previous)
                if let journal = started.journal {
                    sink = journal
                    journalToSettle = true
                }
            }
            effects.layout = true
            effects.toolbar = true
            setMessage("Undo is ready: \(detail)")
        case .none(let notes):
            // Nothing kept for this picture is said only when something was left out.
            if let first = notes.first {
                setMessage(
                    ([first.prefix(1).uppercased() + first.dropFirst()] + notes.dropFirst()).joined(separator: "; "))
            } else if Self.isRebuildStatus(message) {
                // The look said it was under way; it is over, and there is nothing to say.
                setMessage("")
            }
        }
    }

    // MARK: Saying what is happening

    /// Seconds between two updates of the rebuild's progress in the status bar.
    public static let rebuildProgressInterval = 0.25

    /// What the status bar says while the history is looked for and replayed: the look (the
    /// picture hashed to find it in this computer's store, the file's own chunk read), then the
    /// steps replayed of those it holds.
    func rebuildStatus() -> String? {
        guard let rebuild = document.historyRebuild else { return nil }
        guard let progress = rebuild.control.replayProgress else { return "Looking for the undo history…" }
        return "Restoring undo history: \(progress.done) of \(DocumentLoader.steps(progress.total))…"
    }

    /// Whether `text` is the rebuild's own status (`rebuildStatus`), which it replaces as it
    /// goes and takes away when it ends.
    static func isRebuildStatus(_ text: String) -> Bool {
        text.hasPrefix("Looking for the undo history") || text.hasPrefix("Restoring undo history")
    }

    /// While a saved history is rebuilt the status bar is never left blank between "Opened …"
    /// and "Undo is ready": once the notice before it has gone (`noticeLifetime`, or a change
    /// drawn meanwhile), it says the history is being restored and how far it got, updated every
    /// `rebuildProgressInterval`, and stays until the rebuild is taken over. Another message
    /// (a notice, an error) is left alone. Returns when next (nil: nothing to update).
    func rebuildProgress(at now: Double) -> Double? {
        guard let text = rebuildStatus() else { return nil }
        guard message.isEmpty || Self.isRebuildStatus(message) else { return nil }
        // Not in the middle of a drag: the release is input, and the timers run at every turn.
        guard case .idle = gesture else { return nil }
        if text != message {
            setMessage(text)
            // It goes when the rebuild is taken over, not by itself.
            messageFades = false
        }
        return now + Self.rebuildProgressInterval
    }

    /// Notes a committed operation for the rebuild in progress.
    func noteForHistoryRebuild(_ operation: Operation) {
        document.historyRebuild?.liveOperations.append(operation)
    }
}

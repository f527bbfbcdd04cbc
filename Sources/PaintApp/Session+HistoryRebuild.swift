import PaintCore

/// An opened picture's editing history, rebuilt in the background (`HistoryRebuild`): the
/// picture is on screen and can be drawn on at once; undo reaches the picture as opened until
/// the rebuilt history is taken over, with what was drawn meanwhile replayed on top of it.
extension Session {
    /// The descriptor the window polls while a history is being rebuilt: readable when done.
    public var historyRebuildDescriptor: Int32? { document.historyRebuild?.descriptor }

    /// Whether a saved history is still being rebuilt.
    public var isRebuildingHistory: Bool { document.historyRebuild != nil }

    /// The window saw `historyRebuildDescriptor` readable, or calls this between batches of
    /// input: takes the rebuilt history over when it is done and nothing is being drawn.
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
            }
        }
    }

    /// Notes a committed operation for the rebuild in progress.
    func noteForHistoryRebuild(_ operation: Operation) {
        document.historyRebuild?.liveOperations.append(operation)
    }
}

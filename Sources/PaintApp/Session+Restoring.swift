/// Restoring a drawing a crash left, once the user answers Restore: its journal is read and
/// replayed on a thread of its own (`JournalRestore`) while the window goes on drawing the
/// picture it shows, dimmed, and the status bar says how far the replay got. The canvas, the
/// menus and the keys wait (nothing is drawn onto a picture about to be replaced); Escape or
/// closing the window stops it, and the journal stays to be offered at the next start.
extension Session {
    /// Seconds between two updates of the restore's progress in the status bar.
    public static let restoreProgressInterval = 0.1

    /// Whether a drawing is being restored from its crash journal.
    public var isRestoring: Bool { restoring != nil }

    /// Restores the drawing `offer` describes: on a thread of its own with
    /// `restoresInBackground`, else before this returns.
    func startRestore(_ offer: RestoreOffer) {
        restoring = JournalRestore(offer, inBackground: restoresInBackground)
        checkRestore()
    }

    /// Takes the restored drawing once its thread is done (the window's loop, when
    /// its descriptor is readable; at once without a thread), else says how far it got.
    func checkRestore() {
        guard let restore = restoring else { return }
        guard restore.checkFinished() else { return showRestoreProgress() }
        restoring = nil
        setMode(.normal)
        switch restore.finish() {
        case .restored(let document, let journal, let message):
            install(document, message: message, journal: journal)
        case .failed(let why):
            setMessage(why)
        }
    }

    /// Stops the restore under way, if any: its thread ends at its next replayed change and
    /// frees what it built; the journal, only read, is offered again at the next start.
    func stopRestore() {
        guard restoring != nil else { return }
        restoring = nil
        setMode(.normal)
        setMessage("The earlier drawing is kept; it will be offered again at the next start")
    }

    /// The status bar says how far the restore got: reading the journal, then the changes
    /// replayed of those it holds.
    func showRestoreProgress() {
        guard let restore = restoring else { return }
        let done = restore.replayed
        let text =
            done == 0 || restore.total == 0
            ? "\(restore.doing): reading its journal…"
            : "\(restore.doing): \(done) of \(restore.total) changes replayed…"
        if mode != .restoring(text) { setMode(.restoring(text)) }
    }

    /// Updates the restore's progress every `restoreProgressInterval` while one is under way;
    /// returns when next (nil: none is).
    func restoreProgress(at now: Double) -> Double? {
        guard restoring != nil else { return nil }
        showRestoreProgress()
        return now + Self.restoreProgressInterval
    }
}

import PaintCore
import PaintIO

/// Writing the picture: taken at Ctrl+S, written on a thread of its own (`BackgroundSave`)
/// while drawing goes on, then noted in the document; one save at a time, and leaving waits
/// for the one being written.
extension Session {
    /// Writes the picture to `target` as `format`, atomically, and keeps its editing history in
    /// this computer's history store; the file carries the history inside only for "Save with
    /// history" (or `--save-with-history`), and only a PNG can. The picture is the one shown
    /// now; with `savesInBackground` it is written on a thread of its own ("Saving …" until
    /// `finishSave`), else before this returns. Reports success (and, once per format, what the
    /// format cannot keep) or the reason in the status bar; the document stays modified when it
    /// fails, and when it changed meanwhile. Goes on to `then` once saved. Returns false when
    /// it failed (as far as is known now).
    @discardableResult
    func save(to target: String, as format: ImageFormat, then: Leaving? = nil) -> Bool {
        // Asked for directly while one is written (`saveAsking` queues it instead): after it.
        if saving != nil { finishSave(goingOn: false) }
        commitStroke()
        // The saved history must hold every step: a rebuild still running is waited for.
        completeHistoryRebuild()
        let inside = historyInsideNextSave || opener.options.saveWithHistory
        historyInsideNextSave = false
        let store = opener.options.historyStore
        // The entry is named by what a reader decodes from the file, whatever the format does to
        // the pixels (SavedHistory).
        let archive = store != nil || inside ? DocumentLoader.archive(for: document) : nil
        var kept = archive.map { SavedHistory(archive: $0, store: store, portable: inside) }
        kept?.cleanBase = document.cleanBase
        let quality = offeredQuality(for: format)
        let request = BackgroundSave.Request(
            picture: engine.pictureSnapshot(), target: target,
            options: SaveOptions(
                format: format, chosen: quality,
                sampling: format == .jpeg ? document.sourceJPEG?.sampling : nil, resolution: document.resolution),
            withAlpha: engine.background == .transparent, history: kept, base: kept == nil ? nil : document.base)
        setMessage("Saving “\(FileSystem.lastComponent(target))”…")
        saving = BackgroundSave(
            request, format: format, then: then, step: history.cursor, recordedAtStart: recordedChanges,
            journal: sink.map(ObjectIdentifier.init),
            document: documentSerial, inBackground: savesInBackground)
        guard savesInBackground else { return finishSave() }
        return true
    }

    /// Whether a save is being written.
    public var isSaving: Bool { saving != nil }

    /// Takes the save once its thread is done (the window's loop; at once without a thread).
    func checkSave() {
        guard let saving, saving.checkFinished() else { return }
        finishSave()
    }

    /// Waits for the save being written and takes it (tests; the window waits only on the way
    /// out). Returns whether it saved.
    @discardableResult
    public func waitForSave() -> Bool { finishSave() }

    /// Takes the save being written, waiting for it: the document is on disk as it was when
    /// the save was asked for. With `goingOn`, what waited for it follows: a save asked for
    /// meanwhile, then where the user was going (closing, New, Open), asked again when there
    /// are changes the file does not hold. Returns whether it saved.
    @discardableResult
    func finishSave(goingOn: Bool = true) -> Bool {
        guard let save = saving else { return false }
        saving = nil
        let written = save.finish()
        var saved = false
        switch written.outcome {
        case .failure(let error):
            setMessage(error.description)
            // Not saved: the user sees why before anything is asked again.
            giveUpLeaving(leaveAfterSave ?? save.then)
            leaveAfterSave = nil
        case .success(var outcome):
            saved = true
            if written.historyLost {
                outcome.problem =
                    "its history was not kept: its starting picture could not be read back from the crash journal"
            }
            rememberRecent(save.target)
            if save.document == documentSerial {
                noteSaved(save, outcome: outcome, onDisk: written.onDisk)
            } else {
                setMessage("Saved to \(PathDisplay.abbreviatingHome(save.target))")
            }
        }
        guard goingOn, save.document == documentSerial else { return saved }
        if saved, let then = save.then, leaveAfterSave == nil { leaveAfterSave = then }
        if let queued = queuedSave {
            queuedSave = nil
            historyInsideNextSave = queued.historyInside
            saveAsking(to: queued.target, then: queued.then)
        } else if let leaving = leaveAfterSave {
            leaveAfterSave = nil
            requestLeave(to: leaving)
        }
        return saved
    }

    /// The document is saved at the save's step, to its file.
    private func noteSaved(_ save: BackgroundSave, outcome: SavedHistory.Outcome, onDisk: DiskBaseline) {
        let target = save.target
        document.path = target
        // The picture is in a file of its own now (or the user chose to replace the damaged one).
        document.damage = nil
        // What is on disk now is this save: the next one compares with it, and so does a
        // drawing restored from the journal after a crash.
        document.onDisk = onDisk
        // The journal's save marker says which step is in the file: the changes made while it
        // was written follow that step and stay unsaved (a restore after a crash offers them on
        // top of this file, saved over it without asking).
        let drawnDuring = recordedChanges - save.recordedAtStart
        if drawnDuring == 0 || sink.map(ObjectIdentifier.init) == save.journal {
            sink?.saved(path: target, version: onDisk.version, drawnDuring: drawnDuring)
        } else if let journal = sink as? DocumentJournal, ObjectIdentifier(journal) == journalFromHistory,
            let step = save.step, let count = journal.recordCount, count >= step
        {
            // A journal made during the save (once the disk had room again) starts from the
            // history as it was then: every step, then undos down to the cursor, then the
            // changes since. Its first `step` changes end on the step saved, and no later one
            // replaced it (`save.step` followed them all), so the marker counts the others.
            // (When one did, no marker: a restore offers what it holds, safe but not exact.)
            journal.saved(path: target, version: onDisk.version, drawnDuring: count - step)
        }
        diskSeen = nil
        diskCheck = nil
        overwriteAccepted = nil
        changedOnDisk = false
        deletedOnDisk = false
        lastFolder = FileSystem.parentFolder(target)
        document.format = save.format
        // Changes made while it was written keep the document modified.
        document.savedStep = save.step
        document.carriesHistory = outcome.carried
        if let made = outcome.cleanBase { document.cleanBase = made }
        var message = "Saved to \(PathDisplay.abbreviatingHome(target))"
        if outcome.carried { message += " with its editing history inside" }
        let format = save.format
        if save.withAlpha && !format.keepsTransparency && !document.toldLosses.contains(format) {
            document.toldLosses.insert(format)
            message += "; a \(format.name) file keeps no transparency (flattened onto white)"
        }
        if let problem = outcome.problem { message += "; " + problem }
        setMessage(message)
    }
}

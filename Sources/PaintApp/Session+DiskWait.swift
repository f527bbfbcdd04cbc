import PaintIO

/// What the user asked for (Ctrl+S, closing) while whether another program changed the file
/// could be told only by its bytes: they are read on a thread of their own (`DiskCheck`), not
/// on the window's, and the save or the question follows once they are read, exactly once.
enum DiskWait: Equatable {
    /// A save to the document's file (`saveAsking`).
    case save(target: String, then: Leaving?, historyInside: Bool)
    /// Leaving the document (`requestLeave`).
    case leave(Leaving)

    /// This wait with a save to `target` asked for meanwhile, or nil when that save is not to
    /// the file being read: a second Ctrl+S is the same save; a save asked while leaving
    /// is saved first, then leaves.
    func joining(save target: String, then: Leaving?, historyInside: Bool) -> DiskWait? {
        switch self {
        case .save(let waiting, let before, let inside):
            guard waiting == target else { return nil }
            return .save(target: target, then: before ?? then, historyInside: inside || historyInside)
        case .leave(let leaving):
            return .save(target: target, then: then ?? leaving, historyInside: historyInside)
        }
    }

    /// This wait with leaving for `leaving` asked meanwhile: a save waiting is made first, then
    /// leaving is asked again (as while a save is written); the last place asked for is where
    /// leaving goes.
    func joining(leave leaving: Leaving) -> DiskWait {
        switch self {
        case .save(let target, let then, let inside):
            return .save(target: target, then: then ?? leaving, historyInside: inside)
        case .leave:
            return .leave(leaving)
        }
    }
}

extension Session {
    /// Waits for the document's file to be read before `waiting` (the bytes' read is started
    /// or under way): the status bar says why nothing happens yet.
    func waitForDisk(_ waiting: DiskWait) {
        awaitingDisk = waiting
        switch waiting {
        case .save:
            setMessage("Saving “\(displayName)”: first looking whether another program changed it…")
        case .leave:
            setMessage("Looking whether another program changed “\(displayName)”…")
        }
    }

    /// Goes on with what waited for the file's bytes once they are read (the window's look, on
    /// every turn): the save is made or the question asked, with what they told. Not while a
    /// save is written or the user is asked something else (Save as opened meanwhile): after
    /// it. A save to a file the document no longer is (saved elsewhere meanwhile) is not made.
    func resumeAfterDisk() {
        guard let waiting = awaitingDisk, saving == nil, mode == .normal, fileDialog == nil,
            diskCheck?.isDone ?? true
        else { return }
        awaitingDisk = nil
        switch waiting {
        case .save(let target, let then, let inside):
            guard target == path else { return }
            historyInsideNextSave = inside
            saveAsking(to: target, then: then)
        case .leave(let leaving):
            requestLeave(to: leaving)
        }
    }
}

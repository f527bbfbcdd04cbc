import PaintCore
import PaintIO

/// What the window checks now and then, not only on input: whether the crash journal keeps
/// up with the drawing (a full disk stops it; it resumes by itself when there is room again),
/// and whether another program changed the document's file (the title says so).
extension Session {
    /// Looks at the crash journal and says in the status bar when protection stops (and why)
    /// and when it resumes; with `lookingAtFile`, also at the document's file, and tries again
    /// to make a crash journal that could not be made (`retryJournal`). The window calls it on
    /// every turn of its loop, and looks at the file only when the last look is
    /// `fileInterval` old (a stat per pointer event would cost more than drawing it). Returns
    /// when to look again (seconds from now), or nil when nothing is pending.
    @discardableResult
    public func watch(lookingAtFile: Bool = true) -> Double? {
        // A decoded paste held back while something was drawn floats once that is done.
        checkPaste()
        settleJournal()
        if lookingAtFile { retryJournal() }
        // A journal made again after a start could not make one counts once it is made.
        let protection = journalMissing.map(CrashProtection.stopped) ?? sink?.protection ?? .safe
        var stopped: String?
        if case .stopped(let why) = protection { stopped = why }
        if stopped != crashProtectionStopped {
            if let stopped {
                setMessage(Self.stoppedText(stopped))
            } else if crashProtectionStopped != nil {
                setMessage("Crash protection resumed: every change is safe from a crash again")
            }
            crashProtectionStopped = stopped
        }
        // Not while a save is being written: it is this window that changes the file. The
        // bytes of a same-size rewrite are read on a thread of their own, taken once read.
        let finished = diskCheck.flatMap { $0.isDone ? $0 : nil }
        if (lookingAtFile || finished != nil) && saving == nil,
            let changed = changeOnDisk(read: readOffThread)
        {
            if changed != changedOnDisk {
                changedOnDisk = changed
                if changed {
                    setMessage("Another program changed “\(displayName)”; Ctrl+S asks first")
                }
            }
        }
        // A read done before this look that the look did not take (the file went, or is as
        // known again) tells nothing. One that finished during the look is taken next time.
        if let finished, diskCheck === finished, awaitingDisk == nil { diskCheck = nil }
        // A save or leaving that waited for the bytes goes on, with what they told.
        resumeAfterDisk()
        if lookingAtFile && saving == nil {
            let deleted = fileDeletedOnDisk()
            if deleted != deletedOnDisk {
                deletedOnDisk = deleted
                if deleted {
                    setMessage("“\(displayName)” was deleted or moved; Ctrl+S saves it again")
                }
            }
        }
        // The file is looked at every 2 s (a stat; its bytes only when the stat changed).
        let journal: Double? = protection == .safe ? nil : 0.5
        guard path != nil && document.onDisk != .unknown else { return journal }
        // The file's bytes being read: their thread wakes the window when they are (`backgroundDescriptor`),
        // or, with no pipe, the window looks again soon. A save or leaving that waits for them and
        // for a dialog, a question or a save being written goes on in the turn of the input or
        // the save's end that closes them: nothing to wake for meanwhile.
        if let check = diskCheck, check.isLookedFor {
            return min(Self.readingInterval, journal ?? Self.readingInterval)
        }
        return min(Self.fileInterval, journal ?? Self.fileInterval)
    }

    /// Makes the crash journal a start could not make (a full disk), once there is something
    /// to lose and room for it: it starts from the document's starting picture with every step
    /// so far, as if it had been there from the start, and protection resumes.
    func retryJournal() {
        guard journalMissing != nil, sink == nil, isModified else { return }
        document.log = document.replayLog
        let started = opener.startJournal(for: &document)
        guard let journal = started.journal else {
            journalMissing = started.why ?? journalMissing
            return
        }
        // Protection resumes once it is made (`settleJournal`).
        sink = journal
        journalFromHistory = ObjectIdentifier(journal)
        journalToSettle = true
    }

    /// Follows a crash journal being made on its own thread (`DocumentOpener.startJournal`).
    /// Once it is made, the document's starting picture lives only in it, and the journal it
    /// replaces goes. When it cannot be made, the journal it was to replace goes on; or, when
    /// the opened file was written over before it was copied, the journal starts from the
    /// picture's own encoding if nothing has been drawn yet; or the status bar says why there
    /// is none, and `retryJournal` tries again while there are changes to lose.
    func settleJournal() {
        guard journalToSettle else { return }
        guard let journal = sink as? DocumentJournal, !journal.made else {
            journalToSettle = false
            return
        }
        switch journal.making {
        case .inProgress:
            return
        case .done:
            _ = journal.settle()
            journalToSettle = false
            journalMissing = nil
            // The file holds the starting picture now (synced): neither the document nor the
            // writer keeps it in memory.
            if let writer = journal.writer, let base = document.base {
                if case .journal = base {} else if writer.releaseBaseImage() { document.base = .journal(writer) }
            }
        case .failed(let error):
            journalToSettle = false
            let previous = journal.settle()
            journal.closedCleanly()
            sink = previous
            guard previous == nil else { return }
            var why = DocumentJournal.reason(error)
            if case .baseChanged = error {
                // The picture as decoded, in its own encoding, or no journal at all.
                if let own = DocumentOpener.ownEncoding(of: document) {
                    document.base = .bytes(own)
                    sink = opener.startJournal(for: &document).journal
                    journalToSettle = sink != nil
                    if sink != nil { return }
                }
                why = "its file was changed by another program since it was opened"
            }
            // The status bar says protection is stopped, and why (`watch`); stderr too, once
            // (not at each retry).
            if journalMissing == nil { FileSystem.printError("swiftpaint: No crash journal: \(why)") }
            journalMissing = why
        }
    }

    /// Whether the document's file, as it was opened or saved here, is gone from its path (deleted,
    /// or moved away): nothing a save could overwrite, but this window may now hold the only copy.
    func fileDeletedOnDisk() -> Bool {
        guard let path, case .version = document.onDisk else { return false }
        return !FileSystem.exists(path)
    }

    /// Seconds between looks at the document's file.
    public static let fileInterval = 2.0
    /// Seconds between looks at a read of its bytes on their thread (`DiskCheck`) that cannot
    /// wake the window (no pipe could be made).
    static let readingInterval = 0.05

    /// What the status bar says while crash protection is stopped.
    static func stoppedText(_ why: String) -> String {
        "Crash protection stopped: \(why); retrying every 2 s"
    }

    /// The message the status bar shows: the last one; when a change has cleared it, the save
    /// being written, or while crash protection is stopped, why it is stopped (it stays in view
    /// until protection resumes).
    public var shownMessage: String {
        guard message.isEmpty else { return message }
        // A save being written stays in view until it is done, whatever is drawn meanwhile.
        if let saving { return "Saving “\(FileSystem.lastComponent(saving.target))”…" }
        guard let stopped = crashProtectionStopped else { return message }
        return Self.stoppedText(stopped)
    }

    /// Whether another program changed the document's file since it was opened or saved here:
    /// a file where there was none, or other bytes (a stat first; the bytes are read by `read`
    /// and their CRC compared only when the stat changed, once per stat); nil while they are
    /// being read: not known yet. A file deleted since is not a change a save could overwrite.
    /// `read` gives the file's version (nil when it cannot be read), or nil until it is read.
    func changeOnDisk(read: (String) -> FileVersion??) -> Bool? {
        guard let path else { return false }
        switch document.onDisk {
        case .unknown: return false
        case .absent: return FileSystem.exists(path)
        case .unread:
            // The file as it is now becomes what a later change is told from: nothing changed
            // yet. Not known until it is read (started when the drawing was installed).
            guard let version = read(path) else { return nil }
            document.onDisk = version.map(DiskBaseline.version) ?? (FileSystem.exists(path) ? .unknown : .absent)
            return false
        case .version(let known):
            guard let stat = FileVersion.Stat(path: path), stat != known.stat else { return false }
            // Another size is other bytes: nothing to read.
            if stat.size != known.stat.size { return true }
            if let seen = diskSeen, seen.stat == stat { return seen.changed }
            guard let version = read(path) else { return nil }
            let changed = version.map { !$0.sameBytes(as: known) } ?? true
            // Rewritten again while it was read: the next look reads it again.
            diskSeen = (version?.stat ?? stat, changed)
            return changed
        }
    }

    /// The document's file as read on a thread of its own (`DiskCheck`): nil until it is read
    /// (the first call starts it).
    func readOffThread(_ path: String) -> FileVersion?? {
        if let check = diskCheck, check.path == path {
            guard check.isDone else { return nil }
            diskCheck = nil
            return .some(check.version)
        }
        diskCheck = DiskCheck(path: path, read: readFileVersion)
        return nil
    }
}

import Glibc
import PaintCore
import PaintIO

/// Finding and offering the drawings that crashed or killed sessions left in journals.
///
/// A journal is deleted only when the user says so (Discard), and only while no other
/// SwiftPaint holds it; the one exception is a journal that is whole and holds nothing unsaved
/// (a session that was killed right after a save), which a start tidies away.
public enum Recovery {
    /// A journal left by a process that is gone, with unsaved work in it.
    public struct Candidate {
        public var summary: JournalSummary
        /// The file the document saves to (its last save, else where it started); nil when
        /// untitled, or when the journal named an unusable path.
        public var documentPath: String?
        /// Steps the drawing shows (changes of every kind, less the ones undone).
        public var stepCount: Int
    }

    /// Every orphan journal with unsaved work that can be restored, newest first. With `tidy`,
    /// whole journals with nothing unsaved are deleted on the way (never a damaged one).
    public static func candidates(in folder: String, tidy: Bool = false) -> [Candidate] {
        var found: [Candidate] = []
        for orphan in JournalReader.orphans(in: folder) {
            guard orphan.hasUnsavedWork else {
                if tidy, orphan.droppedTail == nil, orphan.refusal == nil, orphan.unusablePath == nil {
                    try? JournalReader.delete(path: orphan.path)
                }
                continue
            }
            // Over its replay budget: it cannot be restored; `--recover` says why.
            guard orphan.refusal == nil else { continue }
            found.append(Candidate(summary: orphan, documentPath: orphan.documentPath, stepCount: orphan.stepCount))
        }
        return found
    }

    /// The journal a new start should offer: for a file, the newest orphan for that file; with no
    /// file, the newest orphan of all.
    public static func candidate(for path: String?, in folder: String) -> Candidate? {
        let all = candidates(in: folder, tidy: true)
        guard let path else { return all.first }
        return all.first { $0.documentPath == path }
    }

    /// "12 steps", "1 step".
    static func count(_ n: Int) -> String { n == 1 ? "1 step" : "\(n) steps" }

    /// A path read from a journal, for a question or a listing: in full (home as `~`), with any
    /// control character shown as `?` so it cannot disturb the terminal or the status bar.
    static func shown(_ path: String) -> String {
        String(
            String.UnicodeScalarView(
                PathDisplay.abbreviatingHome(path).unicodeScalars.map {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0
                }))
    }

    /// The drawing's name in a question: its full path, or "Untitled" (saying so when the
    /// journal named a path that cannot be used).
    static func name(_ candidate: Candidate) -> String {
        if let path = candidate.documentPath { return "“\(shown(path))”" }
        if let bad = candidate.summary.unusablePath {
            return "“Untitled” (its journal names “\(shown(bad))”, which is not a usable file name)"
        }
        return "“Untitled”"
    }

    /// The offer for `candidate`: Restore adopts the journal (locking it, so no other window can
    /// take or delete it), rebuilds the drawing and continues the journal; Discard deletes it,
    /// unless another running SwiftPaint holds it.
    public static func offer(_ candidate: Candidate) -> RestoreOffer {
        let when = DocumentJournal.clockTime(candidate.summary.modifiedAt)
        let path = candidate.summary.path
        return RestoreOffer(
            question: "Restore the drawing \(name(candidate)) from \(when) (\(count(candidate.stepCount)))?",
            doing: "Restoring the drawing \(name(candidate)) from \(when)", changes: candidate.summary.recordCount,
            restore: { control in
                do {
                    let writer = try JournalWriter.adopt(path: path)
                    let contents = try JournalReader.read(path: writer.path)
                    var document = try DocumentJournal.rebuild(contents, control: control)
                    // The file as the journal last knew it (opened or saved): another program's
                    // save since is asked about before a save writes over it. A journal that
                    // does not say: whatever the file holds now, read off the window's thread
                    // once the drawing is installed (a large file would freeze the window).
                    if document.path != nil, document.onDisk == .unknown { document.onDisk = .unread }
                    var message = "Restored \(count(StepCounter(contents.operations).steps)) from \(when)"
                    if let dropped = contents.droppedTail { message += "; \(dropped)" }
                    if let bad = contents.unusablePath {
                        message += "; it was untitled: its journal named “\(shown(bad))”, not a usable file"
                    }
                    return .restored(document, journal: DocumentJournal(writer: writer), message: message)
                } catch let error as JournalError {
                    return .failed("Cannot restore: \(error.description)")
                } catch {
                    return .failed("Cannot restore the drawing: \(error)")
                }
            },
            discard: {
                do throws(JournalError) {
                    try JournalReader.delete(path: path)
                    return "The earlier drawing was discarded"
                } catch .inUse {
                    // Another window restored it meanwhile and is drawing on in it.
                    return
                        "The earlier drawing was not discarded: another SwiftPaint window restored it and is using it"
                } catch {
                    return "The earlier drawing was not discarded: \(error.description)"
                }
            })
    }

    /// The listing `swiftpaint --recover` prints. It reads every journal and deletes none.
    public static func listing(in folder: String) -> String {
        let (orphans, problems) = JournalReader.orphansAndProblems(in: folder)
        let found = orphans.filter { $0.hasUnsavedWork }
        guard !found.isEmpty || !problems.isEmpty else {
            return "Nothing to restore (\(folder) holds no journal of a stopped SwiftPaint)."
        }
        var lines: [String] = []
        if !found.isEmpty {
            lines.append("Drawings that can be restored (start swiftpaint on the file, or with no file, to restore):")
        }
        for summary in found {
            let name =
                summary.documentPath.map(shown)
                ?? (summary.unusablePath.map { "Untitled (its journal names “\(shown($0))”)" } ?? "Untitled")
            let header = summary.header
            var line =
                "  \(name) — \(DocumentJournal.clockTime(summary.modifiedAt)), \(count(summary.stepCount)), "
                + "\(header.width) × \(header.height)"
            if let dropped = summary.droppedTail { line += " (\(dropped))" }
            if let refusal = summary.refusal { line += " — cannot be restored: \(refusal)" }
            lines.append(line)
        }
        if !problems.isEmpty {
            lines.append("Journals that cannot be read (left as they are):")
            for problem in problems { lines.append("  \(problem.description)") }
        }
        return lines.joined(separator: "\n")
    }
}

/// A crash journal that can be restored, as the program found it at start-up.
public struct RestoreOffer {
    /// The question, e.g. "Restore the drawing from 14:32 (12 strokes)?".
    public let question: String
    /// What the status bar says while it is restored, before how far it got.
    public let doing: String
    /// The changes and save marks the journal holds: how far a restore replays.
    public let changes: Int
    /// Rebuilds the drawing and takes over its journal, on a thread of its own in the window
    /// (`JournalRestore`): its replay counts each change on `control` and stops when told.
    public let restore: (ReplayControl?) -> Restoration
    /// Throws the journal away; says what happened (it is kept when another window holds it).
    public let discard: () -> String

    /// Makes an offer.
    public init(
        question: String, doing: String, changes: Int, restore: @escaping (ReplayControl?) -> Restoration,
        discard: @escaping () -> String
    ) {
        self.question = question
        self.doing = doing
        self.changes = changes
        self.restore = restore
        self.discard = discard
    }

    /// An offer whose restore neither counts nor stops (tests).
    public init(question: String, restore: @escaping () -> Restoration, discard: @escaping () -> String) {
        self.init(question: question, doing: "Restoring", changes: 0, restore: { _ in restore() }, discard: discard)
    }
}

/// What Restore gives back.
public enum Restoration {
    /// The drawing, the journal it goes on in, and what to tell the user.
    case restored(Document, journal: OperationSink, message: String)
    /// Why it could not be restored (a sentence for the status bar); nothing changes.
    case failed(String)
}

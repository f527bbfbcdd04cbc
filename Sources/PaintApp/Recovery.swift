import Glibc
import PaintCore
import PaintIO

/// Finding and offering the drawings that crashed or killed sessions left in journals.
public enum Recovery {
    /// A journal left by a process that is gone, with unsaved work in it.
    public struct Candidate {
        public var summary: JournalSummary
        /// The file the document saves to (its last save, else where it started).
        public var documentPath: String?
        /// Strokes recorded.
        public var strokeCount: Int
    }

    /// Every orphan journal with unsaved work, newest first. Journals with nothing unsaved
    /// (opened then killed, or saved before the crash) are deleted: they have nothing to give.
    public static func candidates(in folder: String) -> [Candidate] {
        var found: [Candidate] = []
        for orphan in JournalReader.orphans(in: folder) {
            guard let contents = try? JournalReader.read(path: orphan.path) else { continue }
            guard contents.records.hasUnsavedWork else {
                JournalReader.deleteOrphan(path: orphan.path)
                continue
            }
            var path = contents.header.documentPath
            for case .saved(let savedPath) in contents.records { path = savedPath }
            found.append(
                Candidate(summary: orphan, documentPath: path, strokeCount: strokes(contents.operations)))
        }
        return found
    }

    /// The journal a new start should offer: for a file, the newest orphan for that file; with no
    /// file, the newest orphan of all.
    public static func candidate(for path: String?, in folder: String) -> Candidate? {
        let all = candidates(in: folder)
        guard let path else { return all.first }
        return all.first { $0.documentPath == path }
    }

    /// "12 strokes", "1 stroke".
    static func count(_ n: Int) -> String { n == 1 ? "1 stroke" : "\(n) strokes" }

    static func strokes(_ operations: [Operation]) -> Int {
        operations.reduce(0) { n, op in
            if case .stroke = op { return n + 1 }
            return n
        }
    }

    /// The offer for `candidate`: Restore rebuilds the drawing and continues its journal;
    /// Discard deletes it.
    public static func offer(_ candidate: Candidate) -> RestoreOffer {
        let when = DocumentJournal.clockTime(candidate.summary.modifiedAt)
        let name = candidate.documentPath.map(FileSystem.lastComponent) ?? "Untitled"
        let path = candidate.summary.path
        return RestoreOffer(
            question: "Restore the drawing “\(name)” from \(when) (\(count(candidate.strokeCount)))?",
            restore: {
                do {
                    let writer = try JournalWriter.adopt(path: path)
                    let contents = try JournalReader.read(path: writer.path)
                    let document = try DocumentJournal.rebuild(contents)
                    var message = "Restored \(count(strokes(contents.operations))) from \(when)"
                    if let dropped = contents.droppedTail { message += "; \(dropped)" }
                    return .restored(document, journal: DocumentJournal(writer: writer), message: message)
                } catch let error as JournalError {
                    return .failed("Cannot restore: \(error.description)")
                } catch {
                    return .failed("Cannot restore: \(error)")
                }
            },
            discard: { JournalReader.deleteOrphan(path: path) })
    }

    /// The listing `swiftpaint --recover` prints.
    public static func listing(in folder: String) -> String {
        let found = candidates(in: folder)
        guard !found.isEmpty else { return "Nothing to restore (\(folder) holds no journal of a stopped SwiftPaint)." }
        var lines = ["Drawings that can be restored (start swiftpaint on the file, or with no file, to restore):"]
        for c in found {
            let name = c.documentPath.map(PathDisplay.abbreviatingHome) ?? "Untitled"
            let header = c.summary.header
            var line =
                "  \(name) — \(DocumentJournal.clockTime(c.summary.modifiedAt)), \(count(c.strokeCount)), \(header.width) × \(header.height)"
            if let dropped = c.summary.droppedTail { line += " (\(dropped))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// A crash journal that can be restored, as the program found it at start-up.
public struct RestoreOffer {
    /// The question, e.g. "Restore the drawing from 14:32 (12 strokes)?".
    public let question: String
    /// Rebuilds the drawing and takes over its journal.
    public let restore: () -> Restoration
    /// Throws the journal away.
    public let discard: () -> Void

    /// Makes an offer.
    public init(question: String, restore: @escaping () -> Restoration, discard: @escaping () -> Void) {
        self.question = question
        self.restore = restore
        self.discard = discard
    }
}

/// What Restore gives back.
public enum Restoration {
    /// The drawing, the journal it goes on in, and what to tell the user.
    case restored(Document, journal: OperationSink, message: String)
    /// Why it could not be restored (a sentence for the status bar); nothing changes.
    case failed(String)
}

import Glibc
import PaintCore
import PaintIO

/// Finding and offering the drawings that crashed or killed sessions left in journals.
public enum Recovery {
    /// The journal a new start should offer: for a file, the newest orphan for that file; with no
    /// file, the newest orphan of all.
    public static func candidate(for path: String?, in folder: String) -> JournalSummary? {
        var orphans: [JournalSummary] = []
        for orphan in JournalReader.orphans(in: folder) {
            // A journal with no change in it (opened, then killed) has nothing to give back.
            if orphan.operationCount == 0 {
                _ = unlink(orphan.path)
            } else {
                orphans.append(orphan)
            }
        }
        guard let path else { return orphans.first }
        return orphans.first { $0.header.documentPath == path }
    }

    /// "12 strokes", "1 stroke".
    static func count(_ n: Int) -> String { n == 1 ? "1 stroke" : "\(n) strokes" }

    /// The offer for `summary`: Restore rebuilds the drawing and continues its journal;
    /// Discard deletes it.
    public static func offer(_ summary: JournalSummary, journal: DocumentJournal) -> RestoreOffer {
        let when = DocumentJournal.clockTime(summary.modifiedAt)
        let name = summary.header.documentPath.map(FileSystem.lastComponent) ?? "Untitled"
        return RestoreOffer(
            question: "Restore the drawing “\(name)” from \(when) (\(count(summary.operationCount)))?",
            restore: {
                do {
                    let writer = try JournalWriter.adopt(path: summary.path)
                    let contents = try JournalReader.read(path: writer.path)
                    let (engine, history) = try DocumentJournal.rebuild(contents)
                    journal.replace(with: writer)
                    var message = "Restored \(count(contents.operations.count)) from \(when)"
                    if let dropped = contents.droppedTail { message += "; \(dropped)" }
                    return (engine, history, contents.header.documentPath, message)
                } catch let error as JournalError {
                    return (nil, nil, nil, "Cannot restore: \(error.description)")
                } catch {
                    return (nil, nil, nil, "Cannot restore: \(error)")
                }
            },
            discard: { _ = unlink(summary.path) })
    }

    /// The listing `swiftpaint --recover` prints.
    public static func listing(in folder: String) -> String {
        let orphans = JournalReader.orphans(in: folder).filter { $0.operationCount > 0 }
        guard !orphans.isEmpty else {
            return "Nothing to restore (\(folder) holds no journal of a stopped SwiftPaint)."
        }
        var lines = ["Drawings that can be restored (start swiftpaint on the file, or with no file, to restore):"]
        for o in orphans {
            let name = o.header.documentPath.map(PathDisplay.abbreviatingHome) ?? "Untitled"
            var line =
                "  \(name) — \(DocumentJournal.clockTime(o.modifiedAt)), \(count(o.operationCount)), \(o.header.width) × \(o.header.height)"
            if let dropped = o.droppedTail { line += " (\(dropped))" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

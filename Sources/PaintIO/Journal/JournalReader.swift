import Glibc
import PaintCore

/// Everything a journal holds: the starting document and the records to replay on it.
public struct JournalContents: Equatable, Sendable {
    public var header: JournalHeader
    /// The changes and save marks, in order (a damaged record's step kept as an empty stroke).
    public var records: [JournalRecord]
    /// What was lost (damaged records left out, a record cut short by a crash), as a sentence;
    /// nil when every record was good.
    public var droppedTail: String?
    /// Why the journal cannot be replayed (over its replay budget), as words after "because";
    /// nil when it can.
    public var refusal: String?
    /// The header's document path when it was not a usable one (then `header` holds none).
    public var unusablePath: String?

    /// The changes, without the save marks.
    public var operations: [Operation] { records.operations }
}

/// A journal left behind by a SwiftPaint that is no longer running.
public struct JournalSummary: Equatable, Sendable {
    public var path: String
    public var header: JournalHeader
    /// Changes and save marks.
    public var recordCount: Int
    /// The file's modification time (unix seconds): when the last change was written.
    public var modifiedAt: Int64
    /// What was lost, as in `JournalContents`.
    public var droppedTail: String?
    /// Steps the drawing shows once restored: every change of any kind (a stroke, a shape, a
    /// fill, a text, a canvas change...), less the ones undone.
    public var stepCount: Int = 0
    /// Whether some change follows the last save marker.
    public var hasUnsavedWork: Bool = false
    /// Where the document saves to: the last usable save marker's path, else the header's.
    public var documentPath: String?
    /// The header's path when it was unusable (relative, `..`, control characters).
    public var unusablePath: String?
    /// Why it cannot be restored, if so.
    public var refusal: String?
}

/// Reads journals back, for restoring after a crash.
public enum JournalReader {
    /// `$XDG_STATE_HOME/swiftpaint`, or `~/.local/state/swiftpaint`.
    public static var defaultFolder: String {
        FileSystem.xdgFolder("XDG_STATE_HOME", fallback: ".local/state") + "/swiftpaint"
    }

    /// Reads the journal at `path`, keeping every complete record before a cut-short or damaged
    /// one. Throws when the file cannot be read, is not a journal, or its header is unusable,
    /// or (`.baseMissing`) when it is an interim journal whose picture file no longer holds its
    /// starting picture (read from there into `header.baseImage` while it does).
    public static func read(path: String) throws(JournalError) -> JournalContents {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        defer { _ = close(fd) }
        return try read(fd: fd, path: path)
    }

    static func read(fd: Int32, path: String) throws(JournalError) -> JournalContents {
        var parsed = try JournalParser.parse(fd: fd, path: path, collect: true)
        // An interim journal's starting picture is the file it names, while it holds it.
        if let reference = parsed.header.baseReference { parsed.header.baseImage = try reference.read() }
        return JournalContents(
            header: parsed.header, records: parsed.records, droppedTail: parsed.damage, refusal: parsed.refusal,
            unusablePath: parsed.unusablePath)
    }

    /// The journals in `folder` whose writer is gone (their lock can be taken right now),
    /// newest first, read without keeping their operations. Files that are not journals, or
    /// whose start is unusable, are left out (and left alone). The locks taken to test are
    /// released before returning.
    public static func orphans(in folder: String) -> [JournalSummary] {
        orphansAndProblems(in: folder).orphans
    }

    /// `orphans(in:)`, plus the journals that cannot be read at all, each with its reason (for
    /// `--recover`, which lists them so nothing is silently ignored).
    public static func orphansAndProblems(in folder: String) -> (orphans: [JournalSummary], problems: [JournalError]) {
        guard let names = FileSystem.names(inFolder: folder) else { return ([], []) }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var found: [JournalSummary] = []
        var problems: [JournalError] = []
        for name in names where name.hasSuffix(JournalFormat.fileExtension) && !name.hasPrefix(".") {
            let path = base + "/" + name
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { _ = close(fd) }  // closing releases the lock
            guard JournalFormat.tryLock(fd, shared: true) == 0 else { continue }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let parsed: JournalParser.Parsed
            do {
                parsed = try JournalParser.parse(fd: fd, path: path, collect: false)
            } catch {
                if case .notAJournal = error { continue }
                problems.append(error)
                continue
            }
            found.append(
                JournalSummary(
                    path: path, header: parsed.header, recordCount: parsed.operationCount,
                    modifiedAt: Int64(info.st_mtim.tv_sec), droppedTail: parsed.damage,
                    stepCount: parsed.steps.steps, hasUnsavedWork: parsed.hasUnsavedWork,
                    documentPath: parsed.documentPath, unusablePath: parsed.unusablePath, refusal: parsed.refusal))
        }
        return (found.sorted { ($0.modifiedAt, $0.path) > ($1.modifiedAt, $1.path) }, problems)
    }

    /// Deletes the journal at `path` if no running SwiftPaint holds it: it is locked first (a
    /// writer holds its lock for life, so a journal another window adopted or writes is never
    /// deleted), and deleted only if the path still names the file that was locked.
    public static func delete(path: String) throws(JournalError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        defer { _ = close(fd) }
        let e = JournalFormat.lockPastScans(fd)
        if e == EWOULDBLOCK { throw .inUse(path: path) }
        guard e == 0 else { throw .cannotOpen(path: path, errno: e) }
        guard JournalFormat.sameFile(fd, path) else { throw .inUse(path: path) }
        guard unlink(path) == 0 else { throw .cannotWrite(path: path, errno: errno) }
        // The whole journal a crash left half made beside an interim one: its owner is gone.
        _ = unlink(JournalWriter.makingPath(path))
        let folder = FileSystem.parentFolder(path)
        _ = JournalFormat.syncFolder(folder)
    }
}

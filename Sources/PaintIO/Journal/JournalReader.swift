import Glibc
import PaintCore

/// Everything a journal holds: the starting document and the records to replay on it.
public struct JournalContents: Equatable, Sendable {
    public var header: JournalHeader
    /// The changes and save marks, in order.
    public var records: [JournalRecord]
    /// What was dropped from the end (a record cut short by a crash, or damaged), as a sentence;
    /// nil when every record was complete.
    public var droppedTail: String?

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
    public var droppedTail: String?
}

/// Reads journals back, for restoring after a crash.
public enum JournalReader {
    /// `$XDG_STATE_HOME/swiftpaint`, or `~/.local/state/swiftpaint`.
    public static var defaultFolder: String {
        FileSystem.xdgFolder("XDG_STATE_HOME", fallback: ".local/state") + "/swiftpaint"
    }

    /// Reads the journal at `path`, keeping every complete record before a cut-short or damaged
    /// one. Throws when the file cannot be read, is not a journal, or its header is unusable.
    public static func read(path: String) throws(JournalError) -> JournalContents {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        defer { _ = close(fd) }
        return try read(fd: fd, path: path)
    }

    static func read(fd: Int32, path: String) throws(JournalError) -> JournalContents {
        let parsed = try parse(fd: fd, path: path)
        return JournalContents(header: parsed.header, records: parsed.records, droppedTail: parsed.droppedTail)
    }

    static func parse(fd: Int32, path: String) throws(JournalError) -> JournalFormat.Parsed {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAJournal(path: path) }
        switch JournalFormat.readAll(fd) {
        case .failure(let e): throw .cannotRead(path: path, errno: e.code)
        case .success(let bytes): return try JournalFormat.parse(bytes, path: path)
        }
    }

    /// The journals in `folder` whose writer is gone (their lock can be taken right now),
    /// newest first. Files that are not readable journals are left out. The locks taken to test
    /// are released before returning.
    public static func orphans(in folder: String) -> [JournalSummary] {
        guard let names = FileSystem.names(inFolder: folder) else { return [] }
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        var found: [JournalSummary] = []
        for name in names where name.hasSuffix(JournalFormat.fileExtension) && !name.hasPrefix(".") {
            let path = base + "/" + name
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { _ = close(fd) }  // closing releases the lock
            guard JournalFormat.tryLock(fd) == 0 else { continue }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                let parsed = try? parse(fd: fd, path: path)
            else { continue }
            found.append(
                JournalSummary(
                    path: path, header: parsed.header, recordCount: parsed.records.count,
                    modifiedAt: Int64(info.st_mtim.tv_sec), droppedTail: parsed.droppedTail))
        }
        return found.sorted { ($0.modifiedAt, $0.path) > ($1.modifiedAt, $1.path) }
    }

    /// Deletes the journal at `path` left by a program that is gone (the user discarded it, or
    /// it holds nothing unsaved). A journal whose owner is running (its lock is held) stays;
    /// returns whether it was deleted.
    @discardableResult
    public static func deleteOrphan(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { _ = close(fd) }  // after the unlink: no scan sees it unlocked
        guard JournalFormat.tryLock(fd) == 0, unlink(path) == 0 else { return false }
        _ = JournalFormat.syncFolder(FileSystem.parentFolder(path))
        return true
    }
}

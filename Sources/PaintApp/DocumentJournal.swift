import Glibc
import PaintCore
import PaintIO

/// Connects a session to its crash journal: every committed operation is appended (the disk
/// work happens on the journal's own thread), a save appends a marker, and a clean exit
/// removes the journal.
///
/// The journal keeps the whole log from the document's first picture, saves included: a save
/// is a marker, not a new starting point. Restarting from the saved PNG would lose precision
/// (the file holds the picture flattened, the engine keeps premultiplied paint over a separate
/// background, and their roundings differ), and undo may go back past a save.
public final class DocumentJournal: OperationSink {
    private(set) var writer: JournalWriter?
    /// The writer had caught up when last asked (`protection`), and nothing was handed to it
    /// since: it cannot be behind or failing until the next record.
    private var caughtUp = false
    /// The journal this one replaces (a reopened picture's, until its history was rebuilt):
    /// it hears every change too until this one is made, so a crash meanwhile loses nothing.
    private(set) var previous: OperationSink?

    /// Starts journaling into `writer` (which may still be making its file), and into
    /// `previous` too until it is made.
    public init(writer: JournalWriter, replacing previous: OperationSink? = nil) {
        self.writer = writer
        self.previous = previous
    }

    /// The journal file, while there is one (nil until it is made).
    public var path: String? { writer.map(\.path).flatMap { $0.isEmpty ? nil : $0 } }

    /// The changes and save marks in the journal, those it started with included (nil without
    /// a writer).
    var recordCount: Int? { writer?.recordCount }

    /// Whether the journal file is made, still being made, or could not be made.
    public var making: JournalMaking { writer?.making ?? .done }

    /// The file was found made (`settle`): nothing more to follow, and the window's look at
    /// every turn of its loop takes no lock for it.
    private(set) var made = false

    /// The journal this one replaces is let go once this one is made (and left to the caller,
    /// returned, when this one could not be made).
    func settle() -> OperationSink? {
        switch making {
        case .inProgress: return nil
        case .done:
            made = true
            previous?.closedCleanly()
            previous = nil
            return nil
        case .failed:
            defer { previous = nil }
            return previous
        }
    }

    public func record(_ operation: Operation) {
        caughtUp = false
        writer?.append(operation)
        previous?.record(operation)
    }

    public func saved(path: String, version: FileVersion?, drawnDuring: Int) {
        caughtUp = false
        writer?.append(JournalRecord.saved(path: path, version: version, drawnDuring: drawnDuring))
        previous?.saved(path: path, version: version, drawnDuring: drawnDuring)
    }

    public func closedCleanly() {
        writer?.discard()
        writer = nil
        previous?.closedCleanly()
        previous = nil
    }

    /// Waits for the disk at most a few seconds: this runs on the way out (a signal, a lost X
    /// server), where a hung disk must not hang the program too.
    public func flush() {
        writer?.flush(timeout: 5)
        previous?.flush()
    }

    /// Asked by the window at every turn of its loop: once the writer has caught up, its lock
    /// is not taken again until something new is handed to it (only what waits for the disk
    /// can fail, and `durableThrough` never goes back).
    public var protection: CrashProtection {
        guard let writer, !caughtUp else { return .safe }
        // While the file is made, the journal it replaces keeps the changes safe.
        if !made, let previous, case .inProgress = writer.making { return previous.protection }
        let standing = writer.standing
        if let failure = standing.failure { return .stopped(Self.reason(failure)) }
        if standing.isBehind { return .writing }
        caughtUp = true
        return .safe
    }

    /// Why the journal cannot be written, short enough for the status bar.
    static func reason(_ failure: JournalError) -> String {
        switch failure {
        case .cannotWrite(_, let e):
            // The reason alone: the status bar has room for one short sentence.
            return JournalError.words(e)
        case .tooLarge(_, _, let limit):
            return "its journal reached \(limit >> 20) MB, the most SwiftPaint reads back"
        default:
            return failure.description
        }
    }

    /// A background as the journal records it (an image background cannot be described
    /// without pixels; it is recorded as white, which is what the saved picture shows through).
    public static func journalBackground(_ background: Background) -> JournalBackground {
        switch background {
        case .color(let c): return .color(c)
        case .transparent: return .transparent
        case .image: return .color(.white)
        }
    }

    /// The document a journal holds: its starting picture (or a blank canvas) with every
    /// recorded change replayed through a history, so undo works on the restored steps; the
    /// last save mark gives the saved step and the path. Refused, with the reason, when the
    /// journal describes a canvas larger than the image limits, its starting picture does not
    /// fit it, or it is over its replay budget. A `control` counts each replayed change and
    /// stops the replay when told (`JournalRestore`).
    public static func rebuild(
        _ contents: JournalContents, control: ReplayControl? = nil
    ) throws(HistoryReplay.Refusal) -> Document {
        let header = contents.header
        var document = try Document.replaying(
            contents.records, from: HistoryReplay.Start(header), path: header.documentPath,
            memoryCap: History.defaultMemoryCap, control: control)
        // Not saved since the journal started: the file as it was then.
        let saved = contents.records.contains { if case .saved = $0 { true } else { false } }
        if !saved, let version = header.documentVersion { document.onDisk = .version(version) }
        // Not saved since: a picture pasted from a damaged source is still saved as a copy.
        if !saved, let damage = header.sourceDamage { document.damage = damage }
        return document
    }

    /// "14:32" in local time, for the restore question.
    public static func clockTime(_ unixSeconds: Int64) -> String {
        var t = time_t(unixSeconds)
        var parts = tm()
        localtime_r(&t, &parts)
        let h = Int(parts.tm_hour)
        let m = Int(parts.tm_min)
        return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
    }
}

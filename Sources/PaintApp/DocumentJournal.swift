import Glibc
import PaintCore
import PaintIO

/// Connects a session to its crash journal: every committed operation is appended (the disk
/// work happens on the journal's own thread), a save starts a fresh journal from the saved
/// picture, and a clean exit removes it.
public final class DocumentJournal: OperationSink {
    private var writer: JournalWriter?
    /// The history step the journal's starting picture stands for (a save moves it).
    private var baseStep = 0

    /// Starts journaling into `writer`.
    public init(writer: JournalWriter) {
        self.writer = writer
    }

    /// The journal file, while there is one.
    public var path: String? { writer?.path }

    public func record(_ operation: Operation, session: Session) {
        guard session.history.cursor >= baseStep else {
            // Undone past the last save, which is where this journal starts: write it anew from
            // the document's first picture, with every step and the undos that lead here.
            rewrite(from: session)
            return
        }
        writer?.append(operation)
    }

    public func saved(png: [UInt8], path: String, session: Session) {
        let engine = session.engine
        writer?.restart(
            header: JournalHeader(
                documentPath: path, width: engine.width, height: engine.height,
                background: Self.journalBackground(engine.background), baseImage: png))
        baseStep = session.history.cursor
    }

    private func rewrite(from session: Session) {
        guard let writer else { return }
        let engine = session.engine
        let history = session.history
        let base = history.startingPaint.flatMap { try? PNGCodec.encode($0, withAlpha: true) }
        writer.restart(
            header: JournalHeader(
                documentPath: session.path, width: engine.width, height: engine.height,
                background: Self.journalBackground(engine.background), baseImage: base))
        for operation in history.operations { writer.append(operation) }
        for _ in history.cursor..<history.count { writer.append(.undo) }
        baseStep = 0
    }

    public func closedCleanly() {
        writer?.discard()
        writer = nil
    }

    /// Waits for the disk at most a few seconds: this runs on the way out (a signal, a lost X
    /// server), where a hung disk must not hang the program too.
    public func flush() {
        writer?.flush(timeout: 5)
    }

    /// Switches to another journal (after a restore adopts the old one); the current one goes.
    public func replace(with other: JournalWriter) {
        writer?.discard()
        writer = other
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

    /// A document rebuilt from a journal: the base picture (or a blank canvas) with every
    /// recorded operation replayed through a history, so undo works on the restored steps.
    public static func rebuild(_ contents: JournalContents) throws(ImageFileError) -> (
        engine: StrokeEngine, history: History
    ) {
        let header = contents.header
        let background: Background
        switch header.background {
        case .color(let c): background = .color(c)
        case .transparent: background = .transparent
        }
        let engine: StrokeEngine
        var baseImage: PixelImage?
        if let base = header.baseImage {
            let image = try PNGCodec.decode(base, name: "journal")
            engine = StrokeEngine(image: image, background: background)
            baseImage = image
        } else {
            engine = StrokeEngine(width: header.width, height: header.height, background: background)
        }
        let history = History(base: baseImage)
        for operation in contents.operations { history.perform(operation, engine: engine) }
        return (engine, history)
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

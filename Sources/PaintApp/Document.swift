import PaintCore
import PaintIO

/// One open picture: its pixels and the steps that made them, and where it lives on disk.
///
/// Start-up, New, Open and Restore each make one and hand it to `Session.install`, the one way
/// a document becomes the one being edited. What a document needs to know about itself (the
/// format it was read from, the file's identity on disk, whether it carries its history) is a
/// field here, set where it is made (DocumentLoader, DocumentJournal, DocumentOpener).
public struct Document {
    /// The canvas and its stroke engine.
    public var engine: StrokeEngine
    /// Its steps, for undo.
    public var history: History
    /// The file it saves to; nil while untitled.
    public var path: String?
    /// The history step that is on disk (nil: none is, or it was undone and overwritten).
    public var savedStep: Int?
    /// The bytes of the picture the history starts from, in any format SwiftPaint opens (the
    /// opened file's own bytes; nil: a blank canvas): saved with the history, and the journal's
    /// starting point.
    public var baseBytes: [UInt8]?
    /// The steps that rebuild the picture from `baseBytes` as they were read (a reopened file's
    /// saved history, undone steps and their undos included): its journal starts with them.
    public var log: [Operation]
    /// The format of the file at `path` (read from it, or last saved in it); nil when not known.
    /// A save to a name without a known extension keeps it.
    public var format: ImageFormat?
    /// The formats this document was saved in whose losses (transparency, the editing history)
    /// the status bar has already told: it says so once, not at every Ctrl+S.
    public var toldLosses: Set<ImageFormat> = []
    /// Whether the file carries its editing history inside (an `spHS` chunk, from "Save with
    /// history" or an older SwiftPaint): the title and the status bar say so until a plain save
    /// drops it.
    public var carriesHistory: Bool

    /// A document; by default untitled, on its saved step, with nothing to journal.
    public init(
        engine: StrokeEngine, history: History, path: String? = nil, savedStep: Int? = 0, baseBytes: [UInt8]? = nil,
        log: [Operation] = [], format: ImageFormat? = nil, carriesHistory: Bool = false
    ) {
        self.engine = engine
        self.history = history
        self.path = path
        self.savedStep = savedStep
        self.baseBytes = baseBytes
        self.log = log
        self.format = format
        self.carriesHistory = carriesHistory
    }

    /// The background its history starts on, as a journal or a saved history records it (not
    /// the one in effect now, which a later step may have set).
    public var startingBackground: JournalBackground {
        DocumentJournal.journalBackground(history.startingBackground(engine: engine))
    }

    /// Whether there are changes since the last save: the history is not on the saved step.
    public var isModified: Bool { savedStep != history.cursor }

    /// Notes that `operation` was committed: a new step in place of the saved one (undone
    /// before) means no undo reaches the saved picture again.
    mutating func noteCommitted(_ operation: Operation) {
        if let saved = savedStep, saved >= history.cursor, operation != .undo, operation != .redo {
            savedStep = nil
        }
    }

    /// A document rebuilt from a log: its starting picture (`baseBytes`, or a blank canvas of
    /// `width` x `height`) on `background`, with every record replayed through a history so undo
    /// works on the replayed steps. A save mark makes its step the saved one and its path the
    /// document's.
    ///
    /// The replay composites once, at the end: nothing is shown before the whole log is done.
    static func replaying(
        _ records: [JournalRecord], width: Int, height: Int, background: JournalBackground, baseBytes: [UInt8]?,
        path: String?, memoryCap: Int, source: String
    ) throws(ImageFileError) -> Document {
        let start: Background
        switch background {
        case .color(let c): start = .color(c)
        case .transparent: start = .transparent
        }
        let engine: StrokeEngine
        var base: PixelImage?
        if let baseBytes {
            let image = try ImageDecoder.decode(baseBytes, name: source).image
            engine = StrokeEngine(image: image, background: start)
            base = image
        } else {
            // A journal's or a history's word for the size, checked before anything is made.
            guard ImageLimits.default.allows(width: width, height: height) else {
                throw .tooLarge(path: source, width: width, height: height, limits: .default)
            }
            engine = StrokeEngine(width: width, height: height, background: start)
        }
        var document = Document(
            engine: engine, history: History(base: base, memoryCap: memoryCap), path: path, savedStep: nil,
            baseBytes: baseBytes)
        engine.defersComposite = true
        for record in records {
            switch record {
            case .operation(let operation):
                document.history.perform(operation, engine: engine)
            case .saved(let path):
                document.savedStep = document.history.cursor
                document.path = path
            }
        }
        engine.defersComposite = false
        return document
    }
}

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
    /// The picture the history starts from (nil: a blank canvas): saved with the history, and
    /// the journal's starting point; in memory, or only in the journal once it has started.
    public var base: BaseImage?
    /// The steps that rebuild the picture from `baseBytes` as they were read (a reopened file's
    /// saved history, undone steps and their undos included): its journal starts with them.
    public var log: [Operation]
    /// The format of the file at `path` (read from it, or last saved in it); nil when not known.
    /// A save to a name without a known extension keeps it.
    public var format: ImageFormat?
    /// The print resolution the opened file declared (its dots per inch): written into every
    /// PNG or JPEG saved, so the picture keeps its size in a document; nil when it declared none.
    public var resolution: PictureResolution?
    /// Whether the opened file stored the picture lossy (a JPEG, a lossy WebP): the WebP
    /// question then offers lossy quality 90 (`Session.offeredQuality`), as lossless would only
    /// keep the compression's noise, several times larger.
    public var lossySource = false
    /// What the opened JPEG was written with (`JPEGSource`: its quality and color sampling, a
    /// camera's 97 and 4:2:0), while it is what the picture's JPEG holds: every save of the
    /// picture as JPEG keeps its quality when higher than the one set (`Session.offeredQuality`)
    /// and writes its sampling, as GIMP's "use quality settings from original image" does,
    /// until a quality is typed (then the color follows it: 4:4:4 from 90 up, 4:2:0 below).
    /// Nil for any other file.
    public var sourceJPEG: JPEGSource?
    /// The formats this document was saved in whose losses (transparency, the editing history)
    /// the status bar has already told: it says so once, not at every Ctrl+S.
    public var toldLosses: Set<ImageFormat> = []
    /// Whether the file carries its editing history inside (an `spHS` chunk, from "Save with
    /// history" or an older SwiftPaint): the title and the status bar say so until a plain save
    /// drops it.
    public var carriesHistory: Bool
    /// A saved history being rebuilt in the background (see `HistoryRebuild`): until it is
    /// ready, `history` starts from the opened picture and holds what is drawn on it meanwhile.
    public var historyRebuild: HistoryRebuild?
    /// The file as it was opened or last saved here, to tell when another program changed it.
    public var onDisk: DiskBaseline = .unknown
    /// Set when the file at `path` is damaged or cut short and the picture is what could be
    /// read of it: Ctrl+S then asks for a name (`Session.ownFile`), so the file, whose rest
    /// another tool may yet recover, is not overwritten by the part read. Cleared by a save.
    public var damage: PictureDamage?
    /// The starting picture without the opened file's metadata, as the last "Save with
    /// history" made it: the next one reuses it while the starting picture is the same.
    public var cleanBase: CleanBase.Made?

    /// A document; by default untitled, on its saved step, with nothing to journal.
    public init(
        engine: StrokeEngine, history: History, path: String? = nil, savedStep: Int? = 0, baseBytes: [UInt8]? = nil,
        log: [Operation] = [], format: ImageFormat? = nil, carriesHistory: Bool = false
    ) {
        self.engine = engine
        self.history = history
        // Large snapshots the history lets go of are freed off the thread that draws.
        history.reclaimer = Reclaimer.shared
        self.path = path
        self.savedStep = savedStep
        self.base = baseBytes.map(BaseImage.bytes)
        self.log = log
        self.format = format
        self.carriesHistory = carriesHistory
    }

    /// The background its history starts on, as a journal or a saved history records it (not
    /// the one in effect now, which a later step may have set).
    public var startingBackground: JournalBackground {
        DocumentJournal.journalBackground(history.startingBackground(engine: engine))
    }

    /// Every step as a log replays it from `base`: the history's steps, undone ones too, then
    /// an undo for each undone one (so a replay ends on the same step, with the same redo).
    public var replayLog: [Operation] {
        history.operations + Array(repeating: Operation.undo, count: history.count - history.cursor)
    }

    /// Whether there are changes since the last save: the history is not on the saved step.
    public var isModified: Bool { savedStep != history.cursor }

    /// Notes that `operation` was committed: a new step in place of the saved one (undone
    /// before) means no undo reaches the saved picture again.
    mutating func noteCommitted(_ operation: Operation) {
        savedStep = History.step(savedStep, after: operation, cursor: history.cursor)
    }

    /// A document rebuilt from a log read back (a crash journal, a saved history) through
    /// `HistoryReplay`: its starting picture with every record replayed through a history so
    /// undo works on the replayed steps, checked against the image limits and the replay budget
    /// first. A save mark makes its step the saved one and its path the document's.
    static func replaying(
        _ records: [JournalRecord], from start: HistoryReplay.Start, path: String?, memoryCap: Int,
        control: ReplayControl? = nil
    ) throws(HistoryReplay.Refusal) -> Document {
        let replay = try HistoryReplay.replay(start, records: records, memoryCap: memoryCap, control: control)
        var document = Document(
            engine: replay.engine, history: replay.history, path: replay.savedPath ?? path,
            savedStep: replay.savedStep, baseBytes: start.baseImage)
        // The file as the last save left it: what a restored drawing is saved over unasked.
        document.onDisk = replay.savedVersion.map(DiskBaseline.version) ?? .unknown
        // Not saved since it was opened from a damaged file: that file is still left alone.
        if replay.savedPath == nil, document.path != nil { document.damage = replay.baseDamage }
        return document
    }
}

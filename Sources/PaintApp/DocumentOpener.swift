import PaintCore
import PaintIO

/// Makes documents for the program, at start and for New (Ctrl+N) and Open (Ctrl+O), and starts
/// their crash journals: each open document gets one of its own, and a drawing a crash left for
/// the same file is offered back.
public struct DocumentOpener {
    /// Background, history cap and the like for every document opened.
    public var options: CommandLineOptions
    /// Where journals go; nil runs without them (`--no-journal`).
    public var journalFolder: String?

    public init(options: CommandLineOptions, journalFolder: String?) {
        self.options = options
        self.journalFolder = journalFolder
    }

    /// Starts journaling `document`: its header, then the steps it was opened with, so the
    /// journal always holds the whole log from the starting picture. The file is made on the
    /// journal's own thread (a slow disk never stops the window): changes recorded meanwhile go
    /// into it once it is made, and `Session.settleJournal` lets the document's starting picture
    /// go to it then (`document.base` moves there, out of memory), or says why it could not be
    /// made (a drawing a crash left is looked for before, off the window's thread:
    /// `DocumentOpening`, `Session.loadToOpen`). Without a journal folder there is no journal and no problem; when the journal
    /// cannot be started, `problem` says why (drawing goes on without it) and `why` says it short
    /// enough for the status bar ("the disk is full"). With `replacing`, the journal it
    /// replaces hears every change too until the new one is made.
    public func startJournal(
        for document: inout Document, replacing previous: OperationSink? = nil
    ) -> (journal: DocumentJournal?, problem: String?, why: String?) {
        guard let folder = journalFolder else { return (nil, nil, nil) }
        // The canvas the operations start on: the history's first, which a crop, scale or turn
        // in a reopened file's history makes differ from the picture's.
        let start = document.history.startingCanvas ?? document.engine.bounds
        // An opened file's bytes are copied from the file, checked as they are copied.
        var baseFile: PictureFile?
        if case .file(let file) = document.base { baseFile = file }
        let baseImage = baseFile == nil ? document.base?.read() : nil
        if document.base != nil && baseImage == nil && baseFile == nil {
            let why = "its starting picture could not be read back"
            return (nil, "No crash journal: " + why, why)
        }
        // A damaged file's bytes as the starting picture say so when decoded; a picture pasted
        // from a damaged source onto a blank canvas (Paste as New Picture) is marked in words.
        let header = JournalHeader(
            documentPath: document.path, width: start.width, height: start.height,
            background: document.startingBackground, baseImage: baseImage, documentVersion: document.onDisk.version,
            sourceDamage: document.base == nil ? document.damage : nil)
        // The steps it starts with are in the file before it counts as a journal: a crash while
        // it starts never leaves it offered with part of them.
        let initial = document.log.map(JournalRecord.operation)
        do {
            let writer = try JournalWriter.start(in: folder, header: header, baseFile: baseFile, initial: initial)
            return (DocumentJournal(writer: writer, replacing: previous), nil, nil)
        } catch {
            return (nil, "No crash journal: \(error.description)", DocumentJournal.reason(error))
        }
    }

    /// The document's starting picture as PNG bytes that decode to exactly its pixels, when
    /// nothing has been done to it yet (its paint is that picture); nil otherwise.
    static func ownEncoding(of document: Document) -> [UInt8]? {
        guard document.log.isEmpty, document.history.count == 0 else { return nil }
        return CleanBase.png(of: document.engine.paintImage())
    }

    /// A blank untitled canvas (File > New).
    public func blank(width: Int, height: Int) -> Document {
        DocumentLoader.blank(width: width, height: height, options: options)
    }

    /// The picture at `path` (File > Open) and what to tell the user, or why it cannot be
    /// opened.
    public func load(_ path: String) -> Result<(document: Document, message: String), ImageFileError> {
        do {
            return .success(try DocumentLoader.load(path, options: options, historyInBackground: true))
        } catch {
            return .failure(error)
        }
    }
}

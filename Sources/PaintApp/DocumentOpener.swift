import PaintCore
import PaintIO

/// Opens documents for the program, at start and for New (Ctrl+N) and Open (Ctrl+O): each open
/// document gets a crash journal of its own, and a drawing a crash left for the same file is
/// offered back.
public struct DocumentOpener {
    /// Background, history cap and the like for every document opened.
    public var options: CommandLineOptions
    /// Where journals go; nil runs without them (`--no-journal`).
    public var journalFolder: String?

    public init(options: CommandLineOptions, journalFolder: String?) {
        self.options = options
        self.journalFolder = journalFolder
    }

    /// A document ready to edit: the picture, its journal, and what to tell the user.
    public struct Opened {
        public var document: LoadedDocument
        /// Nil without a journal folder, or when the journal could not be created.
        public var journal: DocumentJournal?
        /// A drawing a crash left for this file, to offer back.
        public var restoreOffer: RestoreOffer?
        /// Why there is no journal when one was wanted (drawing goes on without it).
        public var journalProblem: String?
    }

    /// Starts journaling `document`: its header, then the history it was opened with, so the
    /// journal always holds the whole log from the starting picture. With `offeringLeftOver`,
    /// the newest journal a crash left for the same file (for an untitled document, the newest
    /// of all) comes with it.
    public func attach(_ document: LoadedDocument, offeringLeftOver: Bool) -> Opened {
        var opened = Opened(document: document)
        guard let folder = journalFolder else { return opened }
        let leftOver = offeringLeftOver ? Recovery.candidate(for: document.path, in: folder) : nil
        let header = JournalHeader(
            documentPath: document.path, width: document.engine.width, height: document.engine.height,
            background: DocumentJournal.journalBackground(document.engine.background), baseImage: document.baseBytes)
        do {
            let writer = try JournalWriter.create(in: folder, header: header)
            for operation in document.operations { writer.append(operation) }
            let journal = DocumentJournal(writer: writer)
            opened.journal = journal
            opened.restoreOffer = leftOver.map { Recovery.offer($0, journal: journal) }
        } catch {
            opened.journalProblem = "No crash journal: \(error.description)"
        }
        return opened
    }

    /// A blank untitled canvas (File > New).
    public func blank(width: Int, height: Int) -> Opened {
        var document = DocumentLoader.blank(width: width, height: height, options: options)
        document.message = "New picture, \(width) × \(height)"
        return attach(document, offeringLeftOver: false)
    }

    /// The picture at `path` (File > Open), not journaled yet (see `attach`), or why it cannot
    /// be opened.
    public func load(_ path: String) -> Result<LoadedDocument, ImageFileError> {
        do {
            return .success(try DocumentLoader.load(path, options: options))
        } catch {
            return .failure(error)
        }
    }
}

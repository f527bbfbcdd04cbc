import Glibc
import PaintCore
import PaintIO

/// The picture named on the command line, opened on a thread of its own while the window is
/// made: decoding a large PNG takes about as long as opening the display, creating the window
/// and its shared image and loading the interface's fonts together, and on two cores the two
/// overlap instead of adding up.
///
/// The window is sized from the file's header (`PictureHeader`: a few small reads, no decode):
/// `placeholder` is a blank canvas of that size, which the session starts with; `finish` gives
/// the opened document (exactly what `DocumentLoader.open` gives, a file that cannot be read
/// included), which the window installs before its first frame.
///
/// The same thread then looks in the journal folder for a drawing a crash left for that
/// document (`leftOver`, offered in the first frame): every journal there is read through to
/// count its steps, about 11 ms for one of 1,600 strokes on a 4K picture (3.5 MB), which held
/// the window's thread before its first frame.
public final class DocumentOpening {
    /// What the thread gives: the opened document and what the status bar says first, and
    /// the drawing a crash left for it.
    private typealias Opened = (opened: (document: Document, message: String), leftOver: Recovery.Candidate?)

    private let job: BackgroundJob<Opened>
    private let path: String?
    private let options: CommandLineOptions
    /// What the thread found, once `finish` took it.
    private var found: Recovery.Candidate?
    /// A blank canvas of the size the file says it opens at (within `ImageLimits`; else the
    /// options' size), under the file's name: what the window is made for, and named after,
    /// until `finish`.
    public let placeholder: Document

    /// Starts opening `path` (absolute; nil: a blank canvas, made here and now unless there is
    /// a `journalFolder` to look in), then looking in `journalFolder` (nil: none, `--no-journal`)
    /// for a drawing a crash left for it with `findLeftOver` (tests hold it).
    public init(
        path: String?, options: CommandLineOptions, journalFolder: String? = nil,
        findLeftOver: @escaping (_ path: String?, _ folder: String) -> Recovery.Candidate? = {
            Recovery.candidate(for: $0, in: $1)
        }
    ) {
        self.path = path
        self.options = options
        let header = path.flatMap(PictureHeader.read)
        var placeholder: Document
        if let header, ImageLimits.default.allows(width: header.width, height: header.height) {
            placeholder = DocumentLoader.blank(width: header.width, height: header.height, options: options)
        } else {
            placeholder = DocumentLoader.blank(width: options.width, height: options.height, options: options)
        }
        // The window is named from its creation, before the picture is read: with the file's
        // name (the opened document has it too, unless the file cannot be read).
        placeholder.path = path
        self.placeholder = placeholder
        // Nothing to read and nowhere to look: the blank canvas is made here and now.
        job = BackgroundJob(wake: .none, inBackground: path != nil || journalFolder != nil) {
            let opened = DocumentLoader.open(path, options: options, historyInBackground: true)
            // For the document as opened: its file, untitled when it could not be read.
            return (opened, journalFolder.flatMap { findLeftOver(opened.document.path, $0) })
        }
    }

    /// Waits for the picture: the document and what the status bar says first. The document is
    /// handed over, not kept here: it holds the opened file's bytes until its journal does
    /// (`BaseImage`), and this object lives as long as the program.
    public func finish() -> (document: Document, message: String) {
        guard let done = job.finish() else {
            // Handed over before: the picture is opened again.
            return DocumentLoader.open(path, options: options, historyInBackground: true)
        }
        found = done.leftOver
        return done.opened
    }

    /// The drawing a crash left for the opened document (for an untitled one, the newest of
    /// all), found on the thread: what `Session.offerLeftOverDrawing` offers. After `finish`.
    public var leftOver: Recovery.Candidate? { found }
}

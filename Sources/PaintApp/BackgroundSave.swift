import Glibc
import PaintCore
import PaintIO

/// A save written on a thread of its own while the window goes on drawing: encoding a 4K
/// picture, the history entry with its syncs and, for the first "Save with history" of a
/// JPEG, its clean starting picture (about 1.6 s of CPU) froze the window for as long.
///
/// What is saved is taken at Ctrl+S (`Request`: the picture by reference to the paint's tiles,
/// which the engine copies before it writes into them again, and the history as it is), so
/// strokes drawn meanwhile are not in the file and keep the document modified. A `BackgroundJob`:
/// the thread shares nothing with the window's but the request and what it did. The
/// file itself is replaced by one rename (`AtomicFile`): a crash or a kill leaves the old file
/// or the new one, whole.
final class BackgroundSave {
    /// What the thread writes, taken on the window's thread.
    struct Request: Sendable {
        let picture: PictureSnapshot
        /// The file (absolute).
        let target: String
        let options: SaveOptions
        /// Whether the picture's alpha is written (a transparent background).
        let withAlpha: Bool
        /// The history to keep with it (the store, the file's own chunk), when any is.
        let history: SavedHistory?
        /// The history's starting picture, read into it on the thread: an opened file's bytes
        /// or the crash journal's copy (megabytes read back, which held the window's thread at
        /// Ctrl+S); nil when it starts from none.
        let base: BaseImage?
    }

    /// What the thread did.
    struct Written: Sendable {
        /// What happened to the history, or why nothing was saved.
        var outcome: Result<SavedHistory.Outcome, ImageFileError>
        /// The file as this save left it, for the changed-on-disk check (read back here, not on
        /// the window's thread).
        var onDisk: DiskBaseline = .unknown
        /// Whether a history was wanted but its starting picture could not be read back (the
        /// file changed, the crash journal damaged): the picture is saved without it, and the
        /// status bar says so.
        var historyLost = false
    }

    private let job: BackgroundJob<Written>
    private let request: Request
    /// The format written.
    let format: ImageFormat
    /// Where the user goes once it is saved (closing, New, Open after "Save"), if anywhere.
    let then: Leaving?
    /// The history step saved; nil once a change made meanwhile replaced it (an undo past it,
    /// then a new step), so that no undo reaches the saved picture again (`History.step`).
    var step: Int?
    /// Changes the journal had heard of when the picture was taken: its save marker says how
    /// many came after (a marker after them would otherwise call them saved).
    let recordedAtStart: Int
    /// The journal that heard them: its save marker counts the changes recorded after them.
    let journal: ObjectIdentifier?
    /// The document it saves (`Session.documentSerial`): a save that ends after another
    /// document came only says how it went.
    let document: Int
    /// Whether the thread has said it is done (see `checkFinished`).
    var isFinished: Bool { job.isFinished }

    /// The file being written.
    var target: String { request.target }
    /// Whether the picture's alpha is written (a transparent background).
    var withAlpha: Bool { request.withAlpha }

    /// Starts writing `request` on a thread of its own with `inBackground` (here and now
    /// without, or when no thread or pipe can be made).
    init(
        _ request: Request, format: ImageFormat, then: Leaving?, step: Int, recordedAtStart: Int,
        journal: ObjectIdentifier?, document: Int, inBackground: Bool
    ) {
        self.format = format
        self.then = then
        self.step = step
        self.recordedAtStart = recordedAtStart
        self.journal = journal
        self.document = document
        self.request = request
        // A save left unfinished (the session goes) is still waited for: the file is whole.
        job = BackgroundJob(wake: .pipe, inBackground: inBackground, dropped: .waitedFor) { Self.write(request) }
    }

    /// Readable once the thread is done; nil when it ran here (it is done).
    var descriptor: Int32? { job.descriptor }

    /// Whether the thread is done, reading its signal when there is one.
    func checkFinished() -> Bool { job.checkFinished() }

    /// Waits for the thread (at once when it is done) and gives what it did.
    func finish() -> Written {
        job.finish() ?? Written(outcome: .failure(.cannotWrite(path: target, errno: EIO)))
    }

    /// Writes the picture (and its history) as `ImageFile.save` does: the file on disk is the
    /// one written, as the write knew it (two windows saving one file at once each know their
    /// own, so the one whose save was replaced says the file changed on disk).
    static func write(_ request: Request) -> Written {
        var history = request.history
        var historyLost = false
        if let base = request.base, history != nil {
            // No history is better than a wrong one: without its starting picture, none.
            if let bytes = base.read() {
                history?.archive.baseImage = bytes
            } else {
                history = nil
                historyLost = true
            }
        }
        let outcome = Result { () throws(ImageFileError) in
            try ImageFile.save(
                request.picture.flattened(), to: request.target, options: request.options,
                withAlpha: request.withAlpha, history: history)
        }
        guard case .success(let saved) = outcome else { return Written(outcome: outcome) }
        let onDisk = saved.file.map(DiskBaseline.version) ?? DiskBaseline.now(request.target)
        return Written(outcome: outcome, onDisk: onDisk, historyLost: historyLost)
    }
}

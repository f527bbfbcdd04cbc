import Glibc
import PaintCore
import PaintIO
import Synchronization

/// An opened picture's editing history, looked for and replayed on a thread of its own while
/// the picture is already on screen and can be drawn on: a 4K picture with 2,000 saved steps
/// shows in the time its file takes to decode, and undo reaches those steps a second or so
/// later.
///
/// The thread runs the same search and the same checked replay as an open without a window
/// (`DocumentLoader.savedHistory`: this computer's history store, then the file's own chunk,
/// each trusted only when it replays to the file's pixels); it builds an engine and a history
/// of its own and shares nothing with the window's thread but immutable values. When it is
/// done it writes a byte to `descriptor`, which the window polls, and the session takes the
/// result over (Session+HistoryRebuild), replaying what was drawn meanwhile on top. Made by
/// `DocumentLoader` with the document, started when the document is installed; dropped
/// unfinished (another document opened), it tells its hash and replay to stop
/// (`ReplayControl`: looked at between two bands of rows and between two operations), so the
/// thread ends within one band or operation and frees what it built.
public final class HistoryRebuild {
    /// What to look for: the history of a file's picture.
    public struct Plan: Sendable {
        /// The file's bytes (a PNG may carry its history inside), read on the thread when they
        /// are left in the file (`BaseImage.file`).
        public var fileBytes: BaseImage
        public var format: ImageFormat
        /// The picture as opened (the document's paint, by reference to its tiles): a history
        /// is used only when it ends on exactly these pixels.
        public var picture: PackedPixels
        public var path: String
        /// This computer's history store, if histories are kept.
        public var store: HistoryStore?
        public var memoryCap: Int

        public init(
            fileBytes: BaseImage, format: ImageFormat, picture: PackedPixels, path: String, store: HistoryStore?,
            memoryCap: Int
        ) {
            self.fileBytes = fileBytes
            self.format = format
            self.picture = picture
            self.path = path
            self.store = store
            self.memoryCap = memoryCap
        }
    }

    /// Shared with the thread: the plan in, the result out, the pipe between them.
    private final class Work: @unchecked Sendable {
        let plan: Plan
        /// Stops the replay; says how far it got.
        let control = ReplayControl()
        /// Written by the thread before it signals; read only after joining it.
        var result: DocumentLoader.SavedHistory?
        let done: DonePipe

        init(plan: Plan, done: DonePipe) {
            self.plan = plan
            self.done = done
        }

        func run() {
            // Drawing comes first: the replay takes what the window leaves of the CPU (on Linux
            // the nice value of "this process" is this thread's own).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            // The picture is hashed and checked from the engine's tiles (a band of rows at a
            // time, the hash stopping when told to), never copied whole.
            // Read here, off the window's thread, when the opening left them in the file (and
            // nothing when the file no longer holds them: no history is found in them then).
            let bytes = plan.fileBytes.read() ?? []
            result = DocumentLoader.savedHistory(
                bytes, format: plan.format, key: { HistoryKey(of: self.plan.picture, control: self.control) },
                shows: plan.picture,
                path: plan.path, store: plan.store, memoryCap: plan.memoryCap, control: control)
            done.signal()
            control.noteEnded()
        }
    }

    private let work: Work
    private var thread: pthread_t?
    private var started = false
    /// Readable once the thread is done.
    public var descriptor: Int32 { work.done.readEnd }
    /// Whether the thread has said it is done (see `checkFinished`).
    public private(set) var isFinished = false
    /// What was committed on the picture while the thread ran, in order: replayed on top of
    /// the rebuilt history when it is taken over.
    public internal(set) var liveOperations: [Operation] = []
    /// What is being looked for.
    public var plan: Plan { work.plan }
    /// The replay's stop and progress (the thread's `noteEnded` says when it is over).
    public var control: ReplayControl { work.control }

    /// A rebuild of `plan`, not started yet; nil when no pipe could be made.
    public init?(_ plan: Plan) {
        guard let done = DonePipe() else { return nil }
        work = Work(plan: plan, done: done)
    }

    /// Starts the thread (once; later calls do nothing). When no thread can be made the work
    /// is done here and now.
    public func start() {
        guard !started else { return }
        started = true
        let work = work
        if let thread = BackgroundThread.start({ work.run() }) {
            self.thread = thread
        } else {
            work.run()
        }
    }

    /// Whether the thread is done, reading its signal when there is one (the window calls this
    /// when `descriptor` is readable).
    @discardableResult
    public func checkFinished() -> Bool {
        guard !isFinished, started else { return isFinished }
        if work.done.take() { isFinished = true }
        return isFinished
    }

    /// Waits for the thread (starting it first if need be) and gives what it found.
    func finish() -> DocumentLoader.SavedHistory {
        if !started { start() }
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        isFinished = true
        return work.result ?? .none([])
    }

    /// An unfinished thread is not waited for: it is told to stop, ends at the replay's next
    /// stop point, and what it made is freed with it.
    deinit {
        if let thread {
            work.control.stop()
            pthread_detach(thread)
        }
    }
}

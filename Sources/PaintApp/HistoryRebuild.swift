import Glibc
import PaintCore
import PaintIO

/// An opened picture's editing history, looked for and replayed on a thread of its own while
/// the picture is already on screen and can be drawn on: a 4K picture with 2,000 saved steps
/// shows in the time its file takes to decode, and undo reaches those steps a second or so
/// later.
///
/// The thread runs the same search and the same checked replay as an open without a window
/// (`DocumentLoader.savedHistory`: this computer's history store, then the file's own chunk,
/// each trusted only when it replays to the file's pixels); it builds an engine and a history
/// of its own and shares nothing with the window's thread but immutable values. A
/// `BackgroundJob`: when it is done the window wakes (`descriptor`) and the session takes the
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

    private let job: BackgroundJob<DocumentLoader.SavedHistory>
    /// Readable once the thread is done; nil before it starts and once that was seen.
    public var descriptor: Int32? { job.descriptor }
    /// Whether the thread has said it is done (see `checkFinished`).
    public var isFinished: Bool { job.isFinished }
    /// What was committed on the picture while the thread ran, in order: replayed on top of
    /// the rebuilt history when it is taken over.
    public internal(set) var liveOperations: [Operation] = []
    /// What is being looked for.
    public let plan: Plan
    /// The replay's stop and progress (the thread's `noteEnded` says when it is over).
    public let control: ReplayControl

    /// A rebuild of `plan`, not started yet; nil when no pipe could be made.
    public init?(_ plan: Plan) {
        let control = ReplayControl()
        self.control = control
        guard
            let job = BackgroundJob.withPipe(
                control: control, startNow: false, { Self.rebuild(plan, control: control) })
        else { return nil }
        self.job = job
        self.plan = plan
    }

    /// Looks for the history and replays it (on the thread).
    private static func rebuild(_ plan: Plan, control: ReplayControl) -> DocumentLoader.SavedHistory {
        // Drawing comes first: the replay takes what the window leaves of the CPU (on Linux
        // the nice value of "this process" is this thread's own).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        // The picture is hashed and checked from the engine's tiles (a band of rows at a
        // time, the hash stopping when told to), never copied whole.
        // Read here, off the window's thread, when the opening left them in the file (and
        // nothing when the file no longer holds them: no history is found in them then).
        let bytes = plan.fileBytes.read() ?? []
        return DocumentLoader.savedHistory(
            bytes, format: plan.format, key: { HistoryKey(of: plan.picture, control: control) },
            shows: plan.picture,
            path: plan.path, store: plan.store, memoryCap: plan.memoryCap, control: control)
    }

    /// Starts the thread (once; later calls do nothing). When no thread can be made the work
    /// is done here and now.
    public func start() { job.start() }

    /// Whether the thread is done, reading its signal when there is one (the window calls this
    /// when `descriptor` is readable).
    @discardableResult
    public func checkFinished() -> Bool { job.checkFinished() }

    /// Waits for the thread (starting it first if need be) and gives what it found. Dropped
    /// unfinished, the thread is told to stop, ends at the replay's next stop point, and what
    /// it made is freed with it.
    func finish() -> DocumentLoader.SavedHistory { job.finish() ?? .none([]) }
}

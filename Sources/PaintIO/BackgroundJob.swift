import Glibc
import PaintCore
import Synchronization

/// One piece of work done on a thread of its own while the window goes on (a save, a paste
/// decoded, a copy encoded, a history rebuilt, a journal restored, a file read for the
/// changed-on-disk look, a picture opened at start-up, the look for a crash's drawing, a file
/// dialog's thumbnail): the one pattern every such job follows, so that each says only what it
/// does.
///
/// The thread shares nothing with the owner's but the work and, once it has written a byte to
/// `descriptor` (which the window polls), its value, which `finish` hands over on the owner's
/// thread. When no thread can be made, the work is done on the caller's thread, here and now:
/// the owner sees it done at once and takes its value the same way. A job dropped unfinished
/// is stopped through its `control` (when it has one) and either left to end on its own or
/// waited for (`Dropped`).
public final class BackgroundJob<Value> {
    /// How the job tells its owner it is done.
    public enum Wake {
        /// No pipe: the owner waits with `finish` (a picture opened at start-up, a look made
        /// while the window's thread reads a picture).
        case none
        /// A pipe; when none can be made the work is done here and now.
        case pipe
        /// A pipe; when none can be made the thread runs all the same and the owner looks at
        /// `isDone` from time to time.
        case pipeOrLooking
    }

    /// What happens to a job dropped before `finish`.
    public enum Dropped {
        /// Its thread ends on its own (told to stop through `control`, when there is one).
        case leftToEnd
        /// It is waited for (a save: the file is whole when the owner goes).
        case waitedFor
    }

    /// How a thread is made: `BackgroundThread.start`, or one that fails (tests).
    public typealias ThreadStarter = (@escaping () -> Void) -> pthread_t?

    /// Shared with the thread: the work in, the value out, the pipe between them.
    private final class Work: @unchecked Sendable {
        let body: () -> Value
        let control: ReplayControl?
        let wake: DonePipe?
        let done = Atomic<Bool>(false)
        /// Written by the thread before `done` and the wake; read only after joining it.
        var value: Value?

        init(body: @escaping () -> Value, control: ReplayControl?, wake: DonePipe?) {
            self.body = body
            self.control = control
            self.wake = wake
        }

        func run() {
            value = body()
            done.store(true, ordering: .releasing)
            wake?.signal()
            control?.noteEnded()
        }
    }

    private let work: Work
    private let dropped: Dropped
    private let startThread: ThreadStarter
    private let inBackground: Bool
    private var thread: pthread_t?
    private var started = false
    private var handedOver = false
    /// Whether the owner has seen the job done (`checkFinished`, `finish`).
    public private(set) var isFinished = false

    /// A job doing `body` (on a thread of its own with `inBackground`, else here and now),
    /// started at once unless `startNow` is false (then by `start`). `control` is told to stop
    /// by `cancel` and when the job is dropped unfinished, and notes when the thread ended.
    public convenience init(
        wake: Wake, inBackground: Bool = true, control: ReplayControl? = nil, dropped: Dropped = .leftToEnd,
        startNow: Bool = true, startThread: @escaping ThreadStarter = BackgroundThread.start,
        _ body: @escaping () -> Value
    ) {
        let pipe = wake != .none && inBackground ? DonePipe() : nil
        self.init(
            pipe: pipe, inBackground: inBackground && (pipe != nil || wake != .pipe), control: control,
            dropped: dropped, startNow: startNow, startThread: startThread, body)
    }

    /// The same with a pipe (`Wake.pipe`), or nil when no pipe can be made: the owner then does
    /// the work itself.
    public static func withPipe(
        control: ReplayControl? = nil, startNow: Bool = true,
        startThread: @escaping ThreadStarter = BackgroundThread.start, _ body: @escaping () -> Value
    ) -> BackgroundJob? {
        guard let pipe = DonePipe() else { return nil }
        return BackgroundJob(
            pipe: pipe, inBackground: true, control: control, dropped: .leftToEnd, startNow: startNow,
            startThread: startThread, body)
    }

    /// The same with a pipe, on a thread of its own (started at once), or nil when either
    /// cannot be made: for work better not done at all than done on the owner's thread (a file
    /// dialog's thumbnail, whose icon then stays, rather than the window waiting on a photo's
    /// decode).
    public static func inBackgroundOnly(
        control: ReplayControl? = nil, startThread: @escaping ThreadStarter = BackgroundThread.start,
        _ body: @escaping () -> Value
    ) -> BackgroundJob? {
        guard let pipe = DonePipe() else { return nil }
        let job = BackgroundJob(
            pipe: pipe, inBackground: true, control: control, dropped: .leftToEnd, startNow: false,
            startThread: startThread, body)
        return job.startThreadOnce() ? job : nil
    }

    private init(
        pipe: DonePipe?, inBackground: Bool, control: ReplayControl?, dropped: Dropped, startNow: Bool,
        startThread: @escaping ThreadStarter, _ body: @escaping () -> Value
    ) {
        work = Work(body: body, control: control, wake: pipe)
        self.dropped = dropped
        self.startThread = startThread
        self.inBackground = inBackground
        if startNow { start() }
    }

    /// Starts the work (once; later calls do nothing): on a thread of its own, or here and now
    /// when it is not to run in the background or no thread can be made.
    public func start() {
        guard !started else { return }
        if inBackground && startThreadOnce() { return }
        started = true
        work.run()
    }

    /// Starts the work on a thread of its own, unless it was started already; whether it runs
    /// there (false: no thread could be made, and nothing was started).
    private func startThreadOnce() -> Bool {
        guard !started else { return thread != nil }
        let work = work
        guard let thread = startThread({ work.run() }) else { return false }
        started = true
        self.thread = thread
        return true
    }

    /// Whether the work is done (any thread may ask; nothing is read from the pipe).
    public var isDone: Bool { work.done.load(ordering: .acquiring) }

    /// Whether the work ran on a thread of its own (false once it was done here).
    public var runsInBackground: Bool { thread != nil }

    /// Whether the job has a pipe to wake its owner with (else the owner looks at `isDone`).
    public var wakes: Bool { work.wake != nil }

    /// Readable once the work is done, for the window to poll; nil once the owner has seen it
    /// done, before it starts, and where there is no pipe.
    public var descriptor: Int32? { isFinished || !started ? nil : work.wake?.readEnd }

    /// Whether the work is done, emptying its wake-up: once this says so the descriptor is nil,
    /// so a value the owner leaves for later does not wake the window again.
    @discardableResult
    public func checkFinished() -> Bool {
        guard !isFinished, started else { return isFinished }
        if isDone {
            _ = work.wake?.take()
            isFinished = true
        }
        return isFinished
    }

    /// Waits for the work (starting it first if need be) and hands its value over: once; nil
    /// for every later call.
    public func finish() -> Value? {
        start()
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        isFinished = true
        guard !handedOver else { return nil }
        handedOver = true
        let value = work.value
        work.value = nil
        return value
    }

    /// Tells the work to stop at its next step (nothing without a `control`, or once it is done).
    public func cancel() { work.control?.stop() }

    /// The thread is told to stop and left to end on its own, or waited for (`Dropped`).
    deinit {
        guard let thread else { return }
        switch dropped {
        case .waitedFor: pthread_join(thread, nil)
        case .leftToEnd:
            work.control?.stop()
            pthread_detach(thread)
        }
    }
}

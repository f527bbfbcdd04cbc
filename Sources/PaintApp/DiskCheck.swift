import Glibc
import PaintCore
import PaintIO
import Synchronization

/// The document's file read and CRC-ed on a thread of its own, for the changed-on-disk look
/// between events: another program rewrote it keeping its size (the stat changed, the size did
/// not), and only its bytes tell whether it changed. Reading a large file on the window's
/// thread froze it for as long, at every stat change.
///
/// The thread wakes the window when it is done (`wakeFD`, polled with the X connection; where no
/// pipe can be made, the window looks again soon); one check runs at a time, and one the window
/// no longer waits for (another document, another stat) finishes on its own, detached.
final class DiskCheck {
    /// Shared with the thread: what it read, and whether it is done.
    private final class Work: @unchecked Sendable {
        let path: String
        let read: @Sendable (String) -> FileVersion?
        let done = Atomic<Bool>(false)
        /// Readable once done; nil when no pipe could be made.
        let wake = DonePipe()
        /// Written by the thread before `done`; read only after.
        var version: FileVersion?

        init(path: String, read: @escaping @Sendable (String) -> FileVersion?) {
            self.path = path
            self.read = read
        }

        func run() {
            version = read(path)
            done.store(true, ordering: .releasing)
            wake?.signal()
        }
    }

    /// The file read.
    let path: String
    private let work: Work
    private var thread: pthread_t?

    /// Starts reading the file at `path` with `read` (here and now when no thread can be made).
    init(path: String, read: @escaping @Sendable (String) -> FileVersion? = { FileVersion.current(path: $0) }) {
        self.path = path
        let work = Work(path: path, read: read)
        self.work = work
        thread = BackgroundThread.start { work.run() }
        if thread == nil { work.run() }
    }

    /// Whether the thread is done.
    var isDone: Bool { work.done.load(ordering: .acquiring) }

    /// Readable once the thread is done, so the window sleeps until then; nil when no pipe could
    /// be made (the window then looks every `Session.readingInterval`).
    var wakeFD: Int32? { work.wake?.readEnd }

    /// Empties the wake-up once the window has woken for it: a look takes the version (a save
    /// being written, a dialog open may hold it back), and the pipe must not wake the window again.
    func tookWake() { _ = work.wake?.take() }

    /// The file as the thread read it (nil when it could not be read), once it is done:
    /// `isDone` first.
    var version: FileVersion? {
        wait()
        return work.version
    }

    /// Waits for the thread (tests; at once once it is done).
    func wait() {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }

    /// A check dropped while it reads is not waited for: it ends when its read does.
    deinit {
        if let thread { pthread_detach(thread) }
    }
}

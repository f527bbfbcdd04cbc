import Glibc
import PaintCore
import PaintIO

/// The document's file read and CRC-ed on a thread of its own, for the changed-on-disk look
/// between events: another program rewrote it keeping its size (the stat changed, the size did
/// not), and only its bytes tell whether it changed. Reading a large file on the window's
/// thread froze it for as long, at every stat change.
///
/// A `BackgroundJob`: it wakes the window when it is done (`wakeFD`, polled with the X
/// connection; where no pipe can be made, the window looks again soon); one check runs at a
/// time, and one the window no longer waits for (another document, another stat) finishes on
/// its own, detached.
final class DiskCheck {
    /// The file read.
    let path: String
    private let job: BackgroundJob<FileVersion?>

    /// Starts reading the file at `path` with `read` (here and now when no thread can be made).
    init(path: String, read: @escaping @Sendable (String) -> FileVersion? = { FileVersion.current(path: $0) }) {
        self.path = path
        job = BackgroundJob(wake: .pipeOrLooking) { read(path) }
    }

    /// Whether the thread is done.
    var isDone: Bool { job.isDone }

    /// Readable once the thread is done, so the window sleeps until then; nil once the window
    /// woke for it, and when no pipe could be made (the window then looks every
    /// `Session.readingInterval`).
    var wakeFD: Int32? { job.descriptor }

    /// Whether no pipe could be made: the window looks again every `Session.readingInterval`.
    var isLookedFor: Bool { !job.wakes }

    /// Empties the wake-up once the window has woken for it: a look takes the version (a save
    /// being written, a dialog open may hold it back), and the pipe must not wake the window again.
    func tookWake() { job.checkFinished() }

    /// The file as the thread read it (nil when it could not be read), once it is done:
    /// `isDone` first.
    private(set) lazy var version: FileVersion? = job.finish() ?? nil

    /// Waits for the thread (tests; at once once it is done).
    func wait() { _ = version }
}

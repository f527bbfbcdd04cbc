import Glibc
import PaintCore
import PaintIO
import Synchronization

/// The recent-pictures list written off the window's thread: `RecentFiles.add` syncs the file
/// and its folder, which on a slow disk takes seconds, after the first frame and after every
/// save and open.
///
/// The list is read, changed and written whole, so each write waits for the one before it (its
/// thread joins the previous one), and the program waits for the last on the way out (`wait`).
/// Until a write is done, the pictures it adds are `unwritten`: the window lists them first
/// without waiting for the disk. A list that cannot be written is said once on stderr: it costs
/// only the list.
final class RecentWriting {
    /// A flag shared with the threads.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private var thread: pthread_t?
    /// Whether this write (and so every one before it) is done.
    private let done = Flag()
    /// Whether a list that could not be written was said: one flag for every write.
    private let toldProblem: Flag
    /// The pictures this write and the unfinished ones before it add, newest first.
    private let pending: [String]

    /// Puts `picture` first in `store`'s list, after `previous` is written.
    init(adding picture: String, to store: RecentFiles, after previous: RecentWriting?) {
        let before = previous?.takeThread()
        pending = [picture] + (previous?.unwritten ?? []).filter { $0 != picture }
        let (done, told) = (done, previous?.toldProblem ?? Flag())
        toldProblem = told
        let body = {
            if let before { pthread_join(before, nil) }
            let (_, problem) = store.add(picture)
            if let problem, !told.value.exchange(true, ordering: .acquiringAndReleasing) {
                FileSystem.printError("swiftpaint: \(problem)")
            }
            done.value.store(true, ordering: .releasing)
        }
        thread = BackgroundThread.start(body)
        if thread == nil { body() }
    }

    /// The pictures added that may not be in the file yet, newest first.
    var unwritten: [String] { done.value.load(ordering: .acquiring) ? [] : pending }

    /// The thread, for the next write to wait for (this one no longer does).
    private func takeThread() -> pthread_t? {
        defer { thread = nil }
        return thread
    }

    /// Waits until this write, and every one before it, is on disk.
    func wait() {
        if let thread = takeThread() { pthread_join(thread, nil) }
    }

    deinit { wait() }
}

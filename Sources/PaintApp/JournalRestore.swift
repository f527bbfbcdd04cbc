import Glibc
import PaintCore
import PaintIO

/// A crash journal restored on a thread of its own once the user answers Restore. Adopting the
/// journal, reading and checking it (untrusted input: its sizes bounded before anything is
/// allocated, its replay within a budget fixed first) and replaying it with its undo history
/// take seconds for thousands of strokes on a 4K picture, and held the window's thread for as
/// long, at the moment a user who just lost a session is watching it: not even redrawn.
///
/// The thread runs the offer's own `restore` (`Recovery.offer`: the one way a journal becomes a
/// drawing), its replay counted and stoppable through `control`; it shares nothing with the
/// window's thread but the offer and, once it has written a byte to `descriptor` (which the
/// window polls), what it made. The same pattern as a save (`BackgroundSave`): without
/// `inBackground` (tests, no thread or pipe) the work is done here and now. Dropped unfinished
/// (the window closes, Escape), the replay is told to stop and the thread ends on its own at its
/// next operation; it only read the journal, which stays for the next start.
final class JournalRestore {
    /// Shared with the thread: the offer in, the drawing out.
    private final class Work: @unchecked Sendable {
        let restore: (ReplayControl?) -> Restoration
        let control = ReplayControl()
        /// Written by the thread before it signals; read only after joining it.
        var restoration: Restoration?
        let done: DonePipe?

        init(restore: @escaping (ReplayControl?) -> Restoration, done: DonePipe?) {
            self.restore = restore
            self.done = done
        }

        func run() {
            restoration = restore(control)
            done?.signal()
            control.noteEnded()
        }
    }

    private let work: Work
    private var thread: pthread_t?
    /// Changes and save marks the journal held when it was offered: how far the replay goes.
    let total: Int
    /// What the status bar says while it runs, before how far it got.
    let doing: String
    /// Whether the thread has said it is done (see `checkFinished`).
    private(set) var isFinished = false

    /// Starts restoring `offer` on a thread of its own with `inBackground` (here and now
    /// without, or when no thread or pipe can be made).
    init(_ offer: RestoreOffer, inBackground: Bool) {
        total = offer.changes
        doing = offer.doing
        let done = inBackground ? DonePipe() : nil
        let work = Work(restore: offer.restore, done: done)
        self.work = work
        if done != nil, let thread = BackgroundThread.start({ work.run() }) {
            self.thread = thread
        } else {
            work.run()
            isFinished = true
        }
    }

    /// Readable once the thread is done; nil when it ran here (it is done).
    var descriptor: Int32? { thread == nil || isFinished ? nil : work.done?.readEnd }

    /// Records replayed so far (the thread counts them as it goes).
    var replayed: Int { min(work.control.operationsReplayed, total) }

    /// Whether the thread is done, reading its signal when there is one.
    func checkFinished() -> Bool {
        if !isFinished && work.done?.take() == true { isFinished = true }
        return isFinished
    }

    /// Waits for the thread (at once when it is done) and gives what it made.
    func finish() -> Restoration {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        isFinished = true
        return work.restoration ?? .failed("Cannot restore the drawing: it was stopped")
    }

    /// An unfinished restore is not waited for: told to stop, it ends at the replay's next
    /// operation, and what it made (the journal's writer, unlocked) goes with it.
    deinit {
        if let thread {
            work.control.stop()
            pthread_detach(thread)
        }
    }
}

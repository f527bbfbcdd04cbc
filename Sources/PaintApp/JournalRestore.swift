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
/// window polls), what it made. A `BackgroundJob`: without `inBackground` (tests, no thread
/// or pipe) the work is done here and now. Dropped unfinished
/// (the window closes, Escape), the replay is told to stop and the thread ends on its own at its
/// next operation; it only read the journal, which stays for the next start.
final class JournalRestore {
    private let job: BackgroundJob<Restoration>
    private let control: ReplayControl
    /// Changes and save marks the journal held when it was offered: how far the replay goes.
    let total: Int
    /// What the status bar says while it runs, before how far it got.
    let doing: String

    /// Starts restoring `offer` on a thread of its own with `inBackground` (here and now
    /// without, or when no thread or pipe can be made).
    init(_ offer: RestoreOffer, inBackground: Bool) {
        total = offer.changes
        doing = offer.doing
        let control = ReplayControl()
        self.control = control
        let restore = offer.restore
        job = BackgroundJob(wake: .pipe, inBackground: inBackground, control: control) { restore(control) }
        // Done here: seen done at once (a thread's end is seen through the descriptor).
        if !job.runsInBackground { job.checkFinished() }
    }

    /// Readable once the thread is done; nil when it ran here (it is done).
    var descriptor: Int32? { job.descriptor }

    /// Records replayed so far (the thread counts them as it goes).
    var replayed: Int { min(control.operationsReplayed, total) }

    /// Whether the thread is done, reading its signal when there is one.
    func checkFinished() -> Bool { job.checkFinished() }

    /// Waits for the thread (at once when it is done) and gives what it made.
    func finish() -> Restoration { job.finish() ?? .failed("Cannot restore the drawing: it was stopped") }
}

import Glibc
import PaintCore

/// A look in the journal folder for a drawing a crash left for a picture being opened (Open,
/// the file dialog, a drop, the recent list), on a thread of its own while the window's thread
/// reads the picture: every journal there is read through to count its steps, about 11 ms for
/// one of 1,600 strokes on a 4K picture (3.5 MB), which held the window's thread as the opened
/// picture was put in place. The start-up look runs on `DocumentOpening`'s thread instead.
final class LeftOverSearch {
    /// Shared with the thread: what to look for, what was found.
    private final class Work: @unchecked Sendable {
        let look: () -> Recovery.Candidate?
        /// Written by the thread; read only after joining it.
        var found: Recovery.Candidate?

        init(_ look: @escaping () -> Recovery.Candidate?) { self.look = look }

        func run() { found = look() }
    }

    private let work: Work
    private var thread: pthread_t?

    /// Starts looking in `folder` for a drawing a crash left for `path`, with `find` (tests
    /// hold it; `Session.findLeftOver`).
    init(
        for path: String, in folder: String, find: @escaping (_ path: String?, _ folder: String) -> Recovery.Candidate?
    ) {
        let work = Work { find(path, folder) }
        self.work = work
        if let thread = BackgroundThread.start({ work.run() }) {
            self.thread = thread
        } else {
            // No thread: the look is made here and now.
            work.run()
        }
    }

    /// Waits for the look and gives what it found. The window's thread calls it just before
    /// the opened picture's journal is made, so that journal is never among those looked at,
    /// and the offer shows in the picture's first frame.
    func finish() -> Recovery.Candidate? {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        return work.found
    }

    /// An open given up (Cancel, a file that cannot be read): the thread finishes on its own.
    deinit {
        if let thread { pthread_detach(thread) }
    }
}

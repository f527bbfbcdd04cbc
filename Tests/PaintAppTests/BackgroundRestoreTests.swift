import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Restore (issue 16 item 2): a crash journal is read and replayed on a thread of its own while
/// the window keeps answering and drawing, the canvas waits, the restored drawing is exactly
/// the synchronous restore's, and closing meanwhile keeps the journal for the next start.
@Suite(.serialized) struct BackgroundRestoreTests {
    typealias T = SessionTests
    typealias C = CrashProtectionTests

    /// A crash journal of an untitled 300 x 200 drawing: strokes in several colors and widths, a
    /// shape, a fill, two undos and a stroke after them (so the restored history has undone steps
    /// replaced); left as a crash leaves it. Returns its path.
    static func journal(in folder: String) throws -> String {
        let writer = try JournalWriter.create(
            in: folder, header: JournalHeader(documentPath: nil, width: 300, height: 200, background: .color(.white)))
        for i in 0..<40 {
            let color = Color(r: UInt8(i * 6), g: UInt8(255 - i * 6), b: UInt8((i * 37) % 256))
            let style = StrokeStyle(color: color, opacity: i % 3 == 0 ? 0.5 : 1, width: Double(2 + i % 9))
            let points = (0..<12).map { k in Point(x: Double(10 + i * 7 + k * 3), y: Double(20 + (k * k + i) % 160)) }
            writer.append(.stroke(style, points: points))
        }
        writer.append(
            .shape(
                StrokeStyle(width: 3),
                ShapeSpec(kind: .ellipse, from: Point(x: 40, y: 30), to: Point(x: 200, y: 150), filled: false)))
        writer.append(.fill(StrokeStyle(color: Color(r: 0, g: 0, b: 255)), at: Point(x: 2, y: 2), tolerance: 0))
        writer.append(.undo)
        writer.append(.undo)
        writer.append(.stroke(StrokeStyle(width: 7), points: [Point(x: 5, y: 5), Point(x: 290, y: 190)]))
        #expect(writer.flush())
        // Dropped without discarding, as a crash leaves it.
        return writer.path
    }

    /// A session offered the drawing the journal in `folder` holds, restoring in the background
    /// or not.
    static func offered(_ folder: String, inBackground: Bool) throws -> Session {
        _ = waitUntilOffered(folder)
        let s = T.makeSession(width: 300, height: 200)
        s.restoresInBackground = inBackground
        s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: folder)
        s.offerLeftOverDrawing()
        guard case .offerRestore = s.mode else { throw Failure(mode: s.mode) }
        return s
    }

    /// The drawing the journal in `folder` holds, once it can be offered: a child process another
    /// test starts meanwhile holds a copy of the journal's descriptor, and with it its lock,
    /// until it execs (as `JournalTests.abandon` says), and a journal in use is rightly not
    /// offered. Nil if it never can be (within a minute).
    static func waitUntilOffered(_ folder: String) -> Recovery.Candidate? {
        var found: Recovery.Candidate?
        _ = C.eventually {
            found = Recovery.candidate(for: nil, in: folder)
            return found != nil
        }
        return found
    }

    struct Failure: Error {
        let mode: SessionMode
    }

    /// Waits, as the window's loop does, until the restore's descriptor is readable, then takes
    /// it; whether the drawing was taken.
    static func waitForRestore(_ s: Session) -> Bool {
        C.eventually {
            guard s.isRestoring, let fd = s.restoring?.descriptor else { return true }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 { s.takeBackgroundWork() }
            return !s.isRestoring
        }
    }

    /// Holds a thread until the test lets it go, and notes which thread came and how its
    /// restore ended (once it has let the journal go).
    final class Gate: @unchecked Sendable {
        let open = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var came: pthread_t?
        private var ended: String?

        /// The thread the restore ran on, once it started.
        var thread: pthread_t? { lock.withLock { came } }
        /// "restored", or why not, once the restore is over.
        var outcome: String? { lock.withLock { ended } }

        /// Notes the thread that came.
        func note(_ thread: pthread_t) { lock.withLock { came = thread } }

        /// The offer `real` with its restore held here first.
        func holding(_ real: RestoreOffer) -> RestoreOffer {
            RestoreOffer(
                question: real.question, doing: real.doing, changes: real.changes,
                restore: { control in
                    self.note(pthread_self())
                    self.open.wait()
                    let restoration = real.restore(control)
                    let said: String
                    switch restoration {
                    case .restored: said = "restored"
                    case .failed(let why): said = why
                    }
                    self.lock.withLock { self.ended = said }
                    return restoration
                }, discard: real.discard)
        }
    }

    /// A session offered the journal in `folder` through a `Gate` (restoring in the background).
    static func heldOffer(_ folder: String) throws -> (Session, Gate) {
        let s = try offered(folder, inBackground: true)
        let candidate = try #require(waitUntilOffered(folder))
        let gate = Gate()
        s.offer(gate.holding(Recovery.offer(candidate)))
        return (s, gate)
    }

    /// The drawing a crash left is looked for on the thread that opens the picture while the
    /// window is made (every journal is read through to count its steps: 11 ms for 1,600
    /// strokes on a 4K picture, which held the window's thread before its first frame), and the
    /// window offers what it found: the same offer as a look on the window's thread.
    @Test func theDrawingACrashLeftIsFoundOffTheWindowsThread() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.journal(in: folder)
        let gate = Gate()
        let options = CommandLineOptions()
        let opening = DocumentOpening(
            path: nil, options: options, journalFolder: folder,
            findLeftOver: { path, folder in
                gate.note(pthread_self())
                return Recovery.candidate(for: path, in: folder)
            })
        let (document, message) = opening.finish()
        let thread = try #require(gate.thread, "not looked for")
        #expect(pthread_equal(thread, pthread_self()) == 0, "looked for on the window's thread")
        let s = T.makeSession(width: 300, height: 200)
        s.opener = DocumentOpener(options: options, journalFolder: folder)
        s.install(document, message: message, journal: nil)
        s.offerLeftOverDrawing(opening.leftOver)
        let looked = try Self.offered(folder, inBackground: true)
        #expect(s.mode == looked.mode && s.mode.answers == [.restore, .discard], "\(s.mode)")
        // Without a journal folder (`--no-journal`) nothing is looked for.
        let none = DocumentOpening(path: nil, options: options, journalFolder: nil)
        _ = none.finish()
        #expect(none.leftOver == nil)
    }

    /// Open (Ctrl+O, the file dialog, a drop, the recent list) looks for a drawing a crash left
    /// for the opened file on a thread of its own while the window's thread reads the picture
    /// (it held the window's thread, 11 ms for a 3.5 MB journal), and offers what it found with
    /// the opened picture: the offer the look on the window's thread made.
    @Test func openLooksForTheDrawingACrashLeftOffTheWindowsThread() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/photo.png"
        try ImageFile.save(PixelImage(width: 300, height: 200, fill: Color.white.pixel), to: file, withAlpha: false)
        let journals = folder + "/journals"
        try FileManager.default.createDirectory(atPath: journals, withIntermediateDirectories: true)
        // Dropped without discarding at the scope's end, as a crash leaves it.
        do {
            let writer = try JournalWriter.create(
                in: journals,
                header: JournalHeader(documentPath: file, width: 300, height: 200, background: .color(.white))
            )
            writer.append(.stroke(StrokeStyle(width: 7), points: [Point(x: 5, y: 5), Point(x: 290, y: 190)]))
            #expect(writer.flush())
        }
        let gate = Gate()
        let s = T.makeSession(width: 300, height: 200)
        s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: journals)
        s.findLeftOver = { path, folder in
            gate.note(pthread_self())
            return Recovery.candidate(for: path, in: folder)
        }
        s.open(file)
        let thread = try #require(gate.thread, "not looked for")
        #expect(pthread_equal(thread, pthread_self()) == 0, "looked for on the window's thread")
        #expect(s.path == file)
        // The look on the window's thread, as Open made it before.
        let looked = T.makeSession(width: 300, height: 200)
        looked.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: journals)
        guard case .success(let opened) = looked.opener.load(file) else { throw Failure(mode: looked.mode) }
        let found = Recovery.candidate(for: opened.document.path, in: journals)
        looked.start(opened.document, message: opened.message, anotherPicture: true)
        looked.offerLeftOverDrawing(found)
        guard case .offerRestore = s.mode else { throw Failure(mode: s.mode) }
        #expect(s.mode == looked.mode && s.mode.answers == [.restore, .discard], "\(s.mode)")
        // The file dialog's Open looks the same way.
        let again = T.makeSession(width: 300, height: 200)
        again.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: journals)
        let other = Gate()
        again.findLeftOver = { path, folder in
            other.note(pthread_self())
            return Recovery.candidate(for: path, in: folder)
        }
        T.key(again, "o", [.control])
        T.typeInDialog(again, file)
        let dialogThread = try #require(other.thread, "the dialog's Open did not look")
        #expect(pthread_equal(dialogThread, pthread_self()) == 0, "looked for on the window's thread")
        #expect(again.mode == looked.mode, "\(again.mode)")
    }

    /// The replay held on its thread: Enter returns at once, the window's thread still takes
    /// input, lays out and draws the status bar (which says what is under way), and wakes for
    /// the progress; the canvas, the keys and the menus wait. Let go, the drawing comes in
    /// through the descriptor the window polls. Before, Enter returned only once the drawing
    /// was rebuilt (a 1,600-stroke 4K journal held the window 1.3 s).
    @Test func theReplayRunsOffTheWindowsThreadWhileTheWindowAnswersAndDraws() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.journal(in: folder)
        let (s, gate) = try Self.heldOffer(folder)
        s.handle(.key(.enter, modifiers: []))
        defer { gate.open.signal() }
        #expect(s.isRestoring && s.blocksCanvas, "Enter waited for the restore: \(s.mode)")
        #expect(C.eventually { gate.thread != nil }, "the restore never started")
        if let thread = gate.thread { #expect(pthread_equal(thread, pthread_self()) == 0, "restored on this thread") }
        guard case .restoring(let said) = s.mode else {
            Issue.record("the status bar does not say a restore is under way: \(s.mode)")
            return
        }
        #expect(
            said.hasPrefix("Restoring the drawing “Untitled” from ") && said.hasSuffix("reading its journal…"),
            "\(said)")
        #expect(s.renderStatus().texts.contains { $0.text.hasPrefix("Restoring the drawing") }, "not drawn")
        // The window goes on: a resize is laid out, time still wakes it for the progress.
        let effects = s.handle(.resize(width: 900, height: 500))
        #expect(effects.layout && s.layout.windowWidth == 900)
        let now = 1000.0
        let due = try #require(s.runTimers(at: now), "nothing wakes the window for the progress")
        #expect(due <= now + Session.restoreProgressInterval)
        // Nothing reaches the picture about to be replaced: no stroke, no key, no menu.
        T.drag(s, [(10, 10), (60, 40)])
        T.key(s, "x", .control)
        s.handle(.key(.character("z"), modifiers: .control))
        #expect(s.history.count == 0 && s.engine.viewPixel(x: 30, y: 22) == Color.white.pixel)
        #expect(s.isRestoring, "a key stopped the restore")
        gate.open.signal()
        #expect(Self.waitForRestore(s), "the restored drawing never came")
        #expect(s.mode == .normal && s.message.hasPrefix("Restored 41 steps"), "\(s.mode): \(s.message)")
        #expect(s.history.count == 41 && s.history.cursor == 41)
        #expect(!s.blocksCanvas)
    }

    /// The restored picture and its undo steps are exactly the synchronous restore's: the same
    /// pixels after the restore, and after each undo down to the starting canvas, then redo.
    @Test func theRestoredPictureAndUndoStepsAreTheSynchronousRestores() throws {
        let first = T.temporaryFolder()
        let second = T.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: first)
            try? FileManager.default.removeItem(atPath: second)
        }
        let path = try Self.journal(in: first)
        let copy = second + "/" + FileSystem.lastComponent(path)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        // The same time of the last change, which the message says.
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
        try FileManager.default.setAttributes([.modificationDate: try #require(modified)], ofItemAtPath: copy)
        let sync = try Self.offered(first, inBackground: false)
        let background = try Self.offered(second, inBackground: true)
        sync.handle(.key(.enter, modifiers: []))
        #expect(!sync.isRestoring && sync.history.cursor == 41, "the synchronous restore: \(sync.message)")
        background.handle(.key(.enter, modifiers: []))
        #expect(Self.waitForRestore(background))
        #expect(background.message == sync.message)
        #expect(background.history.count == sync.history.count && background.history.cursor == sync.history.cursor)
        #expect(background.isModified == sync.isModified && background.path == sync.path)
        #expect(background.engine.flattenedImage() == sync.engine.flattenedImage(), "restored pixels differ")
        var steps = 0
        while sync.history.cursor > 0 {
            sync.undo()
            background.undo()
            steps += 1
            #expect(background.engine.flattenedImage() == sync.engine.flattenedImage(), "differ after \(steps) undos")
        }
        #expect(steps == 41 && background.history.cursor == 0)
        sync.redo()
        background.redo()
        #expect(background.engine.flattenedImage() == sync.engine.flattenedImage(), "differ after a redo")
    }

    /// Closing the window while the drawing is restored closes it at once and loses nothing: the
    /// replay stops, the journal stays on disk, unlocked, and the next start offers it again.
    /// Escape stops it the same way and says so.
    @Test func closingWhileRestoringKeepsTheJournalForTheNextStart() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.journal(in: folder)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let (s, gate) = try Self.heldOffer(folder)
        s.handle(.key(.enter, modifiers: []))
        #expect(C.eventually { gate.thread != nil })
        let effects = s.handle(.closeRequest)
        #expect(effects.exit == 0 && !s.isRestoring, "closing waited for the restore: \(s.mode)")
        // The thread goes on to the replay, which stops at once, and lets the journal go.
        gate.open.signal()
        #expect(C.eventually { gate.outcome != nil })
        #expect(gate.outcome?.hasSuffix("reading it was stopped") == true, "\(gate.outcome ?? "")")
        #expect(Self.waitUntilOffered(folder) != nil, "the journal is not offered again")
        #expect(FileManager.default.contents(atPath: path) == bytes, "the journal changed")
        let next = try Self.offered(folder, inBackground: true)
        #expect(next.mode.answers == [.restore, .discard])

        // Escape: the restore stops, the journal is kept, the status bar says so.
        let (t, held) = try Self.heldOffer(folder)
        t.handle(.key(.enter, modifiers: []))
        #expect(t.isRestoring)
        t.handle(.key(.escape, modifiers: []))
        held.open.signal()
        #expect(!t.isRestoring && t.mode == .normal && t.history.count == 0)
        #expect(t.message == "The earlier drawing is kept; it will be offered again at the next start")
        #expect(C.eventually { held.outcome != nil })
        #expect(held.outcome?.hasSuffix("reading it was stopped") == true, "\(held.outcome ?? "")")
        // And the next start restores it whole.
        let last = try Self.offered(folder, inBackground: true)
        last.handle(.key(.enter, modifiers: []))
        #expect(Self.waitForRestore(last) && last.history.cursor == 41, "\(last.message)")
    }
}

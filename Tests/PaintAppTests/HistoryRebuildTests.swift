import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

@testable import PaintApp

/// The window opens a picture before its history: the history is looked for and replayed on a
/// thread of its own; the picture is there at once and can be drawn on; the saved steps come
/// back under undo when the rebuild is taken over, with what was drawn meanwhile on top, and
/// the crash journal then holds the whole history.
@Suite struct HistoryRebuildTests {
    typealias T = SessionTests
    typealias D = DocumentLoaderTests

    /// A session on `file` as the window opens it: the history in the background.
    static func openInWindow(_ file: String, _ options: CommandLineOptions, journals: String? = nil) -> Session {
        let (document, message) = DocumentLoader.open(file, options: options, historyInBackground: true)
        let s = Session(document: document, windowWidth: 1000, windowHeight: 400, message: message)
        s.opener = DocumentOpener(options: options, journalFolder: journals)
        return s
    }

    /// Waits (generously) until the rebuild says it is done, as the window's poll does; false
    /// when it never does.
    static func waitForRebuild(_ s: Session) -> Bool {
        guard let fd = s.historyRebuildDescriptor else { return !s.isRebuildingHistory }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 120_000) == 1
    }

    @Test func thePictureOpensFirstAndTheSavedStepsComeBackWithWhatWasDrawnMeanwhile() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/r.png"
        let options = D.options(dir, width: 200, height: 100)
        let author = D.open(file, options)
        let steps = D.drawAndSave(author)
        let savedSteps = author.history.cursor

        let folder = dir + "/journals"
        let s = Self.openInWindow(file, options, journals: folder)
        #expect(s.document.historyRebuild != nil)
        #expect(s.start(s.document, message: s.message) == nil)
        // The picture is there before its history.
        #expect(Array(s.engine.viewPixels) == steps.last)
        #expect(!s.isModified && s.isRebuildingHistory)
        // Drawing on it right away is one step of its own, undoable at once.
        T.drag(s, [(20, 90), (190, 60)])
        let drawn = Array(s.engine.viewPixels)
        #expect(s.isModified && s.history.canUndo)

        #expect(Self.waitForRebuild(s))
        s.checkHistoryRebuild()
        #expect(!s.isRebuildingHistory)
        #expect(s.message.contains("Undo is ready: history restored (\(savedSteps) steps)"), "\(s.message)")
        #expect(s.history.cursor == savedSteps + 1, "the saved steps, then the one drawn meanwhile")
        #expect(Array(s.engine.viewPixels) == drawn && s.isModified)
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == steps.last && !s.isModified, "back on the saved step")
        while s.history.canUndo { T.key(s, "z", .control) }
        #expect(Array(s.engine.viewPixels) == steps[0])
        while s.history.canRedo { T.key(s, "y", .control) }
        #expect(Array(s.engine.viewPixels) == drawn)

        // The journal now starts from the history's starting picture: a restore gives back
        // every step.
        T.settleJournal(s)
        let journals = NewAndOpenTests.journals(folder)
        #expect(journals.count == 1, "the journal of the picture as opened was replaced")
        let contents = try JournalReader.read(path: folder + "/" + (journals.first ?? ""))
        let restored = try DocumentJournal.rebuild(contents)
        #expect(Array(restored.engine.viewPixels) == drawn)
        #expect(restored.history.cursor == s.history.cursor)
    }

    /// A rebuild done while a stroke is being drawn waits for the stroke, and the release that
    /// ends it takes it over: the window wakes for the rebuild's descriptor once, and does not
    /// look again every turn (`X11App.run` used to).
    @Test func aRebuildDoneDuringAStrokeIsTakenOverAtTheRelease() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (author, file, options) = D.savedDrawing(in: dir, named: "held.png")
        let s = Self.openInWindow(file, options)
        let press = T.window(s, 20, 40)
        let end = T.window(s, 60, 20)
        s.handle([
            .press(x: press.0, y: press.1, button: .left, modifiers: []),
            .motion(x: end.0, y: end.1, modifiers: []),
        ])
        #expect(Self.waitForRebuild(s))
        s.takeBackgroundWork()
        #expect(s.isRebuildingHistory && s.historyRebuildDescriptor == nil, "waits for the stroke, seen done")
        s.handle(.release(x: end.0, y: end.1, button: .left, modifiers: []))
        #expect(!s.isRebuildingHistory, "taken over at the release")
        #expect(s.history.cursor == author.history.cursor + 1, "the saved steps, then the stroke")
        #expect(s.message.contains("Undo is ready"), "\(s.message)")
    }

    /// A file carrying its history inside says so at once and when undo reaches it.
    @Test func aFileCarryingItsHistorySaysItIsBeingRead() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = D.options(dir)
        options.historyStore = nil
        let file = dir + "/inside.png"
        let author = D.open(file, options)
        T.drag(author, [(10, 10), (70, 50)])
        T.drag(author, [(70, 10), (10, 50)])
        T.key(author, "s", [.control, .alt])
        let s = Self.openInWindow(file, options)
        #expect(s.message.contains("reading the editing history it carries"), "\(s.message)")
        #expect(s.document.carriesHistory && !s.history.canUndo)
        #expect(Self.waitForRebuild(s))
        s.checkHistoryRebuild()
        #expect(s.message.contains("Undo is ready: the file carries its editing history inside (2 steps)"))
        T.key(s, "z", .control)
        T.key(s, "z", .control)
        let blank = StrokeEngine(width: 80, height: 60, background: .color(.white))
        #expect(Array(s.engine.viewPixels) == Array(blank.viewPixels))
    }

    /// Undo before the rebuild is done waits for it, and opening another picture drops it.
    @Test func undoWaitsForTheRebuildAndANewDocumentDropsIt() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (author, file, options) = D.savedDrawing(in: dir, named: "w.png")
        let s = Self.openInWindow(file, options)
        #expect(s.isRebuildingHistory)
        T.key(s, "z", .control)
        #expect(!s.isRebuildingHistory && s.history.cursor == author.history.cursor - 1)
        let blank = StrokeEngine(width: 80, height: 60, background: .color(.white))
        #expect(Array(s.engine.viewPixels) == Array(blank.viewPixels))

        let t = Self.openInWindow(file, options)
        #expect(t.isRebuildingHistory)
        t.install(DocumentLoader.blank(width: 30, height: 30, options: options), message: "", journal: nil)
        #expect(!t.isRebuildingHistory && !t.history.canUndo)
    }

    /// A white 200 x 100 PNG at `path` carrying a history of `steps` short strokes (whose
    /// replay does not end on the white picture: it is never meant to finish).
    static func longHistoryFile(_ path: String, steps: Int) throws {
        let picture = PixelImage(width: 200, height: 100, fill: 0xFFFF_FFFF)
        let png = try PNGCodec.encode(picture, withAlpha: false)
        var rng = SplitMix(seed: 17)
        let operations = (0..<steps).map { _ in
            PaintCore.Operation.stroke(
                StrokeStyle(width: 5),
                points: [
                    Point(x: rng.unit() * 200, y: rng.unit() * 100), Point(x: rng.unit() * 200, y: rng.unit() * 100),
                ])
        }
        let archive = DocumentArchive(
            width: 200, height: 100, background: .color(.white), operations: operations,
            pixelHash: DocumentArchive.hash(try PNGCodec.decode(png, name: path)))
        try AtomicFile.write(try HistoryChunk.embed(archive, into: png), to: path)
    }

    /// Opens a blank 200 x 100 picture in `s` while its history rebuild runs: the rebuild is
    /// dropped at once, and its thread (`control`'s) ends.
    static func openAnother(in s: Session, _ options: CommandLineOptions, dropping control: ReplayControl) {
        s.install(DocumentLoader.blank(width: 200, height: 100, options: options), message: "", journal: nil)
        #expect(!s.isRebuildingHistory)
        #expect(Self.waitUntil { control.hasEnded }, "the dropped rebuild's thread ends")
    }

    /// A window opened on `dir`/long.png, a picture carrying `steps` strokes of history (no
    /// history store), once its rebuild has started replaying: the session, its options and
    /// the rebuild's control (only the control is kept: the rebuild itself goes with the
    /// document).
    static func rebuildingLongHistory(
        in dir: String, steps: Int
    ) throws -> (Session, CommandLineOptions, ReplayControl) {
        var options = D.options(dir, width: 200, height: 100)
        options.historyStore = nil
        let file = dir + "/long.png"
        try Self.longHistoryFile(file, steps: steps)
        let s = Self.openInWindow(file, options)
        let control = try #require(s.document.historyRebuild?.control)
        #expect(Self.waitUntil { control.operationsReplayed > 0 }, "the replay started")
        return (s, options, control)
    }

    /// Polls `condition` (every millisecond, for up to two minutes: a loaded machine).
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<120_000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    /// Opening another picture while a long history is being replayed stops that replay
    /// between two of its operations, long before its end, and its thread ends; the new
    /// picture draws, undoes and redoes as any other.
    @Test func aDroppedRebuildStopsItsReplayAndTheNextPictureIsUnaffected() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let steps = 50_000
        let (s, options, control) = try Self.rebuildingLongHistory(in: dir, steps: steps)
        Self.openAnother(in: s, options, dropping: control)
        #expect(control.isStopped)
        #expect(control.operationsReplayed < steps, "stopped after \(control.operationsReplayed) of \(steps)")

        let blank = Array(s.engine.viewPixels)
        T.drag(s, [(20, 90), (190, 60)])
        let drawn = Array(s.engine.viewPixels)
        #expect(drawn != blank && s.history.count == 1)
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == blank && !s.history.canUndo)
        T.key(s, "y", .control)
        #expect(Array(s.engine.viewPixels) == drawn)
    }

    /// The status bar is never blank while the history is rebuilt: the "Opened" notice stays its
    /// time, then the bar says the history is being restored and how far it got, and that stays
    /// (it does not fade, and comes back after a stroke drawn meanwhile takes it away) until the
    /// rebuild ends. Before, the notice faded and the bar stayed empty until "Undo is ready".
    @Test func theStatusBarSaysTheHistoryIsBeingRestoredUntilItIsReady() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let steps = 50_000
        let (s, options, control) = try Self.rebuildingLongHistory(in: dir, steps: steps)
        let opened = s.message
        #expect(opened.hasPrefix("Opened "), "\(opened)")

        func done(_ message: String) -> Int? {
            let prefix = "Restoring undo history: "
            let suffix = " of \(steps) steps…"
            guard message.hasPrefix(prefix), message.hasSuffix(suffix) else { return nil }
            return Int(message.dropFirst(prefix.count).dropLast(suffix.count))
        }
        let t0 = 1000.0
        _ = s.runTimers(at: t0)
        #expect(s.message == opened, "the notice that opened the picture is kept its time")
        let next = s.runTimers(at: t0 + Session.messageLifetime)
        let first = try #require(done(s.message), "after the notice: \(s.message)")
        #expect(next == t0 + Session.messageLifetime + Session.rebuildProgressInterval, "updated while it runs")
        #expect(Self.waitUntil { control.operationsReplayed > first + 1 || control.hasEnded })
        _ = s.runTimers(at: t0 + 3 * Session.messageLifetime)
        let later = try #require(done(s.message), "it does not fade: \(s.message)")
        #expect(later >= first && later <= steps)
        // A stroke drawn meanwhile takes the message away, as any; the next turn says it again.
        T.drag(s, [(20, 90), (190, 60)])
        #expect(s.message.isEmpty)
        _ = s.runTimers(at: t0 + 4 * Session.messageLifetime)
        #expect(done(s.message) != nil, "\(s.message)")
        // Another message is left alone.
        s.show("Copied the picture")
        _ = s.runTimers(at: t0 + 4 * Session.messageLifetime + 1)
        #expect(s.message == "Copied the picture")
        Self.openAnother(in: s, options, dropping: control)
        _ = s.runTimers(at: t0 + 5 * Session.messageLifetime)
        #expect(!Session.isRebuildStatus(s.message), "another picture: \(s.message)")
    }

    /// Looking in the store for a picture it keeps no history of says so once the notice has
    /// gone, and says nothing more when nothing was found.
    @Test func theLookSaysItIsUnderWayAndGoesQuietlyWhenNothingIsFound() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = D.options(dir)
        let plain = dir + "/plain.png"
        try ImageFile.save(PixelImage(width: 80, height: 60, fill: Color.white.pixel), to: plain, withAlpha: false)
        _ = D.savedDrawing(in: dir, named: "drawn.png")
        let s = Self.openInWindow(plain, options)
        #expect(s.isRebuildingHistory)
        _ = s.runTimers(at: 10)
        _ = s.runTimers(at: 10 + Session.messageLifetime)
        // Whether or not the thread is done, the session has not taken its answer yet.
        #expect(s.message == "Looking for the undo history…" || s.message.hasPrefix("Restoring undo history"))
        #expect(Self.waitForRebuild(s))
        s.checkHistoryRebuild()
        #expect(!s.isRebuildingHistory && s.message.isEmpty && !s.history.canUndo)
        #expect(s.runTimers(at: 11 + Session.messageLifetime) == nil)
    }

    /// Opening another picture while the rebuild still hashes the opened one (to look it up in
    /// a store that keeps any history: 0.1 to 0.3 s for a 4K picture) stops the hash between
    /// two bands of rows, long before its last row, and the thread ends without replaying.
    @Test func aRebuildDroppedWhileItHashesThePictureStopsBetweenTwoBandsOfRows() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = D.options(dir, width: 200, height: 100)
        // An entry for another picture: the store keeps something, so this picture is hashed.
        try #require(options.historyStore).keep(
            DocumentArchive(width: 1, height: 1, background: .transparent, operations: [], pixelHash: 0),
            for: HistoryKey(of: PixelImage(width: 1, height: 1)))
        let file = dir + "/large.png"
        let rows = 2048
        try ImageFile.save(PixelImage(width: 4096, height: rows, fill: 0xFFFF_FFFF), to: file, withAlpha: false)
        let s = Self.openInWindow(file, options)
        let control = try #require(s.document.historyRebuild?.control)
        #expect(Self.waitUntil { control.rowsHashed > 0 }, "the hash started")
        Self.openAnother(in: s, options, dropping: control)
        #expect(control.isStopped && control.operationsReplayed == 0)
        #expect(control.rowsHashed < rows, "stopped after \(control.rowsHashed) of \(rows) rows")
    }

    /// A history that does not replay to the file is left out in the background too, and
    /// says so; a picture with no history says nothing more.
    @Test func aForgedHistoryIsLeftOutAndNoHistoryIsQuiet() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (author, file, options) = D.savedDrawing(in: dir, named: "forged.png")
        let shown = try ImageFile.load(path: file)
        let forged = DocumentArchive(
            width: 80, height: 60, background: .color(.white), operations: [.clear, .clear],
            pixelHash: DocumentArchive.hash(shown))
        try options.historyStore?.keep(forged, for: HistoryKey(of: shown))
        let s = Self.openInWindow(file, options)
        #expect(Self.waitForRebuild(s))
        s.checkHistoryRebuild()
        #expect(s.message.contains("Its kept history was left out: replaying it does not give"), "\(s.message)")
        #expect(!s.history.canUndo && Array(s.engine.viewPixels) == Array(author.engine.viewPixels))

        let other = dir + "/other.png"
        try Data(try D.bytes(file)).write(to: URL(fileURLWithPath: other))
        try options.historyStore?.forget(HistoryKey(of: shown))
        let q = Self.openInWindow(other, options)
        let said = q.message
        #expect(Self.waitForRebuild(q))
        q.checkHistoryRebuild()
        #expect(!q.isRebuildingHistory && q.message == said && !q.history.canUndo)
    }

    @Test func aPictureWithNoHistoryAnywhereStartsNoRebuild() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = D.options(dir)
        let plain = dir + "/plain.png"
        try ImageFile.save(PixelImage(width: 80, height: 60, fill: Color.white.pixel), to: plain, withAlpha: false)
        // Nothing kept on this computer, nothing in the file: no thread hashes the picture.
        #expect(options.historyStore?.isEmpty == true)
        let s = Self.openInWindow(plain, options)
        #expect(s.document.historyRebuild == nil && !s.isRebuildingHistory)
        #expect(s.message == "Opened \(PathDisplay.abbreviatingHome(plain))")
        // Once the store keeps any picture's history, every picture opened is looked up in it.
        let (author, _, _) = D.savedDrawing(in: dir, named: "drawn.png")
        #expect(options.historyStore?.isEmpty == false, "\(author.message)")
        let q = Self.openInWindow(plain, options)
        #expect(q.document.historyRebuild != nil)
        #expect(Self.waitForRebuild(q))
        q.checkHistoryRebuild()
        #expect(!q.isRebuildingHistory && !q.history.canUndo)
    }
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

@testable import PaintApp

/// Crash protection the user can see: the status bar says when the journal stops (a full disk)
/// and when it resumes by itself; a drawing a crash left is offered even when the new window
/// cannot make its own journal; Discard never deletes a journal another window restored; the
/// restore question counts steps of every kind.
@Suite(.serialized) struct CrashProtectionTests {
    typealias T = SessionTests

    /// Runs a program to its end; whether it exited 0.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> Bool {
        ChildProcess.succeeds(executable, arguments)
    }

    /// Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN, as in the test container).
    static let canMount: Bool = {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder]) else { return false }
        run("/usr/bin/umount", [folder])
        return true
    }()

    /// A 64 KiB tmpfs at a new folder; the caller unmounts it.
    static func smallDisk() throws -> String {
        let folder = T.temporaryFolder()
        try #require(run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder]))
        return folder
    }

    static func unmount(_ folder: String) {
        run("/usr/bin/umount", [folder])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Fills the disk under `folder` with `name` (as much as it takes; `limit` bytes at most).
    static func fill(_ folder: String, name: String = "filler", limit: Int = 1 << 20) {
        let fd = open(folder + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let block = [UInt8](repeating: 7, count: 1024)
        var total = 0
        while total < limit, write(fd, block, block.count) == block.count { total += block.count }
    }

    /// Polls `condition` every 20 ms for up to `seconds`; whether it came true.
    static func eventually(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root with CAP_SYS_ADMIN"))
    func aFullDiskIsSaidInTheStatusBarAndProtectionResumesByItselfWhenThereIsRoom() throws {
        let folder = try Self.smallDisk()
        defer { Self.unmount(folder) }
        // Room for a few KB of journal, then the disk is full.
        Self.fill(folder, limit: 44 << 10)
        let s = T.makeSession(width: 300, height: 200)
        s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: folder)
        #expect(s.start(s.opener.blank(width: 300, height: 200), message: "") == nil)
        T.settleJournal(s)
        #expect(s.watch() == nil, "made, and nothing recorded yet: nothing to watch")
        var strokes = 0
        while strokes < 3000, s.sink?.protection == .safe || s.sink?.protection == .writing {
            T.drag(s, (0..<40).map { (5 + $0 * 7 % 290, 5 + (strokes * 13 + $0 * 3) % 190) })
            strokes += 1
            s.sink?.flush()
        }
        #expect(s.sink?.protection == .stopped("the disk is full"))
        #expect(s.watch() == 0.5, "a stopped journal is looked at again soon")
        #expect(s.message == "Crash protection stopped: the disk is full; retrying every 2 s", "\(s.message)")
        // Drawing goes on meanwhile: a stroke clears the message, but the status bar keeps
        // saying why protection is stopped until it resumes; a newer message goes first.
        T.drag(s, [(10, 10), (200, 150)])
        s.watch()
        #expect(s.message.isEmpty)
        #expect(s.shownMessage.hasPrefix("Crash protection stopped: the disk is full"), "\(s.shownMessage)")
        s.show("something else")
        s.watch()
        #expect(s.shownMessage == "something else")

        // Room again: the journal's own retry (every 2 s) catches up without any new stroke.
        unlink(folder + "/filler")
        #expect(Self.eventually { s.watch() == nil }, "the journal caught up")
        #expect(s.message == "Crash protection resumed: every change is safe from a crash again")
        let path = try #require((s.sink as? DocumentJournal)?.path)
        let contents = try JournalReader.read(path: path)
        #expect(contents.operations.count == strokes + 1, "every stroke is in the journal")
        #expect(contents.operations == s.history.operations)
        T.drag(s, [(20, 20), (40, 40)])
        #expect(s.shownMessage.isEmpty, "once resumed, nothing more is said")
        s.finish()
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root with CAP_SYS_ADMIN"))
    func aJournalTheStartCouldNotMakeIsMadeOnceThereIsRoomWithEveryChangeSoFar() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A picture file, so the journal must hold its starting picture too.
        let file = dir + "/picture.png"
        var picture = PixelImage(width: 120, height: 90, fill: Color(r: 20, g: 140, b: 200).pixel)
        for y in 30..<60 { for x in 10..<50 { picture[x, y] = Color(r: 250, g: 200, b: 0).pixel } }
        try ImageFile.save(picture, to: file, withAlpha: false)
        let folder = try Self.smallDisk()
        defer { Self.unmount(folder) }
        Self.fill(folder)
        let s = T.makeSession(width: 300, height: 200)
        s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: folder)
        let opened = try s.opener.load(file).get()
        #expect(s.start(opened.document, message: opened.message) == nil)
        // The journal is made on its own thread: the status bar says when it cannot be.
        T.settleJournal(s)
        #expect(s.message == "Crash protection stopped: the disk is full; retrying every 2 s", "\(s.message)")
        #expect(s.sink == nil)
        T.drag(s, [(5, 5), (100, 80)])
        T.drag(s, [(100, 5), (5, 80)])
        T.key(s, "z", .control)
        T.drag(s, [(60, 10), (60, 85)])
        // While there is no room the status bar keeps saying so, as for a journal that stops
        // (each journal tried again cannot be made either).
        #expect(s.watch() == 0.5)
        T.settleJournal(s)
        #expect(s.sink == nil)
        #expect(s.shownMessage == "Crash protection stopped: the disk is full; retrying every 2 s", "\(s.shownMessage)")

        // Room again: the next look makes the journal, with every change made so far.
        unlink(folder + "/filler")
        s.watch()
        #expect(s.shownMessage.hasPrefix("Crash protection stopped"), "not resumed before it is made")
        T.settleJournal(s)
        let path = try #require((s.sink as? DocumentJournal)?.path, "no journal made: \(s.shownMessage)")
        #expect(s.message == "Crash protection resumed: every change is safe from a crash again", "\(s.message)")
        T.drag(s, [(20, 70), (110, 70)])
        s.sink?.flush()
        // What a restore after a crash now gives back: this picture, pixel for pixel, and the
        // same undo and redo.
        let restored = try DocumentJournal.rebuild(try JournalReader.read(path: path))
        #expect(restored.engine.flattenedImage() == s.engine.flattenedImage())
        #expect(restored.history.cursor == s.history.cursor && restored.history.count == s.history.count)
        restored.history.undo(engine: restored.engine)
        restored.history.undo(engine: restored.engine)
        restored.history.undo(engine: restored.engine)
        #expect(restored.engine.flattenedImage() == picture, "undone to the opened picture")
        s.finish()
    }

    /// A journal a crash left in `folder` for an untitled drawing: a red fill, a rectangle, a
    /// blue fill undone (two steps shown, no freehand stroke at all).
    static func leftOver(in folder: String) throws -> String {
        let writer = try JournalWriter.create(
            in: folder, header: JournalHeader(documentPath: nil, width: 120, height: 80, background: .color(.white)))
        let red = StrokeStyle(color: Color(r: 255, g: 0, b: 0))
        writer.append(.fill(red, at: Point(x: 1, y: 1), tolerance: 0))
        writer.append(
            .shape(
                StrokeStyle(width: 3),
                ShapeSpec(kind: .rectangle, from: Point(x: 50, y: 20), to: Point(x: 90, y: 60), filled: true)))
        writer.append(.fill(StrokeStyle(color: Color(r: 0, g: 0, b: 255)), at: Point(x: 1, y: 1), tolerance: 0))
        writer.append(.undo)
        #expect(writer.flush())
        // Dropped without discarding, as a crash leaves it.
        return writer.path
    }

    @Test(.enabled(if: canMount, "mounting a tmpfs needs root with CAP_SYS_ADMIN"))
    func aDrawingACrashLeftIsOfferedEvenWhenThisWindowCannotMakeItsOwnJournal() throws {
        let folder = try Self.smallDisk()
        defer { Self.unmount(folder) }
        let journal = try Self.leftOver(in: folder)
        Self.fill(folder)
        let s = T.makeSession(width: 300, height: 200)
        s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: folder)
        // As at start-up (main.swift): offered, then its own journal started.
        s.offerLeftOverDrawing()
        #expect(s.startJournal() == nil)
        T.settleJournal(s)
        #expect(s.message == "Crash protection stopped: the disk is full; retrying every 2 s", "\(s.message)")
        guard case .offerRestore(let question) = s.mode else {
            Issue.record("nothing offered: \(s.mode), \(s.message)")
            return
        }
        #expect(question.hasPrefix("Restore the drawing “Untitled” from "), "\(question)")
        #expect(question.hasSuffix(" (2 steps)?"), "a fill and a rectangle, the undone fill not counted: \(question)")
        s.handle(.key(.enter, modifiers: []))
        #expect(s.message.hasPrefix("Restored 2 steps from "), "\(s.message)")
        #expect(s.engine.width == 120 && s.engine.height == 80)
        #expect(s.engine.viewPixel(x: 5, y: 5) == Color(r: 255, g: 0, b: 0).pixel, "the red fill, not the undone blue")
        #expect(s.engine.viewPixel(x: 70, y: 40) == Color.black.pixel, "the filled rectangle")
        // The restored drawing goes on in the journal it came from.
        #expect((s.sink as? DocumentJournal)?.path == journal)
        s.finish()
    }

    /// A picture named to open that cannot be (`swiftpaint damaged.png`): the window says why,
    /// in red, and does not offer another drawing over it; the drawing a crash left is offered at
    /// the next start. Before, "Restore the drawing “Untitled” …?" was asked at once and the
    /// reason was never shown (only on stderr).
    @Test func aPictureThatCannotBeOpenedSaysWhyInsteadOfOfferingAnotherDrawing() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.leftOver(in: folder)
        let damaged = folder + "/damaged.png"
        #expect(FileManager.default.createFile(atPath: damaged, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])))
        let options = CommandLineOptions()
        let (document, message) = DocumentLoader.open(damaged, options: options)
        #expect(document.path == nil && message.hasPrefix("Cannot open"), "\(message)")
        let s = T.makeSession(width: 300, height: 200)
        s.install(document, message: message, journal: nil)
        s.opener = DocumentOpener(options: options, journalFolder: folder)
        s.offerLeftOverDrawing()
        #expect(s.mode == .normal && s.message == message, "\(s.mode): \(s.message)")
        // The next start, with nothing that failed, offers it.
        let next = T.makeSession(width: 300, height: 200)
        next.opener = DocumentOpener(options: options, journalFolder: folder)
        next.offerLeftOverDrawing()
        guard case .offerRestore = next.mode else {
            Issue.record("not offered at the next start: \(next.mode)")
            return
        }
    }

    /// The restore offer comes unasked at start-up, over a canvas the user may already be typing
    /// shortcuts at: "d" alone does not discard the drawing (it says what does), Alt+D does.
    /// Before, a stray "d" deleted the journal, the crashed drawing with it, for good.
    @Test func aStrayDDoesNotThrowTheCrashedDrawingAwayAltDDoes() throws {
        let s = T.makeSession()
        var discarded = 0
        let asked = "Restore the drawing “Untitled” from 11:26 (2 steps)?"
        s.offer(
            RestoreOffer(
                question: asked, restore: { .failed("not restored in this test") },
                discard: {
                    discarded += 1
                    return "The earlier drawing was discarded"
                }))
        for key in ["d", "D", "d"] { s.handle(.key(.character(Character(key)), modifiers: [])) }
        #expect(s.mode == .offerRestore(asked + Session.discardHint), "still asked, once told how: \(s.mode)")
        #expect(discarded == 0, "a plain d discarded the drawing")
        s.handle(.key(.character("d"), modifiers: .alt))
        #expect(s.mode == .normal && discarded == 1, "\(s.mode), discarded \(discarded) times")
        #expect(s.message == "The earlier drawing was discarded")
    }

    @Test func discardInASecondWindowKeepsTheJournalTheFirstRestoredAndSaysSo() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try Self.leftOver(in: folder)
        // Two windows started together are both offered the same drawing.
        let opener = DocumentOpener(options: CommandLineOptions(), journalFolder: folder)
        let a = T.makeSession()
        let b = T.makeSession()
        a.opener = opener
        b.opener = opener
        for s in [a, b] {
            s.offerLeftOverDrawing()
            s.startJournal()
        }
        #expect(a.mode.answers == [.restore, .discard] && b.mode.answers == [.restore, .discard])
        a.handle(.key(.enter, modifiers: []))
        #expect(a.message.hasPrefix("Restored 2 steps"), "\(a.message)")
        b.handle(.key(.character("d"), modifiers: .alt))
        #expect(
            b.message == "The earlier drawing was not discarded: another SwiftPaint window restored it and is using it")
        #expect(FileManager.default.fileExists(atPath: journal), "the journal A draws on is still there")
        // A goes on journaling into it.
        T.drag(a, [(10, 10), (30, 30)])
        a.sink?.flush()
        #expect(try JournalReader.read(path: journal).operations.count == 5)
        a.finish()
        b.finish()
    }

    @Test func theSaveDialogSaysWhatItWaitsForInsteadOfClosingOnAnEmptyName() throws {
        let folder = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let s = T.makeSession()
        s.makesThumbnails = false
        T.drag(s, [(10, 10), (30, 30)])
        T.key(s, "s", [.control, .shift])
        T.typeInDialog(s, "")
        #expect(s.fileDialog?.note == "Type a name for the picture", "the dialog stays and says why")
        // A folder is not a name either: the dialog enters it, for the name after it.
        T.typeInDialog(s, folder)
        #expect(s.fileDialog?.folder == folder && s.fileDialog?.field.text == "untitled.png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing was written")
        // A folder reaching the save some other way opens the dialog there.
        s.handle(.key(.escape, modifiers: []))
        s.commitSaveName(folder + "/", then: nil)
        #expect(s.fileDialog?.folder == folder && s.fileDialog?.noteIsProblem == true)
        // Then a name saves there.
        T.typeInDialog(s, "a.png")
        #expect(s.mode == .normal && s.fileDialog == nil)
        #expect(FileManager.default.fileExists(atPath: folder + "/a.png"), "\(s.message)")
    }
}

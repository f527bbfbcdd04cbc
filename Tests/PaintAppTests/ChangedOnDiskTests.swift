import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Two windows on one file: a save over the file another program changed since it was opened or
/// saved here asks Save as / Overwrite / Cancel; the title says when the file changed; a file
/// touched but not changed asks nothing.
@Suite struct ChangedOnDiskTests {
    typealias T = SessionTests

    static func pixel(_ file: String, _ x: Int, _ y: Int) throws -> UInt32 { try ImageFile.load(path: file)[x, y] }

    /// A look at the file between events, as the window's: a rewrite of the same size is read
    /// on a thread of its own, and taken at a look once read.
    static func lookAtFile(_ s: Session) {
        s.watch()
        guard let check = s.diskCheck else { return }
        check.wait()
        s.watch(lookingAtFile: false)
    }

    /// Two sessions on one saved 80 x 60 white picture.
    static func twoWindows(_ dir: String) throws -> (Session, Session, String) {
        let file = dir + "/shared.png"
        try Data(try PNGCodec.encode(PixelImage(width: 80, height: 60, fill: 0xFFFF_FFFF), withAlpha: false))
            .write(to: URL(fileURLWithPath: file))
        let options = DocumentLoaderTests.options(dir)
        return (DocumentLoaderTests.open(file, options), DocumentLoaderTests.open(file, options), file)
    }

    /// `twoWindows`, the first with a line drawn and saved (Ctrl+S).
    static func savedWindows(_ dir: String) throws -> (Session, Session, String) {
        let (a, b, file) = try twoWindows(dir)
        T.drag(a, [(10, 5), (10, 50)])
        T.key(a, "s", .control)
        #expect(!a.isModified && a.mode == .normal, "\(a.message)")
        return (a, b, file)
    }

    @Test func savingOverAFileAnotherWindowSavedAsksFirst() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, b, file) = try Self.twoWindows(dir)
        T.drag(a, [(10, 5), (10, 50)])
        T.key(a, "s", .control)
        #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000)
        #expect(a.watch() == 2 && !a.changedOnDisk, "its own save is not a change")

        // Between looks at the file (the window looks every 2 s, not per pointer event) the
        // change is not seen yet; the next look sees it.
        #expect(b.watch(lookingAtFile: false) == Session.fileInterval && !b.changedOnDisk)
        #expect(b.watch() == 2)
        #expect(b.changedOnDisk && b.title == "shared.png (changed on disk) — SwiftPaint", "\(b.title)")
        #expect(b.message == "Another program changed “shared.png”; Ctrl+S asks first")
        T.drag(b, [(70, 5), (70, 50)])
        T.key(b, "s", .control)
        #expect(b.mode == .confirmOverwrite(file, then: nil))
        #expect(b.mode.answers == [.saveAs, .overwrite, .cancel])
        b.handle(.key(.escape, modifiers: []))
        #expect(b.message == "Not saved; “shared.png” stays as the other program left it")
        #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000 && Self.pixel(file, 70, 30) == 0xFFFF_FFFF)
        #expect(b.isModified)

        T.key(b, "s", .control)
        T.key(b, "o")
        #expect(b.mode == .normal && !b.isModified && !b.changedOnDisk, "\(b.message)")
        #expect(try Self.pixel(file, 70, 30) == 0xFF00_0000 && Self.pixel(file, 10, 30) == 0xFFFF_FFFF)
        // B's next save is its own business again.
        T.drag(b, [(40, 5), (40, 50)])
        T.key(b, "s", .control)
        #expect(b.mode == .normal && !b.isModified)

        // A: its title says so, and closing asks (its picture is nowhere else now).
        Self.lookAtFile(a)
        #expect(a.title == "shared.png (changed on disk) — SwiftPaint")
        a.handle(.closeRequest)
        #expect(a.mode == .confirmLeave(.quit))
        // Save there asks about overwriting; Save as keeps both.
        a.answer(.save)
        #expect(a.mode == .confirmOverwrite(file, then: .quit))
        a.answer(.saveAs)
        #expect(a.fileDialog?.purpose == .save(then: .quit), "the Save as dialog, then closing")
    }

    @Test func aFileTouchedButNotChangedAsksNothingAndAFileMadeMeanwhileDoes() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, _, file) = try Self.twoWindows(dir)
        // Same bytes, a new time and a new inode (a copy put in place).
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try bytes.write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(rename(file + ".tmp", file) == 0)
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        Self.lookAtFile(a)
        #expect(!a.changedOnDisk)
        T.drag(a, [(10, 5), (10, 50)])
        T.key(a, "s", .control)
        #expect(a.mode == .normal && !a.isModified, "\(a.mode) \(a.message)")

        // A new picture whose file another program made meanwhile.
        let later = dir + "/later.png"
        let options = DocumentLoaderTests.options(dir)
        let c = DocumentLoaderTests.open(later, options)
        T.drag(c, [(5, 5), (20, 20)])
        try bytes.write(to: URL(fileURLWithPath: later))
        T.key(c, "s", .control)
        #expect(c.mode == .confirmOverwrite(later, then: nil))
        #expect(try Data(contentsOf: URL(fileURLWithPath: later)) == bytes, "nothing written yet")
    }

    @Test func aSavedPictureWhoseFileIsDeletedSaysSoAndClosingAsksToSaveItAgain() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, b, file) = try Self.savedWindows(dir)
        // The file is deleted (or moved away) by another program: this window holds the only
        // copy of what it saved, and says so at its next look.
        #expect(unlink(file) == 0)
        a.watch()
        #expect(a.deletedOnDisk && a.title == "shared.png (deleted on disk) — SwiftPaint", "\(a.title)")
        #expect(
            a.message == "“shared.png” was deleted or moved; Ctrl+S saves it again")
        _ = a.takeEffects()
        // Closing asks, as for a file another program replaced.
        #expect(a.handle(.closeRequest).exit == nil)
        #expect(a.mode == .confirmLeave(.quit), "closing without asking loses the picture: \(a.mode)")
        // Save writes it again, with nothing to ask about overwriting, and closes.
        a.answer(.save)
        #expect(a.mode == .normal, "\(a.mode)")
        #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000, "the picture is back on disk")
        #expect(!a.deletedOnDisk && a.title == "shared.png — SwiftPaint", "\(a.title)")
        #expect(a.takeEffects().exit == 0)

        // A picture opened and not changed here (nothing drawn in this window) whose file is
        // deleted closes without asking: the user deleted what they had not touched.
        #expect(unlink(file) == 0)
        b.watch()
        #expect(b.deletedOnDisk)
        #expect(b.handle(.closeRequest).exit == 0)
        #expect(b.mode == .normal)
    }

    /// A window on `file` with a crash journal in `journals`, offered what a crash left there.
    static func journaledWindow(_ file: String, _ journals: String, _ options: CommandLineOptions) -> Session {
        let s = DocumentLoaderTests.open(file, options)
        s.opener = DocumentOpener(options: options, journalFolder: journals)
        // As at start-up (main.swift): offered, then its own journal started.
        s.offerLeftOverDrawing()
        s.startJournal()
        return s
    }

    /// The window crashes: its journal stays, as a kill leaves it, and its lock goes (the
    /// document's starting picture, read back from the journal, holds the journal too).
    static func crash(_ s: Session) {
        s.sink?.flush()
        s.sink = nil
        s.document.base = nil
    }

    /// A line down the picture; with `savingFirst`, saved (Ctrl+S) and then a second line: a
    /// window either never saved or drawn on since its save.
    static func draw(_ a: Session, savingFirst: Bool) {
        T.drag(a, [(10, 5), (10, 50)])
        guard savingFirst else { return }
        T.key(a, "s", .control)
        #expect(!a.isModified, "\(a.message)")
        T.drag(a, [(30, 5), (30, 50)])
    }

    /// Another program saves a black picture over `file`.
    static func replaceByAnotherProgram(_ file: String) throws {
        let black = try PNGCodec.encode(PixelImage(width: 80, height: 60, fill: 0xFF00_0000), withAlpha: false)
        try Data(black).write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    @Test func aDrawingRestoredAfterACrashAsksBeforeSavingOverWhatAnotherProgramSavedMeanwhile() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, _, file) = try Self.twoWindows(dir)
        let options = DocumentLoaderTests.options(dir)
        // Opened, drawn on, never saved; saved once, then drawn on: either way the window
        // crashes after another program saved over the file.
        for savedFirst in [false, true] {
            let journals = dir + "/journals-\(savedFirst)"
            try Data(try PNGCodec.encode(PixelImage(width: 80, height: 60, fill: 0xFFFF_FFFF), withAlpha: false))
                .write(to: URL(fileURLWithPath: file))
            let a = Self.journaledWindow(file, journals, options)
            Self.draw(a, savingFirst: savedFirst)
            try Self.replaceByAnotherProgram(file)
            Self.crash(a)

            let c = Self.journaledWindow(file, journals, options)
            guard case .offerRestore = c.mode else {
                Issue.record("nothing offered: \(c.mode)")
                continue
            }
            c.answer(.restore)
            #expect(c.engine.viewPixel(x: 10, y: 30) == Color.black.pixel && c.isModified, "\(c.message)")
            c.watch()
            #expect(c.changedOnDisk && c.title == "*shared.png (changed on disk) — SwiftPaint", "\(c.title)")
            T.key(c, "s", .control)
            #expect(c.mode == .confirmOverwrite(file, then: nil), "saved over the other program's file unasked")
            #expect(try Self.pixel(file, 60, 30) == 0xFF00_0000, "the other program's picture is still there")
            c.finish()
        }
    }

    @Test func aDrawingRestoredAfterACrashSavesUnaskedOverTheFileItLeft() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, _, file) = try Self.twoWindows(dir)
        let options = DocumentLoaderTests.options(dir)
        for savedFirst in [false, true] {
            let journals = dir + "/journals-\(savedFirst)"
            let a = Self.journaledWindow(file, journals, options)
            Self.draw(a, savingFirst: savedFirst)
            Self.crash(a)
            let c = Self.journaledWindow(file, journals, options)
            c.answer(.restore)
            Self.lookAtFile(c)
            #expect(!c.changedOnDisk && c.isModified, "\(c.title) \(c.message)")
            T.key(c, "s", .control)
            #expect(c.mode == .normal && !c.isModified, "\(c.mode) \(c.message)")
            #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000 && Self.pixel(file, 60, 30) == 0xFFFF_FFFF)
            c.finish()
        }
    }
}

extension ChangedOnDiskTests {
    @Test func aRewriteOfTheSameSizeIsReadOffTheWindowsThreadAndSaidOnceRead() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, _, file) = try Self.twoWindows(dir)
        // Other bytes of the same length (one flipped near the end), put in place by rename.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(rename(file + ".tmp", file) == 0)
        // The look between events starts reading the bytes on a thread of its own and says nothing
        // yet; the read wakes the window when it is done, and a look then says it.
        #expect(a.watch() == Session.fileInterval && !a.changedOnDisk && a.diskCheck?.wakeFD != nil)
        let check = try #require(a.diskCheck, "the bytes are read off the window's thread")
        check.wait()
        #expect(a.watch(lookingAtFile: false) == Session.fileInterval)
        #expect(a.changedOnDisk && a.diskCheck == nil)
        #expect(a.message == "Another program changed “shared.png”; Ctrl+S asks first")
        // Read once per stat: the next look reads nothing.
        a.watch()
        #expect(a.diskCheck == nil && a.changedOnDisk)
        // The same bytes again, by another rename: read again, and no change.
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(rename(file + ".tmp", file) == 0)
        a.watch()
        try #require(a.diskCheck).wait()
        a.watch()
        #expect(!a.changedOnDisk && a.diskCheck == nil, "the same bytes: not changed")
        // A save asks once the file's bytes are read, off the window's thread too.
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(rename(file + ".tmp", file) == 0)
        T.drag(a, [(10, 5), (10, 50)])
        T.key(a, "s", .control)
        #expect(a.diskCheck != nil)
        Self.settle(a)
        #expect(a.mode == .confirmOverwrite(file, then: nil))
    }
}

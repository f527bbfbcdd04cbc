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

    /// Two sessions on one saved 80 x 60 white picture.
    static func twoWindows(_ dir: String) throws -> (Session, Session, String) {
        let file = dir + "/shared.png"
        try Data(try PNGCodec.encode(PixelImage(width: 80, height: 60, fill: 0xFFFF_FFFF), withAlpha: false))
            .write(to: URL(fileURLWithPath: file))
        let options = DocumentLoaderTests.options(dir)
        return (DocumentLoaderTests.open(file, options), DocumentLoaderTests.open(file, options), file)
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
        #expect(b.message == "Another program changed “shared.png” since it was opened or saved here")
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
        a.watch()
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
        a.watch()
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
        let (a, b, file) = try Self.twoWindows(dir)
        T.drag(a, [(10, 5), (10, 50)])
        T.key(a, "s", .control)
        #expect(!a.isModified && a.mode == .normal, "\(a.message)")
        // The file is deleted (or moved away) by another program: this window holds the only
        // copy of what it saved, and says so at its next look.
        #expect(unlink(file) == 0)
        a.watch()
        #expect(a.deletedOnDisk && a.title == "shared.png (deleted on disk) — SwiftPaint", "\(a.title)")
        #expect(
            a.message == "“shared.png” was deleted or moved since it was opened or saved here; Ctrl+S saves it again")
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
}

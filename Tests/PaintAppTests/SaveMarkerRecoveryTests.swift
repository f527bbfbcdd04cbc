import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A save written while drawing goes on marks in the crash journal the step it holds: after a
/// crash, what was drawn during the save is offered back on top of the saved file, one undo
/// reaches the saved picture, and the restored drawing is saved over that file without asking.
@Suite struct SaveMarkerRecoveryTests {
    typealias T = SessionTests
    typealias C = ChangedOnDiskTests

    /// A journaled window on a picture of `dir` that saves in the background, with a stroke drawn
    /// and Ctrl+S pressed (the save under way); `reopen` starts the next window on the same file
    /// and journals, as a start after a crash does.
    static func savingAfterAStroke(_ dir: String) throws -> (window: Session, file: String, reopen: () -> Session) {
        let (_, _, file) = try C.twoWindows(dir)
        let options = DocumentLoaderTests.options(dir)
        let journals = dir + "/journals"
        let a = C.journaledWindow(file, journals, options)
        a.savesInBackground = true
        T.drag(a, [(10, 5), (10, 50)])
        T.key(a, "s", .control)
        return (a, file, { C.journaledWindow(file, journals, options) })
    }

    @Test func strokesDrawnDuringASaveAreRestoredOnTopOfTheSavedFileWhichIsSavedOverUnasked() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, file, reopen) = try Self.savingAfterAStroke(dir)
        #expect(a.isSaving)
        // Drawn while the save is written: not in the file.
        T.drag(a, [(30, 5), (30, 50)])
        #expect(a.waitForSave() && a.isModified, "\(a.message)")
        #expect(try C.pixel(file, 10, 30) == 0xFF00_0000 && C.pixel(file, 30, 30) == 0xFFFF_FFFF)
        let saved = try #require(FileManager.default.contents(atPath: file))
        C.crash(a)

        let c = reopen()
        guard case .offerRestore = c.mode else {
            Issue.record("the stroke drawn during the save is not offered: \(c.mode)")
            return
        }
        c.answer(.restore)
        #expect(c.engine.viewPixel(x: 30, y: 30) == Color.black.pixel, "the stroke drawn during the save")
        #expect(c.engine.viewPixel(x: 10, y: 30) == Color.black.pixel)
        C.lookAtFile(c)
        #expect(!c.changedOnDisk && c.isModified, "\(c.title) \(c.message)")
        #expect(c.title == "*shared.png — SwiftPaint", "\(c.title)")
        // One undo reaches the picture the file holds: saved.
        c.undo()
        #expect(!c.isModified && c.title == "shared.png — SwiftPaint", "\(c.title)")
        c.redo()
        #expect(FileManager.default.contents(atPath: file) == saved)
        T.key(c, "s", .control)
        #expect(c.mode == .normal && !c.isModified, "saved over its own file unasked: \(c.mode) \(c.message)")
        #expect(try C.pixel(file, 30, 30) == 0xFF00_0000 && C.pixel(file, 60, 30) == 0xFFFF_FFFF)
        c.finish()
    }

    @Test func aStepThatReplacedTheSavedOneDuringTheSaveLeavesNoSavedStepAfterARestore() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, _, reopen) = try Self.savingAfterAStroke(dir)
        // Undone past the picture being saved, then another stroke: no undo reaches it again.
        a.undo()
        T.drag(a, [(30, 5), (30, 50)])
        #expect(a.waitForSave() && a.isModified)
        C.crash(a)

        let c = reopen()
        c.answer(.restore)
        #expect(
            c.engine.viewPixel(x: 30, y: 30) == Color.black.pixel
                && c.engine.viewPixel(x: 10, y: 30) != Color.black.pixel)
        C.lookAtFile(c)
        #expect(!c.changedOnDisk && c.isModified, "\(c.title)")
        c.undo()
        #expect(c.isModified, "the saved picture is no step of the restored history")
        // Drawing again up to the saved step's number does not make it the saved picture.
        T.drag(c, [(50, 5), (50, 50)])
        #expect(c.isModified)
        c.finish()
    }
}

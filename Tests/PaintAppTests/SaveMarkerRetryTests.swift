import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A crash journal that could not be made at first (a full disk) is made during a save, once
/// there is room, from the history as it is then: the save's marker still names the step the
/// file holds, so a restore offers what was drawn during the save on top of the saved file.
@Suite struct SaveMarkerRetryTests {
    typealias T = SessionTests
    typealias C = ChangedOnDiskTests

    @Test func aJournalMadeDuringASaveMarksTheStepSavedUnderWhatWasDrawnDuringIt() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, _, file) = try C.twoWindows(dir)
        let options = DocumentLoaderTests.options(dir)
        let journals = dir + "/journals"
        // No journal can be made at first: a file has its folder's name.
        #expect(FileManager.default.createFile(atPath: journals, contents: Data()))
        let a = C.journaledWindow(file, journals, options)
        a.savesInBackground = true
        T.settleJournal(a)
        #expect(a.sink == nil && a.message.hasPrefix("Crash protection stopped"), "\(a.message)")
        // Two steps, one undone and replaced, then saved.
        T.drag(a, [(10, 5), (10, 50)])
        T.drag(a, [(70, 5), (70, 50)])
        a.undo()
        T.drag(a, [(20, 5), (20, 50)])
        T.key(a, "s", .control)
        #expect(a.isSaving)
        // Drawn during the save: one before the journal is made, one into it.
        T.drag(a, [(30, 5), (30, 50)])
        #expect(unlink(journals) == 0)
        a.watch()
        T.settleJournal(a)
        let path = try #require((a.sink as? DocumentJournal)?.path, "no journal made: \(a.message)")
        T.drag(a, [(40, 5), (40, 50)])
        #expect(a.waitForSave() && a.isModified, "\(a.message)")
        #expect(try C.pixel(file, 20, 30) == 0xFF00_0000 && C.pixel(file, 30, 30) == 0xFFFF_FFFF)
        let saved = try #require(FileManager.default.contents(atPath: file))
        a.sink?.flush()
        let records = try JournalReader.read(path: path).records
        // Made from the history: 3 steps, then the stroke drawn into it, then the marker.
        #expect(records.count == 5)
        guard case .saved(file, _, let drawnDuring)? = records.last else {
            Issue.record("no save marker in the journal made during the save: \(records)")
            return
        }
        #expect(drawnDuring == 2, "the steps after the saved one (2 of 4 changes)")
        C.crash(a)

        let c = C.journaledWindow(file, journals, options)
        guard case .offerRestore = c.mode else {
            Issue.record("the strokes drawn during the save are not offered: \(c.mode)")
            return
        }
        c.answer(.restore)
        for x in [10, 20, 30, 40] {
            #expect(c.engine.viewPixel(x: x, y: 30) == Color.black.pixel, "the stroke at x \(x)")
        }
        #expect(c.engine.viewPixel(x: 70, y: 30) != Color.black.pixel, "the stroke undone and replaced")
        C.lookAtFile(c)
        #expect(!c.changedOnDisk && c.isModified, "\(c.title) \(c.message)")
        // Two undos reach the picture the file holds: saved.
        c.undo()
        #expect(c.isModified)
        c.undo()
        #expect(!c.isModified && c.title == "shared.png — SwiftPaint", "\(c.title)")
        c.redo()
        c.redo()
        T.key(c, "s", .control)
        #expect(c.mode == .normal && !c.isModified, "saved over its own file unasked: \(c.mode) \(c.message)")
        #expect(FileManager.default.contents(atPath: file) != saved)
        #expect(try C.pixel(file, 40, 30) == 0xFF00_0000)
        c.finish()
    }
}

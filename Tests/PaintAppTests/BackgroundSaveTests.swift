import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Saving on a thread of its own (`savesInBackground`, as the window does): the file holds the
/// picture as it was at Ctrl+S, changes made meanwhile keep the document modified, a second
/// save waits for the first, and leaving waits for the save.
@Suite struct BackgroundSaveTests {
    typealias T = SessionTests

    /// A session that saves in the background, with one stroke drawn, and a folder for files.
    static func drawn() -> (Session, RecordingSink, String) {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        s.savesInBackground = true
        T.drag(s, [(10, 10), (100, 10)])
        return (s, sink, T.temporaryFolder())
    }

    static func decoded(_ path: String) throws -> PixelImage {
        try ImageFile.load(path: path)
    }

    @Test func theFileHoldsThePictureAsItWasAtCtrlSAndStrokesDrawnMeanwhileKeepItModified() throws {
        let (s, sink, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let atCtrlS = s.engine.flattenedImage()
        #expect(s.save(to: dir + "/a.png"))
        #expect(s.isSaving && s.message == "Saving “a.png”…", "\(s.message)")
        // Drawing goes on while it is written.
        T.drag(s, [(10, 60), (100, 60)])
        let after = s.engine.flattenedImage()
        #expect(after != atCtrlS)
        #expect(s.shownMessage == "Saving “a.png”…", "the status bar keeps saying it")
        #expect(s.waitForSave())
        #expect(!s.isSaving && s.message == "Saved to \(dir)/a.png", "\(s.message)")
        #expect(try Self.decoded(dir + "/a.png") == atCtrlS, "the stroke drawn meanwhile is not in the file")
        #expect(s.engine.flattenedImage() == after, "nor taken from the canvas")
        #expect(s.isModified && s.title.hasPrefix("*a.png"), "\(s.title)")
        // The saved step is the one at Ctrl+S: one undo reaches it.
        s.undo()
        #expect(!s.isModified && s.title == "a.png — SwiftPaint")
        // The journal heard of a change after the picture was taken: its save marker says the
        // file holds the picture before it.
        #expect(sink.events == ["saved \(dir)/a.png, 1 drawn during it"], "\(sink.events)")
    }

    @Test func aSaveNothingFollowedIsMarkedInTheJournalAndLeavesTheDocumentSaved() throws {
        let (s, sink, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        s.save(to: dir + "/a.png")
        #expect(s.isModified, "modified until the save is written")
        #expect(s.waitForSave())
        #expect(!s.isModified && sink.events == ["saved \(dir)/a.png"])
    }

    @Test func aStepThatReplacesTheSavedOneMeanwhileLeavesNoSavedStep() throws {
        let (s, _, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        s.save(to: dir + "/a.png")
        // Undone past the picture being saved, then another stroke: no undo reaches it again.
        s.undo()
        T.drag(s, [(10, 40), (100, 40)])
        s.undo()
        #expect(s.waitForSave())
        #expect(s.history.cursor == 0 && s.isModified, "the saved picture is no step of the history")
        s.redo()
        #expect(s.isModified)
    }

    @Test func aSecondSaveDuringOneIsMadeAfterItWithTheLaterPicture() throws {
        let (s, _, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/a.png"
        s.save(to: file)
        s.waitForSave()
        T.drag(s, [(10, 30), (100, 30)])
        s.handle(.key(.character("s"), modifiers: .control))
        #expect(s.isSaving)
        let first = s.engine.flattenedImage()
        T.drag(s, [(10, 60), (100, 60)])
        let second = s.engine.flattenedImage()
        // Ctrl+S again: queued, not written at the same time.
        s.handle(.key(.character("s"), modifiers: .control))
        #expect(s.message == "Saving “a.png”…; saving again when it is done", "\(s.message)")
        #expect(s.waitForSave())
        #expect(try Self.decoded(file) == first)
        #expect(s.isSaving, "the second save started once the first was done")
        #expect(s.waitForSave())
        #expect(try Self.decoded(file) == second)
        #expect(!s.isModified && !s.isSaving)
    }

    @Test func closingDuringASaveWaitsForItThenClosesOrAsks() throws {
        let (s, _, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        s.save(to: dir + "/a.png")
        var effects = s.handle(.key(.character("q"), modifiers: .control))
        #expect(effects.exit == nil && s.mode == .normal)
        #expect(s.message == "Saving “a.png”…; closing once it is saved", "\(s.message)")
        s.waitForSave()
        effects = s.takeEffects()
        #expect(effects.exit == 0, "saved, nothing drawn since: it closes")

        // Drawn on while it was written: closing asks, as for any unsaved change.
        let (t, _, other) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: other) }
        t.save(to: other + "/b.png")
        t.requestClose()
        T.drag(t, [(10, 60), (100, 60)])
        t.waitForSave()
        #expect(t.takeEffects().exit == nil && t.mode == .confirmLeave(.quit))
    }

    @Test func aSaveThatFailsSaysWhyKeepsTheDocumentModifiedAndDoesNotLeave() throws {
        let (s, sink, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        s.save(to: dir + "/no such folder/a.png")
        s.requestClose()
        #expect(!s.waitForSave())
        #expect(s.message.hasPrefix("Cannot save"), "\(s.message)")
        #expect(s.isModified && s.path == nil && sink.events.isEmpty)
        #expect(s.takeEffects().exit == nil && s.mode == .normal, "the user sees why before anything is asked")
    }
}

extension BackgroundSaveTests {
    @Test func ctrlSDuringTheFirstSaveOfAnUntitledPictureSavesAgainUnderItsNewName() throws {
        let (s, _, dir) = Self.drawn()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        s.save(to: dir + "/a.png")
        T.drag(s, [(10, 60), (100, 60)])
        s.handle(.key(.character("s"), modifiers: .control))
        #expect(s.fileDialog == nil, "no Save as: it has a name now")
        s.waitForSave()
        s.waitForSave()
        #expect(try Self.decoded(dir + "/a.png") == s.engine.flattenedImage())
        #expect(!s.isModified)
    }
}

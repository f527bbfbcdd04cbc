import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A picture opened from a damaged file keeps that file out of Ctrl+S's reach, also once it is
/// restored from its crash journal.
@Suite struct DamagedDocumentTests {
    typealias T = SessionTests

    @Test func aDrawingRestoredFromTheJournalOfADamagedFileStillLeavesItAlone() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Noise, so that its compressed rows spread over the file.
        let picture = LongChangeJournalTests.noise(width: 120, height: 80, seed: 18)
        let png = try PNGCodec.encode(picture, withAlpha: false)
        // Cut inside its image data, after its first 8 KB: its top rows open.
        let file = dir + "/photo.png"
        #expect(png.count > 24_000)
        let cut = Array(png[..<(png.count * 3 / 4)])
        try Data(cut).write(to: URL(fileURLWithPath: file))
        let folder = dir + "/journals"
        let s = NewAndOpenTests.session(journalingInto: folder, options: DocumentLoaderTests.options(dir))
        T.key(s, "o", .control)
        NewAndOpenTests.type(s, file)
        #expect(s.document.damage != nil && s.path == file, "\(s.message)")
        #expect(s.message.contains("“\(file)” is damaged: only the top "), "\(s.message)")
        T.drag(s, [(10, 10), (100, 60)])
        T.settleJournal(s)
        let journals = NewAndOpenTests.journals(folder)
        let contents = try JournalReader.read(path: folder + "/" + (journals.last ?? ""))
        let restored = try DocumentJournal.rebuild(contents)
        #expect(restored.path == file && restored.damage != nil && restored.history.cursor == 1)
        // Saved (to another name) since: the journal's save marker; nothing to keep away from.
        let again = NewAndOpenTests.session(
            journalingInto: dir + "/journals2", options: DocumentLoaderTests.options(dir))
        T.key(again, "o", .control)
        NewAndOpenTests.type(again, file)
        T.drag(again, [(10, 10), (100, 60)])
        #expect(again.save(to: dir + "/copy.png"))
        _ = again.waitForSave()  // written in the background, or already here
        #expect(again.document.damage == nil && again.path == dir + "/copy.png", "\(again.message)")
        T.settleJournal(again)
        let saved = try JournalReader.read(
            path: dir + "/journals2/" + (NewAndOpenTests.journals(dir + "/journals2").last ?? ""))
        let afterSave = try DocumentJournal.rebuild(saved)
        #expect(afterSave.damage == nil && afterSave.path == dir + "/copy.png", "\(String(describing: afterSave.path))")
        #expect(Array((try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()) == cut)
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Leaving an unsaved document for a new picture pasted (Ctrl+Shift+V) or a picture opened
/// (Ctrl+O), Save, and then no save after all (its Save As cancelled, Replace refused): the
/// pasted picture or the opened one is let go at once, not held until the next leave.
@Suite struct GivenUpLeaveTests {
    typealias T = SessionTests

    /// How many of this process's descriptors are open on `path`.
    static func descriptors(on path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
        }
        .count
    }

    /// Draws on an untitled picture, asks for a new picture from the clipboard's `picture`
    /// and answers Save: the Save As dialog is up, the decoded paste waiting.
    static func pasteAsNewAndSave(_ s: Session, _ picture: PixelImage) throws {
        T.drag(s, [(10, 10), (100, 60)])
        T.key(s, "v", [.control, .shift])
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: true))
        #expect(s.mode == .confirmLeave(.pastedPicture), "\(s.mode)")
        s.answer(.save)
        let waits = s.pendingPasteAsNew?.image == picture
        #expect(s.fileDialog != nil && waits, "the paste waits for the save")
    }

    @Test func aPasteForANewPictureIsLetGoWhenItsSaveAsIsCancelled() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession(width: 120, height: 80)
        let picture = PixelImage(width: 40, height: 30, fill: 0xFF10_2030)
        try Self.pasteAsNewAndSave(s, picture)
        s.handle(.key(.escape, modifiers: []))
        #expect(s.fileDialog == nil && s.message == "Save cancelled", "\(s.message)")
        // (Compared first: a failure would print every pixel of the paste otherwise.)
        let letGo = s.pendingPasteAsNew == nil
        #expect(letGo, "the decoded paste is let go")
        #expect(s.engine.width == 120 && s.isModified && s.mode == .normal, "the drawing stays as it was")

        // Replace refused: let go too.
        let taken = dir + "/taken.png"
        try ImageFile.save(PixelImage(width: 5, height: 5, fill: 0xFF00_0000), to: taken, withAlpha: false)
        try Self.pasteAsNewAndSave(s, picture)
        T.typeInDialog(s, taken)
        guard case .confirmReplace = s.mode else {
            Issue.record("no Replace question: \(s.mode)")
            return
        }
        s.answer(.cancel)
        let letGoToo = s.pendingPasteAsNew == nil
        #expect(letGoToo && s.engine.width == 120)

        // Saved: the new picture follows, as before.
        try Self.pasteAsNewAndSave(s, picture)
        T.typeInDialog(s, dir + "/drawing.png")
        s.finishSave()
        #expect(FileManager.default.fileExists(atPath: dir + "/drawing.png"), "\(s.message)")
        #expect(s.engine.width == 40 && s.engine.height == 30 && s.engine.flattenedImage() == picture)
        #expect(s.pendingPasteAsNew == nil, "taken by the new picture")
    }

    /// A picture read for Open keeps its file open (the window decodes as it reads and leaves
    /// the bytes there): a cancelled Save As of the unsaved document closes it.
    @Test func aPictureReadForOpenIsLetGoWhenItsSaveAsIsCancelled() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.png"
        try ImageFile.save(PixelImage(width: 300, height: 200, fill: 0xFF40_8020), to: file, withAlpha: false)
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        s.open(file)
        #expect(s.mode == .confirmLeave(.open(file)), "\(s.mode)")
        #expect(Self.descriptors(on: file) == 1, "read and waiting")
        s.answer(.save)
        #expect(s.fileDialog != nil && s.pendingOpen != nil)
        s.handle(.key(.escape, modifiers: []))
        #expect(s.message == "Save cancelled" && s.pendingOpen == nil)
        #expect(Self.descriptors(on: file) == 0, "its file is closed")
        #expect(s.engine.width == 120 && s.path == nil)
    }
}

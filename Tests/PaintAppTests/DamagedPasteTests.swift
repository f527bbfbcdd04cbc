import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A pasted picture whose bytes are damaged or cut short (the clipboard's, or a copied file's)
/// gives what could be read, as Open does, and the status bar says so in the same words: a
/// floating paste and Paste as New Picture, whose new picture is marked damaged as a damaged
/// file opened is (`Document.damage`).
@Suite struct DamagedPasteTests {
    typealias T = SessionTests

    /// A noisy opaque 100 x 80 picture (its compressed rows spread over the file), its PNG cut
    /// at three quarters, and what SwiftPaint reads of that.
    static func cutPNG() throws -> (picture: PixelImage, cut: [UInt8], read: DecodedImage) {
        let picture = LongChangeJournalTests.noise(width: 100, height: 80, seed: 19)
        let png = try PNGCodec.encode(picture, withAlpha: false)
        let cut = Array(png[..<(png.count * 3 / 4)])
        let read = try ImageDecoder.decode(cut, name: "the clipboard")
        let damage = try #require(read.damage)
        #expect(damage.inOrder && damage.rowsRead > 0 && damage.rowsRead < 80, "\(damage)")
        return (picture, cut, read)
    }

    @Test func aCutPictureOnTheClipboardFloatsWhatCouldBeReadAndSaysSo() throws {
        let (picture, cut, read) = try Self.cutPNG()
        let rows = read.damage?.rowsRead ?? 0
        let s = T.makeSession(width: 120, height: 90)
        T.key(s, "v", .control)
        s.pasteNow(png: cut)
        #expect(s.isPlacingPaste)
        #expect(
            s.message
                == "The pasted picture is damaged: only the top \(rows) of 80 rows could be read"
                + " (it is cut short: it ends before the picture does); Enter puts it down, Esc drops it",
            "\(s.message)")
        #expect(Session.isError(s.message), "kept, in red, as a damaged file opened is")
        s.handle(.key(.enter, modifiers: []))
        // The rows read, exactly; white below them.
        let paint = s.engine.paintImage()
        for y in [0, rows - 1, rows, 79] {
            for x in [0, 50, 99] {
                let want = y < rows ? picture[x, y] : Color.white.pixel
                #expect(paint[x, y] == want, "(\(x), \(y))")
            }
        }
    }

    @Test func pasteAsNewPictureOfACutPictureMarksTheNewPictureDamaged() throws {
        let (_, cut, read) = try Self.cutPNG()
        let rows = read.damage?.rowsRead ?? 0
        let s = T.makeSession(width: 120, height: 90)
        T.key(s, "v", [.control, .shift])
        s.pasteNow(png: cut)
        #expect(s.engine.width == 100 && s.engine.height == 80 && s.path == nil && !s.isPlacingPaste, "\(s.message)")
        #expect(s.engine.paintImage() == read.image)
        #expect(s.document.damage == read.damage)
        #expect(
            s.message
                == "The pasted picture is damaged: only the top \(rows) of 80 rows could be read"
                + " (it is cut short: it ends before the picture does); a new picture of it, 100 × 80",
            "\(s.message)")
        #expect(Session.isError(s.message))
        // Ctrl+S asks for a name, the one a damaged file's picture is offered.
        T.key(s, "s", .control)
        #expect(
            s.fileDialog?.field.text == "untitled (recovered).png", "\(String(describing: s.fileDialog?.field.text))")
    }

    /// The new picture's crash journal keeps its mark (its header's `sourceDamage`: the
    /// journal holds a blank canvas and the paste, no damaged bytes to decode): the drawing
    /// restored after a crash is still saved as `untitled (recovered).png`, until a save.
    /// Before, the restored picture lost the mark and Ctrl+S offered `untitled.png`.
    @Test func pasteAsNewPictureKeepsItsMarkThroughACrashRestore() throws {
        let (_, cut, read) = try Self.cutPNG()
        let journals = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: journals) }
        let s = T.makeSession(width: 120, height: 90)
        s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: journals)
        T.key(s, "v", [.control, .shift])
        s.pasteNow(png: cut)
        T.drag(s, [(10, 10), (60, 40)])
        T.settleJournal(s)
        let path = try #require((s.sink as? DocumentJournal)?.path, "no journal")
        let contents = try JournalReader.read(path: path)
        #expect(contents.header.sourceDamage == read.damage && contents.header.baseImage == nil)
        let restored = try DocumentJournal.rebuild(contents)
        #expect(restored.damage == read.damage && restored.path == nil)
        #expect(restored.engine.paintImage() == s.engine.paintImage())
        let t = T.makeSession(width: 10, height: 10)
        t.install(restored, message: "", journal: nil, anotherPicture: true)
        T.key(t, "s", .control)
        #expect(
            t.fileDialog?.field.text == "untitled (recovered).png", "\(String(describing: t.fileDialog?.field.text))")
        // Saved, the mark goes: a journal with the save restores the saved file's document.
        FormatsTests.saveAs(s, journals + "/copy.png")
        s.waitForSave()
        #expect(s.document.damage == nil && s.path == journals + "/copy.png", "\(s.message)")
        T.settleJournal(s)
        let saved = try DocumentJournal.rebuild(
            JournalReader.read(path: try #require((s.sink as? DocumentJournal)?.path)))
        #expect(saved.damage == nil && saved.path == journals + "/copy.png")
    }

    @Test func aWholePictureIsPastedAsBefore() throws {
        let (picture, _, _) = try Self.cutPNG()
        let s = T.makeSession(width: 120, height: 90)
        T.key(s, "v", [.control, .shift])
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: false))
        #expect(s.document.damage == nil && s.message == "New picture from the clipboard, 100 × 80", "\(s.message)")
        T.key(s, "s", .control)
        #expect(s.fileDialog?.field.text == "untitled.png")
    }

    @Test func aCutFileCopiedInAFileManagerIsNamedInTheMessage() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, cut, read) = try Self.cutPNG()
        let rows = read.damage?.rowsRead ?? 0
        let file = dir + "/photo.png"
        try Data(cut).write(to: URL(fileURLWithPath: file))
        let s = T.makeSession(width: 120, height: 90)
        T.key(s, "v", .control)
        s.pasteFiles([file])
        s.finishPaste()
        #expect(s.isPlacingPaste)
        #expect(
            s.message.hasPrefix("“\(file)” is damaged: only the top \(rows) of 80 rows could be read"), "\(s.message)")
        // Ctrl+B's picture from such a file: the background shows what could be read, said so.
        s.handle(.key(.escape, modifiers: []))
        T.key(s, "b", .control)
        T.typeInDialog(s, file)
        s.finishPaste()  // read on a thread of its own, as a paste is
        #expect(
            s.message.hasPrefix("“\(file)” is damaged: only the top \(rows) of 80 rows could be read")
                && s.message.hasSuffix("; the background shows what could be read"), "\(s.message)")
    }
}

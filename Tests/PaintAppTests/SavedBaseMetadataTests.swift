import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintApp
@testable import PaintIO

/// A file saved with its history goes to someone else: it holds what it shows, never the
/// opened file's metadata (EXIF with a GPS position and a thumbnail, comments, text chunks).
@Suite struct SavedBaseMetadataTests {
    typealias T = SessionTests
    typealias L = DocumentLoaderTests

    @Test(arguments: ["photo.jpg", "drawing.png"])
    func aPictureSavedWithItsHistoryCarriesNoneOfTheOpenedFilesMetadata(_ name: String) throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        if let failure = try Reference.run("metadata.py", ["make", dir]) {
            Issue.record("metadata.py make: \(failure)")
            return
        }
        let source = dir + "/" + name
        // The search finds what the source carries, compressed text too: its silence on the
        // saved file means something.
        let inSource = try Reference.run("metadata.py", ["find", source]) ?? ""
        #expect(inSource.contains(name == "photo.jpg" ? "GPS-SECRET-AREA" : "PNG-SECRET-ZTEXT"), "\(inSource)")

        let options = L.options(dir)
        let s = L.open(source, options)
        s.makesThumbnails = false
        let opened = s.engine.paintImage()
        T.drag(s, [(10, 10), (70, 50)])
        let drawn = s.engine.flattenedImage()
        T.key(s, "s", [.control, .shift])
        T.key(s, "h", .alt)
        let saved = dir + "/shared.png"
        T.typeInDialog(s, saved)
        #expect(s.carriesHistory, "\(s.message)")
        let found = try Reference.run("metadata.py", ["find", saved])
        #expect(found == nil, "\(found ?? "")")
        guard case .archive(let archive) = HistoryChunk.extract(from: try L.bytes(saved)), let base = archive.baseImage
        else {
            Issue.record("no history in the saved file: \(s.message)")
            return
        }
        guard case .complete(let chunks) = PNGChunks.walk(base) else {
            Issue.record("the starting picture is not a PNG")
            return
        }
        let types = chunks.map { String(decoding: $0.type, as: UTF8.self) }
        #expect(types.allSatisfy { ["IHDR", "PLTE", "tRNS", "sRGB", "IDAT", "IEND"].contains($0) }, "\(types)")

        // Another computer opens it with its history; undo reaches the picture as it opened.
        let reopened = L.open(saved, L.options(dir, store: "other"))
        #expect(reopened.history.cursor == 1, "\(reopened.message)")
        #expect(L.shows(reopened.engine, drawn))
        T.key(reopened, "z", .control)
        #expect(reopened.engine.paintImage() == opened)
    }
}

import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// The starting picture a file saved with its history carries: its pixels and nothing else.
@Suite struct CleanBaseTests {
    static func holds(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func aCleanPNGIsKeptAsItIsAndAnythingElseBecomesThePicturesOwnPNG() throws {
        let picture = Support.opaqueImage(width: 31, height: 17)
        let png = try PNGCodec.encode(picture, withAlpha: true)
        #expect(CleanBase.of(png) == png, "SwiftPaint's own PNG is already clean")
        // A text chunk, bytes after IEND, a JPEG with a comment segment.
        let withText = HistoryChunkTests.withRawChunk(png, Array("Comment\0SECRET-TEXT".utf8), type: "tEXt")
        let trailing = png + Array("SECRET-TAIL".utf8)
        var jpeg = try JPEGCodec.encode(picture, quality: 90)
        jpeg.insert(contentsOf: [0xFF, 0xFE, 0, 15] + Array("SECRET-COMMENT".utf8).dropLast(1), at: 2)
        for (bytes, secret) in [(withText, "SECRET-TEXT"), (trailing, "SECRET-TAIL"), (jpeg, "SECRET-COMMEN")] {
            #expect(Self.holds(bytes, secret), "the source holds its secret")
            let clean = try #require(CleanBase.of(bytes))
            #expect(!Self.holds(clean, secret), "\(secret) kept")
            #expect(CleanBase.isClean(clean))
            let shown = try ImageDecoder.decode(bytes, name: "source").image
            #expect(try ImageDecoder.decode(clean, name: "clean").image == shown, "\(secret): other pixels")
        }
        #expect(CleanBase.of(Array("not a picture".utf8)) == nil)
    }

    @Test func aPortableSaveCarriesTheCleanStartAndTheStoreKeepsItsOwn() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("h"))
        let picture = Support.opaqueImage(width: 31, height: 17)
        var start = try JPEGCodec.encode(Support.opaqueImage(width: 8, height: 5), quality: 90)
        start.insert(contentsOf: [0xFF, 0xFE, 0, 8] + Array("SECRET".utf8), at: 2)
        var archive = try HistoryChunkTests.archive(strokes: 5, image: picture)
        archive.baseImage = start
        let history = SavedHistory(archive: archive, store: store, portable: true)
        let outcome = try ImageFile.save(picture, to: folder.file("a.png"), withAlpha: false, history: history)
        #expect(outcome.carried && outcome.problem == nil, "\(outcome)")
        let bytes = try #require(Support.get(folder.file("a.png")))
        guard case .archive(let carried) = HistoryChunk.extract(from: bytes), let base = carried.baseImage else {
            Issue.record("no history in the file")
            return
        }
        #expect(!Self.holds(base, "SECRET") && CleanBase.isClean(base))
        #expect(
            try ImageDecoder.decode(base, name: "").image == ImageDecoder.decode(start, name: "").image)
        // This computer's store is not given to anyone: it keeps the opened file's bytes.
        guard case .entry(let kept, _) = store.find(HistoryKey(of: picture)) else {
            Issue.record("nothing in the store")
            return
        }
        #expect(kept.baseImage == start)
    }
}

import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

@Suite struct SavedHistoryTests {
    /// A partly transparent picture: saved without alpha (RGB), it is flattened onto white and
    /// reads back opaque, so only a key of the decoded pixels finds the entry, as for a JPEG.
    static func translucent() -> PixelImage {
        var image = Support.opaqueImage(width: 31, height: 17)
        for i in image.pixels.indices where i % 3 == 0 {
            image.pixels[i] = Pixel.premultiply(image.pixels[i] & 0x00FF_FFFF | UInt32(i % 251) << 24)
        }
        return image
    }

    static func history(_ store: HistoryStore?, portable: Bool) throws -> SavedHistory {
        SavedHistory(
            archive: try HistoryChunkTests.archive(strokes: 25, image: Support.opaqueImage(width: 31, height: 17)),
            store: store, portable: portable)
    }

    static func chunkTypes(_ path: String) -> [String] {
        guard let bytes = Support.get(path), case .complete(let chunks) = PNGChunks.walk(bytes) else { return [] }
        return chunks.map { String(decoding: $0.type, as: UTF8.self) }
    }

    @Test func aPlainSaveKeepsTheHistoryOnlyInTheStoreUnderTheDecodedPixels() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("data/swiftpaint/history"))
        let picture = Self.translucent()
        let history = try Self.history(store, portable: false)
        let outcome = try ImageFile.save(picture, to: folder.file("a.png"), withAlpha: false, history: history)

        // The file holds the picture and nothing else of SwiftPaint's.
        #expect(!Self.chunkTypes(folder.file("a.png")).contains("spHS"))
        #expect(Self.chunkTypes(folder.file("a.png")).contains("IDAT"))
        let bytes = try #require(Support.get(folder.file("a.png")))
        #expect(HistoryChunk.extract(from: bytes) == .none)
        #expect(outcome.carried == false)
        #expect(outcome.problem == nil)

        // The store has it, under the key of what a reader decodes, which here is not the
        // picture in memory.
        let reread = try ImageFile.load(path: folder.file("a.png"))
        #expect((reread == picture) == false)
        #expect((store.find(HistoryKey(of: picture)) == .none) == true)
        var expected = history.archive
        expected.pixelHash = DocumentArchive.hash(reread)
        // The file's pixels are not the picture's (it was flattened onto white to go without
        // alpha): the entry names the picture, which replaying the history gives.
        #expect(store.find(HistoryKey(of: reread)) == .entry(archive: expected, picture: HistoryKey(of: picture)))
        #expect(outcome.kept?.bytes == Support.get(store.path(for: HistoryKey(of: reread)))?.count)
    }

    @Test func aSaveThatFailsLeavesNoHistoryOfItsOwnInTheStore() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("data/swiftpaint/history"))
        let picture = Support.opaqueImage(width: 31, height: 17)
        let history = try Self.history(store, portable: false)
        // The file cannot be written (its folder is gone): no entry stays for its pixels.
        #expect(throws: ImageFileError.self) {
            try ImageFile.save(picture, to: folder.file("gone/a.png"), withAlpha: false, history: history)
        }
        #expect(store.entries().isEmpty, "a history kept for a picture no file holds")
        #expect(folder.entries("data/swiftpaint/history").isEmpty)

        // An entry the same pixels had from an earlier save (another file) stays.
        try ImageFile.save(picture, to: folder.file("a.png"), withAlpha: false, history: history)
        #expect(store.entries().count == 1)
        #expect(throws: ImageFileError.self) {
            try ImageFile.save(picture, to: folder.file("gone/b.png"), withAlpha: false, history: history)
        }
        #expect(store.find(HistoryKey(of: picture)) != .none, "a.png's history is still kept")
    }

    /// Every file in `folder` with its bytes and its time of last use: what "as it was" means.
    static func snapshot(_ folder: String) -> [String: ([UInt8], Int64)] {
        var files: [String: ([UInt8], Int64)] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var info = stat()
            _ = lstat(folder + "/" + name, &info)
            files[name] = (
                Support.get(folder + "/" + name) ?? [],
                Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            )
        }
        return files
    }

    static func same(_ a: [String: ([UInt8], Int64)], _ b: [String: ([UInt8], Int64)]) -> Bool {
        a.count == b.count && a.allSatisfy { name, file in b[name].map { $0.0 == file.0 && $0.1 == file.1 } ?? false }
    }

    @Test func aSaveThatFailsLeavesTheStoreAsItWasWithEveryOtherPicturesHistory() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let pictures = (0..<3).map { Support.opaqueImage(width: 31 + $0, height: 17) }
        // Two pictures' histories fill the store; a third one's would push the older out.
        let probe = HistoryStore(folder: folder.file("probe"))
        let one = try #require(
            try ImageFile.save(
                pictures[0], to: folder.file("probe.png"), withAlpha: false,
                history: Self.history(probe, portable: false)
            )
            .kept?.bytes)
        let store = HistoryStore(folder: folder.file("history"), capBytes: one * 5 / 2)
        let history = try Self.history(store, portable: false)
        for i in 0..<2 {
            try ImageFile.save(pictures[i], to: folder.file("\(i).png"), withAlpha: false, history: history)
        }
        #expect(store.entries().count == 2)
        let before = Self.snapshot(store.folder)

        // The file cannot be written (its folder is gone): the store is as it was, both
        // histories and their times of last use.
        #expect(throws: ImageFileError.self) {
            try ImageFile.save(pictures[2], to: folder.file("gone/2.png"), withAlpha: false, history: history)
        }
        #expect(Self.same(Self.snapshot(store.folder), before), "\(Self.snapshot(store.folder).keys.sorted())")

        // A failed save of the same pixels as a kept picture, with another history: the kept
        // history is the one that stays.
        var other = history
        other.archive = try HistoryChunkTests.archive(strokes: 3, image: Support.opaqueImage(width: 31, height: 17))
        #expect(throws: ImageFileError.self) {
            try ImageFile.save(pictures[0], to: folder.file("gone/0.png"), withAlpha: false, history: other)
        }
        #expect(Self.same(Self.snapshot(store.folder), before), "\(Self.snapshot(store.folder).keys.sorted())")

        // The same save that succeeds drops the least recently used history to fit the cap.
        let outcome = try ImageFile.save(pictures[2], to: folder.file("2.png"), withAlpha: false, history: history)
        #expect(outcome.kept?.dropped == 1)
        #expect(Set(store.entries().map(\.key)) == [HistoryKey(of: pictures[1]), HistoryKey(of: pictures[2])])
    }

    @Test func aPortableSaveCarriesTheHistoryInTheFileAndKeepsItToo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("h"))
        let picture = Support.opaqueImage(width: 31, height: 17)
        let history = try Self.history(store, portable: true)
        let outcome = try ImageFile.save(picture, to: folder.file("a.png"), withAlpha: false, history: history)
        #expect(outcome.carried)
        var expected = history.archive
        expected.pixelHash = DocumentArchive.hash(picture)
        #expect(HistoryChunk.extract(from: try #require(Support.get(folder.file("a.png")))) == .archive(expected))
        #expect(store.find(HistoryKey(of: picture)) == .entry(archive: expected, picture: HistoryKey(of: picture)))
        // The pixels are the picture's, chunk or not.
        #expect(try ImageFile.load(path: folder.file("a.png")) == picture)
    }

    @Test func aStoreThatCannotBeWrittenLeavesTheSaveDoneAndSaysWhy() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        // A file where the store's folder should be.
        Support.put([1], folder.file("data"))
        let store = HistoryStore(folder: folder.file("data/swiftpaint/history"))
        let picture = Support.opaqueImage(width: 31, height: 17)
        let outcome = try ImageFile.save(
            picture, to: folder.file("a.png"), withAlpha: false, history: try Self.history(store, portable: false))
        #expect(outcome.kept == nil)
        #expect(
            outcome.problem?.hasPrefix("its history was not kept: the history store") == true,
            "\(outcome.problem ?? "")")
        #expect(try ImageFile.load(path: folder.file("a.png")) == picture)
    }

    @Test func noStoreOrAZeroCapKeepsNothingAnywhere() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let picture = Support.opaqueImage(width: 31, height: 17)
        let zero = HistoryStore(folder: folder.file("h"), capBytes: 0)
        for history in [try Self.history(nil, portable: false), try Self.history(zero, portable: false)] {
            var outcome = try ImageFile.save(picture, to: folder.file("a.png"), withAlpha: false, history: history)
            // The file written is known; no history is.
            #expect(outcome.file == FileVersion.current(path: folder.file("a.png")))
            outcome.file = nil
            #expect(outcome == SavedHistory.Outcome())
            #expect(!Self.chunkTypes(folder.file("a.png")).contains("spHS"))
        }
        #expect(folder.entries() == ["a.png"])
    }

    @Test func aJPEGSaveKeepsTheHistoryUnderItsDecodedPixelsNamingThePictureItWasMadeFrom() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("h"))
        let picture = Support.opaqueImage(width: 31, height: 17)
        let history = try Self.history(store, portable: true)
        let outcome = try ImageFile.save(
            picture, to: folder.file("a.jpg"), options: SaveOptions(format: .jpeg), withAlpha: false,
            history: history)
        // A JPEG has no place for the history: kept on this computer only, and the save says so.
        #expect(!outcome.carried)
        #expect(
            outcome.problem == "only a PNG file can carry its history inside; it is kept on this computer",
            "\(outcome.problem ?? "")")
        let shown = try ImageFile.load(path: folder.file("a.jpg"))
        #expect((shown == picture) == false, "JPEG changed no pixel")
        guard case .entry(let archive, let named) = store.find(HistoryKey(of: shown)) else {
            Issue.record("no entry under the JPEG's decoded pixels")
            return
        }
        #expect(named == HistoryKey(of: picture))
        #expect(archive.matches(shown))
        #expect(store.find(HistoryKey(of: picture)) == .none)
    }
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// `--forget FILE`, `--forget-all` and the history store's options.
@Suite struct HistoryForgettingTests {
    /// A fresh folder with a store in it and `picture` saved as `a.png` with its history kept.
    struct Fixture {
        let folder: String
        let store: HistoryStore
        let file: String
        let picture: PixelImage

        init(portable: Bool = false, seed: UInt32 = 1) throws {
            folder = NSTemporaryDirectory() + "/forget-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            store = HistoryStore(folder: folder + "/data/swiftpaint/history")
            file = folder + "/a.png"
            var image = PixelImage(width: 12, height: 9)
            for i in image.pixels.indices { image.pixels[i] = 0xFF00_0000 | UInt32(i) &* 2_654_435_761 &+ seed }
            picture = image
            let archive = DocumentArchive(
                width: 12, height: 9, background: .color(.white), operations: [.clear], pixelHash: 0)
            try ImageFile.save(
                picture, to: file, withAlpha: false,
                history: SavedHistory(archive: archive, store: store, portable: portable))
        }

        var key: HistoryKey { HistoryKey(of: picture) }
        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    @Test func forgetDropsThePicturesEntryAndSaysSo() throws {
        let f = try Fixture()
        defer { f.remove() }
        let other = try Fixture(seed: 7)
        defer { other.remove() }
        try other.store.keep(
            DocumentArchive(width: 1, height: 1, background: .transparent, operations: [], pixelHash: 0), for: other.key
        )
        // The same picture under another name and place finds the same entry.
        let copy = f.folder + "/renamed.png"
        try FileManager.default.copyItem(atPath: f.file, toPath: copy)
        guard case .entry = f.store.find(f.key) else {
            Issue.record("the save kept no history")
            return
        }
        let report = HistoryForgetting.forget(file: copy, store: f.store)
        #expect(report.succeeded)
        #expect(report.message.hasPrefix("Forgot the editing history of "), "\(report.message)")
        #expect(f.store.find(f.key) == .none)
        #expect(FileManager.default.fileExists(atPath: f.file), "the picture itself stays")

        let again = HistoryForgetting.forget(file: f.file, store: f.store)
        #expect(again.succeeded)
        #expect(again.message.hasPrefix("No editing history of "), "\(again.message)")
    }

    @Test func forgettingAFileThatCarriesItsHistorySaysTheFileStillDoes() throws {
        let f = try Fixture(portable: true)
        defer { f.remove() }
        let report = HistoryForgetting.forget(file: f.file, store: f.store)
        #expect(report.succeeded)
        #expect(report.message.contains("still carries its history inside"), "\(report.message)")
    }

    @Test func aFileThatCannotBeReadIsReportedAndNothingIsDropped() throws {
        let f = try Fixture()
        defer { f.remove() }
        #expect(FileManager.default.createFile(atPath: f.folder + "/notes.txt", contents: Data("hello".utf8)))
        for bad in [f.folder + "/missing.png", f.folder + "/notes.txt", f.folder] {
            let report = HistoryForgetting.forget(file: bad, store: f.store)
            #expect(!report.succeeded)
            #expect(report.message.hasPrefix("swiftpaint: cannot forget: "), "\(report.message)")
        }
        #expect(f.store.entries().count == 1)
    }

    @Test func forgetAllEmptiesTheStore() throws {
        let f = try Fixture()
        defer { f.remove() }
        try f.store.keep(
            DocumentArchive(width: 1, height: 1, background: .transparent, operations: [], pixelHash: 0),
            for: HistoryKey(of: PixelImage(width: 1, height: 1)))
        let report = HistoryForgetting.forgetAll(store: f.store)
        #expect(report.succeeded)
        #expect(report.message.contains(": 2 pictures, "), "\(report.message)")
        #expect(f.store.entries().isEmpty)
        #expect(HistoryForgetting.forgetAll(store: f.store).message.hasPrefix("No editing history is kept"))
    }

    @Test func theCommandLineNamesTheStoreItsCapAndPortableSaves() throws {
        #expect(try CommandLineOptions.parse(["--forget", "a.png"]).action == .forget("a.png"))
        #expect(try CommandLineOptions.parse(["--forget-all"]).action == .forgetAll)
        #expect(throws: OptionError.self) { try CommandLineOptions.parse(["--forget"]) }

        let defaults = try CommandLineOptions.parse([])
        #expect(defaults.historyStore?.capBytes == 1 << 30)
        #expect(defaults.historyStore?.folder == HistoryStore.defaultFolder)
        #expect(defaults.saveWithHistory == false)
        #expect(try CommandLineOptions.parse(["--history-disk", "5"]).historyStore?.capBytes == 5 << 20)
        #expect(try CommandLineOptions.parse(["--no-history"]).historyStore == nil)
        #expect(try CommandLineOptions.parse(["--save-with-history"]).saveWithHistory)
        for bad in [["--history-disk"], ["--history-disk", "-1"], ["--history-disk", "lots"]] {
            #expect(throws: OptionError.self) { try CommandLineOptions.parse(bad) }
        }
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A history chunk is believed only when replaying it gives the picture the file shows: a
/// forged or mismatched one opens as the plain picture, with the reason, and a save can then
/// only write what the file showed.
@Suite struct ForgedHistoryTests {
    typealias T = SessionTests

    /// A 64 x 48 white PNG at `file` carrying `archive`, whose hash is forged to match it.
    static func whiteFile(_ file: String, start: HistoryReplay.Start, operations: [PaintCore.Operation]) throws {
        let white = PixelImage(width: 64, height: 48, fill: 0xFFFF_FFFF)
        let archive = DocumentArchive(
            width: start.width, height: start.height, background: start.background, baseImage: start.baseImage,
            operations: operations, pixelHash: DocumentArchive.hash(white))
        let bytes = try HistoryChunk.embed(archive, into: try PNGCodec.encode(white, withAlpha: false))
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    static func expectPlainWhite(_ loaded: (document: Document, message: String), _ reason: String) {
        let document = loaded.document
        #expect(loaded.message.contains("its editing history was left out: \(reason)"), "\(loaded.message)")
        #expect(document.engine.width == 64 && document.engine.height == 48)
        #expect(document.engine.viewPixels.allSatisfy { $0 == 0xFFFF_FFFF })
        #expect(!document.history.canUndo)
        #expect(document.log.isEmpty)
    }

    @Test func aStartingPictureOfAnotherSizeThanTheFileIsLeftOut() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/forged.png"
        let red = try PNGCodec.encode(PixelImage(width: 640, height: 480, fill: 0xFFFF_0000), withAlpha: true)
        try Self.whiteFile(
            file, start: HistoryReplay.Start(width: 64, height: 48, background: .color(.white), baseImage: red),
            operations: [])
        Self.expectPlainWhite(
            try DocumentLoader.load(file, options: CommandLineOptions()),
            "its starting picture is 640 × 480 pixels, not the canvas's 64 × 48")
    }

    @Test func aHistoryThatDoesNotReplayToTheFilesPixelsIsLeftOut() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/forged.png"
        let red = try PNGCodec.encode(PixelImage(width: 64, height: 48, fill: 0xFFFF_0000), withAlpha: true)
        try Self.whiteFile(
            file, start: HistoryReplay.Start(width: 64, height: 48, background: .color(.white), baseImage: red),
            operations: [.stroke(StrokeStyle(), points: [Point(x: 3, y: 3)])])
        Self.expectPlainWhite(
            try DocumentLoader.load(file, options: CommandLineOptions()),
            "replaying it does not give the picture the file shows")
        // Saving writes the white picture the file showed, not the red one the history made.
        let s = DocumentLoaderTests.open(file)
        T.drag(s, [(10, 10), (11, 10)])
        T.key(s, "s", .control)
        let saved = try PNGCodec.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))), name: file)
        #expect(saved[60, 40] == 0xFFFF_FFFF)
    }

    @Test func aHistoryOverItsBudgetOpensAsThePlainPicture() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/fills.png"
        let fill = PaintCore.Operation.fill(StrokeStyle(), at: Point(x: 1, y: 1), tolerance: 0)
        try Self.whiteFile(
            file, start: HistoryReplay.Start(width: 64, height: 48, background: .color(.white), baseImage: nil),
            operations: Array(repeating: fill, count: 10_001))
        Self.expectPlainWhite(
            try DocumentLoader.load(file, options: CommandLineOptions()),
            "it holds 10,001 flood fills, more than the 10,000 SwiftPaint replays")
    }

    @Test func aKeptHistoryOverItsBudgetIsLeftOutBeforeItIsReplayed() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, options) = DocumentLoaderTests.savedDrawing(in: dir, named: "fills.png")
        let shown = try ImageFile.load(path: file)
        // This computer's store reads its entries through the same bounded decoder as a chunk.
        let fill = PaintCore.Operation.fill(StrokeStyle(), at: Point(x: 1, y: 1), tolerance: 0)
        let flood = DocumentArchive(
            width: 80, height: 60, background: .color(.white), operations: Array(repeating: fill, count: 10_001),
            pixelHash: DocumentArchive.hash(shown))
        try options.historyStore?.keep(flood, for: HistoryKey(of: shown))
        let reopened = DocumentLoaderTests.open(file, options)
        #expect(
            reopened.message.contains(
                "its kept history was left out: it holds 10,001 flood fills, more than the 10,000 SwiftPaint replays"),
            "\(reopened.message)")
        #expect(!reopened.history.canUndo)
        #expect(Array(reopened.engine.viewPixels) == Array(s.engine.viewPixels))
    }

    @Test func anHonestHistoryStillOpensWithItsSteps() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, options) = DocumentLoaderTests.savedDrawing(in: dir, named: "honest.png")
        let reopened = try DocumentLoader.load(file, options: options)
        #expect(reopened.document.history.cursor == 1, "\(reopened.message)")
        #expect(Array(reopened.document.engine.viewPixels) == Array(s.engine.viewPixels))
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// PNGs that remember: a saved file reopens with its whole history; anything doubtful opens as a
/// plain picture and says why.
@Suite struct DocumentLoaderTests {
    typealias T = SessionTests

    /// A session on `path` as the program starts it.
    static func open(_ path: String, _ options: CommandLineOptions = CommandLineOptions()) -> Session {
        let (document, message) = DocumentLoader.open(path, options: options)
        return Session(document: document, windowWidth: 1000, windowHeight: 400, message: message)
    }

    /// An 80 x 60 drawing with one stroke, saved (with its history) as `name` in `dir`.
    static func savedDrawing(in dir: String, named name: String) -> (Session, String, CommandLineOptions) {
        let file = dir + "/" + name
        var options = CommandLineOptions()
        options.width = 80
        options.height = 60
        let s = open(file, options)
        T.drag(s, [(10, 10), (70, 50)])
        T.key(s, "s", .control)
        return (s, file, options)
    }

    static func drawSome(_ s: Session) {
        T.key(s, "5")
        T.drag(s, [(10, 10), (60, 40), (150, 20)])
        T.key(s, "0")
        T.drag(s, [(20, 80), (120, 10)])
        T.key(s, "E", .shift)
        let (x, y) = T.window(s, 35, 25)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.release(x: x, y: y, button: .left, modifiers: []))
        T.key(s, "b")
        T.drag(s, [(90, 50), (180, 90)], button: .right)
    }

    @Test func saveReopenUndoToTheStartAndRedoToTheEnd() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/h.png"
        var options = CommandLineOptions()
        options.width = 200
        options.height = 100
        let s = Self.open(file, options)
        var steps = [Array(s.engine.viewPixels)]
        T.drag(s, [(10, 10), (60, 40), (150, 20)])
        steps.append(Array(s.engine.viewPixels))
        Self.drawSome(s)
        steps.append(Array(s.engine.viewPixels))
        T.key(s, "s", .control)
        #expect(!s.isModified)

        let reopened = Self.open(file, options)
        #expect(reopened.message.contains("with its history"), "\(reopened.message)")
        #expect(Array(reopened.engine.viewPixels) == steps.last)
        #expect(!reopened.isModified && reopened.history.cursor == s.history.cursor)
        while reopened.history.canUndo { T.key(reopened, "z", .control) }
        #expect(Array(reopened.engine.viewPixels) == steps[0])
        while reopened.history.canRedo { T.key(reopened, "y", .control) }
        #expect(Array(reopened.engine.viewPixels) == steps.last)
        #expect(!reopened.isModified, "back on the saved step")
    }

    @Test func aReopenedFileOpenedFromAPictureKeepsThatPictureAsTheStart() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.png"
        var picture = PixelImage(width: 120, height: 60, fill: Color(r: 30, g: 140, b: 200).pixel)
        for x in 0..<120 { picture[x, 30] = Color(r: UInt8(x * 2), g: 0, b: 0).pixel }
        try ImageFile.save(picture, to: file, withAlpha: false)
        let s = Self.open(file)
        T.drag(s, [(10, 10), (100, 50)])
        T.key(s, "s", .control)
        let reopened = Self.open(file)
        T.key(reopened, "z", .control)
        #expect(reopened.engine.paintImage() == picture)
    }

    @Test func aFileChangedByAnotherProgramOpensAsAPlainPicture() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, file, options) = Self.savedDrawing(in: dir, named: "edited.png")
        // Another editor repaints a pixel and keeps our unsafe-to-copy chunk (a careless one).
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        guard case .archive(let archive) = HistoryChunk.extract(from: bytes) else {
            Issue.record("no history chunk in the saved file")
            return
        }
        var picture = try PNGCodec.decode(bytes, name: file)
        picture[0, 0] = Color(r: 1, g: 2, b: 3).pixel
        let foreign = try HistoryChunk.embed(archive, into: try PNGCodec.encode(picture, withAlpha: false))
        try Data(foreign).write(to: URL(fileURLWithPath: file))
        let reopened = Self.open(file, options)
        #expect(reopened.message.contains("another program changed the picture"), "\(reopened.message)")
        #expect(!reopened.history.canUndo)
        #expect(reopened.engine.viewPixel(x: 0, y: 0) == Color(r: 1, g: 2, b: 3).pixel)
    }

    @Test func aDamagedHistoryOpensAsAPlainPictureAndSaysWhy() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, options) = Self.savedDrawing(in: dir, named: "damaged.png")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        // Flip a byte inside the history chunk's data (just before IEND's 12 bytes and its CRC).
        bytes[bytes.count - 12 - 4 - 10] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let reopened = Self.open(file, options)
        #expect(reopened.message.contains("left out"), "\(reopened.message)")
        #expect(Array(reopened.engine.viewPixels) == Array(s.engine.viewPixels))
    }

    @Test func noHistorySavesAPlainPNG() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/plain.png"
        let s = Self.open(file)
        s.savesHistory = false
        T.drag(s, [(10, 10)])
        T.key(s, "s", .control)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(HistoryChunk.extract(from: bytes) == .none)
    }
}

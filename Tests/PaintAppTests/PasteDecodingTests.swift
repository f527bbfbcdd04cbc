import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

extension Session {
    /// A paste as the window makes it, waited for: floating when this returns.
    func pasteNow(png: [UInt8]) {
        paste(picture: png)
        finishPaste()
    }
}

/// A pasted or dropped picture is decoded on a thread of its own (`PasteDecoding`): the
/// session goes on answering while it decodes, Escape and a new document stop it, a second
/// paste replaces it, and what floats at the end is what a paste decoded in place gave.
@Suite struct PasteDecodingTests {
    typealias T = SessionTests

    /// Waits (on the condition, with a generous time-out) until the paste decoding is placed
    /// or given up, looking as the window's loop does.
    static func waitForPaste(_ s: Session) {
        let deadline = Date().addingTimeInterval(120)
        while s.isDecodingPaste && Date() < deadline {
            s.watch(lookingAtFile: false)
            usleep(2000)
        }
    }

    /// A picture large enough that its decode outlasts the few calls a test makes meanwhile.
    static let large: [UInt8] = {
        var image = PixelImage(width: 3000, height: 3000, fill: Color(r: 20, g: 90, b: 200).pixel)
        for x in 0..<3000 { image[x, 1500] = Color.black.pixel }
        return (try? PNGCodec.encode(image, withAlpha: false)) ?? []
    }()

    @Test func aPasteDecodesWhileTheSessionDrawsAndThenFloatsExactlyAsAPasteInPlace() throws {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        let (reference, _) = T.recordingSession(width: 120, height: 80)
        var picture = PixelImage(width: 30, height: 20, fill: Color(r: 220, g: 30, b: 30).pixel)
        picture[3, 4] = Pixel.pack(r: 10, g: 20, b: 30, a: 128)
        let png = try PNGCodec.encode(picture, withAlpha: true)
        s.handle(.pasted(picture: png))
        #expect(s.isDecodingPaste && !s.isPlacingPaste)
        #expect(s.message == "Pasting 30 × 20…; Escape cancels", "\(s.message)")
        // The session answers meanwhile: a stroke is drawn and recorded.
        T.drag(s, [(10, 10), (100, 60)])
        T.drag(reference, [(10, 10), (100, 60)])
        #expect(s.history.count == 1 && sink.operations.count == 1)
        Self.waitForPaste(s)
        #expect(s.isPlacingPaste && !s.isDecodingPaste)
        // The same as decoded in place, at the same corner, over the same drawing.
        reference.place(try PNGCodec.decode(png, name: "the clipboard"))
        #expect(s.placing?.rect == reference.placing?.rect && s.placing?.image == reference.placing?.image)
        #expect(Array(s.engine.viewPixels) == Array(reference.engine.viewPixels))
        #expect(s.message == reference.message)
        // Journaled when it is put down, as one step, not when it started decoding.
        #expect(sink.operations.count == 1)
        s.handle(.key(.enter, modifiers: []))
        #expect(s.history.count == 2)
        guard case .paste(let kept, 0, 0)? = sink.operations.last else {
            Issue.record("the journal heard \(String(describing: sink.operations.last))")
            return
        }
        #expect(kept == (try PNGCodec.decode(png, name: "the clipboard")))
        T.key(s, "z", .control)
        #expect(s.history.cursor == 1 && s.engine.paintPixel(x: 3, y: 4) != kept[3, 4])
    }

    @Test func escapeStopsTheDecodeAndNothingIsPasted() {
        let s = T.makeSession(width: 120, height: 80)
        let before = Array(s.engine.viewPixels)
        s.handle(.pasted(picture: Self.large))
        #expect(s.message == "Pasting 3000 × 3000…; Escape cancels", "\(s.message)")
        guard let decoding = s.pasteDecoding else {
            Issue.record("no decode under way")
            return
        }
        s.handle(.key(.escape, modifiers: []))
        #expect(!s.isDecodingPaste && s.message == "Paste cancelled")
        // The thread stopped between two rows instead of finishing the picture.
        guard case .failure(.damaged(_, let reason)) = decoding.finish() else {
            Issue.record("the decode ran to its end")
            return
        }
        #expect(reason == "the decode was stopped")
        s.watch(lookingAtFile: false)
        #expect(!s.isPlacingPaste && Array(s.engine.viewPixels) == before && !s.history.canUndo)
    }

    /// A large 24-bit BMP, by hand: rows of one color, bottom-up.
    static func bmp(width: Int, height: Int) -> [UInt8] {
        let rowBytes = (width * 3 + 3) / 4 * 4
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        var out = Array("BM".utf8) + le32(54 + rowBytes * height) + le32(0) + le32(54)
        out += le32(40) + le32(width) + le32(height) + [1, 0, 24, 0] + le32(0)
        out += le32(rowBytes * height) + le32(2835) + le32(2835) + le32(0) + le32(0)
        return out + [UInt8](repeating: 0x60, count: rowBytes * height)
    }

    /// A Ctrl-dropped JPEG or BMP cancelled with Escape stops decoding midway, as a PNG does:
    /// it used to run to its end on its thread, holding the whole picture, and then be dropped.
    @Test func escapeStopsADroppedJPEGOrBMPMidway() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = PixelImage(width: 3000, height: 3000, fill: Color(r: 20, g: 90, b: 200).pixel)
        let files = [
            ("large.jpg", try JPEGCodec.encode(picture, quality: 90)),
            ("large.bmp", Self.bmp(width: 3000, height: 3000)),
        ]
        for (name, bytes) in files {
            let path = dir + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let s = T.makeSession(width: 120, height: 80)
            s.handle(.dropped(paths: [path], paste: true))
            #expect(s.message == "Pasting 3000 × 3000…; Escape cancels", "\(name): \(s.message)")
            guard let decoding = s.pasteDecoding else {
                Issue.record("\(name): no decode under way")
                continue
            }
            s.handle(.key(.escape, modifiers: []))
            #expect(!s.isDecodingPaste && s.message == "Paste cancelled", "\(name)")
            guard case .failure(let error) = decoding.finish() else {
                Issue.record("\(name): the decode ran to its end")
                continue
            }
            #expect(error == .stopped(path: path), "\(name): \(error)")
            s.watch(lookingAtFile: false)
            #expect(!s.isPlacingPaste && !s.history.canUndo, "\(name)")
        }
    }

    @Test func aNewDocumentDropsThePasteAndASecondPasteReplacesTheFirst() throws {
        let s = T.makeSession(width: 120, height: 80)
        s.handle(.pasted(picture: Self.large))
        let first = s.pasteDecoding
        T.key(s, "n", .control)
        #expect(!s.isDecodingPaste, "\(s.mode)")
        if case .failure(.damaged(_, let reason))? = first?.finish() {
            #expect(reason == "the decode was stopped")
        } else {
            Issue.record("the decode ran to its end")
        }
        s.watch(lookingAtFile: false)
        #expect(!s.isPlacingPaste && !s.history.canUndo)
        // A second paste while the first decodes: the first stops, the second floats.
        s.handle(.pasted(picture: Self.large))
        let large = s.pasteDecoding
        let small = try PNGCodec.encode(PixelImage(width: 7, height: 5, fill: Color.black.pixel), withAlpha: false)
        s.handle(.pasted(picture: small))
        if case .failure(.damaged(_, let reason))? = large?.finish() {
            #expect(reason == "the decode was stopped")
        } else {
            Issue.record("the first decode ran to its end")
        }
        Self.waitForPaste(s)
        #expect(s.placing?.rect == IntRect(x: 0, y: 0, width: 7, height: 5))
    }

    /// What is on the clipboard is no file: garbage pasted with Ctrl+V says "Cannot paste: …"
    /// about the clipboard, not "Cannot open “the clipboard”"; a Ctrl-dropped file that is no
    /// picture still says what Open says about it. Nothing is pasted either way.
    @Test func aPasteThatIsNoPictureSaysSoAboutTheClipboardAndADroppedFileAsOpenDoes() throws {
        let s = T.makeSession(width: 120, height: 80)
        let truncated: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        let expected: [([UInt8], String)] = [
            ([], "Cannot paste: the clipboard is empty"),
            (
                Array("hello".utf8),
                "Cannot paste: the clipboard holds no picture SwiftPaint can read (PNG, JPEG, BMP, WebP or GIF)"
            ),
            (truncated, "Cannot paste: the clipboard's picture is cut short ("),
            (Array(Self.large.prefix(4000)), "Cannot paste: the clipboard's picture is "),
        ]
        for (bytes, message) in expected {
            s.handle(.pasted(picture: bytes))
            Self.waitForPaste(s)
            #expect(s.message.hasPrefix(message), "\(bytes.count) bytes: \(s.message)")
            #expect(!s.message.contains("“the clipboard”") && !s.message.contains("file"), "\(s.message)")
            #expect(!s.isPlacingPaste && !s.history.canUndo)
        }
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/garbage.png"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: file))
        s.handle(.dropped(paths: [file], paste: true))
        Self.waitForPaste(s)
        var open = ""
        do { _ = try ImageFile.load(path: file) } catch { open = error.description }
        #expect(open.hasPrefix("Cannot open “") && s.message == open, "\(s.message)")
        #expect(!s.isPlacingPaste && !s.history.canUndo)
    }

    /// The clipboard's bytes are decoded by their content: a BMP or JPEG another program
    /// offered floats as its picture (only PNG was read before).
    @Test func aBMPOrJPEGFromTheClipboardFloatsAsItsPicture() throws {
        let bmp = Self.bmp(width: 30, height: 20)
        let jpeg = try ImageEncoder.encode(
            PixelImage(width: 30, height: 20, fill: Color(r: 40, g: 90, b: 200).pixel),
            options: SaveOptions(format: .jpeg),
            withAlpha: false)
        for bytes in [bmp, jpeg] {
            let s = T.makeSession(width: 120, height: 80)
            s.handle(.pasted(picture: bytes))
            Self.waitForPaste(s)
            #expect(s.isPlacingPaste, "\(s.message)")
            #expect(s.placing?.image == (try ImageDecoder.decode(bytes, name: "x").image))
        }
    }

    /// A file copied in a file manager pastes its picture; a folder (or a file gone since)
    /// says so and pastes nothing.
    @Test func aCopiedFilePastesItsPictureAndAFolderSaysSo() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = PixelImage(width: 25, height: 15, fill: Color(r: 10, g: 200, b: 30).pixel)
        try ImageFile.save(picture, to: dir + "/a.png", withAlpha: false)
        let s = T.makeSession(width: 120, height: 80)
        s.handle(.pastedFiles([dir + "/gone.png", dir]))
        Self.waitForPaste(s)
        #expect(
            !s.isPlacingPaste && s.message.hasPrefix("Cannot paste: “") && s.message.hasSuffix("is gone or not a file"))
        s.handle(.pastedFiles([dir, dir + "/a.png"]))
        Self.waitForPaste(s)
        #expect(s.placing?.image == picture, "the first file of the list: \(s.message)")
    }

    @Test func aStoppedControlEndsAPNGDecodeAtItsFirstRow() throws {
        let control = ReplayControl()
        control.stop()
        #expect(throws: ImageFileError.self) { try PNGCodec.decode(Self.large, name: "x", control: control) }
        #expect(try PNGCodec.decode(Self.large, name: "x", control: ReplayControl()).width == 3000)
    }
}

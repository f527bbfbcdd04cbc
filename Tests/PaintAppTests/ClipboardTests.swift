import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Ctrl+C and Ctrl+V in the session: what the window is asked to do with the clipboard, and
/// what a pasted picture does to the document.
@Suite struct ClipboardTests {
    typealias T = SessionTests

    @Test func copyOffersThePictureAsSavedAndPasteAsksForTheClipboard() throws {
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        #expect(s.takeClipboardRequest() == nil)
        T.key(s, "c", .control)
        guard case .offer(let png)? = s.takeClipboardRequest() else {
            Issue.record("Ctrl+C offered nothing")
            return
        }
        #expect(try PNGCodec.decode(png, name: "clip") == s.engine.flattenedImage())
        #expect(s.takeClipboardRequest() == nil, "a request is taken once")
        T.key(s, "v", .control)
        #expect(s.takeClipboardRequest() == .fetch)
    }

    @Test func aPastedPictureLandsAtTheVisibleCornerAsOneUndoableStep() throws {
        let s = T.makeSession(width: 120, height: 80)
        let sink = RecordingSink()
        s.sink = sink
        T.drag(s, [(10, 10), (100, 60)])
        let drawn = Array(s.engine.viewPixels)
        let red = Color(r: 220, g: 30, b: 30)
        let png = try PNGCodec.encode(PixelImage(width: 30, height: 20, fill: red.pixel), withAlpha: false)
        s.paste(png: png)
        #expect(s.engine.viewPixel(x: 0, y: 0) == red.pixel && s.engine.viewPixel(x: 29, y: 19) == red.pixel)
        #expect(s.engine.viewPixel(x: 30, y: 0) == drawn[30] && s.engine.viewPixel(x: 0, y: 20) == drawn[20 * 120])
        #expect(s.isModified && s.message == "Pasted 30 × 20 at 0, 0")
        guard case .paste(_, 0, 0)? = sink.operations.last else {
            Issue.record("the journal heard \(String(describing: sink.operations.last))")
            return
        }
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == drawn)
        // A picture larger than the canvas is cropped, and says so.
        s.paste(png: try PNGCodec.encode(PixelImage(width: 300, height: 10, fill: red.pixel), withAlpha: false))
        #expect(s.message.hasSuffix("cropped to the canvas"))
        guard case .paste(let kept, 0, 0)? = sink.operations.last else {
            Issue.record("no paste recorded")
            return
        }
        #expect(kept.width == 120 && kept.height == 10, "only the part on the canvas is kept")
    }

    @Test func clipboardBytesThatAreNoPictureChangeNothing() {
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        let drawn = Array(s.engine.viewPixels)
        let steps = s.history.count
        let truncated: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        for bytes in [[], Array("hello".utf8), truncated] {
            s.paste(png: bytes)
            #expect(s.message.hasPrefix("Cannot"), "\(bytes.count) bytes: \(s.message)")
            #expect(Array(s.engine.viewPixels) == drawn && s.history.count == steps)
        }
    }
}

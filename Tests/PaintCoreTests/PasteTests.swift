import TestSupport
import Testing

@testable import PaintCore

/// Pasting a picture: laid over the paint, source over, cropped to the canvas, one step of the
/// history, and the same bytes back from its binary form.
@Suite struct PasteTests {
    /// A premultiplied picture with opaque, half-transparent and transparent pixels.
    static func picture(_ width: Int, _ height: Int, seed: UInt64) -> PixelImage {
        var rng = SplitMix(seed: seed)
        var image = PixelImage(width: width, height: height)
        for i in image.pixels.indices {
            let a = UInt32([255, 128, 0, UInt32(rng.next() % 256)][i % 4])
            func channel() -> UInt32 { a == 0 ? 0 : UInt32(rng.next() % UInt64(a + 1)) }
            image.pixels[i] = a << 24 | channel() << 16 | channel() << 8 | channel()
        }
        return image
    }

    @Test func aPasteIsSourceOverTheTouchedPixelsOnlyAndCroppedToTheCanvas() {
        let engine = StrokeEngine(width: 60, height: 40)
        Operation.stroke(
            StrokeStyle(color: Color(r: 10, g: 200, b: 90), opacity: 0.6, width: 9),
            points: [
                Point(x: 5, y: 5), Point(x: 55, y: 35),
            ]
        ).apply(to: engine)
        let before = engine.paintImage()
        let image = Self.picture(30, 20, seed: 3)
        let dirty = Operation.paste(image, x: 45, y: 30).apply(to: engine)
        #expect(dirty == IntRect(x: 45, y: 30, width: 15, height: 10), "cropped to the canvas")
        for y in 0..<40 {
            for x in 0..<60 {
                let d = before[x, y]
                var want = d
                if x >= 45 && y >= 30 {
                    let s = image[x - 45, y - 30]
                    let ia = 255 - (s >> 24)
                    want = 0
                    for shift: UInt32 in [0, 8, 16, 24] {
                        let c = (s >> shift & 0xFF) + ((d >> shift & 0xFF) * ia + 127) / 255
                        want |= c << shift
                    }
                }
                #expect(engine.paintPixel(x: x, y: y) == want, "(\(x), \(y))")
            }
        }
    }

    @Test func undoTakesAPasteBackAndRedoAndReplayPutItAgain() {
        let engine = StrokeEngine(width: 50, height: 50)
        let history = History(base: nil)
        let stroke = Operation.stroke(StrokeStyle(width: 7), points: [Point(x: 2, y: 25), Point(x: 48, y: 25)])
        history.perform(stroke, engine: engine)
        let drawn = Array(engine.viewPixels)
        let paste = Operation.paste(Self.picture(20, 30, seed: 8), x: -5, y: 10)
        history.perform(paste, engine: engine)
        let pasted = Array(engine.viewPixels)
        #expect(pasted != drawn)
        history.undo(engine: engine)
        #expect(Array(engine.viewPixels) == drawn)
        history.redo(engine: engine)
        #expect(Array(engine.viewPixels) == pasted)
        let replay = StrokeEngine(width: 50, height: 50)
        for op in [stroke, paste] { op.apply(to: replay) }
        #expect(Array(replay.viewPixels) == pasted)
        // Removing the stroke beneath re-renders its region with the paste on top.
        history.removeStroke(at: 0, engine: engine)
        let without = StrokeEngine(width: 50, height: 50)
        paste.apply(to: without)
        #expect(Array(engine.viewPixels) == Array(without.viewPixels))
    }

    @Test func theBinaryFormRoundTripsAndNeverYieldsAnImpossiblePixel() {
        let paste = Operation.paste(Self.picture(7, 5, seed: 1), x: -3, y: 12)
        #expect(Operation(decoding: paste.encoded()) == paste)
        // A channel above its alpha cannot be premultiplied: decoding clamps it.
        var writer = ByteWriter()
        writer.byte(10)
        writer.uint32(0)
        writer.uint32(0)
        writer.image(PixelImage(width: 1, height: 1, pixels: [0x40FF_8020]) ?? PixelImage(width: 1, height: 1))
        guard case .paste(let image, 0, 0)? = Operation(decoding: writer.bytes) else {
            Issue.record("did not decode")
            return
        }
        #expect(image.pixels == [0x4040_4020])
        // Truncated or oversized: nil, never a crash.
        let bytes = paste.encoded()
        for cut in [1, 5, 9, 13, bytes.count - 1] { #expect(Operation(decoding: Array(bytes.prefix(cut))) == nil) }
    }

    @Test func clearingARectangleShowsTheBackgroundAndRoundTrips() {
        let engine = StrokeEngine(width: 40, height: 30)
        Operation.paste(PixelImage(width: 40, height: 30, fill: Color.black.pixel), x: 0, y: 0).apply(to: engine)
        let op = Operation.clearRect(IntRect(x: 35, y: -4, width: 20, height: 10))
        #expect(Operation(decoding: op.encoded()) == op)
        let dirty = op.apply(to: engine)
        #expect(dirty == IntRect(x: 35, y: 0, width: 5, height: 6))
        for y in 0..<30 {
            for x in 0..<40 {
                let cleared = x >= 35 && y < 6
                #expect(
                    engine.viewPixel(x: x, y: y) == (cleared ? Color.white.pixel : Color.black.pixel), "(\(x), \(y))")
            }
        }
        #expect(Operation(decoding: Array(op.encoded().dropLast())) == nil)
    }

    /// A move replays exactly, and removing a stroke from beneath it re-renders the whole
    /// picture (the move carries paint across regions), equal to drawing without that stroke.
    @Test func aMoveReplaysAndSurvivesRemovingAStrokeBeneathIt() {
        let a = Operation.stroke(
            StrokeStyle(color: Color(r: 200, g: 0, b: 0), width: 9),
            points: [
                Point(x: 5, y: 10), Point(x: 35, y: 12),
            ])
        let b = Operation.stroke(
            StrokeStyle(color: Color(r: 0, g: 0, b: 200), width: 5),
            points: [
                Point(x: 10, y: 5), Point(x: 12, y: 30),
            ])
        let move = Operation.moveRect(IntRect(x: 0, y: 0, width: 40, height: 20), dx: 25, dy: 28)
        #expect(Operation(decoding: move.encoded()) == move)
        let engine = StrokeEngine(width: 80, height: 60)
        let history = History(base: nil)
        for op in [a, b, move] { history.perform(op, engine: engine) }
        #expect(engine.paintPixel(x: 20, y: 11) == 0, "the source is cleared")
        #expect(engine.paintPixel(x: 45, y: 39) == Color(r: 200, g: 0, b: 0).pixel, "and the stroke moved")
        history.removeStroke(at: 0, engine: engine)
        let without = StrokeEngine(width: 80, height: 60)
        for op in [b, move] { op.apply(to: without) }
        #expect(Array(engine.viewPixels) == Array(without.viewPixels))
        history.undo(engine: engine)
        history.undo(engine: engine)
        let beforeMove = StrokeEngine(width: 80, height: 60)
        for op in [a, b] { op.apply(to: beforeMove) }
        #expect(Array(engine.viewPixels) == Array(beforeMove.viewPixels))
    }

    /// A paste as pictures: laid over the paint where it lands, cropped at the canvas edge, and
    /// gone again with an undo.
    @Test func aPasteCroppedAtTheEdgeAndUndone() {
        let engine = StrokeEngine(
            image: PixelPictures.image(
                """
                aaaa
                a..a
                aaaa
                """), background: .transparent)
        let history = History(base: engine.paintImage())
        let paste = Operation.paste(
            PixelPictures.image(
                """
                xyz
                uvw
                """), x: 2, y: 1)
        history.perform(paste, engine: engine)
        #expect(
            PixelPictures.text(engine) == """
                aaaa
                a.xy
                aauv
                """)
        history.undo(engine: engine)
        #expect(
            PixelPictures.text(engine) == """
                aaaa
                a..a
                aaaa
                """)
    }
}

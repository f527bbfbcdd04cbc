import TestSupport
import Testing

@testable import PaintCore

/// The text operation: its binary form (hostile bytes included) and its life in the history —
/// replayed as it was shown, undone and redone exactly, removed by the stroke eraser.
@Suite struct TextOperationTests {
    typealias S = EngineTestSupport

    /// A text-like mask: two 5 x 7 "letters" with anti-aliased edges.
    static func spec(x: Int = 6, y: Int = 4) -> TextSpec {
        var bytes = [UInt8](repeating: 0, count: 13 * 7)
        for row in 0..<7 {
            for col in 0..<13 where col % 7 < 5 {
                let edge = col % 7 == 0 || col % 7 == 4 || row == 0 || row == 6
                bytes[row * 13 + col] = edge ? UInt8(90 + row * 10) : 255
            }
        }
        let mask = CoverageMask(x: x + 1, y: y + 2, width: 13, height: 7, bytes: bytes)!
        return TextSpec(
            mask: mask, text: "Hé\nשלום", font: TextFont(family: "DejaVu Sans", size: 9, bold: true), x: x, y: y)
    }

    static let style = StrokeStyle(color: Color(r: 20, g: 60, b: 200), opacity: 0.75, width: 1)

    @Test func roundTripsEveryField() {
        let op = Operation.text(Self.style, Self.spec())
        let bytes = op.encoded()
        #expect(bytes.first == 16)
        #expect(Operation(decoding: bytes) == op)
        var italic = Self.spec(x: -30, y: -2)
        italic.font.italic = true
        italic.font.bold = false
        #expect(Operation(decoding: Operation.text(Self.style, italic).encoded()) == .text(Self.style, italic))
    }

    /// Malformed bytes decode to nil, never a crash or a huge allocation: every cut, random
    /// corruption, a mask claiming two billion pixels, a deflate bomb, bad UTF-8, a size out of
    /// range, bytes left over.
    @Test func hostileTextDecodesToNil() {
        let valid = Operation.text(Self.style, Self.spec()).encoded()
        for cut in 0..<valid.count { #expect(Operation(decoding: Array(valid.prefix(cut))) == nil) }
        #expect(Operation(decoding: valid + [0]) == nil)
        // Header: tag, style (20), box x y, mask x y (16), then width and height.
        let sizeAt = 1 + 20 + 16
        var huge = valid
        huge.replaceSubrange(sizeAt..<(sizeAt + 8), with: [0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0])
        #expect(Operation(decoding: huge) == nil)
        // The mask says 13 x 7; coverage that inflates to more (a bomb) or less is refused.
        let bomb = Zlib.compress([UInt8](repeating: 255, count: 1 << 20))!
        var writer = ByteWriter()
        writer.uint32(UInt32(bomb.count))
        writer.append(bomb)
        let deflatedAt = sizeAt + 8
        let oldLength = Int(valid[deflatedAt]) | Int(valid[deflatedAt + 1]) << 8
        var bombed = valid
        bombed.replaceSubrange(deflatedAt..<(deflatedAt + 4 + oldLength), with: writer.bytes)
        #expect(Operation(decoding: bombed) == nil)
        // Not UTF-8 in the text (its last bytes).
        var badText = valid
        badText[badText.count - 1] = 0xFF
        #expect(Operation(decoding: badText) == nil)
        // A font size out of range.
        var spec = Self.spec()
        spec.font.size = 9
        let sized = Operation.text(Self.style, spec).encoded()
        let familyEnd = deflatedAt + 4 + oldLength + 4 + "DejaVu Sans".utf8.count
        var badSize = sized
        badSize.replaceSubrange(familyEnd..<(familyEnd + 4), with: [0, 0, 0, 0])
        #expect(Operation(decoding: badSize) == nil)
        var rng = SplitMix(seed: 16)
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            _ = Operation(decoding: bytes)
        }
    }

    /// Replay draws what the live text showed; undo gives back exactly the picture before it,
    /// redo the picture after.
    @Test func replayUndoAndRedoAreExact() {
        let engine = StrokeEngine(width: 30, height: 16)
        let history = History(base: nil)
        let under = Operation.stroke(
            StrokeStyle(color: .black, width: 3), points: [Point(x: 0, y: 8), Point(x: 30, y: 8)])
        history.perform(under, engine: engine)
        let before = engine.flattenedImage()
        let op = Operation.text(Self.style, Self.spec())
        // Live: as the session shows it while typing, then committed.
        let live = StrokeEngine(width: 30, height: 16)
        under.apply(to: live)
        live.beginText(Self.style)
        live.updateText(Self.spec().mask)
        let preview = Array(live.viewPixels)
        live.end()
        #expect(Array(live.viewPixels) == preview)
        history.perform(op, engine: engine)
        #expect(Array(engine.viewPixels) == preview)
        let after = engine.flattenedImage()
        history.undo(engine: engine)
        #expect(engine.flattenedImage() == before)
        history.redo(engine: engine)
        #expect(engine.flattenedImage() == after)
        // Fresh replay of the log.
        let replay = StrokeEngine(width: 30, height: 16)
        under.apply(to: replay)
        op.apply(to: replay)
        #expect(replay.flattenedImage() == after)
    }

    /// The stroke eraser finds text on its ink (not in the gaps between letters far from it)
    /// and takes it out, leaving what was beneath; undo brings it back.
    @Test func strokeEraserRemovesText() {
        let engine = StrokeEngine(width: 30, height: 16)
        let history = History(base: nil)
        let under = Operation.stroke(
            StrokeStyle(color: .black, width: 3), points: [Point(x: 0, y: 8), Point(x: 30, y: 8)])
        history.perform(under, engine: engine)
        let before = engine.flattenedImage()
        history.perform(.text(Self.style, Self.spec()), engine: engine)
        let with = engine.flattenedImage()
        // The text's mask starts at (7, 6): its ink at (9, 9); the gap column x = 13 + 1.
        #expect(history.stroke(at: Point(x: 9.5, y: 9.5), slack: 0) == 1)
        #expect(history.stroke(at: Point(x: 27.5, y: 1.5), slack: 0) == nil)
        #expect(history.strokePoints(at: 1)?.points.count == 5)
        history.removeStroke(at: 1, engine: engine)
        #expect(engine.flattenedImage() == before)
        history.undo(engine: engine)
        #expect(engine.flattenedImage() == with)
    }

    /// Removing a stroke beneath a text renders the stroke's region again with every step above
    /// it: the text is one of them (it was skipped, and the removal erased its letters there).
    @Test func removingAStrokeBeneathTextKeepsTheText() {
        let engine = StrokeEngine(width: 30, height: 16)
        let history = History(base: nil)
        let under = Operation.stroke(
            StrokeStyle(color: .black, width: 3), points: [Point(x: 0, y: 8), Point(x: 30, y: 8)])
        let text = Operation.text(Self.style, Self.spec())
        history.perform(under, engine: engine)
        history.perform(text, engine: engine)
        history.removeStroke(at: 0, engine: engine)
        let onlyText = StrokeEngine(width: 30, height: 16)
        text.apply(to: onlyText)
        #expect(engine.flattenedImage() == onlyText.flattenedImage())
    }
}

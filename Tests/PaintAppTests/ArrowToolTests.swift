import Foundation
import Glibc
import PaintCore
import Testing

@testable import PaintApp
@testable import PaintIO

/// The arrow tool in the session: its key, Shift and the dashed toggle, one step of undo, and
/// the journal that restores it after a crash.
@Suite struct ArrowToolTests {
    typealias T = SessionTests

    static func spec(_ sink: RecordingSink) -> ShapeSpec? {
        guard case .shape(_, let spec) = sink.operations.last else { return nil }
        return spec
    }

    @Test func keyAChoosesTheArrowAndADragDrawsOneWithItsHeadWhereTheDragEnds() throws {
        let (s, sink) = T.recordingSession(width: 220, height: 120)
        T.key(s, "a")
        #expect(s.settings.tool == .arrow)
        // On the toolbar beside the line, and named with its key in the tooltip.
        let line = s.layout.rect(of: .tool(.line))
        let arrow = s.layout.rect(of: .tool(.arrow))
        #expect(arrow.y == line.y && arrow.x > line.maxX && arrow.x - line.maxX < line.width)
        s.handle(.motion(x: arrow.x + 4, y: arrow.y + 4, modifiers: []))
        #expect(s.hovered == .tool(.arrow))
        #expect(Tool.arrow.key == "A" && Tool.arrow.title.hasPrefix("Arrow"))
        T.drag(s, [(20, 60), (100, 15), (180, 60)])
        let spec = try #require(Self.spec(sink))
        #expect(spec.kind == .arrow)
        #expect(s.engine.viewPixel(x: 180, y: 60) != Color.white.pixel, "the tip, where the drag ended")
        #expect(s.engine.viewPixel(x: 183, y: 60) == Color.white.pixel, "nothing past the tip")
        #expect(s.engine.viewPixel(x: 170, y: 57) == Color.black.pixel, "the head, wider than the shaft")
        #expect(s.engine.viewPixel(x: 100, y: 57) == Color.white.pixel, "beside the shaft")
        #expect(s.engine.viewPixel(x: 100, y: 15) == Color.white.pixel, "no trace of the preview on the way")
        T.key(s, "A", .shift)
        #expect(s.settings.tool == .arrow, "Shift+A too, as Shift+L is the line")
    }

    @Test func shiftTurnsItIn15DegreeStepsAndTheDashedToggleDashesIt() throws {
        let (s, sink) = T.recordingSession(width: 220, height: 120)
        T.key(s, "a")
        T.drag(s, [(10, 100), (150, 100 - 51)], modifiers: .shift)
        let snapped = try #require(Self.spec(sink))
        let angle = atan2(snapped.from.y - snapped.to.y, snapped.to.x - snapped.from.x) * 180 / Double.pi
        #expect(abs(angle - 15) < 1e-9, "\(angle)")
        T.click(s, .dashedToggle)
        #expect(s.settings.lineDashed)
        T.key(s, "z", .control)
        T.drag(s, [(10, 30), (200, 30)])
        #expect(try #require(Self.spec(sink)).kind == .dashedArrow)
        // Width 5: dashes of 15 px every 25 px from x = 10.5: a gap at 30 to 35, the head solid.
        #expect(s.engine.viewPixel(x: 15, y: 30) == Color.black.pixel)
        #expect(s.engine.viewPixel(x: 32, y: 30) == Color.white.pixel)
        #expect(s.engine.viewPixel(x: 192, y: 30) == Color.black.pixel)
    }

    /// Undo takes the arrow away in one step, bit for bit; redo puts it back the same.
    @Test func undoIsOneStepAndRestoresThePixelsExactly() {
        let (s, _) = T.recordingSession(width: 200, height: 120)
        T.key(s, "6")
        T.drag(s, [(10, 10), (190, 110)])
        let before = Array(s.engine.viewPixels)
        T.key(s, "a")
        T.key(s, "]")
        T.drag(s, [(20, 100), (90, 40), (170, 20)])
        let arrow = Array(s.engine.viewPixels)
        #expect(arrow != before)
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == before, "one undo takes shaft and head away together")
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) != before, "the second undo is the brush stroke's")
        T.key(s, "y", .control)
        T.key(s, "y", .control)
        #expect(Array(s.engine.viewPixels) == arrow)
    }

    /// What the journal holds of arrows (solid, dashed, half opacity, undone and redone) is
    /// read back and replayed to the very pixels the window showed: a crash loses none of it.
    @Test func theJournalRestoresArrowsExactly() throws {
        let folder = NSTemporaryDirectory() + "swiftpaint-arrow-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (s, sink) = T.recordingSession(width: 200, height: 120)
        T.key(s, "a")
        T.key(s, "5")
        T.drag(s, [(10, 110), (120, 15)])
        T.click(s, .dashedToggle)
        T.key(s, "0")
        T.drag(s, [(190, 110), (40, 60)])
        T.click(s, .dashedToggle)
        T.drag(s, [(100, 100), (101, 100)])
        T.key(s, "z", .control)
        T.key(s, "y", .control)
        #expect(sink.operations.count == 5)
        // Each arrow is recorded with the drawing version that knows arrows (a SwiftPaint from
        // before them calls it newer), as the journal reads it back.
        for case .shape(let style, let spec) in sink.operations {
            #expect(style.drawing == .session15 && spec.kind.drawingVersion == .session15)
        }

        let header = JournalHeader(documentPath: nil, width: 200, height: 120, background: .color(.white))
        let writer = try JournalWriter.create(in: folder, header: header)
        for op in sink.operations { writer.append(op) }
        #expect(writer.flush())
        writer.abandonForTesting()
        let contents = try JournalReader.read(path: writer.path)
        #expect(contents.operations == sink.operations)
        let restored = try DocumentJournal.rebuild(contents)
        #expect(Array(restored.engine.viewPixels) == Array(s.engine.viewPixels))
        #expect(restored.engine.paintImage() == s.engine.paintImage())
    }

    /// The stroke eraser outlines an arrow round its head and takes it out by a click there.
    @Test func theStrokeEraserTakesAnArrowOutByItsHead() {
        let (s, _) = T.recordingSession(width: 200, height: 120)
        let blank = Array(s.engine.viewPixels)
        T.key(s, "a")
        T.drag(s, [(10, 60), (180, 60)])
        T.key(s, "E", .shift)
        // In the head near its back corner, 7 px off the shaft's line: beyond the line's reach.
        let (x, y) = T.window(s, 160, 67)
        s.handle(.motion(x: x, y: y, modifiers: []))
        #expect(s.hoverOutline.count == 6, "along the shaft and round the head")
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.release(x: x, y: y, button: .left, modifiers: []))
        #expect(Array(s.engine.viewPixels) == blank)
    }
}

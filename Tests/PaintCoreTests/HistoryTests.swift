import Testing

@testable import PaintCore

/// Undo and redo give back exactly the pixels of the step they land on, within the memory cap
/// and past it.
@Suite struct HistoryTests {
    static func randomOperations(_ count: Int, seed: UInt64, width: Double, height: Double) -> [Operation] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { n in
            if n % 9 == 8 { return .clear }
            let style = StrokeStyle(
                tool: n % 5 == 4 ? .eraser : .brush,
                color: Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255)),
                opacity: [1, 0.5, 0.3][n % 3], width: Double(1 + rng.next() % 30))
            let points = (0..<(1 + Int(rng.next() % 12))).map { _ in
                Point(x: rng.unit() * width, y: rng.unit() * height)
            }
            return .stroke(style, points: points)
        }
    }

    /// The view after applying `operations[0..<k]` to a fresh engine.
    static func expected(_ operations: [Operation], _ k: Int) -> [UInt32] {
        let engine = StrokeEngine(width: 120, height: 80)
        for op in operations[0..<k] { op.apply(to: engine) }
        return Array(engine.viewPixels)
    }

    @Test(arguments: [256 << 20, 40_000, 0])
    func undoAndRedoLandOnTheReplayedPixels(memoryCap: Int) {
        let ops = Self.randomOperations(30, seed: 5, width: 120, height: 80)
        let engine = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil, memoryCap: memoryCap)
        for op in ops { history.perform(op, engine: engine) }
        #expect(history.snapshotBytes <= memoryCap)
        for k in stride(from: 29, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(Array(engine.viewPixels) == Self.expected(ops, k), "undo to step \(k), cap \(memoryCap)")
        }
        #expect(!history.canUndo)
        for k in 1...30 {
            history.redo(engine: engine)
            #expect(Array(engine.viewPixels) == Self.expected(ops, k), "redo to step \(k)")
        }
        #expect(!history.canRedo)
    }

    @Test func aLiveStrokeIsUndoneToThePixelsBeforeIt() {
        let engine = StrokeEngine(width: 60, height: 40)
        let history = History(base: nil)
        let first = Operation.stroke(
            StrokeStyle(color: Color(r: 200, g: 0, b: 0), width: 9), points: [Point(x: 5, y: 5), Point(x: 55, y: 35)])
        history.perform(first, engine: engine)
        let before = Array(engine.viewPixels)
        let style = StrokeStyle(color: .black, opacity: 0.5, width: 12)
        engine.begin(style, at: Point(x: 50, y: 5))
        engine.move(to: Point(x: 10, y: 35))
        history.commitLiveStroke(.stroke(style, points: [Point(x: 50, y: 5), Point(x: 10, y: 35)]), engine: engine)
        let after = Array(engine.viewPixels)
        #expect(after != before)
        history.undo(engine: engine)
        #expect(Array(engine.viewPixels) == before)
        history.redo(engine: engine)
        #expect(Array(engine.viewPixels) == after)
    }

    @Test func aNewStepAfterUndoDropsTheUndoneSteps() {
        let engine = StrokeEngine(width: 40, height: 40)
        let history = History(base: nil)
        let ops = Self.randomOperations(4, seed: 9, width: 40, height: 40)
        for op in ops { history.perform(op, engine: engine) }
        history.undo(engine: engine)
        history.undo(engine: engine)
        history.perform(.clear, engine: engine)
        #expect(history.count == 3 && !history.canRedo && history.cursor == 3)
    }

    @Test func undoStopsAtTheOpenedPicture() {
        var image = PixelImage(width: 30, height: 20, fill: Color(r: 0, g: 128, b: 255).pixel)
        image[3, 3] = Color.black.pixel
        let engine = StrokeEngine(image: image)
        let history = History(base: image, memoryCap: 0)
        history.perform(.clear, engine: engine)
        history.perform(.stroke(StrokeStyle(width: 4), points: [Point(x: 10, y: 10)]), engine: engine)
        history.undo(engine: engine)
        history.undo(engine: engine)
        #expect(engine.paintImage() == image)
    }

    @Test func historyMovesSurviveTheBinaryForm() {
        for op in [Operation.undo, .redo, .clear] {
            #expect(Operation(decoding: op.encoded()) == op)
        }
        #expect(Operation(decoding: [3, 0]) == nil)
        #expect(Operation(decoding: [9]) == nil)
        #expect(Operation(decoding: []) == nil)
    }
}

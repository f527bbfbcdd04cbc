import Testing

@testable import PaintCore

/// Logs read back from disk are measured before they are replayed (DESIGN §3).
@Suite struct ReplayBudgetTests {
    static let dot = StrokeStyle(tool: .brush, color: .black, opacity: 1, width: 3)

    static func dot(_ i: Int) -> PaintCore.Operation {
        .stroke(dot, points: [Point(x: Double(i % 600) + 0.5, y: Double(i / 600 % 100) * 4 + 10.5)])
    }

    @Test func aLogOverTheOperationCountIsRefusedFromItsDeclaredCount() {
        var budget = ReplayBudget(width: 640, height: 480)
        #expect(budget.admit(operationCount: 1_000_000) == nil)
        let overrun = budget.admit(operationCount: 1_000_001)
        #expect(overrun == .operations(count: 1_000_001, limit: 1_000_000))
        #expect(
            overrun?.description == "it holds 1,000,001 steps, more than the 1,000,000 SwiftPaint replays")
        // Counted one by one, too, and the first overrun sticks.
        let small = ReplayBudget.Limits(operations: 3, points: 100, fills: 10, work: 1e12)
        let ops = (0..<4).map(Self.dot)
        #expect(ReplayBudget.check(ops, width: 640, height: 480, limits: small) == .operations(count: 4, limit: 3))
    }

    @Test func aStrokeOverThePointLimitIsRefusedFromItsDeclaredCount() {
        var budget = ReplayBudget(width: 640, height: 480)
        #expect(budget.admit(pointCount: 16 << 20) == nil)
        #expect(budget.add(.stroke(Self.dot, points: Array(repeating: Point(x: 1, y: 1), count: 1000))) == nil)
        #expect(budget.admit(pointCount: (16 << 20) - 999) == .points(count: (16 << 20) + 1, limit: 16 << 20))
        // The count is read from an encoded stroke without decoding its points.
        let stroke = PaintCore.Operation.stroke(Self.dot, points: (0..<1234).map { Point(x: Double($0) / 2, y: 3) })
        #expect(PaintCore.Operation.declaredSize(stroke.encoded())?.points == 1234)
        let odd = PaintCore.Operation.stroke(Self.dot, points: [Point(x: 0.3, y: 0.7), Point(x: 1.1, y: 2)])
        #expect(PaintCore.Operation.declaredSize(odd.encoded())?.points == 2)
        #expect(PaintCore.Operation.declaredSize(PaintCore.Operation.clear.encoded())?.points == nil)
        #expect(PaintCore.Operation.declaredSize([11])?.points == nil)
        // A curved stroke with pen pressure declares its points (and their pressure) the same way.
        var pen = Self.dot
        pen.dynamics = StrokeDynamics(curves: true, stabilizer: 8, pressureWidth: true)
        let pressed = PaintCore.Operation.stroke(
            pen, points: (0..<777).map { Point(x: Double($0), y: 3) }, pressure: (0..<777).map { UInt16($0 * 80) })
        let declared = PaintCore.Operation.declaredSize(pressed.encoded())
        #expect(declared?.points == 777)
        #expect(declared?.bytes == 777 * (MemoryLayout<Point>.stride + 2))
        // Claiming 17 M points in a few bytes is refused before any point is read.
        // (The tag, the style's 20 bytes, the flags and the window, then the count, little-endian.)
        let claim = Array(pressed.encoded()[..<23]) + [0x00, 0x00, 0x10, 0x01, 1]
        var small = ReplayBudget(width: 640, height: 480)
        #expect(PaintCore.Operation.declaredSize(claim)?.points == 0x0110_0000)
        #expect(throws: ReplayBudget.Overrun.points(count: 0x0110_0000, limit: 16 << 20)) {
            _ = try PaintCore.Operation.decoding(claim, within: &small)
        }
    }

    @Test func fillsAreLimitedByCountAndByWorkOnTheCanvas() {
        let fill = PaintCore.Operation.fill(Self.dot, at: Point(x: 1, y: 1), tolerance: 0)
        #expect(
            ReplayBudget.check(Array(repeating: fill, count: 10_001), width: 10, height: 10)
                == .fills(count: 10_001, limit: 10_000))
        // 600 fills of a 640 x 480 canvas are fine; 600 of an 8K canvas are far too much work.
        #expect(ReplayBudget.check(Array(repeating: fill, count: 600), width: 640, height: 480) == nil)
        guard
            case .work(let estimate, let limit)? = ReplayBudget.check(
                Array(repeating: fill, count: 600), width: 7680, height: 4320)
        else {
            Issue.record("600 fills of an 8K canvas are within the budget")
            return
        }
        #expect(estimate > limit)
        #expect(ReplayBudget.Overrun.work(estimate: 3.4e11, limit: 3e10).description.contains("about 11 times longer"))
    }

    @Test func wideLongStrokesCostTheirCapsulesNotTheirPointCount() {
        // Two points 10,000 px apart with a 1,000 px brush touch far more than two dots.
        let wide = StrokeStyle(tool: .brush, color: .black, opacity: 1, width: 1000)
        let long = PaintCore.Operation.stroke(wide, points: [Point(x: 0, y: 0), Point(x: 10_000, y: 10_000)])
        let budget = ReplayBudget(width: 16384, height: 16384)
        #expect(budget.estimate(long) > 2 * budget.estimate(Self.dot(0)) * 1000)
        // Points far outside the canvas, or not finite, cost at most the canvas.
        let wild = PaintCore.Operation.stroke(
            wide, points: [Point(x: -1e300, y: 0), Point(x: 1e300, y: .infinity), Point(x: .nan, y: 1)])
        let small = ReplayBudget(width: 100, height: 100)
        #expect(small.estimate(wild).isFinite)
        #expect(small.estimate(wild) <= 10 * 100 * 100)
    }

    @Test func tenThousandStrokeAndRemovalPairsReplayInLinearWork() {
        var ops: [PaintCore.Operation] = []
        for i in 0..<10_000 {
            ops.append(Self.dot(i))
            ops.append(.removeStroke(step: 2 * i))
        }
        #expect(ReplayBudget.check(ops, width: 640, height: 480) == nil)
        let engine = StrokeEngine(width: 640, height: 480, background: .color(.white))
        let history = History(base: nil)
        engine.defersComposite = true
        for op in ops { history.perform(op, engine: engine) }
        engine.defersComposite = false
        // Each removal re-renders from the nearest keyframe below its stroke: at most the
        // keyframe interval of steps, whatever the length of the history.
        #expect(history.scannedEntries <= (history.keyframeInterval + 4) * 10_000)
        // Every stroke was taken out again: white everywhere.
        #expect(engine.viewPixels.allSatisfy { $0 == 0xFFFF_FFFF })
        #expect(history.cursor == 20_000)
    }

    @Test func removalsOfOldStrokesAreEstimatedByTheStepsAboveThem() {
        // 2,000 strokes, then each removed in turn: the estimate grows with the steps above
        // each removed stroke, so the same log 20 times longer goes over the budget.
        func log(_ n: Int) -> [PaintCore.Operation] {
            (0..<n).map(Self.dot) + (0..<n).map { .removeStroke(step: $0) }
        }
        var small = ReplayBudget(width: 640, height: 480)
        for op in log(2000) { small.add(op) }
        #expect(small.overrun == nil)
        let engine = StrokeEngine(width: 640, height: 480, background: .color(.white))
        let history = History(base: nil)
        for op in log(2000) { history.perform(op, engine: engine) }
        #expect(engine.viewPixels.allSatisfy { $0 == 0xFFFF_FFFF })

        let limits = ReplayBudget.Limits(operations: 1_000_000, points: 1 << 24, fills: 10, work: small.work * 50)
        guard case .work? = ReplayBudget.check(log(20_000), width: 640, height: 480, limits: limits) else {
            Issue.record("20,000 strokes each removed under all later ones fit 50 times the budget of 2,000")
            return
        }
    }

    @Test func undoAndRedoFollowTheHistoryTheyWalk() {
        // An undo costs a restore; a redo the step again; a step after undos forgets the
        // undone ones, so a later removal does not count them.
        let budget = ReplayBudget(width: 100, height: 100)
        var a = budget
        for op in [Self.dot(0), .undo, .redo] { a.add(op) }
        var b = budget
        b.add(Self.dot(0))
        let dotCost = b.work
        #expect(a.work > 2 * dotCost)
        var c = budget
        for op in [Self.dot(0), Self.dot(1), .undo, .undo, .undo, .redo, .redo, .redo, .redo] { c.add(op) }
        #expect(c.overrun == nil)
        #expect(c.operations == 9)
    }

    /// A canvas change is measured by the pixels it makes, and every step after it on the canvas
    /// it leaves: fills after a scale to 8K cost what fills of an 8K canvas cost; undoing the
    /// scale brings the small canvas back; scaling up and down again and again runs out of work.
    @Test func canvasChangesCostTheirPixelsAndChangeTheCanvasAfterThem() {
        let fill = PaintCore.Operation.fill(Self.dot, at: Point(x: 1, y: 1), tolerance: 0)
        let up = PaintCore.Operation.canvas(.scale(width: 8192, height: 8192))
        let fills = Array(repeating: fill, count: 100)
        #expect(ReplayBudget.check(fills, width: 64, height: 64) == nil)
        guard case .work? = ReplayBudget.check([up] + fills, width: 64, height: 64) else {
            Issue.record("100 fills of an 8K canvas are within the budget")
            return
        }
        #expect(ReplayBudget.check([up, .undo] + fills, width: 64, height: 64) == nil)
        let crop = PaintCore.Operation.canvas(.resize(IntRect(x: 0, y: 0, width: 8192, height: 8192)))
        guard case .work? = ReplayBudget.check([crop] + fills, width: 64, height: 64) else {
            Issue.record("fills after growing the canvas are estimated on the small one")
            return
        }
        // A quarter turn swaps the sides; a size past the image limits is refused by the engine
        // and changes nothing, so it costs nothing either.
        let tallStroke = PaintCore.Operation.stroke(Self.dot, points: [Point(x: 0, y: 0), Point(x: 0, y: 20_000)])
        var turned = ReplayBudget(width: 10, height: 20_000)
        let upright = turned.estimate(tallStroke)
        turned.add(.canvas(.orient(.rotateRight)))
        #expect(turned.estimate(tallStroke) * 100 < upright)
        var refused = ReplayBudget(width: 64, height: 64)
        refused.add(.canvas(.scale(width: 100_000, height: 100_000)))
        #expect(refused.work < 64 * 64 * 2)
        var pingPong: [PaintCore.Operation] = []
        for _ in 0..<40 { pingPong += [up, .canvas(.scale(width: 64, height: 64))] }
        guard case .work? = ReplayBudget.check(pingPong, width: 64, height: 64) else {
            Issue.record("40 scales to 8K and back are within the budget")
            return
        }
    }

    /// Texts cost their mask's pixels; what a log holds once decoded (points, pictures, text
    /// masks) is limited, and `Operation.decoding(_:within:)` refuses it from the sizes the bytes
    /// declare, before decoding them.
    @Test func decodedBytesAreLimitedBeforeTheyAreDecoded() throws {
        let mask = try #require(
            CoverageMask(x: 0, y: 0, width: 100, height: 20, bytes: [UInt8](repeating: 200, count: 2000)))
        let text = PaintCore.Operation.text(
            Self.dot, TextSpec(mask: mask, text: "Hi", font: TextFont(family: "DejaVu Sans", size: 12), x: 0, y: 0))
        let budget = ReplayBudget(width: 640, height: 480)
        #expect(budget.estimate(text) > 3 * 2000)
        #expect(budget.estimate(text) < 4 * 2000)
        let limits = ReplayBudget.Limits(operations: 10, points: 100, fills: 1, work: 1e12, decodedBytes: 3000)
        var small = ReplayBudget(width: 640, height: 480, limits: limits)
        #expect(try PaintCore.Operation.decoding(text.encoded(), within: &small) == text)
        #expect(small.decodedBytes == 2000)
        #expect(throws: ReplayBudget.Overrun.decodedBytes(count: 4000, limit: 3000)) {
            _ = try PaintCore.Operation.decoding(text.encoded(), within: &small)
        }
        // A mask declaring 30,000 x 30,000 pixels is refused from its header: nothing inflated.
        var huge = text.encoded()
        let sizeAt = 1 + 20 + 16
        huge.replaceSubrange(sizeAt..<(sizeAt + 8), with: [0x30, 0x75, 0, 0, 0x30, 0x75, 0, 0])
        var fresh = ReplayBudget(width: 640, height: 480)
        #expect(throws: ReplayBudget.Overrun.decodedBytes(count: 900_000_000, limit: 512 << 20)) {
            _ = try PaintCore.Operation.decoding(huge, within: &fresh)
        }
        #expect(
            ReplayBudget.Overrun.decodedBytes(count: 900_000_000, limit: 512 << 20).description
                == "its strokes, pictures and texts take 858 MB once read, more than the 512 MB SwiftPaint holds")
        // Malformed bytes within the budget are nil, not an overrun.
        #expect(try PaintCore.Operation.decoding([99], within: &fresh) == nil)
    }
}

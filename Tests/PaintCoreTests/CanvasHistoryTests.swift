import TestSupport
import Testing

@testable import PaintCore

/// Canvas changes as steps of the history: replayed they give the live pixels, undo and redo
/// land exactly on the pixels (and size) of each step, within the memory cap and past it, and
/// a stroke drawn before a change can still be found and removed.
@Suite struct CanvasHistoryTests {
    static let changes: [CanvasChange] = [
        .resize(IntRect(x: 10, y: 7, width: 61, height: 33)),  // a crop
        .resize(IntRect(x: -9, y: -4, width: 101, height: 77)),  // larger on every side
        .resize(IntRect(x: 30, y: -10, width: 75, height: 50)),  // larger on two sides, cut on two
        .scale(width: 41, height: 29), .scale(width: 173, height: 91), .scale(width: 90, height: 60),
        .orient(.rotateRight), .orient(.rotateLeft), .orient(.rotate180), .orient(.flipHorizontal),
        .orient(.flipVertical),
    ]

    static func stroke(_ seed: UInt64, width: Double = 90, height: Double = 60) -> Operation {
        var rng = SplitMix(seed: seed)
        let style = StrokeStyle(
            tool: seed % 4 == 3 ? .eraser : .brush,
            color: Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255)),
            opacity: [1, 0.6, 0.35][Int(seed % 3)], width: Double(2 + rng.next() % 12))
        let points = (0..<(2 + Int(rng.next() % 6))).map { _ in Point(x: rng.unit() * width, y: rng.unit() * height) }
        return .stroke(style, points: points)
    }

    /// Strokes, a fill and a paste, the change, then more of each on the new canvas.
    static func document(_ change: CanvasChange, seed: UInt64 = 1) -> [Operation] {
        var ops = (0..<6).map { stroke(seed * 100 + UInt64($0)) }
        ops.insert(.fill(StrokeStyle(color: Color(r: 9, g: 120, b: 200)), at: Point(x: 3, y: 3), tolerance: 20), at: 3)
        ops.append(.canvas(change))
        ops += (6..<11).map { stroke(seed * 100 + UInt64($0), width: 120, height: 90) }
        ops.append(.paste(PasteTests.picture(9, 7, seed: seed), x: 4, y: 5))
        ops.append(.stroke(StrokeStyle(width: 3), points: [Point(x: 0.5, y: 0.5), Point(x: 30, y: 20)]))
        return ops
    }

    static func fresh(_ background: Background = .color(.white)) -> StrokeEngine {
        StrokeEngine(width: 90, height: 60, background: background)
    }

    /// What a fresh engine shows after `operations` applied one by one.
    static func replay(_ operations: [Operation], _ background: Background = .color(.white)) -> StrokeEngine {
        let engine = fresh(background)
        for op in operations { op.apply(to: engine) }
        return engine
    }

    static func same(_ a: StrokeEngine, _ b: StrokeEngine) -> Bool {
        State(a) == State(b)
    }

    /// Everything a step leaves: size, background, paint and view.
    struct State: Equatable {
        let width: Int
        let height: Int
        let background: Background
        let paint: PixelImage
        let view: [UInt32]
        init(_ engine: StrokeEngine) {
            (width, height, background) = (engine.width, engine.height, engine.background)
            paint = engine.paintImage()
            view = Array(engine.viewPixels)
        }
    }

    /// The state after each prefix of `operations` (index k: after the first k), replayed on
    /// a fresh engine.
    static func states(_ operations: [Operation], _ background: Background = .color(.white)) -> [State] {
        let engine = fresh(background)
        var out = [State(engine)]
        for op in operations {
            op.apply(to: engine)
            out.append(State(engine))
        }
        return out
    }

    /// A history where snapshots are kept, squeezed, or not kept at all (every undo then goes
    /// through keyframes and whole-picture replays).
    enum Memory: CaseIterable { case plenty, tight, none }

    static func history(_ memory: Memory) -> History {
        let history = History(base: nil, memoryCap: memory == .tight ? 30_000 : 256 << 20)
        if memory == .none { history.keepsRegionSnapshots = false }
        return history
    }

    @Test(arguments: Memory.allCases)
    func undoAndRedoAcrossEveryCanvasChangeLandOnTheReplayedPixels(memory: Memory) {
        for change in Self.changes {
            let ops = Self.document(change)
            let expected = Self.states(ops)
            let engine = Self.fresh()
            let history = Self.history(memory)
            for op in ops { history.perform(op, engine: engine) }
            #expect(State(engine) == expected[ops.count], "live == replay, \(change)")
            for k in stride(from: ops.count - 1, through: 0, by: -1) {
                history.undo(engine: engine)
                #expect(State(engine) == expected[k], "undo to \(k), \(change), \(memory)")
            }
            for k in 1...ops.count {
                history.redo(engine: engine)
                #expect(State(engine) == expected[k], "redo to \(k), \(change), \(memory)")
            }
        }
    }

    @Test func changesOneAfterAnotherUndoAndRedoExactly() {
        var ops: [Operation] = [Self.stroke(1), .canvas(.orient(.rotateRight)), Self.stroke(2, width: 60, height: 90)]
        ops += [
            .canvas(.scale(width: 45, height: 77)), Self.stroke(3),
            .canvas(.resize(IntRect(x: 5, y: -3, width: 50, height: 70))),
        ]
        ops += [.canvas(.orient(.flipVertical)), Self.stroke(4), .clear, Self.stroke(5), .canvas(.orient(.rotate180))]
        let expected = Self.states(ops, .transparent)
        for memory in Memory.allCases {
            let engine = Self.fresh(.transparent)
            let history = Self.history(memory)
            for op in ops { history.perform(op, engine: engine) }
            for k in stride(from: ops.count - 1, through: 0, by: -1) {
                history.undo(engine: engine)
                #expect(State(engine) == expected[k], "undo to \(k), \(memory)")
            }
            for k in 1...ops.count {
                history.redo(engine: engine)
                #expect(State(engine) == expected[k], "redo to \(k), \(memory)")
            }
        }
    }

    @Test func anImageBackgroundGoesBackAndForthWithTheCanvas() {
        let backdrop = Background.fitted(PasteTests.picture(90, 60, seed: 12), width: 90, height: 60)
        for change in Self.changes {
            let ops = Self.document(change, seed: 3)
            let expected = Self.states(ops, backdrop)
            for memory in Memory.allCases {
                let engine = Self.fresh(backdrop)
                let history = Self.history(memory)
                for op in ops { history.perform(op, engine: engine) }
                #expect(State(engine) == expected[ops.count])
                for k in stride(from: ops.count - 1, through: 0, by: -1) {
                    history.undo(engine: engine)
                    #expect(State(engine) == expected[k], "undo to \(k), \(change)")
                }
            }
        }
    }

    /// The stroke eraser across a canvas change: the stroke is found where it shows now, its
    /// outline is drawn there, and removing it renders the whole picture without it.
    @Test(arguments: Memory.allCases)
    func aStrokeFromBeforeAChangeIsFoundAndRemoved(memory: Memory) {
        let target = Operation.stroke(
            StrokeStyle(color: Color(r: 200, g: 0, b: 0), width: 6), points: [Point(x: 20, y: 10), Point(x: 60, y: 10)])
        for change in Self.changes {
            // The target lies on top of the strokes before it; the one after the change is a
            // dot in a corner, clear of it.
            let dot = Operation.stroke(StrokeStyle(width: 2), points: [Point(x: 1.5, y: 1.5)])
            let ops: [Operation] = [Self.stroke(7), Self.stroke(8), target, .canvas(change), dot]
            let engine = Self.fresh()
            let history = Self.history(memory)
            for op in ops { history.perform(op, engine: engine) }
            let size = (width: 90, height: 60)
            let onCanvas = change.map(Point(x: 40, y: 10), width: size.width, height: size.height)
            if engine.bounds.contains(Int(onCanvas.x), Int(onCanvas.y)) {
                #expect(history.stroke(at: onCanvas) == 2, "\(change): found where it shows")
                let outline = history.strokePoints(at: 2)?.points ?? []
                #expect(
                    outline == [Point(x: 20, y: 10), Point(x: 60, y: 10)].map { change.map($0, width: 90, height: 60) })
            }
            let after = Self.replay(ops)
            history.removeStroke(at: 2, engine: engine)
            var without = ops
            without.remove(at: 2)
            #expect(Self.same(engine, Self.replay(without)), "\(change), \(memory): removed")
            history.undo(engine: engine)
            #expect(Self.same(engine, after), "\(change), \(memory): the removal undone")
            history.redo(engine: engine)
            #expect(Self.same(engine, Self.replay(without)), "\(change), \(memory): the removal redone")
        }
    }

    /// A journal or file that asks for an impossible canvas is refused by the engine; the step
    /// still counts (so later steps keep their numbers) and changes nothing either way.
    @Test func aRefusedChangeIsAStepThatChangesNothing() {
        let ops: [Operation] = [Self.stroke(1), .canvas(.scale(width: 1 << 20, height: 1 << 20)), Self.stroke(2)]
        let engine = Self.fresh()
        let history = History(base: nil)
        for op in ops { history.perform(op, engine: engine) }
        #expect(history.count == 3 && engine.width == 90 && engine.height == 60)
        #expect(Self.same(engine, Self.replay([ops[0], ops[2]])))
        history.undo(engine: engine)
        history.undo(engine: engine)
        #expect(Self.same(engine, Self.replay([ops[0]])))
        history.redo(engine: engine)
        history.redo(engine: engine)
        #expect(Self.same(engine, Self.replay([ops[0], ops[2]])))
        #expect(history.removeStroke(at: 0, engine: engine) != .empty)
        #expect(Self.same(engine, Self.replay([ops[2]])))
    }

    @Test func aHistoryStartingFromAPictureGoesBackAcrossAChange() {
        let base = PasteTests.picture(33, 21, seed: 5)
        let ops: [Operation] = [Self.stroke(1, width: 33, height: 21), .canvas(.orient(.rotateLeft)), Self.stroke(2)]
        let engine = StrokeEngine(image: base)
        let history = History(base: base)
        history.keepsRegionSnapshots = false
        for op in ops { history.perform(op, engine: engine) }
        history.removeStroke(at: 0, engine: engine)
        let expected = StrokeEngine(image: base)
        for op in [ops[1], ops[2]] { op.apply(to: expected) }
        #expect(Self.same(engine, expected))
    }

    @Test func theBinaryFormsRoundTripAndRejectNonsense() {
        let ops: [Operation] = [
            .canvas(.resize(IntRect(x: -5, y: 7, width: 300, height: 1))), .canvas(.scale(width: 1, height: 40_000)),
            .canvas(.orient(.rotateLeft)), .canvas(.orient(.transverse)),
            .orientRect(IntRect(x: 3, y: -2, width: 9, height: 4), .rotateRight, dx: -7, dy: 12),
        ]
        for op in ops { #expect(Operation(decoding: op.encoded()) == op, "\(op)") }
        // An orientation code past 7, a kind past 2, a zero size, trailing bytes.
        #expect(Operation(decoding: [14, 2, 8]) == nil)
        #expect(Operation(decoding: [14, 3]) == nil)
        #expect(Operation(decoding: [14, 1, 0, 0, 0, 0, 1, 0, 0, 0]) == nil)
        #expect(Operation(decoding: [14, 2, 1, 0]) == nil)
        #expect(Operation(decoding: Operation.orientRect(.empty, .identity, dx: 0, dy: 0).encoded() + [0]) == nil)
    }

    /// A selection turned: lifted, turned, laid back with its corner moved.
    @Test func aTurnedSelectionIsOneStep() {
        let picture = PixelPictures.image(
            """
            abcd
            efgh
            ijkl
            """)
        let engine = StrokeEngine(image: picture, background: .transparent)
        let history = History(base: picture)
        history.perform(
            .orientRect(IntRect(x: 1, y: 0, width: 2, height: 3), .rotateRight, dx: -1, dy: 1), engine: engine)
        #expect(
            PixelPictures.text(engine) == """
                a..d
                jfbh
                kgcl
                """)
        history.undo(engine: engine)
        #expect(engine.paintImage() == picture)
    }
}

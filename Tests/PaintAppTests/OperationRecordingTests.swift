import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A sink that keeps what the session reports, in order.
final class RecordingSink: OperationSink {
    var operations: [Operation] = []
    var events: [String] = []
    func record(_ operation: Operation) { operations.append(operation) }
    func saved(path: String, version: FileVersion?, drawnDuring: Int) {
        events.append("saved \(path)" + (drawnDuring == 0 ? "" : ", \(drawnDuring) drawn during it"))
    }
    func closedCleanly() { events.append("closed") }
    func flush() { events.append("flush") }
}

/// Every committed change reaches the journal as an operation that replays to the same pixels.
@Suite struct OperationRecordingTests {
    typealias T = SessionTests

    @Test func replayingTheRecordedOperationsGivesTheSamePixels() {
        let (s, sink) = T.recordingSession(width: 160, height: 90)
        T.key(s, "5")
        T.drag(s, [(10, 10), (60, 40), (150, 20), (20, 80)])
        T.key(s, "e")
        T.drag(s, [(40, 10), (40, 80)])
        T.key(s, "b")
        T.key(s, "0")
        let (x, y) = T.window(s, 100, 60)
        s.handle(.press(x: x, y: y, button: .right, modifiers: .shift))
        s.handle(.release(x: x, y: y, button: .right, modifiers: .shift))
        #expect(sink.operations.count == 3)
        let replayed = StrokeEngine(width: 160, height: 90)
        for op in sink.operations { op.apply(to: replayed) }
        #expect(Array(replayed.viewPixels) == Array(s.engine.viewPixels))
        // Encoded and decoded, they still replay the same.
        let decoded = sink.operations.compactMap { Operation(decoding: $0.encoded()) }
        #expect(decoded == sink.operations)
    }

    @Test func cancelledStrokesAreNotRecordedAndClearIs() {
        let (s, sink) = T.recordingSession()
        let (x, y) = T.window(s, 30, 30)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: x + 20, y: y, modifiers: []))
        s.handle(.key(.escape, modifiers: []))
        s.handle(.release(x: x + 20, y: y, button: .left, modifiers: []))
        #expect(sink.operations.isEmpty)
        s.clear()
        #expect(sink.operations == [.clear])
    }

    @Test func terminatingMidStrokeCommitsItAndKeepsTheJournal() {
        let (s, sink) = T.recordingSession()
        let (x, y) = T.window(s, 30, 30)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: x + 20, y: y, modifiers: []))
        s.terminate()
        #expect(sink.operations.count == 1)
        #expect(sink.events == ["flush"])
        #expect(s.takeEffects().exit == 0)
    }

    @Test func quittingWithNothingToLoseClosesTheJournal() {
        let (s, sink) = T.recordingSession()
        s.handle(.closeRequest)
        #expect(sink.events == ["closed"])
        let (t, tSink) = T.recordingSession()
        T.drag(t, [(5, 5)])
        #expect(t.handle(.closeRequest).exit == nil, "unsaved: it asks first")
        #expect(T.key(t, "d").exit == 0)
        #expect(tSink.events == ["closed"])
    }

    @Test func aRestoreOfferReplacesTheDocumentOrDiscardsTheJournal() {
        let s = T.makeSession(width: 50, height: 40)
        let restored = StrokeEngine(width: 300, height: 200)
        restored.begin(StrokeStyle(width: 9), at: Point(x: 100, y: 100))
        restored.end()
        var discarded = false
        let journal = RecordingSink()
        s.offer(
            RestoreOffer(
                question: "Restore the drawing from 12:00 (1 stroke)?",
                restore: {
                    .restored(
                        Document(
                            engine: restored, history: History(base: nil), path: "/tmp/restored.png", savedStep: nil),
                        journal: journal, message: "Restored 1 stroke")
                },
                discard: {
                    discarded = true
                    return "discarded"
                }))
        T.drag(s, [(5, 5)])
        #expect(s.engine.viewPixel(x: 5, y: 5) == Color.white.pixel, "the canvas waits for the answer")
        s.handle(.key(.enter, modifiers: []))
        #expect(s.engine.width == 300 && s.isModified && s.path == "/tmp/restored.png")
        #expect(s.engine.viewPixel(x: 100, y: 100) == Color.black.pixel)
        #expect(s.title == "*restored.png — SwiftPaint" && s.message == "Restored 1 stroke")
        #expect(!discarded)
        #expect(s.sink === journal, "the restored drawing goes on in its own journal")

        let t = T.makeSession()
        t.offer(
            RestoreOffer(
                question: "Restore?", restore: { .failed("Cannot restore: the journal is gone") },
                discard: {
                    discarded = true
                    return "The earlier drawing was discarded"
                }))
        t.handle(.key(.escape, modifiers: []))
        #expect(!discarded && t.mode == .normal, "Escape keeps the journal for later")
        t.offer(
            RestoreOffer(
                question: "Restore?", restore: { .failed("Cannot restore: the journal is gone") },
                discard: {
                    discarded = true
                    return "The earlier drawing was discarded"
                }))
        t.handle(.key(.character("d"), modifiers: .alt))
        #expect(discarded && t.mode == .normal && t.engine.width == 200)
        #expect(t.message == "The earlier drawing was discarded", "Discard says what the offer did")
    }
}

/// The stroke eraser in the session: Shift+E, a click on a stroke, undo brings it back, and the
/// journal's replay agrees.
@Suite struct StrokeEraserSessionTests {
    typealias T = SessionTests

    @Test func clickingAStrokeRemovesItAndTheJournalReplaysTheSame() {
        let (s, sink) = T.recordingSession(width: 160, height: 90)
        T.drag(s, [(10, 45), (150, 45)])
        let first = Array(s.engine.viewPixels)
        T.key(s, "]")
        T.key(s, "]")
        T.drag(s, [(80, 5), (80, 85)])
        T.key(s, "E", .shift)
        #expect(s.settings.tool == .strokeEraser)
        let (x, y) = T.window(s, 80, 20)
        s.handle(.motion(x: x, y: y, modifiers: []))
        #expect(s.hoverOutline.count == 2, "hovering outlines the stroke under the pointer")
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.release(x: x, y: y, button: .left, modifiers: []))
        #expect(Array(s.engine.viewPixels) == first)
        #expect(sink.operations.last == .removeStroke(step: 1))
        let replay = StrokeEngine(width: 160, height: 90)
        let history = History(base: nil)
        for op in sink.operations { history.perform(op, engine: replay) }
        #expect(Array(replay.viewPixels) == Array(s.engine.viewPixels))
        T.key(s, "z", .control)
        #expect(s.engine.viewPixel(x: 80, y: 20) == Color.black.pixel)
    }
}

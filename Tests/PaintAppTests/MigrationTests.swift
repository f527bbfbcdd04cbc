import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing

@testable import PaintApp

/// Files saved by SwiftPaint before the history store, with the history inside (`spHS`), keep
/// opening with it; saving one again writes it plain and moves its history into the store.
///
/// The fixture `Tests/Fixtures/saved-with-history-0fc7ab0.png` was written by SwiftPaint at
/// commit 0fc7ab0 (the last whose Ctrl+S put the history in the file): a 120 x 80 white canvas,
/// a black stroke, then a red one across it, saved with Ctrl+S.
@Suite struct MigrationTests {
    typealias T = SessionTests
    typealias L = DocumentLoaderTests

    @Test func aFileSavedWithItsHistoryInsideByAnEarlierVersionOpensWithItAndSavesPlain() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/old.png"
        try FileManager.default.copyItem(atPath: Reference.fixtures + "/saved-with-history-0fc7ab0.png", toPath: file)
        let picture = try ImageFile.load(path: file)
        guard case .archive = HistoryChunk.extract(from: try L.bytes(file)) else {
            Issue.record("the fixture carries no history chunk")
            return
        }
        let options = L.options(dir, width: 120, height: 80)
        let s = L.open(file, options)
        #expect(
            s.message.hasSuffix("the file carries its editing history inside (2 steps); Ctrl+S saves it without"),
            "\(s.message)")
        #expect(s.carriesHistory && s.title == "old.png (with history) — SwiftPaint", "\(s.title)")
        #expect(L.shows(s.engine, picture) && !s.isModified)
        let afterOne = s.engine.flattenedImage()
        T.key(s, "z", .control)
        #expect(!L.shows(s.engine, afterOne), "the red stroke was not undone")
        T.key(s, "z", .control)
        #expect(L.shows(s.engine, only: .white), "undone to the blank canvas it started on")
        T.key(s, "y", .control)
        T.key(s, "y", .control)
        #expect(L.shows(s.engine, picture) && !s.isModified)

        // Saved again: plain, the same pixels, the history in this computer's store.
        T.drag(s, [(10, 70), (110, 70)])
        T.key(s, "s", .control)
        #expect(!s.isModified && !s.carriesHistory && !s.title.contains("(with history)"), "\(s.message)")
        #expect(HistoryChunk.extract(from: try L.bytes(file)) == .none)
        #expect(options.historyStore?.entries().count == 1)
        let reopened = L.open(file, options)
        #expect(reopened.message.hasSuffix("history restored (3 steps)"), "\(reopened.message)")
        for _ in 0..<3 { T.key(reopened, "z", .control) }
        #expect(L.shows(reopened.engine, only: .white))
        // Elsewhere the saved file is the picture only.
        let elsewhere = L.open(file, L.options(dir, store: "another computer", width: 120, height: 80))
        #expect(!elsewhere.history.canUndo && !elsewhere.carriesHistory)
    }

    /// `Tests/Fixtures/shapes-and-fills-f50280b.png` (see DrawingVersionLogTests in PaintIOTests):
    /// saved by f50280b with its history inside, round-cornered rectangles and hard-edged fills.
    @Test func aFileSavedBeforeDrawingVersionsOpensWithItsHistoryAndNewShapesUseTheNewRules() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/shapes.png"
        try FileManager.default.copyItem(atPath: Reference.fixtures + "/shapes-and-fills-f50280b.png", toPath: file)
        let picture = try ImageFile.load(path: file)
        let options = L.options(dir, width: 160, height: 100)
        let s = L.open(file, options)
        // Kept only when the replay gives exactly the file's pixels.
        #expect(
            s.message.hasSuffix("the file carries its editing history inside (5 steps); Ctrl+S saves it without"),
            "\(s.message)")
        #expect(L.shows(s.engine, picture) && !s.isModified)
        for _ in 0..<5 { T.key(s, "z", .control) }
        #expect(L.shows(s.engine, only: .white))
        for _ in 0..<5 { T.key(s, "y", .control) }
        #expect(L.shows(s.engine, picture))
        // A rectangle drawn now: square corners. Width 9 around (20, 84)...(60, 95): the outer
        // corner pixel (16, 80), which a round corner leaves white, is the rectangle's color.
        T.key(s, "r")
        s.setWidth(9)
        T.drag(s, [(20, 84), (40, 90), (60, 95)])
        #expect(s.engine.viewPixel(x: 16, y: 80) == Color.black.pixel)
        #expect(s.engine.viewPixel(x: 64, y: 99) == Color.black.pixel)
        // Saved and reopened: the old steps and the new one replay to the file's pixels.
        T.key(s, "s", [.control, .alt])
        let shown = try ImageFile.load(path: file)
        let reopened = L.open(file, L.options(dir, store: "elsewhere", width: 160, height: 100))
        #expect(reopened.message.contains("(6 steps)"), "\(reopened.message)")
        #expect(L.shows(reopened.engine, shown))
    }
}

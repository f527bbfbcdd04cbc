import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Logs written before drawing versions existed replay as they were drawn, and a step from a
/// newer SwiftPaint is refused with a message that says so.
///
/// The fixtures `Tests/Fixtures/shapes-and-fills-f50280b.png` and `.spj` were written by
/// SwiftPaint at commit f50280b (the last before drawing versions) from one session on a
/// 160 x 100 white canvas: a black ellipse outline, a red fill inside it (tolerance 32), a blue
/// rectangle outline 9 px wide, a green filled rectangle at 60 %, and a yellow fill around them;
/// saved with the history inside (the PNG), and the same five operations appended to a crash
/// journal (the .spj).
@Suite struct DrawingVersionLogTests {
    static let png = Reference.fixtures + "/shapes-and-fills-f50280b.png"
    static let journal = Reference.fixtures + "/shapes-and-fills-f50280b.spj"

    @Test func aJournalFromBeforeDrawingVersionsReplaysToThePixelsThatVersionDrew() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("old.spj")
        try FileManager.default.copyItem(atPath: Self.journal, toPath: path)
        let contents = try JournalReader.read(path: path)
        #expect(contents.droppedTail == nil && contents.operations.count == 5)
        let drawn = contents.operations.compactMap { op -> DrawingVersion? in
            switch op {
            case .shape(let style, _), .fill(let style, _, _): return style.drawing
            default: return nil
            }
        }
        #expect(drawn == Array(repeating: .session6, count: 5))
        let picture = try ImageFile.load(path: Self.png)
        let replayed = try HistoryReplay.replay(.init(contents.header), records: contents.records)
        #expect(replayed.engine.flattenedImage() == picture, "replays to the pixels f50280b saved")
        // Not by chance: the same steps by today's rules draw other pixels.
        let today = contents.operations.map { op -> PaintCore.Operation in
            switch op {
            case .shape(var style, let spec):
                style.drawing = .current
                return .shape(style, spec)
            case .fill(var style, let at, let tolerance):
                style.drawing = .current
                return .fill(style, at: at, tolerance: tolerance)
            default: return op
            }
        }
        let redrawn = try HistoryReplay.replay(.init(contents.header), today)
        #expect(redrawn.engine.flattenedImage() != picture)
    }

    @Test func aJournalStepFromANewerVersionIsLeftOutAndSaidToBe() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("newer.spj")
        let header = JournalTests.header()
        var newer = PaintCore.Operation.fill(StrokeStyle(color: .black), at: Point(x: 5, y: 5), tolerance: 32)
            .encoded()
        newer[1] = 0xF0
        let clear = PaintCore.Operation.clear.encoded()
        Support.put(
            JournalFormat.filePrefix + JournalFormat.record(header.encoded(), sequence: 0)
                + JournalFormat.record(newer, sequence: 1) + JournalFormat.record(clear, sequence: 2), path)
        let contents = try JournalReader.read(path: path)
        #expect(contents.operations.count == 2 && contents.operations.last == .clear)
        let lost = JournalFormat.record(newer, sequence: 1).count
        #expect(
            contents.droppedTail
                == "1 damaged change was left out (\(lost) bytes); 1 of them was drawn by a newer SwiftPaint",
            "\(contents.droppedTail ?? "nil")")
    }

    @Test func aSavedHistoryWithAStepFromANewerVersionIsRefusedAndSaysSo() {
        let fill = PaintCore.Operation.fill(StrokeStyle(color: .black), at: Point(x: 5, y: 5), tolerance: 32)
        let archive = DocumentArchive(
            width: 10, height: 10, background: .color(.white), operations: [.clear, fill], pixelHash: 0)
        guard var payload = archive.payload() else {
            Issue.record("no payload")
            return
        }
        let encoded = fill.encoded()
        #expect(Array(payload.suffix(encoded.count)) == encoded)
        payload[payload.count - encoded.count + 1] = 0xF0
        guard case .failure(let problem) = DocumentArchive.decodePayload(payload) else {
            Issue.record("a step from drawing version 16 was read")
            return
        }
        #expect(
            problem.reason == "operation 2 was drawn by a newer SwiftPaint (drawing version 16; this one knows up to "
                + "\(DrawingVersion.newest.rawValue))"
        )
    }
}

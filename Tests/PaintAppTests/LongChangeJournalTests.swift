import Foundation
import PaintCore
import Testing

@testable import PaintApp
@testable import PaintIO

/// A change longer than a journal record may be (a paste or a background of more than about
/// 134 M pixels: 512 MiB) is journaled in parts and restored after a crash like any other.
/// The limit is the writer's `recordLimit`, set to 4 KiB here so the parts are many and small.
@Suite struct LongChangeJournalTests {
    static func stroke(_ n: Int) -> PaintCore.Operation {
        let style = StrokeStyle(color: Color(r: UInt8(50 * n % 256), g: 30, b: 180), opacity: 0.8, width: Double(2 + n))
        return .stroke(style, points: [Point(x: 3.5 + Double(n * 7), y: 2.5), Point(x: 70.5, y: 50.5 - Double(n * 4))])
    }

    /// A `width` x `height` picture of noise (every pixel opaque, so premultiplied as it is).
    static func noise(width: Int, height: Int, seed: UInt64) -> PixelImage {
        var state = seed
        let pixels = (0..<width * height).map { _ -> UInt32 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33) | 0xFF00_0000
        }
        return PixelImage(width: width, height: height, pixels: pixels)!
    }

    static func state(_ engine: StrokeEngine) -> [UInt32] { Array(engine.paintImage().pixels) }

    /// The document the live program would have after `operations`.
    static func live(_ operations: [PaintCore.Operation]) -> StrokeEngine {
        let engine = StrokeEngine(width: 80, height: 60, background: .color(.white))
        let history = History(base: nil)
        for op in operations { history.perform(op, engine: engine) }
        return engine
    }

    @Test func aPasteLongerThanARecordIsRestoredPixelExactWithEveryStepAfterIt() throws {
        let folder = NSTemporaryDirectory() + "swiftpaint-long-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limit = 4096
        let paste = PaintCore.Operation.paste(Self.noise(width: 70, height: 50, seed: 7), x: -5, y: 9)
        let second = PaintCore.Operation.paste(Self.noise(width: 40, height: 33, seed: 8), x: 30, y: 20)
        #expect(paste.encoded().count > 3 * limit && second.encoded().count > limit)
        // A long change alone in a batch, and one among others; a removal names the steps by
        // number, so a step missing would shift it.
        let first = [Self.stroke(1), paste]
        let later = [Self.stroke(2), second, Self.stroke(3), .undo, .redo, .removeStroke(step: 1)]
        let header = JournalHeader(documentPath: nil, width: 80, height: 60, background: .color(.white))
        let writer = try JournalWriter.create(in: folder, header: header, recordLimit: limit)
        for op in first { writer.append(op) }
        #expect(writer.flush())
        for op in later { writer.append(op) }
        #expect(writer.flush())
        #expect(writer.lastError == nil)
        #expect(writer.recordCount == first.count + later.count)
        writer.abandonForTesting()  // the program dies here; the journal stays

        // No record after the header is longer than the limit: the pastes are in parts.
        let file = [UInt8](try #require(FileManager.default.contents(atPath: writer.path)))
        var lengths: [Int] = []
        var at = JournalFormat.prefixSize
        while at + JournalFormat.recordOverhead <= file.count {
            let length = file[at + 8..<at + 12].reversed().reduce(0) { $0 << 8 | Int($1) }
            lengths.append(length)
            at += JournalFormat.recordOverhead + length
        }
        #expect(at == file.count)
        #expect(lengths.dropFirst().allSatisfy { $0 <= limit })
        #expect(lengths.count >= 1 + first.count + later.count + 4)

        let contents = try JournalReader.read(path: writer.path)
        #expect(contents.droppedTail == nil)
        #expect(contents.operations == first + later)
        let restored = try DocumentJournal.rebuild(contents)
        let expected = Self.live(first + later)
        #expect(Self.state(restored.engine) == Self.state(expected))
        #expect(Self.state(restored.engine) != Self.state(Self.live([Self.stroke(1)] + later)))

        // Taken over after the crash, the journal goes on after the parts.
        let adopted = try JournalWriter.adopt(path: writer.path)
        adopted.append(Self.stroke(4))
        #expect(adopted.flush())
        adopted.abandonForTesting()
        let again = try JournalReader.read(path: writer.path)
        #expect(again.droppedTail == nil)
        #expect(again.operations == first + later + [Self.stroke(4)])
        #expect(
            Self.state(try DocumentJournal.rebuild(again).engine)
                == Self.state(Self.live(first + later + [Self.stroke(4)])))
    }

    /// A crash while the parts are written leaves them cut short: the reader drops them as a
    /// torn last change (never a step in the middle), and a writer taking the journal over
    /// cuts them off and numbers its next change in their place.
    @Test func aCrashInTheMiddleOfThePartsDropsOnlyThatLastChange() throws {
        let folder = NSTemporaryDirectory() + "swiftpaint-long-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paste = PaintCore.Operation.paste(Self.noise(width: 70, height: 50, seed: 9), x: 0, y: 0)
        let header = JournalHeader(documentPath: nil, width: 80, height: 60, background: .color(.white))
        let writer = try JournalWriter.create(in: folder, header: header, recordLimit: 4096)
        writer.append(Self.stroke(1))
        #expect(writer.flush())
        let before = try #require(FileManager.default.attributesOfItem(atPath: writer.path)[.size] as? Int)
        writer.append(paste)
        #expect(writer.flush())
        writer.abandonForTesting()
        let after = try #require(FileManager.default.attributesOfItem(atPath: writer.path)[.size] as? Int)
        // Cut in the middle of the third part, as a crash during the write would.
        #expect(truncate(writer.path, off_t(before + 2 * 4096 + 4096 / 2 + 2 * JournalFormat.recordOverhead)) == 0)
        #expect(after > before + 3 * 4096)

        let contents = try JournalReader.read(path: writer.path)
        #expect(contents.operations == [Self.stroke(1)])
        #expect(contents.droppedTail?.contains("cut short") == true)
        let adopted = try JournalWriter.adopt(path: writer.path)
        adopted.append(Self.stroke(2))
        #expect(adopted.flush())
        adopted.abandonForTesting()
        let again = try JournalReader.read(path: writer.path)
        #expect(again.droppedTail == nil)
        #expect(again.operations == [Self.stroke(1), Self.stroke(2)])
    }

    /// A long change that does not fit in what is left of the journal (2 GiB in all) is not
    /// written in part: crash protection stops visibly (`failure`, which the status bar shows in
    /// red), and nothing after it is written past the missing step.
    @Test func aLongChangeOverTheJournalsSizeLimitStopsItVisiblyAndNothingFollowsIt() throws {
        let folder = NSTemporaryDirectory() + "swiftpaint-long-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paste = PaintCore.Operation.paste(Self.noise(width: 70, height: 50, seed: 10), x: 0, y: 0)
        let header = JournalHeader(documentPath: nil, width: 80, height: 60, background: .color(.white))
        let writer = try JournalWriter.create(
            in: folder, header: header, sizeLimit: 64 + header.encoded().count + 10_000, recordLimit: 4096)
        writer.append(Self.stroke(1))
        #expect(writer.flush())
        let size = try #require(FileManager.default.attributesOfItem(atPath: writer.path)[.size] as? Int)
        writer.append(paste)
        writer.append(Self.stroke(2))
        #expect(writer.flush(timeout: 30) == false)
        guard case .tooLarge? = writer.failure else {
            Issue.record("no visible stop: \(String(describing: writer.failure))")
            return
        }
        #expect(writer.isBehind && writer.pendingCount == 2)
        #expect(try #require(FileManager.default.attributesOfItem(atPath: writer.path)[.size] as? Int) == size)
        let contents = try JournalReader.read(path: writer.path)
        #expect(contents.operations == [Self.stroke(1)])
        #expect(contents.droppedTail == nil)
        writer.discard()
    }
}

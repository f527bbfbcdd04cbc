import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Seeded mutation loops (fixed seed and count, a few seconds; `FuzzRun` for more) over the journal reader and the
/// replay budget: no input crashes them, allocates what it claims, or gets past the budget.
@Suite struct JournalFuzzTests {
    typealias J = JournalTests

    @Test func mutatedJournalsNeverCrashTheReaderAndKeepOnlyRealRecords() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let records =
            (J.operations(24, seed: 31, maxPoints: 12) + [.clear, .undo, .redo]).map(JournalRecord.operation)
            + [.saved(path: "/a/b.png")]
        let path = try J.abandonedJournal(in: folder, records: records)
        let outcomes = try Self.fuzz(path, records: records, seed: 0x4A0F, rounds: 1500, in: folder)
        print("journal fuzz, seed \(FuzzRun.seed(0x4A0F)): \(outcomes)")
        #expect(outcomes["damaged", default: 0] > 100)
    }

    /// The same over a journal holding a change written in parts (`JournalParts`: 256-byte
    /// records here, where the real limit is 512 MiB), between whole ones: a part damaged, cut,
    /// moved or repeated loses at most its change, never gives a change that was not written.
    @Test func mutatedJournalsWithAChangeInPartsNeverCrashTheReaderAndKeepOnlyRealRecords() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let long = try #require(
            J.operations(40, seed: 77, maxPoints: 600).max { $0.encoded().count < $1.encoded().count })
        try #require(long.encoded().count > 8 * 256, "a change of many parts")
        let records =
            (J.operations(5, seed: 41, maxPoints: 12) + [long] + J.operations(4, seed: 43, maxPoints: 12))
            .map(JournalRecord.operation) + [.saved(path: "/a/b.png"), .operation(long)]
        let writer = try JournalWriter.create(in: folder.path, header: J.header(), recordLimit: 256)
        for record in records { writer.append(record) }
        #expect(writer.flush())
        let path = writer.path
        J.abandon(writer)
        #expect(try JournalReader.read(path: path).records == records, "read back whole, the parts joined")
        let outcomes = try Self.fuzz(path, records: records, seed: 0x9A27, rounds: 600, in: folder)
        print("journal fuzz with parts, seed \(FuzzRun.seed(0x9A27)): \(outcomes)")
        #expect(outcomes["damaged", default: 0] > 100)
    }

    /// A bit flipped, a run taken out, random bytes put in, a length field claiming a huge
    /// record, the file cut, a record copied elsewhere (an out-of-order sequence number).
    static let mutations: [FuzzRun.Mutation] = [
        .flipBit, .removeRun(upTo: 40), .insertRandom(below: 30), .overwrite([0xFF, 0xFF, 0xFF, 0x7F]), .cut,
        .copyRun(length: 60),
    ]

    /// Mutates the journal at `path` (written from `records`) `rounds` times, reads each back,
    /// and checks that whatever was kept is real; counts whole, damaged and refused reads.
    static func fuzz(
        _ path: String, records: [JournalRecord], seed: UInt64, rounds: Int, in folder: TemporaryDirectory
    ) throws -> [String: Int] {
        let valid = try #require(Support.get(path))
        let headerEnd = JournalFormat.prefixSize + JournalFormat.recordOverhead + J.header().encoded().count
        var rng = SplitMix(seed: FuzzRun.seed(seed))
        var outcomes: [String: Int] = [:]
        for _ in 0..<FuzzRun.rounds(rounds) {
            let bytes = FuzzRun.mutate(valid, &rng, cases: Self.mutations, emptied: [0])
            Support.put(bytes, path)
            do {
                let contents = try JournalReader.read(path: path)
                // Whatever was kept is real: each operation is one that was written, or the
                // empty stand-in for a lost one, and never more than were written.
                #expect(contents.records.count <= records.count)
                for record in contents.records { #expect(record == JournalParser.lost || records.contains(record)) }
                if bytes.count >= headerEnd, Array(bytes[..<headerEnd]) == Array(valid[..<headerEnd]) {
                    #expect(contents.header == J.header())
                }
                outcomes[contents.droppedTail == nil ? "whole" : "damaged", default: 0] += 1
            } catch {
                outcomes["refused", default: 0] += 1
            }
            _ = JournalReader.orphans(in: folder.path)
        }
        return outcomes
    }

    /// A random operation, including hostile values: huge or non-finite coordinates, huge
    /// widths, removals of any step, undo and redo, canvas changes, turned selections, texts.
    static func randomOperation(_ rng: inout SplitMix) -> PaintCore.Operation {
        func coordinate() -> Double {
            switch rng.next() % 8 {
            case 0: return [Double.nan, .infinity, -.infinity, 1e300, -1e300][Int(rng.next() % 5)]
            default: return rng.unit() * 300 - 50
            }
        }
        let style = StrokeStyle(width: rng.next() % 5 == 0 ? 1000 : 1 + rng.unit() * 30)
        switch rng.next() % 13 {
        case 0, 1, 2:
            return .stroke(
                style, points: (0..<Int(rng.next() % 20)).map { _ in Point(x: coordinate(), y: coordinate()) })
        case 3: return .fill(style, at: Point(x: coordinate(), y: coordinate()), tolerance: Int(rng.next() % 256))
        case 4: return .removeStroke(step: Int(rng.next() % 40))
        case 5: return rng.next() % 2 == 0 ? .undo : .redo
        case 6:
            return .shape(
                style,
                ShapeSpec(
                    kind: .ellipse, from: Point(x: coordinate(), y: coordinate()),
                    to: Point(x: coordinate(), y: coordinate()), filled: rng.next() % 2 == 0))
        case 7:
            return .moveRect(
                IntRect(x: Int(rng.next() % 300) - 50, y: 0, width: Int(rng.next() % 200), height: 50),
                dx: Int(rng.next() % 100), dy: -3)
        case 8:
            return .canvas(.scale(width: 1 + Int(rng.next() % 400), height: 1 + Int(rng.next() % 300)))
        case 9:
            let orientation = Orientation.all[Int(rng.next() % 8)]
            return rng.next() % 2 == 0
                ? .canvas(.orient(orientation))
                : .orientRect(
                    IntRect(x: Int(rng.next() % 200) - 20, y: 5, width: Int(rng.next() % 90), height: 40), orientation,
                    dx: 4, dy: Int(rng.next() % 30))
        case 10:
            return .canvas(
                .resize(
                    IntRect(
                        x: Int(rng.next() % 100) - 50, y: -3, width: 1 + Int(rng.next() % 500),
                        height: 1 + Int(rng.next() % 300))))
        case 11:
            let (w, h) = (1 + Int(rng.next() % 300), 1 + Int(rng.next() % 60))
            let mask = CoverageMask(
                x: Int(rng.next() % 200) - 20, y: 3, width: w, height: h,
                bytes: (0..<(w * h)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            guard let mask else { return .clear }
            return .text(
                style, TextSpec(mask: mask, text: "fuzz", font: TextFont(family: "DejaVu Sans", size: 12), x: 0, y: 0))
        default: return .clear
        }
    }

    @Test func randomLogsStayWithinTheBudgetThatAdmittedThem() {
        let seed = FuzzRun.seed(0xB0D6E7)
        var rng = SplitMix(seed: seed)
        let limits = ReplayBudget.Limits(operations: 60, points: 400, fills: 3, work: 1e8)
        var admitted = 0
        var refused = 0
        for _ in 0..<FuzzRun.rounds(300) {
            let ops = (0..<Int(1 + rng.next() % 60)).map { _ in Self.randomOperation(&rng) }
            var budget = ReplayBudget(width: 200, height: 120, limits: limits)
            var overrun: ReplayBudget.Overrun?
            for op in ops where overrun == nil { overrun = budget.add(op) }
            #expect(budget.work.isFinite && budget.work >= 0)
            #expect(ReplayBudget.check(ops, width: 200, height: 120, limits: limits) == overrun)
            guard overrun == nil else {
                refused += 1
                continue
            }
            admitted += 1
            // What the budget admitted replays without trouble, and every prefix is admitted too.
            #expect(budget.points <= limits.points && budget.fills <= limits.fills)
            let replayed = try? HistoryReplay.replay(
                HistoryReplay.Start(width: 200, height: 120, background: .color(.white), baseImage: nil), ops,
                limits: limits)
            #expect(replayed != nil)
            #expect(
                ReplayBudget.check(Array(ops.prefix(ops.count / 2)), width: 200, height: 120, limits: limits) == nil)
        }
        print("replay budget fuzz, seed \(seed): \(admitted) admitted, \(refused) refused")
        #expect(admitted > 50 && refused > 50)
    }
}

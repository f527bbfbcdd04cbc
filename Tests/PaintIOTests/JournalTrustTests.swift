import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Journals are data from disk: sizes are checked before anything is allocated, a damaged
/// record loses only itself, paths are checked before they can become save targets, and a
/// journal another program holds is never deleted (DESIGN §3, §4).
@Suite struct JournalTrustTests {
    typealias J = JournalTests

    @Test func aHeaderClaimingAHugeCanvasIsRefusedBeforeAnythingIsAllocated() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        for (w, h) in [(100_000, 100_000), (65535, 65535), (4_294_967_295, 1)] {
            let header = JournalHeader(documentPath: nil, width: w, height: h, background: .color(.white))
            let path = try J.abandonedJournal(in: folder, [.clear], header: header)
            #expect(throws: JournalError.self) { try JournalReader.read(path: path) }
            do {
                _ = try JournalReader.read(path: path)
            } catch {
                #expect(error.description.contains("\(w) × \(h) pixels, larger than SwiftPaint opens"))
            }
            // Never offered; listed as a problem; left on disk.
            let (orphans, problems) = JournalReader.orphansAndProblems(in: folder.path)
            #expect(orphans.isEmpty)
            #expect(problems.count == 1)
            #expect(throws: JournalError.self) { try JournalWriter.adopt(path: path) }
            #expect(FileSystem.exists(path))
            unlink(path)
        }
    }

    @Test func aJournalLargerThanTheLimitIsRefusedFromItsSize() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = try J.abandonedJournal(in: folder, [.clear])
        #expect(truncate(path, off_t(JournalFormat.maxJournalBytes) + 1) == 0)
        #expect(throws: JournalError.tooLarge(path: path, bytes: JournalFormat.maxJournalBytes + 1, limit: 2 << 30)) {
            try JournalReader.read(path: path)
        }
        // A huge file that is not a journal costs a glance at its first bytes.
        let other = folder.file("other.spj")
        Support.put([1, 2, 3], other)
        #expect(truncate(other, off_t(10) << 30) == 0)
        #expect(throws: JournalError.notAJournal(path: other)) { try JournalReader.read(path: other) }
    }

    /// The first part of a change written in parts (`JournalParts`), claiming `total` bytes
    /// joined in `count` parts, framed as change `sequence`.
    static func firstPart(total: UInt64, count: UInt32, sequence: Int) -> [UInt8] {
        var payload = ByteWriter()
        payload.byte(JournalParts.tag)
        payload.uint32(0)
        payload.uint32(count)
        payload.uint64(total)
        payload.append([UInt8](repeating: 0x5A, count: 100))
        return JournalFormat.record(payload.bytes, sequence: sequence)
    }

    @Test func aChangeClaimingMorePartsOrBytesThanTheFileHoldsIsRefusedWithoutAllocatingThem() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = J.operations(3, seed: 31)
        // A terabyte, or four billion parts: allocating either would end the program.
        for (total, count) in [
            (UInt64(1) << 40, UInt32(2)), (UInt64(1) << 33, UInt32.max), (UInt64(Int.max), UInt32(2)),
        ] {
            let path = try J.abandonedJournal(in: folder, Array(ops[..<2]))
            var bytes = try #require(Support.get(path))
            bytes += Self.firstPart(total: total, count: count, sequence: 3)
            bytes += JournalFormat.record(ops[2].encoded(), sequence: 4)
            Support.put(bytes, path)
            let contents = try JournalReader.read(path: path)
            #expect(contents.operations == Array(ops[..<2]))
            #expect(contents.droppedTail?.contains("cut short") == true)
            unlink(path)
        }
        // Parts that do not add up (the second never comes) lose their step only.
        let path = try J.abandonedJournal(in: folder, Array(ops[..<2]))
        var bytes = try #require(Support.get(path))
        bytes += Self.firstPart(total: 150, count: 2, sequence: 3)
        bytes += JournalFormat.record(ops[2].encoded(), sequence: 4)
        Support.put(bytes, path)
        let contents = try JournalReader.read(path: path)
        #expect(contents.records == ops[..<2].map(JournalRecord.operation) + [JournalParser.lost, .operation(ops[2])])
        #expect(contents.droppedTail?.contains("1 damaged change was left out") == true)
    }

    @Test func everyGoodRecordAfterADamagedOneIsKeptAndAdoptingKeepsThemToo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = J.operations(6, seed: 21)
        let path = try J.abandonedJournal(in: folder, ops)
        var bytes = try #require(Support.get(path))
        // Damage the first stroke's length field: it now claims to run past the file's end.
        let first = JournalFormat.prefixSize + JournalFormat.recordOverhead + J.header().encoded().count
        bytes[first + 8 + 3] = 0x7F
        // And flip a payload byte of the fourth.
        var fourth = first
        for op in ops[0..<3] { fourth += JournalFormat.recordOverhead + op.encoded().count }
        bytes[fourth + JournalFormat.recordOverhead + 2] ^= 0x40
        Support.put(bytes, path)

        let contents = try JournalReader.read(path: path)
        let lost = JournalParser.lost
        #expect(
            contents.records == [
                lost, .operation(ops[1]), .operation(ops[2]), lost, .operation(ops[4]), .operation(ops[5]),
            ])
        #expect(contents.droppedTail?.hasPrefix("2 damaged changes were left out") == true)
        let summary = try #require(JournalReader.orphans(in: folder.path).first)
        #expect(summary.stepCount == 4)
        #expect(summary.hasUnsavedWork)

        // Adopting keeps the file whole (only a damaged tail would be cut) and goes on after it.
        let writer = try JournalWriter.adopt(path: path)
        writer.append(.clear)
        #expect(writer.flush())
        #expect(try JournalReader.read(path: path).operations == contents.operations + [.clear])
        writer.discard()
    }

    @Test func journalsOfTheFirstFormatAreStillReadAndContinued() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("old.spj")
        let ops = J.operations(3, seed: 22)
        var bytes = JournalFormat.magic + [1]
        bytes += JournalFormat.record(J.header().encoded(), sequence: 0, version: 1)
        for op in ops { bytes += JournalFormat.record(op.encoded(), sequence: 0, version: 1) }
        Support.put(bytes, path)
        #expect(try JournalReader.read(path: path).operations == ops)
        let writer = try JournalWriter.adopt(path: path)
        writer.append(.clear)
        #expect(writer.flush())
        #expect(try JournalReader.read(path: path).operations == ops + [.clear])
        writer.discard()
    }

    @Test func documentPathsThatCannotBeSaveTargetsAreDropped() throws {
        for bad in [
            "../../etc/passwd", "passwd", "/home/ana/../../etc/passwd", "/a/./b.png", "/a//b.png", "/a/b\u{1B}[2J.png",
            "/a/b\n.png", "",
        ] {
            #expect(!JournalHeader.isUsable(bad), "\(bad)")
        }
        for good in ["/home/ana/cat.png", "/tmp/tête à tête.png", "/x"] { #expect(JournalHeader.isUsable(good)) }

        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let header = JournalHeader(documentPath: "../../etc/passwd", width: 20, height: 10, background: .color(.white))
        let path = try J.abandonedJournal(
            in: folder, records: [.operation(J.operations(1, seed: 1)[0]), .saved(path: "/etc/../etc/passwd")],
            header: header)
        let contents = try JournalReader.read(path: path)
        #expect(contents.header.documentPath == nil)
        #expect(contents.unusablePath == "../../etc/passwd")
        let summary = try #require(JournalReader.orphans(in: folder.path).first)
        #expect(summary.documentPath == nil)
        // A replay ignores an unusable save path too.
        let replay = try HistoryReplay.replay(HistoryReplay.Start(contents.header), records: contents.records)
        #expect(replay.savedPath == nil)
        #expect(replay.savedStep == 1)
    }

    @Test func aJournalAnotherProgramHoldsIsNeitherListedNorDeleted() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = try J.abandonedJournal(in: folder, J.operations(2, seed: 3))
        // Window A restores it: adopting locks it for A's whole life.
        let a = try JournalWriter.adopt(path: path)
        #expect(JournalReader.orphans(in: folder.path).isEmpty)
        // Window B answers Discard to its (older) offer: refused, the file stays.
        #expect(throws: JournalError.inUse(path: path)) { try JournalReader.delete(path: path) }
        #expect(FileSystem.exists(path))
        a.append(.clear)
        #expect(a.flush())
        // A crashes: the journal is an orphan again, with everything A wrote; now B may delete it.
        J.abandon(a)
        #expect(try JournalReader.read(path: path).operations.count == 3)
        try JournalReader.delete(path: path)
        #expect(!FileSystem.exists(path))
        // Adopting a journal deleted meanwhile fails instead of writing into a deleted file.
        #expect(throws: JournalError.self) { try JournalWriter.adopt(path: path) }
    }

    @Test(.enabled(if: Support.canMount, "mounting a 64 KiB tmpfs needs root with CAP_SYS_ADMIN"))
    func afterADiskFullTheWriterCatchesUpByItselfWhenSpaceReturns() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        try #require(Support.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", folder.path]))
        defer { Support.run("/usr/bin/umount", [folder.path]) }
        Support.put([UInt8](repeating: 1, count: 236 * 1024), folder.file("filler"))
        let writer = try JournalWriter.create(in: folder.path, header: J.header())
        let ops = J.operations(120, seed: 12, maxPoints: 20)
        for op in ops { writer.append(op) }
        #expect(writer.flush() == false)
        #expect(writer.lastError?.isDiskFull == true)
        let behind = writer.pendingCount
        #expect(behind > 0)
        // Room again; nothing more is drawn and nobody flushes: the writer retries on its own.
        unlink(folder.file("filler"))
        var caughtUp = false
        for _ in 0..<6000 where !caughtUp {
            caughtUp = writer.pendingCount == 0
            if !caughtUp { usleep(10_000) }
        }
        #expect(caughtUp, "still \(writer.pendingCount) behind")
        #expect(try JournalReader.read(path: writer.path).operations == ops)
        writer.discard()
    }
}

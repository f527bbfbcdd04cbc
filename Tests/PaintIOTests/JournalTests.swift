import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

@Suite struct JournalTests {
    // MARK: Helpers

    static func header(path: String? = "/home/me/pictures/cat.png", base: [UInt8]? = nil) -> JournalHeader {
        JournalHeader(
            documentPath: path, width: 640, height: 480, background: .color(Color(r: 250, g: 240, b: 230)),
            baseImage: base, createdAt: 1_700_000_000, pid: getpid())
    }

    /// A random stroke: random tool, width, color, opacity and 1...maxPoints points.
    static func stroke(_ noise: inout Support.Noise, maxPoints: Int = 50) -> PaintCore.Operation {
        let count = 1 + Int(noise.next() % UInt32(maxPoints))
        var points: [Point] = []
        for _ in 0..<count {
            points.append(Point(x: Double(noise.next() % 64000) / 100, y: Double(noise.next() % 48000) / 100))
        }
        let style = StrokeStyle(
            tool: noise.next() % 5 == 0 ? .eraser : .brush,
            color: Color(
                r: UInt8(truncatingIfNeeded: noise.next()), g: UInt8(truncatingIfNeeded: noise.next()),
                b: UInt8(truncatingIfNeeded: noise.next())),
            opacity: Double(1 + noise.next() % 255) / 255, width: 1 + Double(noise.next() % 20000) / 100)
        return .stroke(style, points: points)
    }

    static func operations(_ count: Int, seed: UInt64, maxPoints: Int = 50) -> [PaintCore.Operation] {
        var noise = Support.Noise(state: seed)
        return (0..<count).map { _ in stroke(&noise, maxPoints: maxPoints) }
    }

    /// The journal files in `folder` (hidden temporary files included).
    static func journalFiles(_ folder: TemporaryDirectory) -> [String] {
        folder.entries().filter { $0.hasSuffix(".spj") || $0.hasSuffix(".tmp") }
    }

    /// Whether another open file description can take the lock on `path` right now.
    static func lockable(_ path: String) -> Bool {
        // O_CLOEXEC: a child another test spawns while this holds the lock (Xvfb, swiftpaint)
        // would otherwise keep the descriptor across its exec, and the lock with it for its life.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    /// A journal on disk holding `ops`, left behind as after a crash; returns its path.
    static func abandonedJournal(
        in folder: TemporaryDirectory, _ ops: [PaintCore.Operation], header: JournalHeader = header()
    )
        throws -> String
    {
        try abandonedJournal(in: folder, records: ops.map(JournalRecord.operation), header: header)
    }

    /// The same with save marks among the changes.
    static func abandonedJournal(
        in folder: TemporaryDirectory, records: [JournalRecord], header: JournalHeader = header()
    )
        throws -> String
    {
        let writer = try JournalWriter.create(in: folder.path, header: header)
        for record in records { writer.append(record) }
        #expect(writer.flush())
        let path = writer.path
        abandon(writer)
        return path
    }

    /// Leaves `writer`'s journal as a crash would, and waits (up to 30 s) until its lock is
    /// free. A child another test spawns meanwhile holds a copy of the journal's descriptor
    /// (O_CLOEXEC closes it only at the child's exec), and with it the lock, for a moment
    /// after the writer closed it: a scan then would rightly skip the journal as in use.
    static func abandon(_ writer: JournalWriter) {
        let path = writer.path
        writer.abandonForTesting()
        var waited = 0
        while !lockable(path) && waited < 30_000 {
            usleep(1000)
            waited += 1
        }
        #expect(lockable(path), "the abandoned journal's lock stays taken")
    }

    /// Closes `fd` (letting go of its lock) on a thread of its own `seconds` from now: a thread,
    /// not a shared queue, which the parallel suites may keep busy well past the moment.
    static func release(_ fd: Int32, after seconds: Double) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            close(fd)
        }
    }

    // MARK: Round trip

    @Test func headerAnd200RandomStrokesAndAClearReadBackEqual() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        var noise = Support.Noise(state: 1)
        let base = (0..<3000).map { _ in UInt8(truncatingIfNeeded: noise.next()) }
        let header = Self.header(base: base)
        var ops = Self.operations(200, seed: 2)
        ops.append(.clear)

        let writer = try JournalWriter.create(in: folder.file("state/swiftpaint"), header: header)
        for op in ops { writer.append(op) }
        #expect(writer.flush())
        #expect(writer.recordCount == 201)
        #expect(writer.pendingCount == 0)
        #expect(writer.lastError == nil)
        #expect(writer.durableLatencies().count == 201)
        #expect(writer.durableLatencies().allSatisfy { $0 >= 0 && $0 < 60 })

        let name = FileSystem.lastComponent(writer.path)
        #expect(name.hasPrefix("doc-") && name.hasSuffix("-\(getpid()).spj"))
        #expect(name.count == "doc-".count + 16 + 1 + "\(getpid())".count + 4)
        #expect(Support.mode(folder.file("state/swiftpaint")) == 0o700)
        #expect(Support.mode(writer.path) == 0o600)

        let contents = try JournalReader.read(path: writer.path)
        #expect(contents.header == header)
        #expect(contents.operations == ops)
        #expect(contents.droppedTail == nil)
        // The base image is written from where it is, not copied into the record: the file
        // still starts with exactly the framed header record, and the first stroke follows it.
        let start = JournalFormat.filePrefix + JournalFormat.record(header.encoded(), sequence: 0)
        let file = Support.get(writer.path) ?? []
        #expect(Array(file.prefix(start.count)) == start)
        #expect(
            Array(file[start.count...].prefix(5))
                == Array(JournalFormat.record(ops[0].encoded(), sequence: 1).prefix(5)))
        writer.discard()
    }

    @Test func aSaveIsAJournalRecordWithTheBytesOlderJournalsHave() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let writer = try JournalWriter.create(in: folder.path, header: Self.header())
        writer.append(.clear)
        writer.append(JournalRecord.saved(path: "/home/ana/tête.png"))
        #expect(writer.flush())
        let contents = try JournalReader.read(path: writer.path)
        writer.discard()
        #expect(contents.records == [.operation(.clear), .saved(path: "/home/ana/tête.png")])
        #expect(contents.operations == [.clear], "a save is no change of the picture")
        #expect(!contents.records.hasUnsavedWork)
        #expect((contents.records + [.operation(.clear)]).hasUnsavedWork)
        // The layout journals wrote when the mark was an operation: tag 5, UTF-8 length, path.
        let path = Array("/home/ana/tête.png".utf8)
        let old: [UInt8] = [5, UInt8(path.count), 0, 0, 0] + path
        #expect(JournalRecord.saved(path: "/home/ana/tête.png").encoded() == old)
        #expect(JournalRecord(decoding: old) == .saved(path: "/home/ana/tête.png"))
        #expect(Operation(decoding: old) == nil, "tag 5 is no operation")
        #expect(JournalRecord(decoding: old + [0]) == nil && JournalRecord(decoding: [5, 9, 0, 0, 0]) == nil)
    }

    @Test func aSaveMarkerCountsTheChangesDrawnWhileItWasWrittenAndKeepsThemUnsaved() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let picture = folder.file("cat.png")
        Support.put([5, 6], picture)
        // As a journal keeps it: without its status-change time.
        let saved = try #require(FileVersion.current(path: picture)?.withoutStatusChange)
        let marks: [JournalRecord] = [
            .saved(path: picture, version: saved, drawnDuring: 2), .saved(path: picture, drawnDuring: 70_000),
        ]
        for mark in marks {
            let writer = try JournalWriter.create(in: folder.path, header: Self.header())
            writer.append(.clear)
            writer.append(.clear)
            writer.append(mark)
            #expect(writer.flush())
            let contents = try JournalReader.read(path: writer.path)
            writer.discard()
            #expect(contents.records == [.operation(.clear), .operation(.clear), mark])
            #expect(contents.records.hasUnsavedWork, "changes drawn during the save are in no file")
        }
        // A marker nothing was drawn during keeps the bytes builds before the count read.
        #expect(
            JournalRecord.saved(path: picture, version: saved, drawnDuring: 0).encoded()
                == JournalRecord.saved(path: picture, version: saved).encoded())
        let mark = marks[0].encoded()
        #expect(JournalRecord(decoding: Array(mark.dropLast())) == nil)
        #expect(JournalRecord(decoding: mark + [0]) == nil)
        #expect(JournalRecord(decoding: Array(mark.dropLast(4)) + [0, 0, 0, 0]) == nil, "a count of 0 is not written")
    }

    @Test func aJournalStartedWithAHistoryHoldsAllOfItBeforeItIsOne() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        var noise = Support.Noise(state: 11)
        let history: [PaintCore.Operation] = (0..<300).map { _ in Self.stroke(&noise) } + [.undo, .clear]
        let writer = try JournalWriter.create(
            in: folder.path, header: Self.header(base: [1, 2, 3]), initial: history.map(JournalRecord.operation))
        // The program dies the moment the journal is made, before its thread wrote anything.
        Self.abandon(writer)
        let contents = try JournalReader.read(path: writer.path)
        let whole = contents.operations == history
        #expect(whole, "\(contents.operations.count) of \(history.count) steps")
        #expect(contents.header.baseImage == [1, 2, 3])
        // Adopted, it goes on after them.
        let adopted = try JournalWriter.adopt(path: writer.path)
        adopted.append(PaintCore.Operation.clear)
        #expect(adopted.flush())
        let continued = try JournalReader.read(path: adopted.path).operations == history + [.clear]
        #expect(continued)
        adopted.discard()
    }

    @Test func theFileAsTheWindowKnewItIsKeptInTheHeaderAndInEachSaveMark() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let picture = folder.file("cat.png")
        Support.put([1, 2, 3, 4], picture)
        let opened = try #require(FileVersion(path: picture, bytes: [1, 2, 3, 4]))
        var header = Self.header(path: picture, base: [9, 9, 9])
        header.documentVersion = opened
        let writer = try JournalWriter.create(in: folder.path, header: header)
        writer.append(.clear)
        Support.put([5, 6], picture)
        let saved = try #require(FileVersion.current(path: picture))
        writer.append(JournalRecord.saved(path: picture, version: saved))
        #expect(writer.flush())
        let contents = try JournalReader.read(path: writer.path)
        writer.discard()
        // All but the status-change time, which a journal does not keep (its bytes decide).
        #expect(
            contents.header.documentVersion == opened.withoutStatusChange && contents.header.baseImage == [9, 9, 9])
        #expect(contents.records == [.operation(.clear), .saved(path: picture, version: saved.withoutStatusChange)])
        #expect(!saved.sameBytes(as: opened))
        // A mark cut inside its version is no mark.
        let mark = JournalRecord.saved(path: picture, version: saved).encoded()
        #expect(JournalRecord(decoding: Array(mark.dropLast())) == nil)
    }

    @Test func onlyAJournalWhoseOwnerIsGoneIsDeleted() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let writer = try JournalWriter.create(in: folder.path, header: Self.header())
        writer.append(.clear)
        #expect(writer.flush())
        #expect(throws: JournalError.inUse(path: writer.path), "its owner is running") {
            try JournalReader.delete(path: writer.path)
        }
        #expect(FileSystem.exists(writer.path))
        Self.abandon(writer)
        try JournalReader.delete(path: writer.path)
        #expect(!FileSystem.exists(writer.path) && Self.journalFiles(folder).isEmpty)
        #expect(throws: JournalError.cannotOpen(path: writer.path, errno: ENOENT), "already gone") {
            try JournalReader.delete(path: writer.path)
        }
    }

    @Test func untitledTransparentHeaderRoundTrips() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        // Its time lies between two readings of the clock (not within a few seconds of one: a
        // loaded machine may hold the thread for longer in between).
        let before = Int64(Date().timeIntervalSince1970)
        let header = JournalHeader(documentPath: nil, width: 1, height: 8000, background: .transparent)
        let after = Int64(Date().timeIntervalSince1970)
        #expect(header.pid == getpid())
        #expect(header.createdAt >= before && header.createdAt <= after, "\(before) ... \(after)")
        let writer = try JournalWriter.create(in: folder.path, header: header)
        defer { writer.discard() }
        #expect(FileSystem.lastComponent(writer.path) == "untitled-\(getpid())-\(header.createdAt).spj")
        let contents = try JournalReader.read(path: writer.path)
        #expect(contents == JournalContents(header: header, records: [], droppedTail: nil))
        // A second untitled journal in the same second gets a name of its own.
        let second = try JournalWriter.create(in: folder.path, header: header)
        defer { second.discard() }
        #expect(second.path != writer.path)
    }

    /// A header marking its picture as read from a damaged source (`sourceDamage`) reads back
    /// equal, as version 3 (builds before it say "written by a newer SwiftPaint"); flags that
    /// do not go with their version, and a damage cut short or with more rows read than it
    /// has, are refused as malformed.
    @Test func aHeaderWithASourceDamageRoundTripsAsVersion3() throws {
        let damage = PictureDamage(
            error: .cutShort(path: "the clipboard", reason: "it ends before the picture does"), rowsRead: 37,
            height: 80, inOrder: false, orientation: Orientation(swapsAxes: true, mirrorsX: false, mirrorsY: true))
        var header = JournalHeader(
            documentPath: nil, width: 100, height: 80, background: .color(.white), createdAt: 1_700_000_000,
            sourceDamage: damage)
        let bytes = header.encoded()
        #expect(bytes[0] == JournalHeader.damageFormatVersion && bytes[1] == 16)
        #expect(try JournalHeader.decode(bytes) == header)
        header.sourceDamage?.error = .damaged(path: "“a.png”", reason: String(repeating: "é", count: 3000))
        header.documentPath = "/home/me/a.png"
        let long = try JournalHeader.decode(header.encoded())
        #expect(long.sourceDamage?.error.path == "“a.png”" && long.documentPath == "/home/me/a.png")
        if case .damaged(_, let detail)? = long.sourceDamage?.error {
            #expect(detail.utf8.count == 4096 && detail.allSatisfy { $0 == "é" }, "cut at a character's end")
        } else {
            Issue.record("\(String(describing: long.sourceDamage))")
        }
        // Version 3 without the damage flag, the flag in version 1 or 2: malformed.
        var plain = JournalHeader(documentPath: nil, width: 100, height: 80, background: .transparent).encoded()
        plain[0] = 3
        #expect(throws: JournalHeader.DecodingProblem.malformed("unknown flags")) { try JournalHeader.decode(plain) }
        var flagged = bytes
        flagged[0] = 1
        #expect(throws: JournalHeader.DecodingProblem.malformed("unknown flags")) { try JournalHeader.decode(flagged) }
        #expect(throws: JournalHeader.DecodingProblem.unsupportedVersion(4)) {
            try JournalHeader.decode([4] + bytes.dropFirst())
        }
        // Cut anywhere inside the damage: refused, never read past.
        let end = bytes.count
        for cut in (end - 40)..<end {
            #expect(throws: JournalHeader.DecodingProblem.self) { try JournalHeader.decode(Array(bytes[..<cut])) }
        }
        // 81 rows read of 80.
        var over = bytes
        over.replaceSubrange((end - 9)..<(end - 5), with: [81, 0, 0, 0])
        #expect(throws: JournalHeader.DecodingProblem.malformed("the damaged source is not described")) {
            try JournalHeader.decode(over)
        }
    }

    // MARK: Locks and orphans

    @Test func theLockIsHeldForTheWritersLifeAndDiscardRemovesTheFile() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let writer = try JournalWriter.create(in: folder.path, header: Self.header())
        writer.append(.clear)
        writer.flush()
        let path = writer.path
        #expect(FileSystem.exists(path))
        #expect(!Self.lockable(path), "a second flock must fail while the writer lives")
        #expect(JournalReader.orphans(in: folder.path).isEmpty)
        #expect(throws: JournalError.inUse(path: path)) { try JournalWriter.adopt(path: path) }

        writer.discard()
        #expect(!FileSystem.exists(path))
        #expect(Self.journalFiles(folder).isEmpty)
        writer.discard()  // twice is harmless
        writer.append(.clear)  // and appending afterwards does nothing
        #expect(Self.journalFiles(folder).isEmpty)
    }

    @Test func anAbandonedJournalIsAnOrphanAndAdoptContinuesIt() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let first = Self.operations(5, seed: 3)
        let path = try Self.abandonedJournal(in: folder, first)
        #expect(Self.lockable(path))

        let orphans = JournalReader.orphans(in: folder.path)
        #expect(orphans.count == 1)
        let orphan = try #require(orphans.first)
        #expect(orphan.path == path)
        #expect(orphan.header == Self.header())
        #expect(orphan.recordCount == 5)
        #expect(orphan.droppedTail == nil)
        #expect(abs(orphan.modifiedAt - Int64(Date().timeIntervalSince1970)) < 60)
        // orphans() let go of the locks it tested.
        #expect(Self.lockable(path))

        let writer = try JournalWriter.adopt(path: path)
        #expect(writer.path == path)
        #expect(writer.recordCount == 5)
        #expect(writer.header == Self.header())
        #expect(JournalReader.orphans(in: folder.path).isEmpty, "an adopted journal is owned again")
        #expect(!Self.lockable(path))
        let more = Self.operations(3, seed: 4)
        for op in more { writer.append(op) }
        #expect(writer.flush())
        #expect(writer.recordCount == 8)
        #expect(try JournalReader.read(path: path).operations == first + more)
        writer.discard()
        #expect(!FileSystem.exists(path))
    }

    /// Two scans at once (two windows starting, or a fork in another thread holding a scan's
    /// descriptor until its exec) must not hide an orphan from each other: a scan's hold is
    /// shared. Adopting and deleting wait a scan's moment out; a live writer's hold still hides.
    @Test func aScanInProgressElsewhereHidesNoOrphan() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = try Self.abandonedJournal(in: folder, Self.operations(3, seed: 5))
        // Another scan holding it, as JournalReader.orphans does while it reads.
        let scan = open(path, O_RDONLY | O_CLOEXEC)
        #expect(scan >= 0 && flock(scan, LOCK_SH | LOCK_NB) == 0)
        #expect(JournalReader.orphans(in: folder.path).map(\.path) == [path], "hidden by a scan in progress")
        // The scan lets go in a moment: adopting waits for it, and continues the journal.
        Self.release(scan, after: 0.05)
        let writer = try JournalWriter.adopt(path: path)
        #expect(writer.recordCount == 3)
        #expect(JournalReader.orphans(in: folder.path).isEmpty, "a live writer's journal is no orphan")
        #expect(throws: JournalError.inUse(path: path), "a live writer's hold is not waited out") {
            try JournalWriter.adopt(path: path)
        }
        Self.abandon(writer)
        // Deleting waits a scan out too.
        let another = open(path, O_RDONLY | O_CLOEXEC)
        #expect(another >= 0 && flock(another, LOCK_SH | LOCK_NB) == 0)
        Self.release(another, after: 0.05)
        try JournalReader.delete(path: path)
        #expect(!FileSystem.exists(path))
    }

    @Test func droppingAWriterWithoutDiscardWritesWhatIsQueuedAndLeavesAnOrphan() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = Self.operations(50, seed: 12)
        var path = ""
        do {
            let writer = try JournalWriter.create(in: folder.path, header: Self.header())
            path = writer.path
            for op in ops { writer.append(op) }
        }
        #expect(try JournalReader.read(path: path).operations == ops)
        #expect(JournalReader.orphans(in: folder.path).map(\.path) == [path])
    }

    @Test func orphansAreListedNewestFirstAndNonJournalsAreSkipped() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let older = try Self.abandonedJournal(in: folder, [.clear], header: Self.header(path: "/a.png"))
        let newer = try Self.abandonedJournal(in: folder, [], header: Self.header(path: "/b.png"))
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, older, &times, 0)
        Support.put(Array("garbage".utf8), folder.file("junk.spj"))
        Support.put(Array("SPJOURNAL".utf8), folder.file("short.spj"))
        Support.put([], folder.file("notes.txt"))
        let live = try JournalWriter.create(in: folder.path, header: Self.header(path: "/c.png"))
        defer { live.discard() }

        let orphans = JournalReader.orphans(in: folder.path)
        #expect(orphans.map(\.path) == [newer, older])
        #expect(orphans.map(\.recordCount) == [0, 1])
        #expect(orphans.last?.modifiedAt == 1_600_000_000)
        #expect(JournalReader.orphans(in: folder.file("missing")).isEmpty)
    }

    // MARK: Damage

    @Test func aTornLastRecordIsDroppedAtEveryCutAndTheRestKept() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = Self.operations(3, seed: 5)
        let path = try Self.abandonedJournal(in: folder, ops)
        let full = try #require(Support.get(path))
        let lastStart = full.count - JournalFormat.recordOverhead - ops[2].encoded().count

        // Cut exactly between records: nothing is torn.
        Support.put(Array(full[..<lastStart]), path)
        let clean = try JournalReader.read(path: path)
        #expect(clean.operations == Array(ops[..<2]))
        #expect(clean.droppedTail == nil)

        for cut in (lastStart + 1)..<full.count {
            Support.put(Array(full[..<cut]), path)
            let contents = try JournalReader.read(path: path)
            #expect(contents.operations == Array(ops[..<2]), "cut at \(cut)")
            let dropped = cut - lastStart
            #expect(
                contents.droppedTail
                    == "the last change was cut short (\(dropped == 1 ? "1 byte" : "\(dropped) bytes") dropped)",
                "cut at \(cut)")
        }

        // Adopting a torn journal cuts the tail off and continues after the last whole record.
        Support.put(Array(full[..<(full.count - 3)]), path)
        let orphan = try #require(JournalReader.orphans(in: folder.path).first)
        #expect(orphan.recordCount == 2)
        #expect(orphan.droppedTail != nil)
        let writer = try JournalWriter.adopt(path: path)
        #expect(Support.get(path)?.count == lastStart)
        writer.append(.clear)
        #expect(writer.flush())
        let continued = try JournalReader.read(path: path)
        #expect(continued.operations == Array(ops[..<2]) + [.clear])
        #expect(continued.droppedTail == nil)
        writer.discard()
    }

    @Test func aFlippedByteInTheMiddleRecordLosesOnlyThatRecord() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = Self.operations(3, seed: 6)
        let path = try Self.abandonedJournal(in: folder, ops)
        var bytes = try #require(Support.get(path))
        let overhead = JournalFormat.recordOverhead
        let lastSize = overhead + ops[2].encoded().count
        let middleSize = overhead + ops[1].encoded().count
        let middleStart = bytes.count - lastSize - middleSize
        bytes[middleStart + overhead + (middleSize - overhead) / 2] ^= 0x10
        Support.put(bytes, path)

        let contents = try JournalReader.read(path: path)
        // The lost change keeps its step (an empty stroke), so later step numbers line up.
        #expect(contents.records == [.operation(ops[0]), JournalParser.lost, .operation(ops[2])])
        #expect(contents.droppedTail == "1 damaged change was left out (\(middleSize) bytes)")
    }

    @Test func garbageThrowsAndNeverCrashes() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("g.spj")
        var noise = Support.Noise(state: 7)

        Support.put([], path)
        #expect(throws: JournalError.notAJournal(path: path)) { try JournalReader.read(path: path) }
        for length in [1, 9, 10, 17, 100, 5000] {
            Support.put((0..<length).map { _ in UInt8(truncatingIfNeeded: noise.next()) }, path)
            #expect(throws: JournalError.notAJournal(path: path)) { try JournalReader.read(path: path) }
        }
        // The magic with garbage after it: the header cannot be read.
        let prefix = JournalFormat.filePrefix
        for length in [0, 3, 8, 20, 1000] {
            Support.put(prefix + (0..<length).map { _ in UInt8(truncatingIfNeeded: noise.next()) }, path)
            #expect(throws: JournalError.self) { try JournalReader.read(path: path) }
        }
        Support.put(Array("SPJOURNAL".utf8) + [99], path)
        #expect(throws: JournalError.unsupportedVersion(path: path, version: 99)) { try JournalReader.read(path: path) }
        // A valid record whose payload is not a header.
        Support.put(prefix + JournalFormat.record([1, 2, 3], sequence: 0), path)
        #expect(throws: JournalError.self) { try JournalReader.read(path: path) }
        // A valid header followed by random garbage: the header survives, the rest is dropped.
        let headerRecord = JournalFormat.record(Self.header().encoded(), sequence: 0)
        for _ in 0..<200 {
            let length = Int(noise.next() % 300)
            Support.put(prefix + headerRecord + (0..<length).map { _ in UInt8(truncatingIfNeeded: noise.next()) }, path)
            let contents = try JournalReader.read(path: path)
            #expect(contents.header == Self.header())
            #expect(contents.operations.isEmpty)
            #expect((contents.droppedTail != nil) == (length > 0))
        }
        // A folder, and a missing file.
        #expect(throws: JournalError.self) { try JournalReader.read(path: folder.path) }
        #expect(throws: JournalError.cannotOpen(path: folder.file("none"), errno: ENOENT)) {
            try JournalReader.read(path: folder.file("none"))
        }
        #expect(throws: JournalError.self) { try JournalWriter.adopt(path: path + "-missing") }
    }

    @Test func aRecordClaimingFourGigabytesIsDroppedWithoutAllocatingIt() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("big.spj")
        let prefix = JournalFormat.filePrefix
        let headerRecord = JournalFormat.record(Self.header().encoded(), sequence: 0)
        let op = JournalFormat.record(PaintCore.Operation.clear.encoded(), sequence: 1)
        func frame(claiming length: UInt32) -> [UInt8] {
            var claim = ByteWriter()
            claim.append(JournalFormat.marker)
            claim.uint32(2)
            claim.uint32(length)
            claim.uint32(0)
            return claim.bytes
        }
        Support.put(prefix + headerRecord + op + frame(claiming: 0xFFFF_FFFF) + [1, 2, 3, 4], path)

        let contents = try JournalReader.read(path: path)
        #expect(contents.operations == [.clear])
        #expect(contents.droppedTail?.contains("claims 4294967295 bytes") == true)

        // Over the limit but the claim is checked first; under the limit but beyond the file:
        // cut short.
        Support.put(prefix + headerRecord + frame(claiming: 1 << 20) + [1, 2, 3], path)
        #expect(try JournalReader.read(path: path).droppedTail == "the last change was cut short (19 bytes dropped)")

        // The header record itself claiming 4 GiB: the journal cannot be used at all.
        Support.put(prefix + frame(claiming: 0xFFFF_FFFF) + [0, 0], path)
        #expect(throws: JournalError.self) { try JournalReader.read(path: path) }
    }

    // MARK: Throughput and durability

    /// (How long appending and syncing take is measured by `make bench`, crash journal on vs off.)
    @Test func aThousandAppendsAllBecomeDurableInOrder() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = Self.operations(1000, seed: 10, maxPoints: 20)
        let writer = try JournalWriter.create(in: folder.path, header: Self.header())
        defer { writer.discard() }

        for op in ops { writer.append(op) }
        #expect(writer.flush())

        #expect(writer.pendingCount == 0)
        #expect(writer.lastError == nil)
        let latencies = writer.durableLatencies()
        #expect(latencies.count == 1000)
        #expect(latencies.allSatisfy { $0 >= 0 })
        #expect(try JournalReader.read(path: writer.path).operations == ops)
    }

    @Test func theWriterStopsAtItsSizeLimitKeepsEveryRecordThatFitsAndSaysWhy() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let ops = Self.operations(6, seed: 23, maxPoints: 20)
        let header = Self.header()
        // Room for the header and exactly the first three records (the real limit is 2 GiB).
        let headerBytes = JournalFormat.filePrefix.count + JournalFormat.record(header.encoded(), sequence: 0).count
        let recordBytes = ops.enumerated().map { JournalFormat.record($1.encoded(), sequence: $0 + 1).count }
        let limit = headerBytes + recordBytes[0] + recordBytes[1] + recordBytes[2]
        let writer = try JournalWriter.create(in: folder.path, header: header, sizeLimit: limit)
        // All six in one batch: the three that fit are written, the rest wait.
        for op in ops { writer.append(op) }
        #expect(writer.flush(timeout: 30) == false)
        #expect(
            writer.failure == .tooLarge(path: writer.path, bytes: headerBytes + recordBytes.reduce(0, +), limit: limit))
        #expect(writer.isBehind && writer.pendingCount == 3)
        var info = stat()
        #expect(stat(writer.path, &info) == 0 && Int(info.st_size) == limit, "never past the limit")
        let kept = try JournalReader.read(path: writer.path)
        #expect(kept.droppedTail == nil)
        #expect(kept.operations == Array(ops[..<3]))
        // Nothing more fits: later changes wait too, and the file stays whole.
        writer.append(ops[0])
        #expect(writer.flush(timeout: 30) == false)
        #expect(writer.pendingCount == 4)
        #expect(try JournalReader.read(path: writer.path).operations == Array(ops[..<3]))
        writer.discard()
    }

    @Test(.enabled(if: Support.canMount, "mounting a 64 KiB tmpfs needs root with CAP_SYS_ADMIN"))
    func aFullDiskIsReportedNotFatalAndRecoversWhenSpaceReturns() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        try #require(Support.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path]))
        defer { Support.run("/usr/bin/umount", [folder.path]) }
        // Something to delete later, to make room again.
        Support.put([UInt8](repeating: 1, count: 24 * 1024), folder.file("filler"))

        let writer = try JournalWriter.create(in: folder.path, header: Self.header())
        let ops = Self.operations(200, seed: 11, maxPoints: 50)
        for (i, op) in ops.enumerated() {
            writer.append(op)
            if i % 10 == 9 { writer.flush() }
        }
        #expect(writer.flush() == false)
        let error = try #require(writer.lastError)
        #expect(error.isDiskFull)
        #expect(error.description.contains("the disk is full"))
        #expect(writer.pendingCount > 0)
        #expect(writer.failure == error && writer.isBehind)

        // What is on disk is whole: every record written, none torn.
        let partial = try JournalReader.read(path: writer.path)
        #expect(partial.droppedTail == nil)
        #expect(partial.operations.count == 200 - writer.pendingCount)
        #expect(partial.operations == Array(ops[..<partial.operations.count]))

        // Room again: the retry catches up. (The 64 KiB cannot hold all 200; use fewer.)
        unlink(folder.file("filler"))
        #expect(writer.flush() || writer.pendingCount > 0)
        let after = try JournalReader.read(path: writer.path)
        #expect(after.droppedTail == nil)
        #expect(after.operations.count == 200 - writer.pendingCount)
        #expect(after.operations.count > partial.operations.count)
        #expect(writer.pendingCount > 0 || writer.failure == nil, "caught up: nothing to report")
        writer.discard()
    }

    // MARK: Messages and places

    @Test func errorsReadAsSentences() {
        #expect(
            JournalError.cannotWrite(path: "/s/j.spj", errno: ENOSPC).description
                == "Cannot write the recovery journal “/s/j.spj”: the disk is full; "
                + "recent changes are not protected against a crash until this is fixed")
        #expect(JournalError.notAJournal(path: "/x").description == "“/x” is not a SwiftPaint recovery journal")
        #expect(JournalError.inUse(path: "/x").description.contains("another running SwiftPaint"))
        #expect(JournalError.cannotCreateFolder(path: "/p", errno: EACCES).description.contains("permission denied"))
    }

    @Test func theDefaultFolderFollowsXDG() {
        let expected: String
        if let state = ProcessInfo.processInfo.environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            expected = state + "/swiftpaint"
        } else {
            expected = FileSystem.home + "/.local/state/swiftpaint"
        }
        #expect(JournalReader.defaultFolder == expected)
    }

    @Test func createFailsCleanlyWhereNoFolderCanBeMade() {
        #expect(throws: JournalError.self) {
            try JournalWriter.create(in: "/proc/swiftpaint-journal-test", header: Self.header())
        }
    }

    /// A journal that could not be made leaves no thread behind. Its two threads end by
    /// themselves when the making fails, and were then never joined (the writer joined only
    /// threads it still had to stop), so every failed journal discarded after its threads had
    /// ended kept two thread stacks mapped until the program ended: ThreadSanitizer's "thread
    /// leak" on `createFailsCleanlyWhereNoFolderCanBeMade`.
    @Test func failedJournalsLeaveNoThreadStacksBehind() throws {
        let failures = 100
        // What a thread's stack maps by default (the stack limit: 8 MiB usually).
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        var stack = 0
        pthread_attr_getstacksize(&attributes, &stack)
        pthread_attr_destroy(&attributes)
        let before = try Self.mappedKiB()
        for _ in 0..<failures {
            let writer = try JournalWriter.start(in: "/proc/swiftpaint-journal-test", header: Self.header())
            // Discarded once its threads have ended by themselves, as the window discards a
            // journal whose making failed a while ago.
            let deadline = ContinuousClock.now + .seconds(30)
            while !writer.threadsEndedForTesting && ContinuousClock.now < deadline { usleep(1000) }
            #expect(writer.threadsEndedForTesting)
            writer.discard()
        }
        let grown = try Self.mappedKiB() - before
        // Leaked, two stacks a failure stay mapped (200 of them: 1.6 GiB with 8 MiB stacks).
        // Joined, glibc maps its cached stacks again. The bound is half the leak; the tests
        // running meanwhile map a few hundred MiB of their own.
        let bound = failures * stack / 1024
        #expect(grown < bound, "\(grown) KiB more mapped after \(failures) journals that failed (bound \(bound))")
    }

    /// The process's mapped memory (`VmSize`), in KiB.
    static func mappedKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmSize:") })
        // "VmSize:\t   1234 kB": a tab, then spaces only while the number is short (none under
        // AddressSanitizer, whose shadow memory makes it 11 digits long).
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return try #require(fields.count > 1 ? Int(fields[1]) : nil)
    }
}

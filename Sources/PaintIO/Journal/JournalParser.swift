import Glibc
import PaintCore

/// Reads a journal file front to back without holding it in memory: the file's size is checked
/// before anything is read, then one record at a time is read at its offset (never more than a
/// record's payload, itself bounded), checked, and handed on.
///
/// A damaged record loses only itself. In a version 2 file the reader looks for the next record
/// marker after the damage, takes the first one whose record checks out, and goes on from
/// there; the sequence numbers say how many records were lost, and each lost one is given back
/// as an empty stroke, so the history's step numbers (which a stroke removal names) still line
/// up. Only a damaged tail is cut off when a writer adopts the file (`validEnd`).
///
/// The log is measured against a `ReplayBudget` for the header's canvas as it is read, and
/// the header's canvas against the image limits: a journal that could not be restored says
/// why (`refusal`) instead of allocating what it claims.
struct JournalParser {
    /// What a parse found.
    struct Parsed {
        var header: JournalHeader
        /// The header's document path when it is not a usable one (relative, `..`, control
        /// characters); the header then holds none.
        var unusablePath: String?
        /// Records read (lost ones included as empty strokes), when collected.
        var records: [JournalRecord] = []
        /// Records read, lost ones included: the last sequence number.
        var operationCount = 0
        /// The steps the records show once replayed.
        var steps = StepCounter()
        /// Whether some change follows the last save marker.
        var hasUnsavedWork = false
        /// The last usable document path: the header's, or the last save marker's.
        var documentPath: String?
        /// Records that were damaged and skipped, and the bytes they held.
        var lostRecords = 0
        var lostBytes = 0
        /// Of the lost records, those drawn by a newer SwiftPaint (a drawing version this
        /// build does not know).
        var newerRecords = 0
        /// Why the end of the file was not read (cut short, damaged beyond repair), if so.
        var droppedTail: String?
        /// Why the journal cannot be replayed at all (over its replay budget), if so.
        var refusal: String?
        /// The byte offset just past the last good record.
        var validEnd = 0
        /// The byte offset just past the header record.
        var headerEnd = 0
        /// The file's format version (the writer keeps appending in it).
        var version: UInt8 = JournalFormat.version

        /// One sentence about what was lost, or nil when nothing was.
        var damage: String? {
            var parts: [String] = []
            if lostRecords > 0 {
                let what = lostRecords == 1 ? "1 damaged change was" : "\(lostRecords) damaged changes were"
                parts.append("\(what) left out (\(byteCount(lostBytes)))")
            }
            if newerRecords > 0 {
                let what = newerRecords == 1 ? "1 of them was" : "\(newerRecords) of them were"
                parts.append("\(what) drawn by a newer SwiftPaint")
            }
            if let droppedTail { parts.append(droppedTail) }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
    }

    let fd: Int32
    let path: String
    let size: Int
    let limits: ReplayBudget.Limits
    let imageLimits: ImageLimits

    /// Parses the journal open at `fd`; `collect` keeps the records (a restore), else only
    /// counts them (a listing). Throws when the file is not a journal, is too large, or its
    /// header is unusable.
    static func parse(
        fd: Int32, path: String, collect: Bool, limits: ReplayBudget.Limits = .default,
        imageLimits: ImageLimits = .default
    ) throws(JournalError) -> Parsed {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAJournal(path: path) }
        let size = Int(info.st_size)
        let parser = JournalParser(fd: fd, path: path, size: size, limits: limits, imageLimits: imageLimits)
        // The signature first: a huge file that is not a journal costs ten bytes of reading.
        let prefix = try parser.read(at: 0, count: min(size, JournalFormat.prefixSize))
        guard prefix.count >= JournalFormat.magic.count,
            Array(prefix[0..<JournalFormat.magic.count]) == JournalFormat.magic
        else { throw .notAJournal(path: path) }
        guard size <= JournalFormat.maxJournalBytes else {
            throw .tooLarge(path: path, bytes: size, limit: JournalFormat.maxJournalBytes)
        }
        guard prefix.count == JournalFormat.prefixSize else {
            throw .damagedHeader(path: path, reason: "the file is cut short")
        }
        let version = prefix[JournalFormat.magic.count]
        guard version == 1 || version == JournalFormat.version else {
            throw .unsupportedVersion(path: path, version: Int(version))
        }
        return try parser.records(version: version, collect: collect)
    }

    /// A record as found at an offset.
    private enum Frame {
        case end
        case record(sequence: Int?, payload: [UInt8], next: Int)
        /// Not a good record here; `reason` in words.
        case bad(String)
        /// Runs past the end of the file.
        case cutShort
    }

    private func records(version: UInt8, collect: Bool) throws(JournalError) -> Parsed {
        var offset = JournalFormat.prefixSize
        let header: JournalHeader
        var parsed: Parsed
        switch try frame(at: offset, version: version) {
        case .record(let sequence, let payload, let next):
            guard sequence == nil || sequence == 0 else {
                throw .damagedHeader(path: path, reason: "the document description is missing")
            }
            do {
                header = try JournalHeader.decode(payload)
            } catch {
                switch error {
                case .unsupportedVersion(let v): throw .unsupportedVersion(path: path, version: Int(v))
                case .malformed(let why):
                    throw .damagedHeader(path: path, reason: "the document description: \(why)")
                }
            }
            guard header.width > 0, header.height > 0, imageLimits.allows(width: header.width, height: header.height)
            else {
                throw .damagedHeader(
                    path: path,
                    reason: "it describes a canvas of \(header.width) × \(header.height) pixels, "
                        + "larger than SwiftPaint opens")
            }
            parsed = Parsed(header: header)
            parsed.version = version
            if let documentPath = header.documentPath, !JournalHeader.isUsable(documentPath) {
                parsed.unusablePath = documentPath
                parsed.header.documentPath = nil
            }
            parsed.documentPath = parsed.header.documentPath
            offset = next
        case .end: throw .damagedHeader(path: path, reason: "the document description is missing")
        case .cutShort: throw .damagedHeader(path: path, reason: "the document description is cut short")
        case .bad(let why): throw .damagedHeader(path: path, reason: "the document description \(why)")
        }
        parsed.validEnd = offset
        parsed.headerEnd = offset

        var budget = ReplayBudget(width: header.width, height: header.height, limits: limits)
        var lastSequence = 0
        /// A lost record's stand-in, counted as the operation it stands for.
        func take(_ lost: JournalRecord, counting budget: inout ReplayBudget) {
            if case .operation(let operation) = lost { budget.add(operation) }
            take(lost)
        }
        func take(_ record: JournalRecord) {
            parsed.operationCount += 1
            if collect { parsed.records.append(record) }
            switch record {
            case .operation(let operation):
                parsed.steps.add(operation)
                parsed.hasUnsavedWork = true
            case .saved(let savedPath, _, let drawnDuring):
                parsed.hasUnsavedWork = drawnDuring > 0
                if JournalHeader.isUsable(savedPath) { parsed.documentPath = savedPath }
            }
        }
        loop: while true {
            let frame = try frame(at: offset, version: version)
            switch frame {
            case .end:
                break loop
            case .record(let sequence, var payload, var next):
                let number = sequence ?? lastSequence + 1
                // A sequence number that goes back or leaps past what the file could hold is a
                // record from garbage that happened to check out; resynchronize past it.
                guard number > lastSequence, number - lastSequence <= (size - offset) / JournalFormat.recordOverhead + 1
                else {
                    if resync(from: &offset, version: version, parsed: &parsed) { continue }
                    parsed.droppedTail =
                        "change \(parsed.operationCount + 1) is out of order; it and everything after it were "
                        + "dropped (\(byteCount(size - offset)))"
                    break loop
                }
                // Records the damage took: empty strokes keep the step numbers (counted against
                // the budget before they are made).
                let missing = number - lastSequence - 1
                if missing > 0 {
                    if let overrun = budget.admit(operationCount: budget.operations + missing) {
                        parsed.refusal = overrun.description
                        break loop
                    }
                    parsed.lostRecords += missing
                    for _ in 0..<missing { take(Self.lost, counting: &budget) }
                }
                lastSequence = number
                if payload.first == JournalParts.tag {
                    // A change written in parts: the rest follow, and are joined here.
                    switch try joined(payload, at: offset, sequence: sequence, next: next, version: version) {
                    case .whole(let whole, let end):
                        payload = whole
                        next = end
                    case .lost(let end):
                        parsed.lostRecords += 1
                        parsed.lostBytes += end - offset
                        take(Self.lost, counting: &budget)
                        offset = end
                        parsed.validEnd = offset
                        continue loop
                    case .cutShort:
                        parsed.droppedTail = "the last change was cut short (\(byteCount(size - offset)) dropped)"
                        break loop
                    }
                }
                let decoded: JournalRecord?
                do {
                    // A save mark is the journal's own; anything else is an operation, decoded
                    // within the budget (a stroke's points are refused from its declared count).
                    decoded =
                        payload.first == JournalRecord.savedTag
                        ? JournalRecord(decoding: payload)
                        : try Operation.decoding(payload, within: &budget).map(JournalRecord.operation)
                } catch {
                    parsed.refusal = error.description
                    break loop
                }
                if let record = decoded {
                    take(record)
                } else {
                    // Checked out but not understood: a change from a newer SwiftPaint, or
                    // damage the CRC missed. Its step stays, empty.
                    if Operation.newerDrawingVersion(payload) != nil { parsed.newerRecords += 1 }
                    parsed.lostRecords += 1
                    parsed.lostBytes += next - offset
                    take(Self.lost, counting: &budget)
                }
                offset = next
                parsed.validEnd = offset
            case .cutShort:
                // Normally a crash in the middle of the last write; in a version 2 file it may
                // also be a damaged length, with good records after it.
                if version != 1 && resync(from: &offset, version: version, parsed: &parsed) { continue }
                parsed.droppedTail = "the last change was cut short (\(byteCount(size - offset)) dropped)"
                break loop
            case .bad(let why):
                if version != 1 && resync(from: &offset, version: version, parsed: &parsed) { continue }
                parsed.droppedTail =
                    "change \(parsed.operationCount + 1) \(why); it and everything after it were dropped "
                    + "(\(byteCount(size - offset)))"
                break loop
            }
        }
        return parsed
    }

    /// What became of a change written in parts.
    private enum Joined {
        /// Its payload, joined, and the offset past its last part.
        case whole([UInt8], next: Int)
        /// Its parts do not add up (damage, or garbage that checked out); the step is lost, and
        /// the records go on at `next`, past the parts that were there.
        case lost(next: Int)
        /// The file ends in its parts: a crash while they were written.
        case cutShort
    }

    /// Joins the parts of the change whose first part's payload is `first`, found at `offset`
    /// and ending at `next`. The joined length a part claims is checked against the bytes the
    /// file holds after it before anything is allocated for it: a hostile journal claiming a
    /// huge change costs nothing.
    private func joined(
        _ first: [UInt8], at offset: Int, sequence: Int?, next: Int, version: UInt8
    ) throws(JournalError) -> Joined {
        var end = next
        /// Past the parts of this change that follow `end` (they belong to a lost step).
        func skipParts() throws(JournalError) -> Joined {
            while case .record(let s, let payload, let after) = try frame(at: end, version: version), s == sequence,
                payload.first == JournalParts.tag, sequence != nil
            {
                end = after
            }
            return .lost(next: end)
        }
        guard let part = JournalParts.Part(first), part.index == 0, part.total > part.bytes.count else {
            return try skipParts()
        }
        // More than the file holds after it: the parts are cut short (a crash while they were
        // written), or garbage; either way nothing is allocated for them.
        guard part.total - part.bytes.count <= size - next,
            part.count - 1 <= (size - next) / (JournalFormat.recordOverhead + JournalParts.overhead)
        else { return .cutShort }
        var whole: [UInt8] = []
        whole.reserveCapacity(part.total)
        whole += part.bytes
        for index in 1..<part.count {
            switch try frame(at: end, version: version) {
            case .record(let s, let payload, let after):
                guard s == sequence, let next = JournalParts.Part(payload), next.index == index,
                    next.count == part.count, next.total == part.total, whole.count + next.bytes.count <= part.total
                else { return try skipParts() }
                whole += next.bytes
                end = after
            case .end, .cutShort: return .cutShort
            case .bad: return .lost(next: end)
            }
        }
        guard whole.count == part.total else { return .lost(next: end) }
        return .whole(whole, next: end)
    }

    /// A lost record's stand-in: a stroke without points draws nothing but is a step.
    static let lost = JournalRecord.operation(.stroke(StrokeStyle(), points: []))

    /// Moves `offset` to the next marker after it whose record checks out; false when there is
    /// none (the damage runs to the end of the file).
    private func resync(from offset: inout Int, version: UInt8, parsed: inout Parsed) -> Bool {
        var at = offset + 1
        while let found = nextMarker(from: at) {
            if case .record = (try? frame(at: found, version: version)) ?? .end {
                // How many records these bytes held, the next record's sequence number says.
                parsed.lostBytes += found - offset
                offset = found
                return true
            }
            at = found + 1
        }
        return false
    }

    /// The offset of the next record marker at or after `from`, read in 64 KiB pieces and
    /// searched with memchr (a damaged stretch may be long: it is scanned at memory speed).
    private func nextMarker(from: Int) -> Int? {
        let marker = JournalFormat.marker
        var start = from
        let piece = 64 << 10
        while start + marker.count <= size {
            guard let bytes = try? read(at: start, count: min(piece + marker.count - 1, size - start)) else {
                return nil
            }
            let found: Int? = bytes.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return nil }
                var i = 0
                while i + marker.count <= raw.count {
                    guard let hit = memchr(base + i, Int32(marker[0]), raw.count - marker.count + 1 - i) else {
                        return nil
                    }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if raw[at + 1] == marker[1] && raw[at + 2] == marker[2] && raw[at + 3] == marker[3] { return at }
                    i = at + 1
                }
                return nil
            }
            if let found { return start + found }
            start += piece
        }
        return nil
    }

    /// The record at `offset`, checked against the bytes really there. Nothing is allocated for
    /// a length before it is checked against the record limit and the file's size.
    private func frame(at offset: Int, version: UInt8) throws(JournalError) -> Frame {
        let left = size - offset
        if left <= 0 { return .end }
        let overhead = version == 1 ? JournalFormat.versionOneOverhead : JournalFormat.recordOverhead
        if left < overhead { return .cutShort }
        var head = ByteReader(try read(at: offset, count: overhead))
        var sequence: UInt32?
        if version != 1 {
            let marker = [head.byte(), head.byte(), head.byte(), head.byte()]
            guard marker == JournalFormat.marker.map(Optional.some) else {
                return .bad("is damaged (no record marker)")
            }
            sequence = head.uint32()
        }
        guard let length32 = head.uint32(), let expected = head.uint32() else { return .cutShort }
        let length = Int(length32)
        if length > JournalFormat.maxRecordBytes {
            return .bad("claims \(length) bytes, more than a record may hold")
        }
        if length > left - overhead { return .cutShort }
        let payload = try read(at: offset + overhead, count: length)
        let actual =
            sequence.map { JournalFormat.recordCRC(sequence: $0, payload: payload) } ?? JournalFormat.crc(payload)
        guard actual == expected else { return .bad("is damaged (checksum mismatch)") }
        return .record(sequence: sequence.map(Int.init), payload: payload, next: offset + overhead + length)
    }

    /// `count` bytes at `offset` (fewer at the end of the file).
    private func read(at offset: Int, count: Int) throws(JournalError) -> [UInt8] {
        guard let bytes = JournalFormat.read(fd, at: offset, count: count) else {
            throw .cannotRead(path: path, errno: errno)
        }
        return bytes
    }
}

/// "1 byte" / "42 bytes".
func byteCount(_ n: Int) -> String { n == 1 ? "1 byte" : "\(n) bytes" }

import Glibc
import PaintCore

/// Making a journal file: naming, locking, its starting picture, the steps it starts with and
/// its header, in the order that makes it a journal only once it holds them all. It runs on the
/// writer's thread (`JournalWriter.start`), never on the thread that draws.
///
/// A document opened from a picture file first gets an interim journal, whose header names the
/// file, written at once; the whole journal, its picture copied in, is made beside it on a
/// thread of its own (`Core.copyBase`) and renamed over it with the changes made meanwhile.
extension JournalWriter {
    /// What a journal file is made of.
    struct Plan: @unchecked Sendable {
        let folder: String
        let header: JournalHeader
        let baseFile: PictureFile?
        /// The header record, but for its base image (`framedHeader`).
        let headerRecord: (head: [UInt8], fields: [UInt8], count: Int, crc: UInt32)
        /// The initial records, framed, numbered after the header.
        let records: [UInt8]
        let sizeLimit: Int
    }

    /// The file made from a plan: locked, holding the header, its base image and the initial
    /// records, not yet synced.
    struct Made {
        let fd: Int32
        let path: String
        /// The offset just past the initial records.
        let end: Int
        let baseInFile: BaseInFile?
        /// For an interim journal (its header names the picture file), the offset of its first
        /// record after the header; nil for a whole journal.
        let recordsAt: Int?
    }

    /// The plan for a journal in `folder` (see `start`); throws when its header alone is
    /// longer than a record.
    static func plan(
        in folder: String, header: JournalHeader, baseFile: PictureFile?, initial: [JournalRecord],
        sizeLimit: Int?, recordLimit: Int?
    ) throws(JournalError) -> Plan {
        let headerRecord = try framedHeader(header, baseCount: baseFile?.count)
        var records: [UInt8] = []
        for (i, record) in initial.enumerated() {
            records += JournalParts.framed(
                record.encoded(), sequence: i + 1, version: JournalFormat.version,
                limit: recordLimit ?? JournalFormat.maxRecordBytes)
        }
        return Plan(
            folder: folder, header: header, baseFile: baseFile, headerRecord: headerRecord, records: records,
            sizeLimit: sizeLimit ?? JournalFormat.maxJournalBytes)
    }

    /// Makes the file `plan` describes; on failure nothing of it is left on disk. With a picture
    /// file to copy, it is the interim journal (`interim`), which the whole one replaces once
    /// it is made beside it (`makeWhole`).
    static func make(_ plan: Plan) -> Result<Made, JournalError> {
        do throws(JournalError) {
            try JournalFormat.makeFolders(plan.folder)
        } catch {
            return .failure(error)
        }
        let named: (fd: Int32, path: String)
        switch openNamed(in: plan.folder, JournalFormat.baseName(for: plan.header)) {
        case .success(let opened): named = opened
        case .failure(let error): return .failure(error)
        }
        let result =
            plan.baseFile.map { interim(plan, baseFile: $0, fd: named.fd, path: named.path) }
            ?? fill(plan, fd: named.fd, path: named.path, withRecords: true)
        if case .failure = result {
            _ = unlink(named.path)
            _ = close(named.fd)
        }
        return result
    }

    /// The whole journal for `plan`, its base image copied from the picture file, made at
    /// `makingPath(interimPath)` (a name no scan for journals looks at) and locked, but for its
    /// records: the interim journal's are copied after it before it is renamed over the interim.
    /// On failure nothing of it is left on disk.
    static func makeWhole(_ plan: Plan, beside interimPath: String) -> Result<Made, JournalError> {
        let path = makingPath(interimPath)
        // One left by a crash of an earlier process with this pid.
        _ = unlink(path)
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(.cannotOpen(path: path, errno: errno)) }
        let result: Result<Made, JournalError>
        if let e = lock(fd) {
            result = .failure(.cannotOpen(path: path, errno: e))
        } else {
            result = fill(plan, fd: fd, path: path, withRecords: false)
        }
        if case .failure = result {
            _ = unlink(path)
            _ = close(fd)
        }
        return result
    }

    /// Makes the interim journal open (and locked) at `fd` whole: the same journal with
    /// `base`, its starting picture read from the file it names, in its header, made beside it,
    /// synced and renamed over it. Returns the whole journal's descriptor, locked, in blocking
    /// mode; throws, leaving the interim journal as it was, when it cannot.
    static func completeInterim(
        fd: Int32, path: String, parsed: JournalParser.Parsed, base: [UInt8]
    ) throws(JournalError) -> Int32 {
        var header = parsed.header
        header.baseReference = nil
        header.baseImage = base
        let fields = header.encoded()
        guard fields.count <= JournalFormat.maxRecordBytes else {
            throw .recordTooLarge(bytes: fields.count, limit: JournalFormat.maxRecordBytes)
        }
        let start = JournalFormat.filePrefix + JournalFormat.record(fields, sequence: 0)
        let records = parsed.validEnd - parsed.headerEnd
        guard start.count + records <= JournalFormat.maxJournalBytes else {
            throw .tooLarge(path: path, bytes: start.count + records, limit: JournalFormat.maxJournalBytes)
        }
        let making = makingPath(path)
        _ = unlink(making)
        let whole = open(making, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard whole >= 0 else { throw .cannotOpen(path: making, errno: errno) }
        var e = lock(whole) ?? 0
        if e == 0 { e = JournalFormat.copy(fd, from: parsed.headerEnd, count: records, to: whole, at: start.count) }
        // The signature last, as for every journal made.
        if e == 0 { e = JournalFormat.writeAll(start, to: whole, at: 0) }
        if e == 0 { e = JournalFormat.dataSync(whole) }
        if e == 0 && rename(making, path) != 0 { e = errno }
        guard e == 0 else {
            _ = unlink(making)
            _ = close(whole)
            throw .cannotWrite(path: path, errno: e)
        }
        JournalFormat.syncFolder(FileSystem.parentFolder(path))
        return whole
    }

    /// Where the whole journal replacing the interim one at `path` is made: `.NAME.making`.
    static func makingPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".making" }
        return String(path[...slash]) + "." + path[path.index(after: slash)...] + ".making"
    }

    /// Creates and locks the journal file named `base` (or `base-2`, `base-3`, ... when taken)
    /// in `folder`.
    private static func openNamed(in folder: String, _ base: String) -> Result<(fd: Int32, path: String), JournalError>
    {
        var attempt = 1
        while true {
            let name = attempt == 1 ? base : "\(base)-\(attempt)"
            let path = join(folder, name + JournalFormat.fileExtension)
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                let e = errno
                if e == EEXIST, attempt < 1000 {
                    attempt += 1
                    continue
                }
                return .failure(.cannotOpen(path: path, errno: e))
            }
            if let e = lock(fd) {
                _ = unlink(path)
                _ = close(fd)
                return .failure(.cannotOpen(path: path, errno: e))
            }
            return .success((fd, path))
        }
    }

    /// Blocking: the only other holders are orphan scans, which let go at once. Returns the
    /// errno of a failure.
    private static func lock(_ fd: Int32) -> Int32? {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { return errno }
        }
        return nil
    }

    /// The interim journal: its header names the picture file (`JournalBaseReference`) instead
    /// of holding its bytes, so it is written at once, whole, with the records it starts with,
    /// and takes changes from the start while the picture is copied into the whole journal.
    private static func interim(_ plan: Plan, baseFile: PictureFile, fd: Int32, path: String) -> Result<
        Made, JournalError
    > {
        var header = plan.header
        header.baseImage = nil
        header.baseReference = JournalBaseReference(path: baseFile.path, count: baseFile.count, crc: baseFile.crc)
        let fields = header.encoded()
        let start = JournalFormat.filePrefix + JournalFormat.record(fields, sequence: 0)
        let end = start.count + plan.records.count
        guard end <= plan.sizeLimit else {
            return .failure(.tooLarge(path: path, bytes: end, limit: plan.sizeLimit))
        }
        let e = JournalFormat.writeAll(start + plan.records, to: fd, at: 0)
        guard e == 0 else { return .failure(.cannotWrite(path: path, errno: e)) }
        return .success(Made(fd: fd, path: path, end: end, baseInFile: nil, recordsAt: start.count))
    }

    /// Writes the journal `plan` describes into `fd` (created and locked): its base image, the
    /// records it starts with (`withRecords`), and its signature and header last, so the file
    /// is a journal only once it holds the rest.
    private static func fill(_ plan: Plan, fd: Int32, path: String, withRecords: Bool) -> Result<Made, JournalError> {
        let header = plan.header
        let headerRecord = plan.headerRecord
        let records = withRecords ? plan.records : []
        // The base image (a whole picture file: megabytes) is written from the header's
        // own array, never copied into the record.
        var crc = headerRecord.crc
        let image = header.baseImage ?? []
        let baseCount = plan.baseFile?.count ?? image.count
        let baseAt = JournalFormat.filePrefix.count + headerRecord.head.count + headerRecord.fields.count
        // A journal that would not be read back is not started: the caller says crash
        // protection stopped, as for a full disk.
        if baseAt + baseCount + plan.records.count > plan.sizeLimit {
            return .failure(
                .tooLarge(path: path, bytes: baseAt + baseCount + plan.records.count, limit: plan.sizeLimit))
        }
        var e: Int32 = 0
        if let baseFile = plan.baseFile {
            // The picture file straight into the journal; its framing, whose CRC covers
            // these bytes, is written after them.
            switch baseFile.copy(to: fd, at: baseAt, seed: crc) {
            case .success(let copied?): crc = copied
            case .success(nil): return .failure(.baseChanged(path: baseFile.path))
            case .failure(let failure): e = failure.errno
            }
        } else {
            e = JournalFormat.writeAll(image, to: fd, at: baseAt)
        }
        if e == 0 { e = JournalFormat.writeAll(records, to: fd, at: baseAt + baseCount) }
        // The signature and header last: the file is a journal only once it holds the rest.
        // (The syncing thread syncs it and its folder next, while records are written.)
        let head = JournalFormat.recordHead(length: headerRecord.count, sequence: 0, crc: crc)
        if e == 0 { e = JournalFormat.writeAll(JournalFormat.filePrefix + head + headerRecord.fields, to: fd, at: 0) }
        guard e == 0 else { return .failure(.cannotWrite(path: path, errno: e)) }
        let inFile =
            header.baseImage != nil || plan.baseFile != nil
            ? BaseInFile(
                fieldsAt: JournalFormat.prefixSize + JournalFormat.recordOverhead,
                fieldsCount: headerRecord.fields.count, count: baseCount, crc: crc)
            : nil
        return .success(
            Made(fd: fd, path: path, end: baseAt + baseCount + records.count, baseInFile: inFile, recordsAt: nil))
    }

    /// The header record, but for the base image's bytes that end it: the header's fields, the
    /// payload's length, and its CRC (sequence 0) when the base image is in `header`; with
    /// `baseCount`, the base image is that many bytes of a file, and the CRC covers only the
    /// framing and the fields: the copy continues it over the bytes it copies.
    private static func framedHeader(
        _ header: JournalHeader, baseCount: Int?
    ) throws(JournalError) -> (head: [UInt8], fields: [UInt8], count: Int, crc: UInt32) {
        let baseCount = header.baseImage?.count ?? baseCount
        let fields = header.encodedFields(baseCount: baseCount)
        let count = fields.count + (baseCount ?? 0)
        guard count <= JournalFormat.maxRecordBytes else {
            throw .recordTooLarge(bytes: count, limit: JournalFormat.maxRecordBytes)
        }
        let parts = header.baseImage.map { [fields, $0] } ?? [fields]
        let crc = JournalFormat.recordCRC(sequence: 0, length: count, payload: parts)
        return (JournalFormat.recordHead(length: count, sequence: 0, crc: crc), fields, count, crc)
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

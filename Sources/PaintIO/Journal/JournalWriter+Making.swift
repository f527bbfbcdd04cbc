import Glibc
import PaintCore

/// Making a journal file: naming, locking, its starting picture, the steps it starts with and
/// its header, in the order that makes it a journal only once it holds them all. It runs on the
/// writer's thread (`JournalWriter.start`), never on the thread that draws.
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

    /// Makes the file `plan` describes; on failure nothing of it is left on disk.
    static func make(_ plan: Plan) -> Result<Made, JournalError> {
        do throws(JournalError) {
            try JournalFormat.makeFolders(plan.folder)
        } catch {
            return .failure(error)
        }
        let header = plan.header
        let headerRecord = plan.headerRecord
        let records = plan.records
        let base = JournalFormat.baseName(for: header)
        var attempt = 1
        while true {
            let name = attempt == 1 ? base : "\(base)-\(attempt)"
            let path = join(plan.folder, name + JournalFormat.fileExtension)
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                let e = errno
                if e == EEXIST, attempt < 1000 {
                    attempt += 1
                    continue
                }
                return .failure(.cannotOpen(path: path, errno: e))
            }
            // Blocking: the only other holders are orphan scans, which let go at once.
            var e: Int32 = 0
            while flock(fd, LOCK_EX) != 0 {
                if errno != EINTR {
                    e = errno
                    break
                }
            }
            // The base image (a whole picture file: megabytes) is written from the header's
            // own array, never copied into the record.
            var crc = headerRecord.crc
            let image = header.baseImage ?? []
            let baseCount = plan.baseFile?.count ?? image.count
            let baseAt = JournalFormat.filePrefix.count + headerRecord.head.count + headerRecord.fields.count
            // A journal that would not be read back is not started: the caller says crash
            // protection stopped, as for a full disk.
            if baseAt + baseCount + records.count > plan.sizeLimit {
                _ = unlink(path)
                _ = close(fd)
                return .failure(.tooLarge(path: path, bytes: baseAt + baseCount + records.count, limit: plan.sizeLimit))
            }
            var changed = false
            if let baseFile = plan.baseFile, e == 0 {
                // The picture file straight into the journal; its framing, whose CRC covers
                // these bytes, is written after them.
                switch baseFile.copy(to: fd, at: baseAt, seed: crc) {
                case .success(let copied?): crc = copied
                case .success(nil): changed = true
                case .failure(let failure): e = failure.errno
                }
            } else if e == 0 {
                e = JournalFormat.writeAll(image, to: fd, at: baseAt)
            }
            if e == 0 && !changed { e = JournalFormat.writeAll(records, to: fd, at: baseAt + baseCount) }
            // The signature and header last: the file is a journal only once it holds the rest.
            // (The syncing thread syncs it and its folder next, while records are written.)
            let head = JournalFormat.recordHead(length: headerRecord.count, sequence: 0, crc: crc)
            if e == 0 && !changed {
                e = JournalFormat.writeAll(JournalFormat.filePrefix + head + headerRecord.fields, to: fd, at: 0)
            }
            if e != 0 || changed {
                _ = unlink(path)
                _ = close(fd)
                if changed { return .failure(.baseChanged(path: plan.baseFile?.path ?? path)) }
                return .failure(.cannotWrite(path: path, errno: e))
            }
            let inFile =
                header.baseImage != nil || plan.baseFile != nil
                ? BaseInFile(
                    fieldsAt: JournalFormat.prefixSize + JournalFormat.recordOverhead,
                    fieldsCount: headerRecord.fields.count, count: baseCount, crc: crc)
                : nil
            return .success(Made(fd: fd, path: path, end: baseAt + baseCount + records.count, baseInFile: inFile))
        }
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

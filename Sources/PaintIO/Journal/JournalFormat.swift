import Glibc
import PaintCore

/// The journal's file format and the low-level file operations shared by the writer and the
/// reader.
///
/// A journal file is
///
///     "SPJOURNAL"  9 bytes of ASCII
///     version      UInt8 (= JournalFormat.version)
///     record*      UInt32 payload length (LE), UInt32 zlib CRC-32 of the payload (LE), payload
///
/// The first record's payload is the `JournalHeader`; every later one is a
/// `JournalRecord.encoded()`. Records are appended and synced one batch at a time, so only the
/// last record can be incomplete after a crash; reading stops at the first record that is cut
/// short or fails its checksum and keeps everything before it.
enum JournalFormat {
    static let magic: [UInt8] = Array("SPJOURNAL".utf8)
    static let version: UInt8 = 1
    /// Bytes before the first record.
    static let prefixSize = magic.count + 1
    /// Length and CRC in front of every payload.
    static let recordOverhead = 8
    /// No record may claim more than this (512 MiB), so garbage never allocates huge buffers.
    static let maxRecordBytes = 512 << 20
    /// The extension of journal files.
    static let fileExtension = ".spj"

    static var filePrefix: [UInt8] { magic + [version] }

    /// The zlib CRC-32 of `bytes`.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        Zlib.crc32(bytes)
    }

    /// One framed record: length, CRC, payload.
    static func record(_ payload: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.uint32(UInt32(payload.count))
        out.uint32(crc(payload))
        out.append(payload)
        return out.bytes
    }

    /// The parsed contents of a journal file plus where its last complete record ends.
    struct Parsed {
        var header: JournalHeader
        var records: [JournalRecord]
        var droppedTail: String?
        /// The byte offset just past the last complete, valid record.
        var validEnd: Int
    }

    /// Parses a whole journal file; throws only when the file is not a journal or its header is
    /// unusable. Trouble after the header ends the reading and is described in `droppedTail`.
    static func parse(_ bytes: [UInt8], path: String) throws(JournalError) -> Parsed {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw .notAJournal(path: path)
        }
        guard bytes.count > magic.count else { throw .damagedHeader(path: path, reason: "the file is cut short") }
        let fileVersion = bytes[magic.count]
        guard fileVersion == version else { throw .unsupportedVersion(path: path, version: Int(fileVersion)) }

        var offset = prefixSize
        // The header record.
        let header: JournalHeader
        switch frame(bytes, at: offset) {
        case .payload(let payload, let next):
            do {
                header = try JournalHeader.decode(payload)
            } catch {
                switch error {
                case .unsupportedVersion(let v): throw .unsupportedVersion(path: path, version: Int(v))
                case .malformed(let why): throw .damagedHeader(path: path, reason: "the document description: \(why)")
                }
            }
            offset = next
        case .end: throw .damagedHeader(path: path, reason: "the document description is missing")
        case .cutShort: throw .damagedHeader(path: path, reason: "the document description is cut short")
        case .tooLong(let claimed):
            throw .damagedHeader(path: path, reason: "the document description claims \(claimed) bytes")
        case .checksumMismatch: throw .damagedHeader(path: path, reason: "the document description fails its checksum")
        }

        var records: [JournalRecord] = []
        var dropped: String? = nil
        loop: while true {
            let left = bytes.count - offset
            let number = records.count + 1
            switch frame(bytes, at: offset) {
            case .end:
                break loop
            case .payload(let payload, let next):
                guard let record = JournalRecord(decoding: payload) else {
                    dropped =
                        "change \(number) could not be understood; it and everything after it "
                        + "were dropped (\(byteCount(left)))"
                    break loop
                }
                records.append(record)
                offset = next
            case .cutShort:
                dropped = "the last record was cut short (\(byteCount(left)) dropped)"
                break loop
            case .tooLong(let claimed):
                dropped =
                    "change \(number) claims \(claimed) bytes, more than a record may hold; "
                    + "it and everything after it were dropped (\(byteCount(left)))"
                break loop
            case .checksumMismatch:
                dropped =
                    "change \(number) is damaged (checksum mismatch); it and everything after it "
                    + "were dropped (\(byteCount(left)))"
                break loop
            }
        }
        return Parsed(header: header, records: records, droppedTail: dropped, validEnd: offset)
    }

    /// "1 byte" / "42 bytes".
    private static func byteCount(_ n: Int) -> String { n == 1 ? "1 byte" : "\(n) bytes" }

    private enum Frame {
        case end
        case payload([UInt8], next: Int)
        case cutShort
        case tooLong(claimed: Int)
        case checksumMismatch
    }

    /// The record starting at `offset`, checked against the bytes that are really there.
    private static func frame(_ bytes: [UInt8], at offset: Int) -> Frame {
        let left = bytes.count - offset
        if left == 0 { return .end }
        if left < recordOverhead { return .cutShort }
        var reader = ByteReader(Array(bytes[offset..<(offset + recordOverhead)]))
        let length = Int(reader.uint32()!)
        let expected = reader.uint32()!
        // Checked before anything is allocated: the claim must fit the limit and the file.
        if length > maxRecordBytes { return .tooLong(claimed: length) }
        if length > left - recordOverhead { return .cutShort }
        let start = offset + recordOverhead
        let payload = Array(bytes[start..<(start + length)])
        guard crc(payload) == expected else { return .checksumMismatch }
        return .payload(payload, next: start + length)
    }

    // MARK: File helpers

    /// Reads the whole file open at `fd` from its start; returns the bytes or an errno.
    static func readAll(_ fd: Int32) -> Result<[UInt8], Errno> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Errno(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(Errno(EISDIR)) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                bytes += [UInt8](repeating: 0, count: max(bytes.count, 1 << 16))
            }
            let n = bytes.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + filled, raw.count - filled, off_t(filled))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(errno))
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(bytes.count - filled)
        return .success(bytes)
    }

    /// An errno as an Error, for `Result`.
    struct Errno: Error {
        let code: Int32
        init(_ code: Int32) { self.code = code }
    }

    /// Writes every byte at `offset`, looping over partial writes and EINTR; returns 0 or an errno.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, at offset: Int) -> Int32 {
        writeCounting(bytes, to: fd, at: offset).errno
    }

    /// Like `writeAll`, also telling how many bytes were written before an error.
    static func writeCounting(_ bytes: [UInt8], to fd: Int32, at offset: Int) -> (written: Int, errno: Int32) {
        bytes.withUnsafeBytes { raw -> (Int, Int32) in
            guard let base = raw.baseAddress else { return (0, 0) }
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, base + done, raw.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    return (done, errno)
                }
                if n == 0 { return (done, EIO) }
                done += n
            }
            return (done, 0)
        }
    }

    /// fdatasync, retried on EINTR; returns 0 or an errno.
    static func dataSync(_ fd: Int32) -> Int32 {
        while true {
            if fdatasync(fd) == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// fsyncs a folder so that creations, renames and removals in it are durable. File systems
    /// that cannot sync a folder (EINVAL) are accepted as they are.
    @discardableResult
    static func syncFolder(_ folder: String) -> Int32 {
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return errno }
        defer { _ = close(dir) }
        while true {
            if fsync(dir) == 0 { return 0 }
            if errno == EINTR { continue }
            return errno == EINVAL || errno == ENOTSUP ? 0 : errno
        }
    }

    /// Takes an exclusive lock without waiting; returns 0 or an errno (EWOULDBLOCK: held).
    static func tryLock(_ fd: Int32) -> Int32 {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// Creates `path` and any missing parents (mode 0700 for the ones created); the journal
    /// folder itself must be this user's and is made private (0700) if it allowed more: the
    /// journals hold every stroke of unsaved work.
    static func makeFolders(_ path: String) throws(JournalError) {
        do {
            try PrivateFolder.make(path, ownLevels: 1)
        } catch {
            throw .cannotCreateFolder(path: error.path, errno: error.errno == 0 ? EPERM : error.errno)
        }
    }

    /// 64-bit FNV-1a of the UTF-8 of `text`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The file name (without folder, suffix or extension) for a journal of `header`.
    static func baseName(for header: JournalHeader) -> String {
        if let path = header.documentPath {
            let hex = String(fnv1a(path), radix: 16)
            let padded = String(repeating: "0", count: 16 - hex.count) + hex
            return "doc-\(padded)-\(header.pid)"
        }
        return "untitled-\(header.pid)-\(header.createdAt)"
    }

    /// The current CLOCK_MONOTONIC time in seconds.
    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

import Glibc
import PaintCore

/// The journal's file format and the low-level file operations shared by the writer and the
/// reader.
///
/// A journal file is
///
///     "SPJOURNAL"  9 bytes of ASCII
///     version      UInt8 (= JournalFormat.version, 2; version 1 files are still read)
///     record*      the marker F0 53 50 52 ("\u{F0}SPR"), UInt32 sequence number (the header
///                  0, then 1, 2, ... one per operation), UInt32 payload length, UInt32 zlib
///                  CRC-32 of the sequence number, the length and the payload; then the payload
///                  (all little-endian)
///
/// Version 1 records were a length, a CRC of the payload and the payload, with no marker and no
/// sequence number.
///
/// The first record's payload is the `JournalHeader`; every later one is a
/// `JournalRecord.encoded()`, or, for a change longer than a record may be, one of its parts
/// (`JournalParts`), which carry the change's sequence number and are joined when read. Records are appended and synced one batch at a time, so normally
/// only the last record can be incomplete after a crash. A record damaged anywhere else (a bad
/// sector, a flipped bit) loses only itself: the reader finds the next marker whose record
/// checks out and goes on, and the sequence numbers say how many records the damage took
/// (`JournalParser`).
enum JournalFormat {
    static let magic: [UInt8] = Array("SPJOURNAL".utf8)
    static let version: UInt8 = 2
    /// Bytes before the first record.
    static let prefixSize = magic.count + 1
    /// What starts every version 2 record.
    static let marker: [UInt8] = [0xF0, 0x53, 0x50, 0x52]
    /// Marker, sequence number, length and CRC in front of every version 2 payload.
    static let recordOverhead = 16
    /// Length and CRC in front of every version 1 payload.
    static let versionOneOverhead = 8
    /// No record may claim more than this (512 MiB), so garbage never allocates huge buffers; a
    /// longer change is written in parts (`JournalParts`).
    static let maxRecordBytes = 512 << 20
    /// No journal is read past this size (2 GiB): its size is checked before a byte is read,
    /// and the writer stops (and says so) rather than write a journal that would be refused.
    static let maxJournalBytes = 2 << 30
    /// The extension of journal files.
    static let fileExtension = ".spj"

    static var filePrefix: [UInt8] { magic + [version] }

    /// The zlib CRC-32 of `bytes`.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        Zlib.crc32(bytes)
    }

    /// The CRC a version 2 record carries: over its sequence number, its length and its payload.
    static func recordCRC(sequence: UInt32, payload: [UInt8]) -> UInt32 {
        recordCRC(sequence: sequence, payload: [payload])
    }

    /// `recordCRC` of the payload made of `parts` one after the other, without joining them.
    static func recordCRC(sequence: UInt32, payload parts: [[UInt8]]) -> UInt32 {
        recordCRC(sequence: sequence, length: parts.reduce(0) { $0 + $1.count }, payload: parts)
    }

    /// `recordCRC` of a payload of `length` bytes over only its first `parts`: continued over
    /// the rest (`Zlib.crc32(_:continuing:)`), it is the record's CRC.
    static func recordCRC(sequence: UInt32, length: Int, payload parts: [[UInt8]]) -> UInt32 {
        var fields = ByteWriter()
        fields.uint32(sequence)
        fields.uint32(UInt32(truncatingIfNeeded: length))
        var crc = Zlib.crc32(fields.bytes)
        for part in parts { crc = Zlib.crc32(part, continuing: crc) }
        return crc
    }

    /// A version 2 record's framing (marker, sequence number, length, CRC) for the payload made
    /// of `parts`, which follow it in the file.
    static func recordHead(payload parts: [[UInt8]], sequence: Int) -> [UInt8] {
        let number = UInt32(truncatingIfNeeded: sequence)
        return recordHead(
            length: parts.reduce(0) { $0 + $1.count }, sequence: number,
            crc: recordCRC(sequence: number, payload: parts))
    }

    /// A version 2 record's framing for a payload of `length` bytes whose `recordCRC` the
    /// caller has (and keeps: the journal's header checks its base image with it).
    static func recordHead(length: Int, sequence: UInt32, crc: UInt32) -> [UInt8] {
        var out = ByteWriter()
        out.append(marker)
        out.uint32(sequence)
        out.uint32(UInt32(length))
        out.uint32(crc)
        return out.bytes
    }

    /// One framed record in the file's `version`: (marker, sequence number,) length, CRC,
    /// payload.
    static func record(_ payload: [UInt8], sequence: Int, version: UInt8 = version) -> [UInt8] {
        var out = ByteWriter()
        if version == 1 {
            out.uint32(UInt32(payload.count))
            out.uint32(crc(payload))
        } else {
            out.append(recordHead(payload: [payload], sequence: sequence))
        }
        out.append(payload)
        return out.bytes
    }

    // MARK: File helpers

    /// `count` bytes at `offset` of `fd` (fewer at the end of the file), looping over partial
    /// reads and EINTR; nil on a read error (`errno` says which).
    static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { raw in
                raw.baseAddress.map { pread(fd, $0 + filled, count - filled, off_t(offset + filled)) } ?? 0
            }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(count - filled)
        return bytes
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

    /// Copies `count` bytes at `from` of `source` to `at` of `target`, a megabyte at a time;
    /// returns 0 or an errno (EIO when `source` ends before them).
    static func copy(_ source: Int32, from: Int, count: Int, to target: Int32, at: Int) -> Int32 {
        var done = 0
        while done < count {
            guard let chunk = read(source, at: from + done, count: min(count - done, 1 << 20)) else { return errno }
            guard !chunk.isEmpty else { return EIO }
            let e = writeAll(chunk, to: target, at: at + done)
            guard e == 0 else { return e }
            done += chunk.count
        }
        return 0
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

    /// Takes a lock without waiting; returns 0 or an errno (EWOULDBLOCK: held). A journal's
    /// writer holds the exclusive lock for its whole life, and so do adopting and deleting;
    /// a scan that only reads takes the `shared` one, so two scans at once (two windows
    /// starting, or a fork in another thread that holds a scan's descriptor until its exec)
    /// never hide a journal from each other, and a live writer still hides its own from both.
    static func tryLock(_ fd: Int32, shared: Bool = false) -> Int32 {
        while true {
            if flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// The exclusive lock of a journal no writer holds, waiting out scans: returns 0 or an errno
    /// (EWOULDBLOCK: a live owner). A writer holds its lock exclusively for life; a scan holds the
    /// shared one while it reads a whole journal, which a loaded machine may make slow, so while
    /// only shared holders are in the way this waits for at least 5 s (1,000 looks 5 ms apart).
    /// An exclusive holder gets 200 ms: a writer just closed whose descriptor a forked child still
    /// copies until its exec lets go in that time, and a live one is answered without a long wait.
    static func lockPastScans(_ fd: Int32) -> Int32 {
        var looks = 0
        var exclusiveLooks = 0
        while true {
            let e = tryLock(fd)
            guard e == EWOULDBLOCK else { return e }
            let shared = tryLock(fd, shared: true)
            if shared == 0 {
                _ = flock(fd, LOCK_UN)
            } else if shared == EWOULDBLOCK {
                exclusiveLooks += 1
            } else {
                return shared
            }
            looks += 1
            guard looks < 1_000, exclusiveLooks < 40 else { return EWOULDBLOCK }
            usleep(5_000)
        }
    }

    /// Whether `path` still names the file open at `fd` (same device and inode): a journal
    /// locked by its path may have been deleted or replaced by another process meanwhile.
    static func sameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
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

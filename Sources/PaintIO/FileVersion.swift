import Glibc
import PaintCore

/// A file as this program last read or wrote it: its size, modification time, status-change
/// time and inode (what `stat` says), and a CRC-32 of its bytes. Another program's save shows as
/// another stat (an atomic save is a new inode, an overwrite a new time); the CRC then tells a
/// real change from a touch or a copy of the same bytes.
public struct FileVersion: Sendable, Equatable {
    /// What `stat` says of a file, enough to see that it was replaced or rewritten.
    public struct Stat: Sendable, Equatable {
        public internal(set) var size: Int
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64
        var device: UInt64
        /// The status-change time (`st_ctim`), in nanoseconds since 1970: any write, chmod or
        /// rename sets it to the clock, and no program can set it back, so a rewrite in place
        /// of the same size whose modification time was put back still shows. Nil when not
        /// known (a crash journal does not keep it): the bytes decide.
        var statusChange: Int?

        init(size: Int, seconds: Int, nanoseconds: Int, inode: UInt64, device: UInt64, statusChange: Int? = nil) {
            self.size = size
            self.seconds = seconds
            self.nanoseconds = nanoseconds
            self.inode = inode
            self.device = device
            self.statusChange = statusChange
        }

        /// The file at `path` now; nil when there is none (or it is not an ordinary file).
        public init?(path: String) {
            guard let info = statOf(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
            self.init(info)
        }

        /// What `info` (a `stat` or `fstat`) says.
        init(_ info: stat) {
            size = Int(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
            inode = UInt64(info.st_ino)
            device = UInt64(info.st_dev)
            statusChange = Int(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int(info.st_ctim.tv_nsec)
        }

        /// The file at `path` as it is now when it is still the one `written` describes (the
        /// same inode, size and modification time): what a write leaves once renamed into
        /// place, since the rename sets the status-change time. When another program replaced
        /// it already, `written` with its status-change time not known.
        init(written: stat, renamedTo path: String) {
            let before = Stat(written)
            if let now = Stat(path: path), now.withoutStatusChange == before.withoutStatusChange {
                self = now
            } else {
                self = before.withoutStatusChange
            }
        }

        /// This stat without its status-change time: what a crash journal keeps of it.
        public var withoutStatusChange: Stat {
            var stat = self
            stat.statusChange = nil
            return stat
        }
    }

    /// The file's stat when it was read or written.
    public let stat: Stat
    /// CRC-32 of its bytes.
    public let crc: UInt32

    /// The file at `path` that holds `bytes` (just read or written); nil when it does not hold
    /// that many bytes any more (changed meanwhile).
    public init?(path: String, bytes: [UInt8]) {
        guard let now = Stat(path: path), now.size == bytes.count else { return nil }
        stat = now
        crc = Zlib.crc32(bytes)
    }

    /// The file at `path` that holds `count` bytes of CRC-32 `crc` (just read through a
    /// stream); nil when it does not hold that many bytes any more.
    public init?(path: String, count: Int, crc: UInt32) {
        guard let now = Stat(path: path), now.size == count else { return nil }
        stat = now
        self.crc = crc
    }

    /// The file at `path` now; nil when there is none or it cannot be read. Its bytes are read
    /// through a small buffer (`PictureStream`), never held whole, and its stat is taken from
    /// the file opened, before they are read: a file rewritten while it is read has another
    /// stat by then, so whoever compares stats reads it again.
    public static func current(path: String) -> FileVersion? {
        guard let (fd, size) = try? ImageFile.openForReading(path, limit: ImageFile.maxFileBytes) else { return nil }
        defer { _ = close(fd) }
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let stream = PictureStream(fd: fd, name: path, size: size, limit: ImageFile.maxFileBytes)
        // A file cut or grown while it was read holds no version of this size.
        guard (try? stream.drain()) != nil, stream.count == size else { return nil }
        return FileVersion(stat: Stat(info), crc: stream.crc)
    }

    /// What a crash journal keeps of this version: all but the status-change time.
    public var withoutStatusChange: FileVersion { FileVersion(stat: stat.withoutStatusChange, crc: crc) }

    /// Whether `other` holds the same bytes (its stat may differ: a touch, a copy).
    public func sameBytes(as other: FileVersion) -> Bool { stat.size == other.stat.size && crc == other.crc }

    // MARK: Binary form (in a crash journal)
    //
    //   size, seconds     UInt64 each (Int64 bit patterns)
    //   nanoseconds       UInt32
    //   inode, device     UInt64 each
    //   crc               UInt32
    //
    // All little-endian: 40 bytes. The status-change time is not kept (journals written before
    // it was known read the same); read back, it is not known, and the file's bytes decide.

    /// The size of the binary form.
    static let encodedCount = 40

    /// Appends the binary form to `out`.
    func encode(into out: inout ByteWriter) {
        out.uint64(UInt64(bitPattern: Int64(stat.size)))
        out.uint64(UInt64(bitPattern: Int64(stat.seconds)))
        out.uint32(UInt32(truncatingIfNeeded: stat.nanoseconds))
        out.uint64(stat.inode)
        out.uint64(stat.device)
        out.uint32(crc)
    }

    /// Reads the binary form from `input`; nil when it is cut short. Read back, it is only
    /// ever compared with a file's stat and CRC, so no value can do harm.
    static func decode(from input: inout ByteReader) -> FileVersion? {
        guard let size = input.uint64(), let seconds = input.uint64(), let nanoseconds = input.uint32(),
            let inode = input.uint64(), let device = input.uint64(), let crc = input.uint32()
        else { return nil }
        return FileVersion(
            stat: Stat(
                size: Int(Int64(bitPattern: size)), seconds: Int(Int64(bitPattern: seconds)),
                nanoseconds: Int(nanoseconds), inode: inode, device: device),
            crc: crc)
    }

    init(stat: Stat, crc: UInt32) {
        self.stat = stat
        self.crc = crc
    }
}

/// `stat(2)` of `path`; nil when it fails.
private func statOf(_ path: String) -> stat? {
    var info = stat()
    return stat(path, &info) == 0 ? info : nil
}

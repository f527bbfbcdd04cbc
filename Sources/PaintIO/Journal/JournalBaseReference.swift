import Glibc
import PaintCore

/// The picture file a journal starts from while the opened picture is still being copied into
/// it: its path, and how many bytes with which CRC-32 the picture was decoded from.
///
/// A journal is made in two steps when a document is opened from a file (`JournalWriter.start`
/// with a `PictureFile`): at once a small journal whose header names the file (this), which
/// takes the changes from the first one, then, once the file's bytes are copied and synced
/// beside it, the whole journal that replaces it (a rename). A crash in between leaves the
/// small one, whose drawing can be restored only while the file still holds those bytes.
public struct JournalBaseReference: Equatable, Sendable {
    /// The absolute path of the picture file.
    public var path: String
    /// How many bytes the picture was decoded from: the file's first, up to the picture's end
    /// (`PictureFile.count`; junk after it is not the picture's).
    public var count: Int
    /// The CRC-32 of those bytes.
    public var crc: UInt32

    public init(path: String, count: Int, crc: UInt32) {
        self.path = path
        self.count = count
        self.crc = crc
    }

    /// The file's bytes, when it still holds the picture the journal started from; throws
    /// `.baseMissing` saying why not (gone, unreadable, shorter, other bytes). Reads at most
    /// `count` bytes, itself bounded by the header, and nothing of what follows them.
    public func read() throws(JournalError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let e = errno
            throw .baseMissing(
                path: path, reason: e == ENOENT ? "no longer exists" : "cannot be read (\(JournalError.words(e)))")
        }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .baseMissing(path: path, reason: "is no longer a picture file")
        }
        guard Int(info.st_size) >= count else {
            throw .baseMissing(
                path: path, reason: "was changed since (it holds \(info.st_size) bytes, the picture was \(count))")
        }
        guard let bytes = JournalFormat.read(fd, at: 0, count: count) else {
            throw .baseMissing(path: path, reason: "cannot be read (\(JournalError.words(errno)))")
        }
        guard bytes.count == count, Zlib.crc32(bytes) == crc else {
            throw .baseMissing(path: path, reason: "was changed since (the same size, other bytes)")
        }
        return bytes
    }
}

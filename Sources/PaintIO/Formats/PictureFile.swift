import Glibc
import PaintCore
import Synchronization

/// The bytes a picture was decoded from, left in its file: the file kept open (so a save that
/// replaces it, a new file renamed over the name, leaves these bytes readable), and how many
/// bytes with which CRC-32 the file holds from its start to the picture's end, as the decoder
/// read them (`PictureEnd`): junk after the picture is never read back nor copied.
///
/// The bytes are never trusted to be still there: `read` and `copy` read them again and give
/// them only when their count and CRC are those of the decode. A file written over in place
/// since then gives nothing, from then on without reading it again (a journal that is retried
/// every few seconds does not copy it each time), and the caller keeps no history rather than
/// one replayed onto another picture.
public final class PictureFile: Sendable {
    /// The path it was opened at (for messages).
    public let path: String
    /// How many bytes the picture was decoded from: the file's first, up to the picture's end.
    public let count: Int
    /// Their CRC-32.
    public let crc: UInt32
    private let fd: Int32
    /// Set once a read found other bytes.
    private let changed = Atomic<Bool>(false)

    init(fd: Int32, path: String, count: Int, crc: UInt32) {
        self.fd = fd
        self.path = path
        self.count = count
        self.crc = crc
    }

    deinit { _ = close(fd) }

    /// The bytes, read again, when they are still those decoded; nil when the file changed (or
    /// cannot be read).
    public func read() -> [UInt8]? {
        guard !isKnownChanged else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var check: UInt32 = 0
        let complete = bytes.withUnsafeMutableBytes { raw -> Bool in
            var done = 0
            while done < count, let base = raw.baseAddress {
                let n = pread(fd, base + done, min(count - done, 1 << 24), off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                check = Zlib.crc32(UnsafeRawBufferPointer(start: base + done, count: n), continuing: check)
                done += n
            }
            return true
        }
        guard complete && check == crc else {
            changed.store(true, ordering: .relaxed)
            return nil
        }
        return bytes
    }

    /// Whether a read or copy found the file no longer holding the bytes decoded.
    public var isKnownChanged: Bool { changed.load(ordering: .relaxed) }

    /// Copies the bytes into `target` at `offset` through a buffer of `chunkSize`, CRC-ing what
    /// it copies; `crc` continues `seed` over them (a journal record's CRC covers its framing
    /// too). Returns that CRC, or nil when the file no longer holds the bytes decoded (then part
    /// of them may have been written: the caller throws that copy away), or the errno of a
    /// failed write.
    func copy(to target: Int32, at offset: Int, seed: UInt32) -> Result<UInt32?, CopyFailure> {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: PictureStream.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress, !isKnownChanged else { return .success(nil) }
        var done = 0
        var plain: UInt32 = 0
        var framed = seed
        while done < count {
            let n = pread(fd, base, min(count - done, buffer.count), off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                changed.store(true, ordering: .relaxed)
                return .success(nil)
            }
            let chunk = UnsafeRawBufferPointer(start: base, count: n)
            plain = Zlib.crc32(chunk, continuing: plain)
            framed = Zlib.crc32(chunk, continuing: framed)
            var written = 0
            while written < n {
                let w = pwrite(target, base + written, n - written, off_t(offset + done + written))
                if w < 0 && errno == EINTR { continue }
                guard w > 0 else { return .failure(CopyFailure(errno: w < 0 ? errno : EIO)) }
                written += w
            }
            done += n
        }
        guard plain == crc else {
            changed.store(true, ordering: .relaxed)
            return .success(nil)
        }
        return .success(framed)
    }

    /// A write that failed while copying.
    struct CopyFailure: Error {
        let errno: Int32
    }
}

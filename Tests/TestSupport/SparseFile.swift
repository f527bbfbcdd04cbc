import Glibc

/// A file written as pieces at their offsets, the bytes between them a hole of zeros that takes
/// no disk: a file of hundreds of megabytes whose headers claim what a hostile one would.
public enum SparseFile {
    /// Writes each piece of `pieces` at its offset into a new file at `path`, then makes it
    /// `size` bytes long (when given); false when a write failed.
    @discardableResult
    public static func write(_ pieces: [(at: Int, bytes: [UInt8])], size: Int? = nil, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        for piece in pieces {
            let wrote = piece.bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(piece.at)) }
            guard wrote == piece.bytes.count else { return false }
        }
        return size.map { ftruncate(fd, off_t($0)) == 0 } ?? true
    }
}

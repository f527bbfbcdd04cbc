import Glibc

/// How a thread of its own tells the window's thread that its work is done (a `BackgroundJob`'s
/// wake: `HistoryRebuild`, `PasteDecoding`, `ThumbnailLoader`, `DiskCheck`, ...): a byte written
/// into a pipe whose read end the window polls with the X connection. Both ends are
/// non-blocking and closed with the last reference, the thread's or the window's, so a thread
/// left to finish on its own never writes into a closed pipe.
public final class DonePipe: Sendable {
    /// Readable once the work is done.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// A pipe; nil when none could be made.
    public init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Says the work is done (the thread calls it last).
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether the work said it is done since the last call (the window's thread).
    public func take() -> Bool {
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) == 1
    }
}

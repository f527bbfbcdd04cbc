import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A file's version (`FileVersion`): its stat with the status-change time, what a save leaves,
/// and its CRC read through a small buffer, never the whole file.
@Suite struct FileVersionTests {
    /// Minor page faults of the calling thread so far: each is a page of memory it touched for
    /// the first time, whatever other tests do meanwhile on their threads.
    static func threadPageFaults() -> Int {
        var usage = rusage()
        // RUSAGE_THREAD (1): Glibc's Swift module does not name it.
        _ = getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }

    @Test func aLargeFileIsReadThroughASmallBufferNotHeldWhole() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("large.png")
        let size = 256 << 20
        #expect(SparseFile.write([(at: 0, bytes: [1, 2, 3]), (at: size - 1, bytes: [4])], to: path))
        // Warm: the code and the small buffer's first pages.
        Support.put([1], folder.file("small"))
        _ = FileVersion.current(path: folder.file("small"))

        let faults = Self.threadPageFaults()
        let version = try #require(FileVersion.current(path: path))
        let touched = Self.threadPageFaults() - faults
        // Read whole, 256 MB are 65,536 pages of 4 KB; through a 64 KB buffer, a few dozen.
        #expect(touched < 2_000, "\(touched) pages touched reading a 256 MB file")

        // The file: 1, 2, 3, zeros, 4.
        var crc = Zlib.crc32([1, 2, 3])
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var left = size - 4
        while left > 0 {
            let n = min(left, zeros.count)
            crc = zeros.withUnsafeBytes { Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[..<n]), continuing: crc) }
            left -= n
        }
        crc = Zlib.crc32([4], continuing: crc)
        #expect(version.crc == crc && version.stat == FileVersion.Stat(path: path))
        #expect(version.stat.size == size)
    }

    @Test func theStatHoldsTheStatusChangeTimeAndASaveKnowsTheOneItsRenameLeft() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("a.png")
        let written = try AtomicFile.write([1, 2, 3], to: path)
        #expect(written.statusChange != nil && written == FileVersion.Stat(path: path), "the rename's time")
        let version = try #require(FileVersion.current(path: path))
        #expect(version.stat == written && version.crc == Zlib.crc32([1, 2, 3]))
        // A chmod changes nothing else.
        var before = stat()
        #expect(stat(path, &before) == 0)
        var now = timespec()
        let changed = (before.st_ctim.tv_sec, before.st_ctim.tv_nsec)
        while clock_gettime(CLOCK_REALTIME_COARSE, &now) == 0, (now.tv_sec, now.tv_nsec) <= changed { sched_yield() }
        #expect(chmod(path, 0o600) == 0)
        let after = try #require(FileVersion.Stat(path: path))
        #expect(after != written && after.withoutStatusChange == written.withoutStatusChange)
        // A file that is not there, or not a file, has no version.
        #expect(FileVersion.current(path: folder.file("none")) == nil && FileVersion.current(path: folder.path) == nil)
    }
}

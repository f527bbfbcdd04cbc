import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A file's version (`FileVersion`): its stat with the status-change time, and what a save leaves.
@Suite struct FileVersionTests {
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

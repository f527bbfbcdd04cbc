import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

// MARK: - Another program rewrites the file in place: the same size, its times put back

/// A rewrite into the file itself (the same inode) of the same length, its modification time put
/// back, leaves size, time and inode as they were: only the status-change time, which no program
/// can set back, shows it. A version read back from a crash journal, which does not keep that
/// time, is compared by its bytes.
extension ChangedOnDiskTests {
    /// Another program writes the file's own bytes, one of them changed, into `file` itself and
    /// puts its times back; returns the bytes it holds now.
    @discardableResult
    static func rewriteInPlace(_ file: String) throws -> [UInt8] {
        var before = stat()
        #expect(stat(file, &before) == 0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count / 2] ^= 0xFF
        // The status-change time is the kernel's coarse clock: a write within the tick of the
        // file's last change would leave it as it was, so the rewrite waits for the next tick.
        let changed = (before.st_ctim.tv_sec, before.st_ctim.tv_nsec)
        var now = timespec()
        while clock_gettime(CLOCK_REALTIME_COARSE, &now) == 0, (now.tv_sec, now.tv_nsec) <= changed { sched_yield() }
        let fd = open(file, O_WRONLY)
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
        var times = [before.st_atim, before.st_mtim]
        #expect(futimens(fd, &times) == 0)
        close(fd)
        var after = stat()
        #expect(stat(file, &after) == 0)
        #expect(
            after.st_size == before.st_size && after.st_ino == before.st_ino
                && after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec,
            "size, inode and modification time as they were")
        return bytes
    }

    @Test func aRewriteInPlaceOfTheSameSizeWithItsTimesPutBackIsSeenAndCtrlSAsks() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Its own save first: the rename it makes changes the status-change time, and that is
        // not another program's change.
        let (a, _, file) = try Self.savedWindows(dir)
        #expect(a.watch() == 2 && !a.changedOnDisk && a.diskCheck == nil, "its own save is not a change")
        T.drag(a, [(30, 5), (30, 50)])

        let other = try Self.rewriteInPlace(file)
        Self.lookAtFile(a)
        #expect(a.changedOnDisk && a.title == "*shared.png (changed on disk) — SwiftPaint", "\(a.title)")
        #expect(a.message == "Another program changed “shared.png”; Ctrl+S asks first")
        T.key(a, "s", .control)
        #expect(a.mode == .confirmOverwrite(file, then: nil))
        a.handle(.key(.escape, modifiers: []))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))) == other, "Cancel wrote nothing")
        T.key(a, "s", .control)
        T.key(a, "o")
        #expect(a.mode == .normal && !a.isModified && !a.changedOnDisk, "\(a.message)")
        #expect(try Self.pixel(file, 30, 30) == 0xFF00_0000)
    }

    @Test func aVersionWithoutItsStatusChangeTimeIsComparedByItsBytesOnce() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, _, file) = try Self.twoWindows(dir)
        // The file as a crash journal knew it (restored after a crash): no status-change time.
        let known = try #require(a.document.onDisk.version)
        a.document.onDisk = .version(known.withoutStatusChange)
        // The bytes are read once, on their thread, and are the same: no change, and the next
        // look reads nothing.
        #expect(a.watch() == Session.fileInterval && a.diskCheck != nil && a.diskCheck?.wakeFD != nil)
        a.diskCheck?.wait()
        #expect(a.watch(lookingAtFile: false) == 2 && !a.changedOnDisk)
        #expect(a.watch() == 2 && a.diskCheck == nil && !a.changedOnDisk)
        // Rewritten in place, times put back: the stat changed, the bytes tell.
        try Self.rewriteInPlace(file)
        Self.lookAtFile(a)
        #expect(a.changedOnDisk && a.title == "shared.png (changed on disk) — SwiftPaint", "\(a.title)")
    }

    @Test func ctrlSWhileTheLooksReadIsUnderWayTakesItInsteadOfReadingAgain() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, reader, file) = try Self.heldWindow(dir)
        try Self.rewriteInPlace(file)
        // The look starts reading the file on its thread (held); Ctrl+S comes before it is done.
        #expect(a.watch() == Session.fileInterval && a.diskCheck?.wakeFD != nil)
        let check = try #require(a.diskCheck)
        T.key(a, "s", .control)
        #expect(a.diskCheck === check && a.mode == .normal, "the read under way answers Ctrl+S")
        reader.release()
        Self.settle(a)
        #expect(a.mode == .confirmOverwrite(file, then: nil))
        #expect(reader.readers.count == 1, "read once")
    }
}

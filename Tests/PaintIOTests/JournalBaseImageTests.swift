import Foundation
import PaintCore
import Synchronization
import TestSupport
import Testing

@testable import PaintIO

/// A journal writer lets go of its header's base image (a whole picture file) once the file
/// holds it, and reads it back from the file, checked against the header record's CRC.
@Suite struct JournalBaseImageTests {
    @Test func theBaseImageIsReadBackFromTheFileOnceLetGo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let base = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 ^ $0 >> 9) }
        let writer = try JournalWriter.create(in: folder.path, header: JournalTests.header(base: base))
        #expect(writer.readBaseImage() == base)
        #expect(writer.releaseBaseImage())
        #expect(writer.header.baseImage == nil && writer.header.width == 640)
        writer.append(.undo)
        #expect(writer.flush())
        #expect(writer.readBaseImage() == base)
        // What a crash restore reads is unchanged: the header in the file holds the bytes.
        #expect(try JournalReader.read(path: writer.path).header.baseImage == base)
        // Once discarded, there is nothing to read back.
        writer.discard()
        #expect(writer.readBaseImage() == nil)
    }

    @Test func aDamagedCopyIsNotReadBackAndAHeaderWithoutOneHasNothingToLetGo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let base = [UInt8](repeating: 0x5A, count: 70_000)
        let writer = try JournalWriter.create(in: folder.path, header: JournalTests.header(base: base))
        #expect(writer.releaseBaseImage())
        // One byte of the base image changed on disk: the CRC no longer checks out.
        let fd = open(writer.path, O_WRONLY)
        var byte: UInt8 = 0x5B
        let size = try #require(Support.get(writer.path)).count
        #expect(pwrite(fd, &byte, 1, off_t(size - 1000)) == 1)
        close(fd)
        #expect(writer.readBaseImage() == nil)
        writer.discard()

        let blank = try JournalWriter.create(in: folder.path, header: JournalTests.header(base: nil))
        #expect(!blank.releaseBaseImage())
        #expect(blank.readBaseImage() == nil)
        blank.discard()
    }

    @Test func aChangeIsAppendedWhileTheBaseImageIsReadBack() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let base = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 ^ $0 >> 7) }
        let writer = try JournalWriter.create(in: folder.path, header: JournalTests.header(base: base))
        #expect(writer.releaseBaseImage())
        // The first read of the file is held until a change was appended and made durable (a
        // save with history reading megabytes off a slow disk while a stroke is finished); a
        // reader still held after 30 s gives up, so a journal that blocks the append fails
        // the test instead of hanging it.
        let reading = DispatchSemaphore(value: 0)
        let appended = DispatchSemaphore(value: 0)
        let reads = Atomic<Int>(0)
        let appendedDuringRead = Atomic<Bool>(false)
        let held: @Sendable (Int32, Int, Int) -> [UInt8]? = { fd, offset, count in
            if reads.add(1, ordering: .relaxed).newValue == 1 {
                reading.signal()
                if appended.wait(timeout: .now() + 30) == .success {
                    appendedDuringRead.store(true, ordering: .relaxed)
                }
            }
            return JournalFormat.read(fd, at: offset, count: count)
        }
        let readBack = Mutex<[UInt8]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let image = writer.readBaseImage(reading: held)
            readBack.withLock { $0 = image }
            done.signal()
        }
        reading.wait()
        writer.append(.undo)
        #expect(writer.flush(), "the change is durable while the base image is read")
        appended.signal()
        done.wait()
        let appendedFirst = appendedDuringRead.load(ordering: .relaxed)
        #expect(appendedFirst, "the append waited for the read")
        #expect(readBack.withLock { $0 } == base)
        #expect(try JournalReader.read(path: writer.path).records.count == 1)
        writer.discard()
    }
}

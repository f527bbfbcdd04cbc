import Foundation
import PaintCore
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
}

import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A journal started from an opened picture file is an interim journal at once (its header
/// names the file) and becomes whole once the picture is copied beside it; a crash in between
/// leaves the interim one, restored only while the file still holds the picture.
@Suite struct JournalInterimTests {
    static let fill = PaintCore.Operation.fill(
        StrokeStyle(color: Color(r: 255, g: 0, b: 0)), at: Point(x: 3, y: 3), tolerance: 0)

    /// The interim journal a crash during the copy leaves: made as the writer's thread makes
    /// it, with `initial` in it, then let go (its lock released) without the whole one.
    static func crashedInterim(
        in folder: String, file: PictureFile, header: JournalHeader, initial: [JournalRecord]
    ) throws -> String {
        let plan = try JournalWriter.plan(
            in: folder, header: header, baseFile: file, initial: initial, sizeLimit: nil, recordLimit: nil)
        guard case .success(let made) = JournalWriter.make(plan) else {
            throw JournalError.cannotOpen(path: folder, errno: EIO)
        }
        #expect(made.recordsAt != nil)
        _ = close(made.fd)
        return made.path
    }

    @Test func aReferenceHeaderIsFormatTwoWhichOlderBuildsRefuseAndEveryOtherHeaderKeepsItsBytes() throws {
        var header = JournalTests.header(path: "/home/me/p.png")
        let plain = header.encoded()
        #expect(plain[0] == 1 && plain[1] == 1)
        header.baseReference = JournalBaseReference(path: "/home/me/p.png", count: 1234, crc: 0xDEAD_BEEF)
        let referring = header.encoded()
        // Older builds read only format 1: they refuse this one as written by a newer SwiftPaint.
        #expect(referring[0] == JournalHeader.referenceFormatVersion && referring[1] == 1 | 8)
        #expect(try JournalHeader.decode(referring) == header)
        // The reference's flag in a format 1 header, or format 2 without it, is not a header.
        var wrong = referring
        wrong[0] = 1
        #expect(throws: JournalHeader.DecodingProblem.malformed("unknown flags")) { try JournalHeader.decode(wrong) }
        var bare = plain
        bare[0] = 2
        #expect(throws: JournalHeader.DecodingProblem.malformed("unknown flags")) { try JournalHeader.decode(bare) }
    }

    @Test func aWriterFromAPictureFileEndsWholeWithEveryChangeAndNothingBeside() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-interim")
        defer { folder.remove() }
        let path = folder.file("p.png")
        let (file, bytes) = try StreamedOpeningTests.openedPNG(path)
        let journals = folder.file("journal")
        let header = JournalHeader(documentPath: path, width: 200, height: 150, background: .color(.white))
        let writer = try JournalWriter.start(
            in: journals, header: header, baseFile: file, initial: [.operation(Self.fill)])
        for _ in 0..<20 { writer.append(.undo) }
        #expect(writer.flush())
        let read = try JournalReader.read(path: writer.path)
        #expect(read.header.baseReference == nil && read.header.baseImage == bytes)
        #expect(read.records == [.operation(Self.fill)] + Array(repeating: .operation(.undo), count: 20))
        #expect(writer.readBaseImage() == bytes)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: journals) == [
                (writer.path as NSString).lastPathComponent
            ])
        writer.append(.redo)
        #expect(writer.flush())
        #expect(try JournalReader.read(path: writer.path).records.count == 22)
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: journals).isEmpty)
    }

    @Test func anInterimJournalIsRestoredOnlyWhileItsFileHoldsThePictureAndKeptUntilThen() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-interim")
        defer { folder.remove() }
        let path = folder.file("p.png")
        let (file, bytes) = try StreamedOpeningTests.openedPNG(path)
        let journals = folder.file("journal")
        let header = JournalHeader(documentPath: path, width: 200, height: 150, background: .color(.white))
        let journal = try Self.crashedInterim(
            in: journals, file: file, header: header, initial: [.operation(Self.fill), .operation(.undo)])
        let interim = try #require(Support.get(journal))
        // Listed as a drawing to restore, without reading the picture.
        let orphan = try #require(JournalReader.orphans(in: journals).first)
        #expect(orphan.path == journal && orphan.hasUnsavedWork && orphan.recordCount == 2)

        // The file saved over with another picture (or gone): not restored, the journal kept
        // byte for byte, and the reason given.
        try ImageFile.save(PixelImage(width: 200, height: 150), to: path, withAlpha: true)
        #expect(throws: JournalError.self) { _ = try JournalReader.read(path: journal) }
        do {
            _ = try JournalWriter.adopt(path: journal)
            Issue.record("an interim journal was adopted onto another picture")
        } catch {
            #expect(error.description.contains("which was changed since"), "\(error.description)")
            #expect(error.description.contains("its journal is kept"), "\(error.description)")
        }
        #expect(Support.get(journal) == interim)
        #expect(unlink(path) == 0)
        #expect(throws: JournalError.baseMissing(path: path, reason: "no longer exists")) {
            _ = try JournalWriter.adopt(path: journal)
        }
        #expect(Support.get(journal) == interim)

        // The picture back: restored, and the journal made whole, its picture in it.
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let writer = try JournalWriter.adopt(path: journal)
        let read = try JournalReader.read(path: writer.path)
        #expect(read.header.baseReference == nil && read.header.baseImage == bytes)
        #expect(read.records == [.operation(Self.fill), .operation(.undo)])
        writer.append(.redo)
        #expect(writer.flush())
        #expect(unlink(path) == 0)
        #expect(try JournalReader.read(path: journal).records.count == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: journals) == [(journal as NSString).lastPathComponent])
        writer.discard()
    }
}

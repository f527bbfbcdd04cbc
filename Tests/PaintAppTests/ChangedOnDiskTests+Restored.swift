import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

// MARK: - A restored drawing whose journal knew no version of its file

/// A crash journal that does not say which version of its file it knew (a new picture whose
/// file did not exist yet) restores a drawing whose baseline is the file as it is now. That
/// file is read off the window's thread; a save waits for it, and another program's save
/// since the restore is asked about before a save writes over it.
extension ChangedOnDiskTests {
    /// A window on the new picture new.png in `dir` (no file yet) that drew a line and crashed
    /// after another program made the file (white); a second window offered its journal, its
    /// file read through a `HeldReader`, restored.
    static func restoredWithoutAVersion(_ dir: String) throws -> (Session, HeldReader, String) {
        let file = dir + "/new.png"
        let journals = dir + "/journals"
        let options = DocumentLoaderTests.options(dir)
        let reader = HeldReader()
        let a = journaledWindow(file, journals, options)
        draw(a, savingFirst: false)
        try Data(try PNGCodec.encode(PixelImage(width: 80, height: 60, fill: 0xFFFF_FFFF), withAlpha: false))
            .write(to: URL(fileURLWithPath: file))
        crash(a)
        let c = journaledWindow(file, journals, options)
        var offered = false
        if case .offerRestore = c.mode { offered = true }
        try #require(offered, "nothing offered: \(c.mode)")
        c.readFileVersion = { reader.read($0) }
        c.answer(.restore)
        return (c, reader, file)
    }

    @Test func aRestoredDrawingReadsItsFileOffTheWindowsThreadAndSavesOnceItIsRead() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (c, reader, file) = try Self.restoredWithoutAVersion(dir)
        defer { reader.release() }
        // Restored while its file is read (held): the window's thread read nothing.
        #expect(c.isModified && c.engine.viewPixel(x: 10, y: 30) == Color.black.pixel, "\(c.message)")
        #expect(c.document.onDisk.version == nil, "the file was read on the window's thread: \(c.document.onDisk)")
        // Ctrl+S waits for the read: nothing is written over the file yet.
        let white = try Data(contentsOf: URL(fileURLWithPath: file))
        T.key(c, "s", .control)
        #expect(c.mode == .normal && c.isModified, "\(c.mode) \(c.message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == white)

        reader.release()
        Self.settle(c)
        // The file as it was at the restore: saved over without a question.
        #expect(c.mode == .normal && !c.isModified, "\(c.mode) \(c.message)")
        #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000)
        let readers = reader.readers
        #expect(readers.count == 1, "read once: \(readers.count)")
        #expect(!readers.contains { pthread_equal($0, pthread_self()) != 0 }, "read on the window's thread")
    }

    @Test func aRestoredDrawingAsksBeforeSavingOverWhatAnotherProgramSavedSinceTheRestore() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (c, reader, file) = try Self.restoredWithoutAVersion(dir)
        reader.release()
        Self.settle(c)
        #expect(c.document.onDisk.version != nil, "the file as it was at the restore")
        try Self.replaceByAnotherProgram(file)
        T.key(c, "s", .control)
        Self.settle(c)
        #expect(c.mode == .confirmOverwrite(file, then: nil), "saved over the other program's file unasked")
        #expect(try Self.pixel(file, 60, 30) == 0xFF00_0000, "the other program's picture is still there")
        #expect(!reader.readers.contains { pthread_equal($0, pthread_self()) != 0 }, "read on the window's thread")
    }
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import Synchronization
import Testing

@testable import PaintApp

// MARK: - Ctrl+S and closing wait for the file's bytes, read off the window's thread

/// Right after another program rewrote the file keeping its size, only its bytes tell whether
/// it changed. A save or closing asked for then waits for them, read on a thread of their own,
/// and the save is made or the question asked once they are: the window draws on meanwhile.
extension ChangedOnDiskTests {
    /// Lets the window's look go on until nothing waits for the file's bytes any more (the
    /// save made, or the question asked).
    static func settle(_ s: Session) {
        // A few reads at most: each look that sees the file changed again reads it again.
        for _ in 0..<10 {
            guard let check = s.diskCheck else { return }
            check.wait()
            s.watch(lookingAtFile: false)
        }
    }

    /// A reader of the file's version held until `release`, noting the thread of each read.
    final class HeldReader: Sendable {
        private let gate = DispatchSemaphore(value: 0)
        private let threads = Mutex<[pthread_t]>([])

        /// The threads the file was read on, one per read.
        var readers: [pthread_t] { threads.withLock { $0 } }

        func read(_ path: String) -> FileVersion? {
            threads.withLock { $0.append(pthread_self()) }
            gate.wait()
            gate.signal()
            return FileVersion.current(path: path)
        }

        /// Lets every read held, and every later one, go.
        func release() { gate.signal() }
    }

    /// `twoWindows`' first window, its file read through a `HeldReader`, with a stroke drawn.
    static func heldWindow(_ dir: String) throws -> (Session, HeldReader, String) {
        let (a, _, file) = try twoWindows(dir)
        let reader = HeldReader()
        a.readFileVersion = { reader.read($0) }
        T.drag(a, [(10, 5), (10, 50)])
        return (a, reader, file)
    }

    /// Other bytes of the same length put in place of `file` by a rename (a new stat).
    static func rewriteSameSize(_ file: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count - 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(rename(file + ".tmp", file) == 0)
    }

    @Test func ctrlSAfterASameSizeRewriteReadsTheFileOffTheWindowsThreadAndAsksOnceRead() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, reader, file) = try Self.heldWindow(dir)
        try Self.rewriteSameSize(file)
        let other = try Data(contentsOf: URL(fileURLWithPath: file))

        // Ctrl+S returns while the file is read (held): nothing asked, nothing written yet.
        T.key(a, "s", .control)
        #expect(a.mode == .normal, "asked before the bytes were read off the window's thread: \(a.mode)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == other)
        // The window draws on meanwhile; a second Ctrl+S is the same save.
        T.drag(a, [(30, 5), (30, 50)])
        #expect(a.engine.viewPixel(x: 30, y: 30) == Color.black.pixel)
        T.key(a, "s", .control)
        #expect(
            a.watch(lookingAtFile: false) == Session.fileInterval && a.mode == .normal && a.diskCheck?.wakeFD != nil)

        reader.release()
        Self.settle(a)
        #expect(a.mode == .confirmOverwrite(file, then: nil))
        #expect(a.changedOnDisk)
        let readers = reader.readers
        #expect(readers.count == 1, "the file is read once for both Ctrl+S")
        #expect(!readers.contains { pthread_equal($0, pthread_self()) != 0 }, "read on the window's thread")
        // Answered once: Overwrite writes the drawing, and nothing is asked again.
        a.answer(.overwrite)
        #expect(a.mode == .normal && !a.isModified, "\(a.mode) \(a.message)")
        #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000 && Self.pixel(file, 30, 30) == 0xFF00_0000)
        a.watch()
        #expect(a.mode == .normal && a.awaitingDisk == nil)
    }

    @Test func closingAfterASameSizeRewriteWaitsForTheBytesAndAsksOrCloses() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Saved here, nothing drawn since: closing asks only when another program replaced it.
        let (a, _, file) = try Self.savedWindows(dir)
        let reader = HeldReader()
        a.readFileVersion = { reader.read($0) }
        try Self.rewriteSameSize(file)
        #expect(a.handle(.closeRequest).exit == nil)
        #expect(a.mode == .normal, "asked before the bytes were read: \(a.mode)")
        reader.release()
        Self.settle(a)
        #expect(a.mode == .confirmLeave(.quit))
        #expect(!reader.readers.contains { pthread_equal($0, pthread_self()) != 0 }, "read on the window's thread")

        // The same bytes put back (another stat): closing waits for them, then closes unasked.
        try Data(try PNGCodec.encode(PixelImage(width: 80, height: 60, fill: 0xFFFF_FFFF), withAlpha: false))
            .write(to: URL(fileURLWithPath: file))
        let c = DocumentLoaderTests.open(file, DocumentLoaderTests.options(dir))
        c.readFileVersion = { reader.read($0) }
        T.drag(c, [(20, 5), (20, 50)])
        T.key(c, "s", .control)
        #expect(!c.isModified && c.mode == .normal, "\(c.message)")
        _ = c.takeEffects()
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        try saved.write(to: URL(fileURLWithPath: file + ".tmp"))
        #expect(rename(file + ".tmp", file) == 0)
        let before = reader.readers.count
        #expect(c.handle(.closeRequest).exit == nil)
        Self.settle(c)
        #expect(reader.readers.count == before + 1, "its bytes were read")
        #expect(c.mode == .normal && c.takeEffects().exit == 0, "\(c.mode)")
    }

    @Test func closingWhileCtrlSWaitsForTheBytesSavesFirstThenCloses() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, reader, file) = try Self.heldWindow(dir)
        try Self.rewriteSameSize(file)
        T.key(a, "s", .control)
        // Closing meanwhile neither closes nor asks to save what Ctrl+S is saving.
        #expect(a.handle(.closeRequest).exit == nil)
        #expect(a.mode == .normal, "\(a.mode)")
        reader.release()
        Self.settle(a)
        // The question Ctrl+S asks, then closing.
        #expect(a.mode == .confirmOverwrite(file, then: .quit))
        a.answer(.overwrite)
        #expect(try Self.pixel(file, 10, 30) == 0xFF00_0000, "the drawing is saved")
        #expect(a.takeEffects().exit == 0)
    }
}

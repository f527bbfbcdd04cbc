import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

// MARK: - A save whose starting picture takes long to read back

/// The first save of an opened picture keeps its history, which starts from the picture's own
/// bytes, read back from the opened file (or the crash journal's copy): megabytes, read on the
/// save's thread, not the window's. swiftpaint runs under strace, which holds every `pread64`
/// of `held.png` until the test lets go. The picture is opened as `photo.png` (its header read
/// then is not held) and renamed `held.png` once open: reading it back for the save is held
/// (without a crash journal, which would copy it, the opened file keeps the only copy). The
/// window draws on meanwhile; let go, the save writes the picture at Ctrl+S to `photo.png`, with
/// the history that undoes to the opened picture.
extension RecoveryTests {
    @Test("a save's starting picture held unread: the window draws on, then the file and its history are right")
    func aSaveReadsTheStartingPictureOffTheWindowsThread() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("photo.png")
        let held = dir.file("held.png")
        try ImageFile.save(Self.opened, to: file, withAlpha: false)
        do {
            let paint = try startTraced(
                home, [file, "--no-journal"],
                holding: ["-e", "trace=pread64", "-e", "inject=pread64:delay_enter=600000000", "-P", held])
            var tracer = Self.tracer(of: paint)
            #expect(tracer != nil, "swiftpaint is not traced")
            var exited = false
            defer {
                if !exited { Self.killTraced(paint, tracer: tracer) }
                paint.stop()
            }
            #expect(rename(file, held) == 0)
            try drawStroke(paint, 0, home: nil)
            let atSave = try paint.captureCanvas()
            try paint.key("s", modifiers: .control)
            // The save waits for the picture's bytes; the window does not.
            try drawStroke(paint, 1, home: nil)
            #expect(!FileManager.default.fileExists(atPath: file), "nothing written while the save waits")

            // The reads go on once strace is gone: the file is the picture at Ctrl+S.
            if let strace = tracer { _ = kill(strace, SIGKILL) }
            tracer = nil
            var written: PixelImage?
            let saved = Wait.until {
                written = try? ImageFile.load(path: file)
                return written.map { differences(screen: atSave, file: $0, limit: 1).isEmpty } ?? false
            }
            #expect(saved, "the file: \(written.map { differences(screen: atSave, file: $0) } ?? ["unreadable"])")
            // Back to the saved picture: closing asks nothing, and the journal goes.
            try paint.key("z", modifiers: [.control])
            try paint.waitForModified(false)
            paint.client.sendCloseRequest(paint.window)
            let status = paint.app.waitForExit()
            exited = status != nil
            #expect(status == 0, "\(paint.app.outputSummary)")
        }
        // Opened again, its history (in this computer's store) undoes to the opened picture.
        let paint = try start(home, [file], offer: false)
        defer { paint.stop() }
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: Self.opened, "undone to the opened picture")
    }
}

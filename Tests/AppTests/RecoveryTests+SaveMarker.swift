import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

// MARK: - A crash after a save that strokes were drawn during

/// A save is written on a thread of its own while drawing goes on: its mark in the crash journal
/// says which step the file holds, so after a kill -9 the strokes drawn during it are offered
/// back on top of the saved file, one undo reaches the saved picture, and Ctrl+S writes over the
/// file without asking whether it changed on disk. swiftpaint runs under strace, which holds
/// every `fsync` (the save's, of its history entry first; the journal's own writes use
/// `fdatasync`) until the test lets go (`releaseHeld`): the save is still being written while a
/// stroke is drawn, however long the stroke takes on a loaded machine (a hold of every rename
/// for 6 s was a race with it).
extension RecoveryTests {
    @Test(
        "a save strokes were drawn during, then kill -9: the strokes come back on the saved file, saved over it unasked"
    )
    func aCrashAfterASaveDrawnDuringRestoresTheLaterStrokesOnTheSavedFile() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("photo.png")
        try ImageFile.save(Self.opened, to: file, withAlpha: false)
        let opened = try #require(FileManager.default.contents(atPath: file))
        let before: ScreenCapture
        let journal: String
        do {
            let paint = try startTraced(
                home, [file],
                holding: ["-e", "trace=fsync", "-e", "inject=fsync:delay_enter=600000000"])
            var tracer = Self.tracer(of: paint)
            #expect(tracer != nil, "swiftpaint is not traced")
            defer {
                Self.killTraced(paint, tracer: tracer)
                paint.stop()
            }
            try drawStroke(paint, 0, home: home)
            try paint.key("s", modifiers: [.control])
            // Drawn while the save waits on its rename: the file is still the opened one.
            try drawStroke(paint, 1, home: home)
            #expect(FileManager.default.contents(atPath: file) == opened, "the save ended before the stroke")
            before = try paint.captureCanvas()
            // The save ends once let go: its mark follows both strokes and says one was drawn
            // during it.
            Self.releaseHeld(&tracer)
            let (path, contents) = try Self.waitForJournal(home, operations: 3, "the save's mark")
            journal = path
            guard case .saved(file, let version?, 1) = contents.records[2] else {
                Issue.record("not a mark of the save with 1 stroke drawn during it: \(contents.records[2])")
                return
            }
            #expect(FileVersion.current(path: file).map { $0.sameBytes(as: version) } == true)
            #expect(paint.title == "*photo.png — SwiftPaint", "\(paint.title ?? "nil")")
            Self.killTraced(paint, tracer: tracer)
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        let saved = try ImageFile.load(path: file)
        #expect(saved != Self.opened, "the file holds the first stroke")
        #expect(try JournalReader.read(path: journal).records.hasUnsavedWork)

        // A normal start offers the stroke drawn during the save, on the saved file.
        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, "after kill -9 following a save drawn during")
        #expect(paint.title == "*photo.png — SwiftPaint", "no “changed on disk”: \(paint.title ?? "nil")")
        // One undo reaches the picture the file holds, and the title says it is saved.
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: saved, "undone to the saved picture")
        try paint.waitForModified(false)
        try paint.key("y", modifiers: [.control])
        try paint.waitForModified(true)
        // Ctrl+S writes over the file without a question: the file holds both strokes.
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
        #expect(paint.title == "photo.png — SwiftPaint", "\(paint.title ?? "nil")")
        let again = try ImageFile.load(path: file)
        let diff = differences(screen: try paint.captureCanvas(), file: again)
        #expect(diff.isEmpty, "the file is not the restored drawing:\n\(diff.joined(separator: "\n"))")
    }
}

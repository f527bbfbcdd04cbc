import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

// Crash recovery end to end, continued: discarding, --recover, torn journals, --no-journal,
// read-only folders, and the other ways a drawing comes in and goes out.

// MARK: - 4. Discard and Escape

extension RecoveryTests {
    @Test("Escape keeps the journal for the next start (SIGHUP exits cleanly meanwhile); Alt+D deletes it")
    func escapeThenDiscard() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("d.png")
        let orphan: String
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            try drawStroke(paint, 1, home: home)
            orphan = try Self.waitForJournal(home, operations: 2, "before the kill").path
            paint.app.killAndReap()
        }
        let blank = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)

        // Escape: dismissed, the canvas stays blank and unmodified, the journal stays.
        do {
            let paint = try start(home, [file], offer: true)
            defer { paint.stop() }
            try paint.key("Escape")
            try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Escape")
            expectCanvas(paint, equals: blank, "the canvas after Escape")
            #expect(paint.title == "d.png — SwiftPaint", "title \(paint.title ?? "nil")")
            #expect(FileManager.default.fileExists(atPath: orphan), "Escape deleted the journal")
            #expect(try JournalReader.read(path: orphan).operations.count == 2)
            // This program's own journal beside it: made on the journal's own thread after the
            // first frame, so it may come after the status bar is back.
            #expect(Wait.until { Self.journals(home).count == 2 }, "\(Self.journals(home))")
            // SIGHUP with nothing changed: exit 0, its own journal goes, the orphan stays.
            #expect(paint.app.kill(SIGHUP))
            #expect(paint.app.waitForExit() == 0, "SIGHUP: \(paint.app.outputSummary)")
            #expect(Self.journals(home) == [orphan], "after SIGHUP: \(Self.journals(home))")
        }

        // Offered again; Alt+D discards it (a plain d does not: aStrayDDoesNotThrowTheCrashedDrawingAwayAltDDoes).
        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try paint.key("d", modifiers: .alt)
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Discard")
        #expect(
            Wait.until { !FileManager.default.fileExists(atPath: orphan) },
            "Discard kept the journal of the dead process")
        expectCanvas(paint, equals: blank, "the canvas after Discard")
        #expect(paint.title == "d.png — SwiftPaint", "title \(paint.title ?? "nil")")
        // Only this program's own journal is left (made on its own thread: waited for).
        var left = Self.journals(home)
        #expect(
            Wait.until {
                left = Self.journals(home)
                return left.count == 1
            } && left.first != orphan, "\(left)")
        // Closing the unchanged window exits at once, and the clean exit removes the last journal.
        paint.client.sendCloseRequest(paint.window)
        #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
        #expect(Self.journals(home).isEmpty, "\(Self.journals(home))")
        #expect(!FileManager.default.fileExists(atPath: file), "discarding wrote the file")
    }
}

// MARK: - 5. swiftpaint --recover

extension RecoveryTests {
    @Test("--recover lists a dead process's drawing with its stroke count, ignores a live one, exits 0")
    func recoverListing() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("listed.png")

        let (empty, emptyOut, emptyErr) = try Self.runCommand(["--recover"], home: home)
        #expect(empty == .exited(0), "\(empty.map(\.description) ?? "still running") \(emptyErr)")
        #expect(emptyOut.contains("Nothing to restore"), "\(emptyOut)")

        let paint = try start(home, [file], offer: false)
        defer { paint.stop() }
        try drawStroke(paint, 0, home: home)
        try drawStroke(paint, 1, home: home)
        // The running program's journal is locked: not a drawing to restore.
        let (live, liveOut, liveErr) = try Self.runCommand(["--recover"], home: home)
        #expect(live == .exited(0), "\(liveErr)")
        #expect(liveOut.contains("Nothing to restore"), "a live journal was listed: \(liveOut)")
        #expect(paint.app.isRunning)

        paint.app.killAndReap()
        let (dead, deadOut, deadErr) = try Self.runCommand(["--recover"], home: home)
        #expect(dead == .exited(0), "\(dead.map(\.description) ?? "still running") \(deadErr)")
        #expect(deadOut.contains("listed.png") && deadOut.contains("2 steps"), "\(deadOut)")
        #expect(!deadOut.contains("Nothing to restore"), "\(deadOut)")
        // Listing is read-only: the journal is still there, still offered.
        #expect(Self.journals(home).count == 1)
    }
}

// MARK: - 6. A torn tail

extension RecoveryTests {
    @Test("a journal cut short restores the complete strokes and says what was dropped")
    func tornTail() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("torn.png")
        let afterTwo: ScreenCapture
        let journal: String
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            try drawStroke(paint, 1, home: home)
            afterTwo = try paint.captureCanvas()
            try drawStroke(paint, 2, home: home)
            journal = try Self.waitForJournal(home, operations: 3, "before the kill").path
            paint.app.killAndReap()
        }
        var info = stat()
        #expect(stat(journal, &info) == 0)
        #expect(truncate(journal, info.st_size - 5) == 0, "truncate: errno \(errno)")
        let contents = try JournalReader.read(path: journal)
        #expect(contents.operations.count == 2, "a torn third record: \(contents.operations.count) operations")
        let dropped = try #require(contents.droppedTail, "the reader did not report the torn tail")
        let expected = try Self.expectedCanvas(contents)
        let replayDiff = differences(screen: afterTwo, file: expected)
        #expect(
            replayDiff.isEmpty,
            "two strokes replayed differ from the screen after two:\n\(replayDiff.joined(separator: "\n"))")

        // --recover tells what was dropped (the status bar says the same, but text cannot be
        // read back from the screen).
        let (status, out, err) = try Self.runCommand(["--recover"], home: home)
        #expect(status == .exited(0), "\(err)")
        #expect(out.contains("torn.png") && out.contains("2 steps") && out.contains(dropped), "\(out)")

        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: expected, "a torn tail")
    }
}

// MARK: - 7. --no-journal

extension RecoveryTests {
    @Test("--no-journal writes no journal, and a kill -9 leaves nothing to offer")
    func noJournal() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("nj.png")
        let paint = try start(home, ["--no-journal", file], offer: false)
        defer { paint.stop() }
        try drawStroke(paint, 0, home: nil)
        try drawStroke(paint, 1, home: nil)
        #expect(Self.journals(home).isEmpty, "\(Self.journals(home))")
        paint.app.killAndReap()
        #expect(Self.journals(home).isEmpty, "\(Self.journals(home))")
        let (status, out, _) = try Self.runCommand(["--recover"], home: home)
        #expect(status == .exited(0))
        #expect(out.contains("Nothing to restore"), "\(out)")
    }
}

// MARK: - Saving into a read-only folder

extension RecoveryTests {
    /// Whether this process can mount a tmpfs (root in a container that allows it); checked
    /// once by mounting and unmounting one.
    static let canMount: Bool = {
        guard geteuid() == 0, let dir = try? TemporaryDirectory(prefix: "swiftpaint-mnt") else { return false }
        guard system("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.path]).0 == 0 else { return false }
        system("/usr/bin/umount", [dir.path])
        return true
    }()

    @Test(
        "saving into a read-only folder shows the error in red, keeps the star and the old file",
        .enabled(if: RecoveryTests.canMount, "needs to mount a tmpfs (root with CAP_SYS_ADMIN)"))
    func saveIntoReadOnlyFolder() throws {
        let mountPoint = try TemporaryDirectory(prefix: "swiftpaint-ro")
        let (mounted, mountErr) = Self.system(
            "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path])
        try #require(mounted == 0, "mount: \(mountErr)")
        defer { Self.system("/usr/bin/umount", ["-l", mountPoint.path]) }

        // The old picture: a gradient, so a partial overwrite would show.
        let file = mountPoint.file("old.png")
        var image = PixelImage(width: Self.size.w, height: Self.size.h)
        for y in 0..<image.height {
            for x in 0..<image.width {
                image.pixels[y * image.width + x] = Pixel.pack(
                    r: UInt8(x * 255 / image.width), g: UInt8(y * 255 / image.height), b: 200, a: 255)
            }
        }
        try ImageFile.save(image, to: file, withAlpha: false)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let (remounted, remountErr) = Self.system("/usr/bin/mount", ["-o", "remount,ro", mountPoint.path])
        try #require(remounted == 0, "remount read-only: \(remountErr)")
        #expect(
            access(mountPoint.path, W_OK) != 0
                || FileManager.default.createFile(atPath: mountPoint.file("probe"), contents: nil) == false)

        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let paint = try start(home, [file], offer: false)
        defer { paint.stop() }
        expectCanvas(paint, equals: image, "the old picture")
        try drawStroke(paint, 0, home: home)

        let errorText = Theme.errorText
        #expect(errorText == Color(hex: "#b02020"))
        func reddish(_ shot: ScreenCapture) -> Int { shot.count(of: errorText, tolerance: 24) }
        let bar = paint.layout.statusBar
        let beforeSave = reddish(try paint.client.capture(paint.window, rect: bar))
        #expect(beforeSave == 0, "red pixels in the status bar before saving: \(beforeSave)")

        try paint.key("s", modifiers: [.control])
        var red = 0
        let shown = Wait.until(poll: .milliseconds(30)) {
            red = (try? paint.client.capture(paint.window, rect: bar)).map(reddish) ?? 0
            return red >= 30
        }
        #expect(
            shown,
            "no red error text in the status bar after a failed save (\(red) red pixels)\n\(paint.app.outputSummary)")
        #expect(paint.app.isRunning, "\(paint.app.outputSummary)")
        #expect(paint.title?.hasPrefix("*") == true, "a failed save cleared the star: \(paint.title ?? "nil")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "the old file changed")
        let names = try FileManager.default.contentsOfDirectory(atPath: mountPoint.path)
        #expect(names == ["old.png"], "\(names)")
        // The drawing is still being journaled: nothing was lost by the failed save.
        try Self.waitForJournal(home, operations: 1, "after the failed save")
    }
}

// MARK: - More ways in and out

extension RecoveryTests {
    /// A 400x300 opaque gradient PNG at `path`; returns its pixels.
    @discardableResult
    static func writeGradient(_ path: String) throws -> PixelImage {
        var image = PixelImage(width: size.w, height: size.h)
        for y in 0..<image.height {
            for x in 0..<image.width {
                image.pixels[y * image.width + x] = Pixel.pack(
                    r: UInt8(x * 255 / image.width), g: UInt8(y * 255 / image.height), b: UInt8((x + 2 * y) & 0xFF),
                    a: 255)
            }
        }
        try ImageFile.save(image, to: path, withAlpha: false)
        return image
    }

    @Test("strokes over an opened PNG are restored over that picture; the file is not touched")
    func restoreOverOpenedFile() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("photo.png")
        let picture = try Self.writeGradient(file)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let before: ScreenCapture
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            expectCanvas(paint, equals: picture, "the opened picture")
            try drawStroke(paint, 1, home: home, journalCount: 1)
            try drawStroke(paint, 2, home: home, journalCount: 2)
            before = try paint.captureCanvas()
            paint.app.killAndReap()
        }
        let contents = try JournalReader.read(path: try #require(Self.journals(home).first))
        #expect(contents.operations.count == 2)
        #expect(contents.header.baseImage != nil, "the journal does not hold the opened picture")
        let replayDiff = differences(screen: before, file: try Self.expectedCanvas(contents))
        #expect(replayDiff.isEmpty, "replay differs from the screen:\n\(replayDiff.joined(separator: "\n"))")

        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, "over an opened PNG")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "restoring changed the file")
    }

    @Test("after Ctrl+S the journal marks the save and keeps the whole log: a later crash restores every stroke")
    func crashAfterSave() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("saved.png")
        let before: ScreenCapture
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            try drawStroke(paint, 1, home: home)
            try paint.key("s", modifiers: [.control])
            try paint.waitForModified(false)
            // The journal now ends with a save marker after the two strokes.
            try Self.waitForJournal(home, operations: 3, "after Ctrl+S")
            try drawStroke(paint, 2, home: home, journalCount: 4)
            before = try paint.captureCanvas()
            paint.app.killAndReap()
        }
        let files = Self.journals(home)
        #expect(files.count == 1, "\(files)")
        let contents = try JournalReader.read(path: try #require(files.first))
        #expect(contents.records.count == 4)
        guard case .saved(file, let version, 0) = contents.records[2] else {
            Issue.record("the save is not marked in the log: \(contents.records[2])")
            return
        }
        #expect(version == FileVersion.current(path: file)?.withoutStatusChange, "with the file it wrote")
        // DESIGN §4: the restored canvas is pixel-identical to the last completed stroke, so the
        // replay of the restarted journal must equal what the screen showed before the kill.
        let expected = try Self.expectedCanvas(contents)
        let replayDiff = differences(screen: before, file: expected, limit: 6)
        #expect(
            replayDiff.isEmpty,
            "replaying the journal restarted at Ctrl+S differs from the screen before the kill:\n\(replayDiff.joined(separator: "\n"))"
        )

        // The restore shows that replay (a mismatch with the screen is reported above, once).
        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: expected, "after a save")
    }

    @Test("a running program's journal is never offered to a second start on the same file")
    func liveJournalNotOffered() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("busy.png")
        let first = try start(home, [file], offer: false)
        defer { first.stop() }
        try drawStroke(first, 0, home: home)
        let second = try start(home, [file], offer: false)
        defer { second.stop() }
        // The journal is started after the first frame, before input is read, and its file is
        // made on the journal's own thread: even once the second program answers a ping it
        // may not be there yet (counting at the map, then at the ping, raced it).
        try second.roundTrip()
        #expect(first.app.isRunning && second.app.isRunning)
        #expect(Wait.until { Self.journals(home).count == 2 }, "\(Self.journals(home))")
        // The first one's journal is intact and still its own.
        try Self.waitForJournal(
            home, path: Self.journals(home).first { (try? JournalReader.read(path: $0).operations.count) == 1 },
            operations: 1, "the first program's journal")
    }

    @Test("Discard in the close question exits 0 and removes the journal; the next start offers nothing")
    func discardOnClose() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("gone.png")
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            try drawStroke(paint, 1, home: home)
            paint.client.sendCloseRequest(paint.window)
            try paint.waitForCloseQuestion()
            try paint.key("d")
            #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
            #expect(Self.journals(home).isEmpty, "journal left after Discard: \(Self.journals(home))")
            #expect(!FileManager.default.fileExists(atPath: file))
        }
        let paint = try start(home, [file], offer: false)
        defer { paint.stop() }
        #expect(paint.title == "gone.png — SwiftPaint")
    }
}

// MARK: - 6. A background picture from the command line

extension RecoveryTests {
    @Test(
        "--background FILE: a new document starts modified (no file holds its picture), the picture is journaled, and kill -9 restores it under the strokes"
    )
    func backgroundFileIsJournaled() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("over.png")
        let pic = dir.file("pic.png")
        let green = Color(r: 40, g: 160, b: 90)
        try ImageFile.save(
            PixelImage(width: Self.size.w, height: Self.size.h, fill: green.pixel), to: pic, withAlpha: false)
        let before: ScreenCapture
        do {
            let paint = try start(home, ["--background", pic, file], offer: false)
            defer { paint.stop() }
            try Self.waitForJournal(home, operations: 1, "the background step")
            _ = try paint.waitForCapture(image: IntRect(x: 0, y: 0, width: 4, height: 4), "the green background") {
                $0.color(x: 1, y: 1) == green
            }
            try paint.waitForModified(true)
            #expect(paint.title == "*over.png — SwiftPaint", "title \(paint.title ?? "nil")")
            try drawStroke(paint, 0, home: home, journalCount: 2)
            before = try paint.captureCanvas()
            paint.app.killAndReap()
        }
        let journal = try #require(Self.journals(home).first)
        let contents = try JournalReader.read(path: journal)
        guard case .background(.image)? = contents.operations.first else {
            Issue.record("the journal starts with \(String(describing: contents.operations.first)), not the picture")
            return
        }
        let replayed = try Self.expectedCanvas(contents)
        #expect(replayed[2, 2] == green.pixel, "the replayed corner is \(replayed[2, 2])")
        let diff = differences(screen: before, file: replayed)
        #expect(diff.isEmpty, "replaying the journal differs from the screen:\n\(diff.joined(separator: "\n"))")

        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, "a --background picture and a stroke")
    }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// End-to-end crash recovery (DESIGN.md §4, "Never lose work"): swiftpaint on Xvfb is driven
/// through XTest, then killed (SIGKILL, SIGTERM, SIGHUP, or its X server killed under it), and a
/// second start with the same HOME (so the same `$XDG_STATE_HOME/swiftpaint/` journal folder)
/// must offer the drawing back, pixel for pixel. Saving into a read-only folder is here too.
///
/// Serialized, depth 24 (`ServerConfig.standard`; the drawing paths of every configuration are
/// covered by `DrawingTests`; what is under test here is the journal, not the blitter).
@Suite("Crash recovery end to end", .serialized)
struct RecoveryTests {
    static var config: ServerConfig { .standard }
    static let size = (w: 400, h: 300)
    static var sizeArgument: [String] { ["--size", "\(size.w)x\(size.h)"] }

    // MARK: Starting

    /// Starts swiftpaint with `home` as HOME. `offer`: true when the start must ask to restore
    /// (waits for the yellow question), false when it must not (waits for a first frame of either
    /// kind, then requires the normal status bar), nil when either is fine.
    func start(_ home: TemporaryDirectory, _ extra: [String] = [], offer: Bool?) throws -> PaintWindow {
        let frames =
            offer == true ? [ChromeColors.askFill] : [ChromeColors.statusFill, ChromeColors.askFill]
        let paint = try PaintWindow(
            Self.config, arguments: Self.sizeArgument + extra, imageWidth: Self.size.w, imageHeight: Self.size.h,
            home: home.path, firstFrame: frames)
        switch offer {
        case true?:
            try paint.waitForStatus(ChromeColors.askFill, "the restore question")
            #expect(
                paint.title?.hasPrefix("*") == false, "modified before anything was restored: \(paint.title ?? "nil")")
        case false?:
            let shown = try paint.statusColor()
            #expect(
                ScreenCapture.matches(shown, ChromeColors.statusFill, tolerance: 0),
                "the start offered something (status bar \(shown), yellow is \(ChromeColors.askFill))")
        case nil:
            break
        }
        return paint
    }

    /// Answers the restore question with Enter and waits until the canvas shows `expected`;
    /// then the title must carry the unsaved star.
    func restore(_ paint: PaintWindow, expected: PixelImage, _ what: String) throws {
        try paint.key("Return")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Restore (\(what))")
        expectCanvas(paint, equals: expected, "the restored canvas (\(what))")
        try paint.waitForModified(true)
        #expect(paint.title?.hasPrefix("*") == true, "\(what): title \(paint.title ?? "nil")")
    }

    // MARK: Journal files

    static func journalFolder(_ home: TemporaryDirectory) -> String { home.path + "/.local/state/swiftpaint" }

    /// The `*.spj` files in HOME's journal folder, sorted.
    static func journals(_ home: TemporaryDirectory) -> [String] {
        let folder = journalFolder(home)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".spj") && !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    /// Polls until `path` (or, when nil, the single `.spj` in HOME) reads back with exactly
    /// `count` records (changes and save marks); returns its path and contents.
    @discardableResult
    static func waitForJournal(
        _ home: TemporaryDirectory, path: String? = nil, operations count: Int, _ what: String
    ) throws -> (path: String, contents: JournalContents) {
        var seen = "nothing"
        let found: (String, JournalContents)? = Wait.value(poll: .milliseconds(5)) {
            let files = journals(home)
            let target: String
            if let path {
                target = path
            } else {
                guard files.count == 1 else {
                    seen = "\(files.count) journal files: \(files)"
                    return nil
                }
                target = files[0]
            }
            do {
                let contents = try JournalReader.read(path: target)
                seen = "\(contents.records.count) records in \(target)"
                return contents.records.count == count ? (target, contents) : nil
            } catch {
                seen = "\(target): \(error)"
                return nil
            }
        }
        guard let found else {
            throw HarnessError.timedOut("a journal with \(count) operations (\(what)); last saw \(seen)")
        }
        return found
    }

    /// `engine`'s composited view as an image (what the window should show).
    static func viewImage(_ engine: StrokeEngine) -> PixelImage {
        var image = PixelImage(width: engine.width, height: engine.height)
        image.pixels = Array(engine.viewPixels)
        return image
    }

    /// What a restore of `contents` must show, computed headlessly by replaying the journal.
    static func expectedCanvas(_ contents: JournalContents) throws -> PixelImage {
        viewImage(try DocumentJournal.rebuild(contents).engine)
    }

    /// Polls the canvas until it equals `expected` (as the visual shows it); records the
    /// differences if it never does.
    func expectCanvas(_ paint: PaintWindow, equals expected: PixelImage, _ what: String) {
        var last: ScreenCapture?
        let equal = Wait.until(poll: .milliseconds(30)) {
            guard let shot = try? paint.captureCanvas() else { return false }
            last = shot
            return shot.image == expected || differences(screen: shot, file: expected, limit: 1).isEmpty
        }
        if !equal {
            let diff = last.map { differences(screen: $0, file: expected) } ?? ["no capture"]
            Issue.record("\(what) differs from the expected pixels:\n\(diff.joined(separator: "\n"))")
        }
    }

    // MARK: Drawing

    /// Sets up the brush for stroke `i` (color swatch, opacity digit, width keys).
    func prepare(_ paint: PaintWindow, stroke i: Int) throws {
        switch i {
        case 0: break  // black, 100%, 5 px
        case 1:
            try paint.click(.swatch(3))  // red
            try paint.key("5")  // 50%
            try paint.key("bracketright", times: 4)
        case 2:
            try paint.click(.swatch(7))  // blue
            try paint.key("7")  // 70%
            try paint.key("bracketleft", times: 2)
        default:
            try paint.click(.swatch(4))  // orange
            try paint.key("3")  // 30%
            try paint.key("bracketright", times: 6)
        }
    }

    /// The path of stroke `i` (image coordinates). Later strokes cross earlier ones, so the
    /// opacities blend over paint, not only over white.
    static func path(_ i: Int) -> [(Int, Int)] {
        switch i {
        case 0: return line(from: (30, 40), to: (370, 130), step: 4)
        case 1: return line(from: (40, 260), to: (360, 50), step: 3)
        case 2:
            return (0...60).map { k in
                let t = 1.6 * Double.pi * Double(k) / 60
                return (200 + Int((120 * cos(t)).rounded()), 170 + Int((70 * sin(t)).rounded()))
            }
        default: return line(from: (60, 110), to: (340, 280), step: 4)
        }
    }

    /// The 11x11 image rectangle around `p`.
    static func around(_ p: (Int, Int)) -> IntRect { IntRect(x: p.0 - 5, y: p.1 - 5, width: 11, height: 11) }

    /// Waits until the pixel at `p` differs from `before` (the stroke's end is on screen, so
    /// every earlier motion has been drawn).
    func waitForChange(_ paint: PaintWindow, at p: (Int, Int), from before: Color, _ what: String) throws {
        _ = try paint.waitForCapture(image: Self.around(p), what) { $0.color(x: 5, y: 5) != before }
    }

    /// Draws finished stroke `i` (with its setup) and waits until it is on screen and in the
    /// journal at `home` (which then holds `i + 1` operations, or `journalCount`).
    func drawStroke(
        _ paint: PaintWindow, _ i: Int, home: TemporaryDirectory?, journalCount: Int? = nil
    ) throws {
        try prepare(paint, stroke: i)
        let path = Self.path(i)
        let end = path.last!
        let before = try paint.capture(image: Self.around(end)).color(x: 5, y: 5)
        try paint.drag(image: path)
        try waitForChange(paint, at: end, from: before, "the end of stroke \(i)")
        if let home {
            try Self.waitForJournal(home, operations: journalCount ?? i + 1, "after stroke \(i)")
        }
        try paint.waitForModified(true)
    }

    /// Presses the button and moves along stroke `i` without releasing; waits until the
    /// preview's end is on screen.
    func beginStroke(_ paint: PaintWindow, _ i: Int) throws {
        try prepare(paint, stroke: i)
        let path = Self.path(i)
        let end = path.last!
        let before = try paint.capture(image: Self.around(end)).color(x: 5, y: 5)
        let o = paint.layout.imageOrigin
        paint.client.moveMouse(toWindow: paint.window, x: o.x + path[0].0, y: o.y + path[0].1)
        paint.client.press(button: 1)
        for p in path.dropFirst() { paint.client.moveMouse(toWindow: paint.window, x: o.x + p.0, y: o.y + p.1) }
        try waitForChange(paint, at: end, from: before, "the preview of stroke \(i) (button held)")
    }

    // MARK: Other processes

    /// Runs `swiftpaint` without a display, with `home` as HOME, to completion.
    static func runCommand(_ arguments: [String], home: TemporaryDirectory) throws -> (ExitStatus?, String, String) {
        var env = ChildProcess.cleanEnvironment()
        env["HOME"] = home.path
        env["XDG_STATE_HOME"] = home.path + "/.local/state"
        let ran = try ChildProcess.run(
            try SwiftPaintBinary.locate(), arguments, environment: env, timeout: Wait.defaultTimeout)
        return (ran.status, ran.stdoutText, ran.stderrText)
    }

    /// Runs a system command to completion; returns (exit code, or nil when it could not be
    /// started or did not end, stderr or why not).
    @discardableResult
    static func system(_ executable: String, _ arguments: [String]) -> (Int32?, String) {
        do {
            let ran = try ChildProcess.run(executable, arguments, timeout: Wait.defaultTimeout)
            return (ran.status.shellCode, ran.stderrText)
        } catch {
            return (nil, "\(executable): \(error)")
        }
    }
}

// MARK: - 1. kill -9, then restore

extension RecoveryTests {
    enum KillPoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case afterOneStroke = "after 1 stroke"
        case afterThreeStrokes = "after 3 strokes"
        case duringStroke = "during the 3rd stroke (button held)"
        var testDescription: String { rawValue }
        /// Strokes finished before the kill.
        var finished: Int { self == .afterOneStroke ? 1 : self == .afterThreeStrokes ? 3 : 2 }
    }

    @Test("kill -9, then the next start restores every finished stroke pixel for pixel", arguments: KillPoint.allCases)
    func killNineRestores(point: KillPoint) throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("a.png")
        let n = point.finished
        let before: ScreenCapture
        let journal: String
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            for i in 0..<n { try drawStroke(paint, i, home: home) }
            // Every finished stroke is on screen and (polled above) durable in the journal.
            before = try paint.captureCanvas()
            #expect(before.count(of: .white) < before.width * before.height, "nothing was drawn")
            if point == .duringStroke {
                try beginStroke(paint, n)
                let preview = try paint.captureCanvas()
                #expect(preview.image != before.image, "the stroke in progress is not shown")
                #expect(paint.title?.hasPrefix("*") == true)
            }
            journal = try Self.waitForJournal(home, operations: n, "before the kill").path
            paint.app.killAndReap()
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        // Nothing more, nothing less: the unfinished stroke of a kill -9 is lost, as expected.
        let contents = try JournalReader.read(path: journal)
        #expect(contents.operations.count == n, "journal after kill -9: \(contents.operations.count) operations")
        #expect(contents.droppedTail == nil, "\(contents.droppedTail ?? "")")
        #expect(contents.header.documentPath == file)
        // The journal replays headlessly to what was on screen.
        let replayed = try Self.expectedCanvas(contents)
        let replayDiff = differences(screen: before, file: replayed)
        #expect(
            replayDiff.isEmpty, "replaying the journal differs from the screen:\n\(replayDiff.joined(separator: "\n"))")

        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, point.rawValue)
        #expect(paint.title == "*a.png — SwiftPaint", "title \(paint.title ?? "nil")")
        // The restored drawing continues the old journal: one journal file, the old one.
        #expect(Self.journals(home) == [journal], "journal files after restore: \(Self.journals(home))")
        #expect(!FileManager.default.fileExists(atPath: file), "restoring wrote the file")
    }

    @Test("a restored drawing keeps journaling: draw more, kill -9 again, restore again")
    func restoreThenCrashAgain() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("again.png")
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            paint.app.killAndReap()
        }
        let first = try JournalReader.read(path: Self.journals(home)[0])
        let after: ScreenCapture
        do {
            let paint = try start(home, [file], offer: true)
            defer { paint.stop() }
            try restore(paint, expected: try Self.expectedCanvas(first), "first restore")
            try Self.waitForJournal(home, operations: 1, "after the first restore")
            try drawStroke(paint, 1, home: home, journalCount: 2)
            try drawStroke(paint, 2, home: home, journalCount: 3)
            after = try paint.captureCanvas()
            paint.app.killAndReap()
        }
        let contents = try JournalReader.read(path: Self.journals(home)[0])
        #expect(contents.operations.count == 3)
        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: after.image, "second restore")
    }

    @Test("with no file the newest journal of all is offered; a start on another file offers nothing")
    func untitledRestore() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let before: ScreenCapture
        do {
            let paint = try start(home, offer: false)
            defer { paint.stop() }
            #expect(paint.title?.hasPrefix("Untitled") == true, "title \(paint.title ?? "nil")")
            try drawStroke(paint, 0, home: home)
            try drawStroke(paint, 1, home: home)
            before = try paint.captureCanvas()
            paint.app.killAndReap()
        }
        let orphan = Self.journals(home)
        #expect(orphan.count == 1)
        do {
            // A journal of an untitled drawing is not offered for a named file.
            let paint = try start(home, [dir.file("other.png")], offer: false)
            defer { paint.stop() }
            paint.app.kill(SIGTERM)
            #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
            #expect(Self.journals(home) == orphan, "after a clean exit of the other file: \(Self.journals(home))")
        }
        let paint = try start(home, offer: true)
        defer { paint.stop() }
        try restore(paint, expected: before.image, "untitled")
        #expect(paint.title?.hasPrefix("*Untitled") == true, "title \(paint.title ?? "nil")")
    }
}

// MARK: - 2. The X server dies

extension RecoveryTests {
    @Test("killing the X server mid-stroke: exit 1, the stroke in progress is journaled, a new server restores it")
    func lostXServer() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("lost.png")
        let preview: ScreenCapture
        let inProgress = Self.path(2)
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            try drawStroke(paint, 1, home: home)
            try beginStroke(paint, 2)
            preview = try paint.captureCanvas()
            paint.session.server.stop()
            let code = paint.app.waitForExit()
            #expect(code == 1, "exit after losing the X server: \(paint.app.outputSummary)")
            #expect(paint.app.stderr.contains("lost the connection"), "\(paint.app.stderr)")
        }
        let files = Self.journals(home)
        #expect(files.count == 1, "journal files: \(files)")
        let contents = try JournalReader.read(path: try #require(files.first))
        #expect(
            contents.operations.count == 3, "the stroke in progress was not journaled: \(contents.operations.count)")
        #expect(contents.droppedTail == nil, "\(contents.droppedTail ?? "")")
        if case .stroke(_, let points, _)? = contents.operations.last, let last = points.last {
            let end = inProgress.last!
            #expect(
                abs(last.x - (Double(end.0) + 0.5)) <= 1 && abs(last.y - (Double(end.1) + 0.5)) <= 1,
                "the journaled stroke ends at \(last), the pointer was at \(end)")
            #expect(points.count >= inProgress.count / 2, "only \(points.count) points of \(inProgress.count)")
        } else {
            Issue.record("the last operation is not a stroke: \(String(describing: contents.operations.last))")
        }
        let expected = try Self.expectedCanvas(contents)
        // The journal's replay is what the screen showed while the button was held.
        let previewDiff = differences(screen: preview, file: expected)
        #expect(previewDiff.isEmpty, "replay differs from the preview:\n\(previewDiff.joined(separator: "\n"))")

        let paint = try start(home, [file], offer: true)
        defer { paint.stop() }
        try restore(paint, expected: expected, "after the X server died")
    }
}

// MARK: - 3. SIGTERM and SIGHUP

extension RecoveryTests {
    @Test(
        "SIGTERM: with unsaved work exit 0 keeps the journal (stroke in progress included); saved or unchanged removes it"
    )
    func sigterm() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("term.png")
        let preview: ScreenCapture
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            try drawStroke(paint, 0, home: home)
            try beginStroke(paint, 1)
            preview = try paint.captureCanvas()
            #expect(paint.app.kill(SIGTERM))
            #expect(paint.app.waitForExit() == 0, "SIGTERM with unsaved work: \(paint.app.outputSummary)")
        }
        let (path, contents) = try Self.waitForJournal(home, operations: 2, "after SIGTERM (1 stroke + 1 in progress)")
        let expected = try Self.expectedCanvas(contents)
        let previewDiff = differences(screen: preview, file: expected)
        #expect(previewDiff.isEmpty, "replay differs from the preview:\n\(previewDiff.joined(separator: "\n"))")

        // The next start offers it; restore, save, SIGTERM: nothing is left to restore.
        do {
            let paint = try start(home, [file], offer: true)
            defer { paint.stop() }
            try restore(paint, expected: expected, "after SIGTERM")
            #expect(Self.journals(home) == [path])
            try paint.key("s", modifiers: [.control])
            try paint.waitForModified(false)
            #expect(FileManager.default.fileExists(atPath: file))
            #expect(paint.app.kill(SIGTERM))
            #expect(paint.app.waitForExit() == 0, "SIGTERM after Ctrl+S: \(paint.app.outputSummary)")
            #expect(Self.journals(home).isEmpty, "journal left after a saved SIGTERM: \(Self.journals(home))")
        }
        // Nothing offered; the saved file opens. SIGTERM with no changes: nothing kept either.
        do {
            let paint = try start(home, [file], offer: false)
            defer { paint.stop() }
            #expect(paint.title == "term.png — SwiftPaint", "title \(paint.title ?? "nil")")
            expectCanvas(paint, equals: expected, "the saved file reopened")
            // The saved history is rebuilt in the background, and the journal then starts again
            // holding it (the one it replaces is deleted once the new one is made): wait for
            // that rather than count journals at a moment that may fall between the two.
            try Self.waitForJournal(home, operations: 2, "the running program's own, holding the kept history")
            #expect(paint.app.kill(SIGTERM))
            #expect(paint.app.waitForExit() == 0, "SIGTERM with no changes: \(paint.app.outputSummary)")
            #expect(Self.journals(home).isEmpty, "journal left after an unchanged SIGTERM: \(Self.journals(home))")
        }
        let paint = try start(home, [file], offer: false)
        defer { paint.stop() }
        #expect(paint.title == "term.png — SwiftPaint", "title \(paint.title ?? "nil")")
    }
}

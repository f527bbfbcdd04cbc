import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

/// A save is written on a thread of its own: the window draws on while a 4K photo is encoded,
/// its clean starting picture made and its history kept ("Save with history"), and the file
/// holds the picture as it was when the save was asked for. A kill -9 during the save leaves the
/// file that was there, whole.
@Suite(.serialized) struct SaveEndToEndTests: CanvasChecks {
    static var config: ServerConfig { .standard }
    static let size = (w: 3840, h: 2160)

    /// A 4K photo-like JPEG (smooth gradients and a few hard edges).
    static func photo(at path: String) throws -> PixelImage {
        var image = PixelImage(width: size.w, height: size.h)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<size.h {
                for x in 0..<size.w {
                    let edge: UInt8 = (x / 480 + y / 540) % 2 == 0 ? 0 : 60
                    pixels[y * size.w + x] = Pixel.pack(
                        r: UInt8(x * 255 / size.w), g: UInt8(y * 255 / size.h) &+ edge, b: 120, a: 255)
                }
            }
        }
        try ImageFile.save(image, to: path, options: SaveOptions(format: .jpeg, quality: 90), withAlpha: false)
        return try ImageFile.load(path: path)
    }

    /// Save as `name` in the dialog (R answers Replace when the file is there: Enter cancels).
    func saveAs(_ paint: PaintWindow, _ name: String, replacing: Bool = false) throws {
        try paint.key("s", modifiers: [.control, .shift])
        try paint.waitForFileDialog("the Save as dialog")
        try paint.key("a", modifiers: [.control])
        try paint.client.typeText(name)
        try paint.key("Return")
        if replacing {
            try paint.waitForFileDialogClosed()
            try paint.key("r")
        }
    }

    /// A stroke across the top left of the picture, and a wait until it shows.
    func drawStroke(_ paint: PaintWindow, y: Int) throws {
        try paint.drag(image: line(from: (40, y), to: (400, y)))
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: y, width: 1, height: 1), "the stroke at y \(y)") {
            $0.image[0, 0] == Color.black.pixel
        }
    }

    @Test func strokesDrawnWhileA4KPhotoIsSavedWithItsHistoryShowAndAKillLeavesTheOldFileWhole() throws {
        try TestPrograms.require("/usr/bin/strace")
        let dir = try scratchFolder()
        let jpeg = dir.file("photo.jpg")
        let photo = try Self.photo(at: jpeg)
        let jpegBytes = try #require(FileManager.default.contents(atPath: jpeg))
        // The file the save replaces: another picture, which must stay whole.
        let target = dir.file("photo.png")
        var old = PixelImage(width: 64, height: 48, fill: Color(r: 10, g: 200, b: 30).pixel)
        old[3, 3] = Color.black.pixel
        try ImageFile.save(old, to: target, withAlpha: false)
        let oldBytes = try #require(FileManager.default.contents(atPath: target))

        // Every rename held for ten minutes: the save never ends (its history entry and its
        // file are renamed into place), and neither does the recent list's write.
        do {
            let home = try TemporaryDirectory(prefix: "swiftpaint-home")
            try openLargePicturesAtActualSize(home: home.path)
            let strace = [
                "-D", "-f", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                "-e", "inject=rename,renameat,renameat2:delay_enter=600000000",
            ]
            let paint = try PaintWindow(
                Self.config, executable: "/usr/bin/strace",
                arguments: strace + [try SwiftPaintBinary.locate(), "--save-with-history", jpeg],
                imageWidth: Self.size.w, imageHeight: Self.size.h, home: home.path)
            let tracer = RecoveryTests.tracer(of: paint)
            #expect(tracer != nil, "swiftpaint is not traced")
            defer {
                RecoveryTests.killTraced(paint, tracer: tracer)
                paint.stop()
            }
            try saveAs(paint, target, replacing: true)
            // The window draws while the save is under way: the strokes show, and the file
            // is still the old one.
            try drawStroke(paint, y: 40)
            try drawStroke(paint, y: 80)
            // The save is under way: its history entry is written (cleaned and all) and waits
            // to be renamed into place.
            let entries = home.path + "/.local/share/swiftpaint/history"
            try Wait.require("the save's history entry written", timeout: .seconds(300), poll: .milliseconds(50)) {
                ((try? FileManager.default.contentsOfDirectory(atPath: entries)) ?? []).contains {
                    $0.hasSuffix(".tmp")
                }
            }
            try drawStroke(paint, y: 120)
            #expect(FileManager.default.contents(atPath: target) == oldBytes, "the save ended")
            #expect(paint.title == "*photo.jpg — SwiftPaint", "\(paint.title ?? "nil")")
            RecoveryTests.killTraced(paint, tracer: tracer)
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        #expect(
            FileManager.default.contents(atPath: target) == oldBytes, "kill -9 during the save: the old file, whole")
        #expect(FileManager.default.contents(atPath: jpeg) == jpegBytes)

        // Without the hold: the file holds the photo as it was at Enter, with its history; the
        // strokes drawn right after are on screen, and the document stays modified.
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        try openLargePicturesAtActualSize(home: home.path)
        let paint = try PaintWindow(
            Self.config, arguments: ["--save-with-history", jpeg], imageWidth: Self.size.w,
            imageHeight: Self.size.h, home: home.path)
        defer { paint.stop() }
        try saveAs(paint, target, replacing: true)
        try drawStroke(paint, y: 40)
        // A debug build takes a while to encode, clean and check a 4K picture.
        #expect(
            paint.client.waitForTitle(paint.window, timeout: .seconds(300)) {
                $0 == "*photo.png (with history) — SwiftPaint"
            } != nil, "saved, still modified: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        let saved = try ImageFile.open(path: target)
        let chunk = Array("spHS".utf8)
        let carries = saved.bytes.indices.dropLast(4).contains { Array(saved.bytes[$0..<$0 + 4]) == chunk }
        #expect(carries && saved.picture.format == .png, "a PNG with its history inside")
        let same = saved.picture.image == photo
        #expect(same, "the file holds the photo without the stroke drawn after Enter")
        // Ctrl+S writes the stroke too, and the title says it is saved.
        try paint.key("s", modifiers: [.control])
        #expect(
            paint.client.waitForTitle(paint.window, timeout: .seconds(300)) {
                $0 == "photo.png (with history) — SwiftPaint"
            } != nil,
            "saved again: \(paint.title ?? "nil")")
        let again = try ImageFile.load(path: target)
        #expect(again[200, 40] == Color.black.pixel && again[200, 200] == photo[200, 200])
    }
}

extension SaveEndToEndTests {
    @Test func aCrashJournalThatCannotBeMadeIsSaidOnStandardErrorAtStart() throws {
        // The journal's folder cannot be made (on the journal's thread): a file stands there.
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        try FileManager.default.createDirectory(atPath: home.path + "/.local/state", withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: home.path + "/.local/state/swiftpaint", contents: Data("not a folder".utf8)))
        let paint = try PaintWindow(
            Self.config, arguments: ["--size", "200x100"], imageWidth: 200, imageHeight: 100, home: home.path)
        defer { paint.stop() }
        // The journal is made on its own thread after the first frame; its failure is taken
        // between events.
        try Wait.require("“No crash journal” on stderr\n\(paint.app.outputSummary)", timeout: .seconds(60)) {
            try paint.roundTrip()
            return paint.app.stderr.contains("swiftpaint: No crash journal: ")
        }
        let lines = paint.app.stderr.split(separator: "\n").filter { $0.contains("No crash journal") }
        #expect(lines.count == 1, "said once: \(lines)")
        try paint.drag(image: line(from: (10, 50), to: (150, 50)))
        try paint.roundTrip()
        #expect(paint.app.stderr.split(separator: "\n").filter { $0.contains("No crash journal") }.count == 1)
    }
}

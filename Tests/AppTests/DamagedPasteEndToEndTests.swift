import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing

/// A picture another program offers on the clipboard whose PNG is cut short, pasted into the
/// real window: Ctrl+V floats the rows that could be read (white below) and the status bar says
/// so in red, as for a damaged file opened; Paste as New Picture (Ctrl+Shift+V) makes a new
/// picture of them, marked damaged, whose Ctrl+S offers `untitled (recovered).png`.
@Suite(.serialized) struct DamagedPasteEndToEndTests: CanvasChecks {
    typealias D = DamagedFileEndToEndTests

    @Test func aCutPictureOnTheClipboardPastesWhatCouldBeReadAndSaysSo() throws {
        let dir = try scratchFolder()
        let (_, cut, read) = try D.cutPhoto(in: dir)
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let pictures = try home.subdirectory("Pictures")
        let size = D.size
        let paint = try PaintWindow(
            D.config, arguments: ["--size", "\(size.w)x\(size.h)"], imageWidth: size.w, imageHeight: size.h,
            home: home.path)
        defer { paint.stop() }
        let owner = try FormatsClipboardOwner(
            displayName: paint.session.server.displayName, offering: [("image/png", cut)])
        let bar = paint.layout.statusBar
        func red() -> Int {
            (try? paint.client.capture(paint.window, rect: bar)).map { $0.count(of: Theme.errorText, tolerance: 24) }
                ?? 0
        }
        #expect(red() == 0, "red in the status bar before the paste")

        // Ctrl+V: floats at the corner, the status bar saying in red what could be read.
        try paint.key("v", modifiers: [.control])
        let said = Wait.until(poll: .milliseconds(10)) {
            owner.serve()
            return red() >= 30
        }
        #expect(said, "no red message in the status bar after pasting a cut picture\n\(paint.app.outputSummary)")
        try paint.key("Return")
        try paint.waitForModified(true)
        expectCanvas(paint, equals: read.image, "the rows read pasted, white below them")

        // Ctrl+Shift+V: the drawing is asked about, then a new picture of the rows read.
        try paint.key("v", modifiers: [.control, .shift])
        let asked = Wait.until(poll: .milliseconds(10)) {
            owner.serve()
            return (try? paint.statusColor()).map { ScreenCapture.matches($0, ChromeColors.askFill, tolerance: 8) }
                ?? false
        }
        #expect(asked, "no question about the drawing at Paste as New Picture\n\(paint.app.outputSummary)")
        try paint.key("d")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "*Untitled — SwiftPaint" } != nil,
            "the new picture: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        #expect(Wait.until(poll: .milliseconds(10)) { red() >= 30 }, "the new picture's message is not in red")
        expectCanvas(paint, equals: read.image, "the new picture: the rows read, white below them")
        // Ctrl+S offers the name a damaged picture's copy gets; Enter saves it there.
        try paint.key("s", modifiers: [.control])
        try paint.waitForFileDialog("Save as, at Ctrl+S on the new picture")
        try paint.key("Return")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "untitled (recovered).png — SwiftPaint" } != nil,
            "saved: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        let saved = try ImageFile.open(path: pictures + "/untitled (recovered).png").picture
        #expect(saved.damage == nil && saved.image == read.image, "the file holds the rows read and the white")
    }

    /// The new picture of a cut paste, the window killed (kill -9) before it is saved: the next
    /// start offers it back, and Ctrl+S on the restored drawing still offers
    /// `untitled (recovered).png` (its journal keeps the mark, `JournalHeader.sourceDamage`).
    /// Before, the restored drawing had lost it and Ctrl+S offered `untitled.png`.
    @Test func theNewPictureOfACutPasteKeepsItsMarkThroughAKillAndARestore() throws {
        let dir = try scratchFolder()
        let (_, cut, read) = try D.cutPhoto(in: dir)
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let pictures = try home.subdirectory("Pictures")
        let size = D.size
        let arguments = ["--size", "\(size.w)x\(size.h)"]
        let first = try PaintWindow(
            D.config, arguments: arguments, imageWidth: size.w, imageHeight: size.h, home: home.path)
        defer { first.stop() }
        let owner = try FormatsClipboardOwner(
            displayName: first.session.server.displayName, offering: [("image/png", cut)])
        // Nothing drawn yet: Ctrl+Shift+V makes the new picture at once.
        try first.key("v", modifiers: [.control, .shift])
        let made = Wait.until(poll: .milliseconds(10)) {
            owner.serve()
            return first.title == "*Untitled — SwiftPaint"
        }
        #expect(made, "the new picture: \(first.title ?? "nil")\n\(first.app.outputSummary)")
        expectCanvas(first, equals: read.image, "the new picture: the rows read, white below them")
        // Its journal holds the paste (and the mark) before the kill.
        let (_, contents) = try RecoveryTests.waitForJournal(home, operations: 1, "the paste as a new picture")
        let mark = contents.header.sourceDamage
        #expect(
            mark?.rowsRead == read.damage?.rowsRead && mark?.error.path == "the clipboard",
            "\(String(describing: mark))")
        first.app.killAndReap()
        first.stop()

        let second = try PaintWindow(
            D.config, arguments: arguments, imageWidth: size.w, imageHeight: size.h, home: home.path,
            firstFrame: [ChromeColors.askFill])
        defer { second.stop() }
        try second.waitForStatus(ChromeColors.askFill, "the restore question")
        try second.key("Return")
        try second.waitForStatus(ChromeColors.statusFill, "the status bar after Restore")
        expectCanvas(second, equals: read.image, "the restored picture")
        try second.waitForModified(true)
        // Ctrl+S: the name a damaged picture's copy gets; Enter saves it there.
        try second.key("s", modifiers: [.control])
        try second.waitForFileDialog("Save as, at Ctrl+S on the restored picture")
        try second.key("Return")
        #expect(
            second.client.waitForTitle(second.window) { $0 == "untitled (recovered).png — SwiftPaint" } != nil,
            "saved: \(second.title ?? "nil")\n\(second.app.outputSummary)")
        let saved = try ImageFile.open(path: pictures + "/untitled (recovered).png").picture
        #expect(saved.damage == nil && saved.image == read.image, "the file holds the rows read and the white")
        #expect(!FileManager.default.fileExists(atPath: pictures + "/untitled.png"))
    }
}

import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// Text selected in the text box, through the desktop clipboard: Ctrl+A, then Ctrl+C gives the
/// box's text to another program (xclip) as UTF8_STRING, text/plain;charset=utf-8 and STRING;
/// text xclip holds, pasted with Ctrl+V over the selection, replaces it; the selection shows
/// in the window on a light blue ground that never reaches the picture.
@Suite("Text clipboard end to end", .serialized)
struct TextClipboardEndToEndTests: CanvasChecks {
    typealias Text = TextEndToEndTests
    typealias Clip = ClipboardEndToEndTests

    @Test(
        "Ctrl+C copies the box's selected text to xclip, Ctrl+V pastes xclip's text over it",
        arguments: ServerConfig.all)
    func copyAndPasteText(config: ServerConfig) throws {
        let size = Text.size
        let dir = try scratchFolder()
        let file = dir.file("text.png")
        let paint = try Text().start(config, file)
        defer { paint.stop() }
        try Text.typeInNewBox(paint, "Copy me, ok", x: 30, y: 40)
        // Ctrl+A selects the box's text: the light blue ground shows behind it.
        try paint.key("a", modifiers: [.control])
        let tint = Color(r: 178, g: 212, b: 255)
        let box = IntRect(x: 30, y: 40, width: 60, height: 12)
        _ = try paint.waitForCapture(image: box, "\(config): the selection's highlight") { shot in
            (0..<shot.width).filter {
                ScreenCapture.matches(shot.color(x: $0, y: 2), tint, tolerance: config.tolerance)
            }
            .count > 30
        }
        try paint.key("c", modifiers: [.control])
        var targets = ""
        let owned = Wait.until(poll: .milliseconds(50)) {
            guard let read = try? Clip().xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]),
                read.status == .exited(0)
            else { return false }
            targets = String(decoding: read.output, as: UTF8.self)
            return targets.contains("UTF8_STRING")
        }
        #expect(owned, "the program never offered text: \(targets) \(paint.app.outputSummary)")
        #expect(targets.contains("text/plain;charset=utf-8") && targets.contains("STRING"), "targets: \(targets)")
        #expect(!targets.contains("image/png"), "targets: \(targets)")
        for target in ["UTF8_STRING", "text/plain;charset=utf-8", "STRING"] {
            let read = try Clip().xclip(paint, ["-selection", "clipboard", "-t", target, "-o"])
            #expect(read.status == .exited(0), "\(target): \(String(describing: read.status))")
            #expect(String(decoding: read.output, as: UTF8.self) == "Copy me, ok", "\(target)")
        }
        // xclip takes the clipboard with other text; Ctrl+V replaces the selection with it.
        let source = dir.file("paste.txt")
        try Data("Pasted, fine".utf8).write(to: URL(fileURLWithPath: source))
        let owner = try Clip().xclip(
            paint, ["-selection", "clipboard", "-t", "UTF8_STRING", "-i", source], background: true)
        defer { owner.child.killAndReap() }
        let taken = Wait.until(poll: .milliseconds(50)) {
            guard let read = try? Clip().xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]),
                read.status == .exited(0)
            else { return false }
            return !String(decoding: read.output, as: UTF8.self).contains("text/plain;charset=utf-8")
        }
        #expect(taken, "xclip never took the clipboard")
        try paint.key("v", modifiers: [.control])
        try Text.waitForText(paint, "Pasted, fine", x: 30, y: 40)
        // Put down and saved: the typesetter's pixels of the pasted text, no highlight.
        try paint.click(imageX: size.w - 20, imageY: size.h - 20)
        let expected = try Text.expected("Pasted, fine", x: 30, y: 40)
        expectCanvas(paint, equals: expected, "\(config): the pasted text put down")
        try save(paint)
        #expect(try load(file) == expected)
    }

    @Test("A picture on the clipboard is not pasted into the text box as text")
    func pictureIsNotText() throws {
        let dir = try scratchFolder()
        let picture = dir.file("sticker.png")
        try ImageFile.save(
            PixelImage(width: 30, height: 20, fill: Color(r: 200, g: 40, b: 160).pixel), to: picture, withAlpha: false)
        let paint = try Text().start(ServerConfig.standard, dir.file("text.png"))
        defer { paint.stop() }
        // xclip answers any target with its bytes: a text fetch that trusted it would type the
        // PNG's bytes into the box.
        let owner = try Clip().xclip(
            paint, ["-selection", "clipboard", "-t", "image/png", "-i", picture], background: true)
        defer { owner.child.killAndReap() }
        let owned = Wait.until(poll: .milliseconds(50)) {
            (try? Clip().xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]))?.status == .exited(0)
        }
        #expect(owned, "xclip never took the clipboard")
        try paint.key("t")
        try paint.click(imageX: 30, imageY: 40)
        paint.parkPointer()
        try paint.client.typeText("Keep")
        try paint.key("v", modifiers: [.control])
        try paint.client.typeText("!")
        try Text.waitForText(paint, "Keep!", x: 30, y: 40)
        try paint.roundTrip()
        try paint.click(imageX: Text.size.w - 20, imageY: Text.size.h - 20)
        expectCanvas(paint, equals: try Text.expected("Keep!", x: 30, y: 40), "the text alone, nothing pasted")
    }

    @Test("Text copied from the box, then the window closed: a clipboard manager is handed the text")
    func textHandedToAClipboardManager() throws {
        let paint = try Text().start(ServerConfig.standard, try scratchFolder().file("text.png"))
        defer { paint.stop() }
        let manager = try FakeClipboardManager(displayName: paint.session.server.displayName, target: "UTF8_STRING")
        try Text.typeInNewBox(paint, "Keep me", x: 30, y: 40)
        try paint.key("a", modifiers: [.control])
        try paint.key("c", modifiers: [.control])
        #expect(manager.waitForClipboardOwner())
        // The box is put down on the way out: the picture changed, so the close asks.
        try manager.closeDiscarding(paint)
        #expect(manager.saved.map { String(decoding: $0, as: UTF8.self) } == "Keep me")
        #expect(manager.targetsAsked.contains("UTF8_STRING") && !manager.targetsAsked.contains("image/png"))
        #expect(manager.offered.contains("UTF8_STRING") && manager.offered.contains("MULTIPLE"), "\(manager.offered)")
    }
}

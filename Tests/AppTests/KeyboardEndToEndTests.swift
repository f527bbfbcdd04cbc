import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// Typing and shortcuts on the keyboards people have: a German layout types umlauts (and dead
/// keys) into file names, Ctrl+Z undoes on a Russian layout, the AZERTY digit row sets the
/// opacity without Shift, and the text fields take the keys every desktop field takes. The
/// layouts are switched with setxkbmap while the program runs, as a user switches them.
@Suite("Keyboard end to end", .serialized)
struct KeyboardEndToEndTests: CanvasChecks {
    static var config: ServerConfig { .standard }
    static let size = (w: 400, h: 300)

    func start(_ extra: [String] = [], environment: [String: String] = [:]) throws -> PaintWindow {
        try PaintWindow(
            Self.config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"] + extra, imageWidth: Self.size.w,
            imageHeight: Self.size.h, environment: environment)
    }

    /// A short black stroke across the middle of the canvas; waits until it shows.
    func drawStroke(_ paint: PaintWindow) throws {
        try paint.drag(image: line(from: (100, 150), to: (300, 150), step: 4))
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: 150, width: 1, height: 1), "the stroke") {
            $0.color(x: 0, y: 0).brightest < 100
        }
        try paint.waitForModified(true)
    }

    /// The window x where the text typed into the file dialog's field begins: the dark
    /// columns of its row are the label, then (after the widest gap: the label's space, the
    /// field's border and padding) the text.
    func dialogTextX(_ paint: PaintWindow) throws -> Int {
        let f = paint.fileDialogFrame
        // The field's row: 92 px above the panel's bottom at scale 1 (`FileDialog.footerTop`).
        let band = IntRect(x: f.x + 8, y: f.maxY - 88, width: f.width / 2, height: 26)
        let shot = try paint.client.capture(paint.window, rect: band)
        let dark = (0..<band.width).filter { x in (0..<band.height).contains { shot.color(x: x, y: $0).brightest < 110 }
        }
        guard let gap = zip(dark, dark.dropFirst()).first(where: { $1 - $0 > 12 }) else {
            throw HarnessError.captureFailed("no text after the label in the dialog's field: \(dark)")
        }
        return band.x + gap.1
    }

    @Test("German layout: an umlaut file name (and a dead key) is saved byte for byte as typed, in a C locale")
    func germanFileName() throws {
        let dir = try scratchFolder()
        // LANG=C: the program must still type UTF-8.
        let paint = try start([dir.file("start.png")], environment: ["LANG": "C", "LC_ALL": "C"])
        defer { paint.stop() }
        try drawStroke(paint)
        try paint.client.setKeyboardLayout("de")
        try paint.key("s", modifiers: [.control, .shift])
        try paint.waitForSavePrompt()
        // "start.png" with "start" chosen: typing replaces it and keeps ".png".
        try paint.client.typeText("Grüße ")
        // A dead key: ´ then e gives é through the input method.
        try paint.key("dead_acute")
        try paint.key("e")
        try paint.client.typeText(" öl")
        try paint.key("Return")
        let name = "Grüße é öl.png"
        let saved = Wait.until(poll: .milliseconds(50)) {
            paint.title?.hasPrefix(name) == true
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        #expect(saved, "nothing saved: \(names)\n\(paint.app.outputSummary)")
        // The name's bytes on disk, not a normalized comparison.
        let bytes = names.map { Array($0.utf8) }
        #expect(
            bytes.contains(Array(name.utf8)),
            "saved as \(names.map { $0.unicodeScalars.map { String($0.value, radix: 16) } })")
        let png = try load(dir.file(name))
        #expect(png[200, 150] == Color.black.pixel)
    }

    @Test("Russian layout: Ctrl+Z (Ctrl+Я) undoes, Ctrl+Shift+Z redoes")
    func russianUndo() throws {
        let paint = try start()
        defer { paint.stop() }
        try drawStroke(paint)
        try paint.client.setKeyboardLayout("ru")
        try paint.key("Cyrillic_ya", modifiers: [.control])
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: 150, width: 1, height: 1), "the stroke undone") {
            $0.color(x: 0, y: 0) == .white
        }
        try paint.key("Cyrillic_YA", modifiers: [.control])
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: 150, width: 1, height: 1), "the stroke redone") {
            $0.color(x: 0, y: 0).brightest < 100
        }
    }

    @Test("French layout: the digit row sets the opacity without Shift (& is 10 %, é is 20 %)")
    func azertyDigits() throws {
        let paint = try start()
        defer { paint.stop() }
        try paint.client.setKeyboardLayout("fr")
        try paint.key("ampersand")
        try paint.drag(image: line(from: (50, 100), to: (350, 100), step: 4))
        // Black at 10 % over white: 255 × 0.9.
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: 100, width: 1, height: 1), "a stroke at 10 %") {
            let g = $0.color(x: 0, y: 0).gray ?? 0
            return g == 229 || g == 230
        }
        try paint.key("eacute")
        try paint.drag(image: line(from: (50, 200), to: (350, 200), step: 4))
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: 200, width: 1, height: 1), "a stroke at 20 %") {
            let g = $0.color(x: 0, y: 0).gray ?? 0
            return g == 204
        }
    }

    @Test("Text field keys: Ctrl+W, Ctrl+Backspace, Ctrl+Left, Shift+End, and Ctrl+V of text filtering the Open dialog")
    func fieldKeys() throws {
        let dir = try scratchFolder()
        let other = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 40, g: 160, b: 90).pixel)
        try ImageFile.save(other, to: dir.file("other.png"), withAlpha: false)
        let paint = try start([dir.file("a.png")])
        defer { paint.stop() }
        try drawStroke(paint)
        try paint.key("s", modifiers: [.control, .shift])
        try paint.waitForSavePrompt()
        // "a.png" → (End, Ctrl+W, Ctrl+Backspace) "" → "one two.png" → (Ctrl+Left twice,
        // Shift+End) "one three.png".
        try paint.key("End")
        try paint.key("w", modifiers: [.control])
        try paint.key("BackSpace", modifiers: [.control])
        try paint.client.typeText("one two.png")
        try paint.key("Left", modifiers: [.control], times: 2)
        try paint.key("End", modifiers: [.shift])
        try paint.client.typeText("three.png")
        try paint.key("Return")
        let first = dir.file("one three.png")
        #expect(
            Wait.until { FileManager.default.fileExists(atPath: first) },
            "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: dir.path)))")
        try paint.waitForFileDialogClosed()
        // Ctrl+O in the folder (two pictures); Ctrl+V of "oth" another program put on the
        // clipboard filters the list to one, and Enter opens it.
        let owner = try clipboardText(paint, "oth", in: dir)
        defer { owner.killAndReap() }
        try paint.key("o", modifiers: [.control])
        try paint.waitForFileDialog("the Open dialog")
        let f = paint.fileDialogFrame
        // The second row's name (rows 34 px from 110 px below the panel's top, names 40 px into
        // the list, which starts 200 px in, at scale 1).
        let secondRow = IntRect(x: f.x + 240, y: f.y + 110 + 34 + 8, width: 200, height: 18)
        func secondRowHasText() throws -> Bool {
            let shot = try paint.client.capture(paint.window, rect: secondRow)
            return (0..<secondRow.height).contains { y in
                (0..<secondRow.width).contains { shot.color(x: $0, y: y).brightest < 110 }
            }
        }
        try Wait.require("two pictures listed") { try secondRowHasText() }
        try paint.key("v", modifiers: [.control])
        try Wait.require("the list filtered to one picture by the pasted text\n\(paint.app.outputSummary)") {
            try !secondRowHasText()
        }
        try paint.key("Return")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "other.png — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: other, "the picture opened from the filtered list")
    }

    @Test("Text field pointer: a click places the cursor, a double click selects a word")
    func fieldClicks() throws {
        let paint = try start()
        defer { paint.stop() }
        let f = paint.fileDialogFrame
        let y = f.maxY - 88 + 13
        // A click before the text: "#" goes in front of "ff0000".
        try paint.key("b", modifiers: [.control])
        try paint.waitForFileDialog("the background dialog")
        paint.parkPointer()
        try paint.client.typeText("ff0000")
        guard let x = Wait.value({ try? dialogTextX(paint) }) else {
            throw HarnessError.captureFailed("no typed text in the background dialog's field")
        }
        try paint.client.click(paint.window, x: x - 3, y: y)
        paint.parkPointer()
        try paint.client.typeText("#\n")
        try paint.waitForFileDialogClosed()
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 255, g: 0, b: 0).pixel),
            "a red background")
        // A double click on "junk" selects it; Backspace deletes it, leaving " #0000ff".
        try paint.key("b", modifiers: [.control])
        try paint.waitForFileDialog("the background dialog")
        paint.parkPointer()
        try paint.client.typeText("junk #0000ff")
        guard let start = Wait.value({ try? dialogTextX(paint) }) else {
            throw HarnessError.captureFailed("no typed text in the background dialog's field")
        }
        // In one flush, so the server's times make it a double click on a loaded machine too.
        paint.client.clickRun(paint.window, x: start + 10, y: y, delays: [0, 0])
        paint.parkPointer()
        try paint.key("BackSpace")
        try paint.key("Return")
        try paint.waitForFileDialogClosed()
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 0, g: 0, b: 255).pixel),
            "a blue background")
    }

    /// Puts `text` on the clipboard with xclip and waits until it does. xclip runs in the
    /// foreground (-quiet: no fork) and serves every request until the returned child is killed,
    /// however many the paste makes (no `-loops` count).
    func clipboardText(_ paint: PaintWindow, _ text: String, in dir: TemporaryDirectory) throws -> ChildProcess {
        let file = dir.file("clip.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        var environment = ChildProcess.cleanEnvironment()
        environment["DISPLAY"] = paint.session.server.displayName
        let child = try ChildProcess(
            executable: "/usr/bin/xclip", arguments: ["-quiet", "-selection", "clipboard", "-i", file],
            environment: environment, stdoutPath: dir.file("xclip.out"), stderrPath: dir.file("xclip.err"))
        let owned = Wait.until {
            XGetSelectionOwner(paint.client.display, paint.client.atom("CLIPBOARD")) != 0
        }
        #expect(owned, "xclip never took the clipboard")
        return child
    }
}

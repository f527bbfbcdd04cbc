import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

/// Typing and shortcuts on the keyboards people have: a German layout types umlauts (and dead
/// keys) into file names, Ctrl+Z undoes on a Russian layout, the AZERTY digit row sets the
/// opacity without Shift, and the text fields take the keys every desktop field takes. The
/// layouts are switched with setxkbmap while the program runs, as a user switches them.
@Suite("Keyboard end to end", .serialized)
struct KeyboardEndToEndTests: CanvasChecks {
    static let config = ServerConfig(depth: 24, shm: true)
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

    /// The window x where the status bar's text field begins (its white box).
    func fieldX(_ paint: PaintWindow) throws -> Int {
        let bar = paint.layout.statusBar
        let row = try paint.client.capture(paint.window, rect: IntRect(x: 0, y: bar.y + 5, width: bar.width, height: 1))
        guard let x = (0..<bar.width).first(where: { row.color(x: $0, y: 0) == .white }) else {
            throw HarnessError.captureFailed("no text field in the status bar")
        }
        return x
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
        // "…/start.png": Ctrl+W takes "png", Ctrl+Backspace "start.", leaving the folder.
        try paint.key("w", modifiers: [.control])
        try paint.key("BackSpace", modifiers: [.control])
        try paint.client.typeText("Grüße ")
        // A dead key: ´ then e gives é through the input method.
        try paint.key("dead_acute")
        try paint.key("e")
        try paint.client.typeText(" öl.png")
        try paint.key("Return")
        let name = "Grüße é öl.png"
        let saved = Wait.until(timeout: .seconds(20), poll: .milliseconds(50)) {
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

    @Test("Text field keys: Ctrl+W, Ctrl+Backspace, Ctrl+Left, Shift+End, Ctrl+A, Ctrl+U and Ctrl+V of text")
    func fieldKeys() throws {
        let dir = try scratchFolder()
        let paint = try start([dir.file("a.png")])
        defer { paint.stop() }
        try drawStroke(paint)
        try paint.key("s", modifiers: [.control, .shift])
        try paint.waitForSavePrompt()
        // "…/a.png" → "…/" → "…/one two.png" → (Ctrl+Left twice, Shift+End) "…/one three.png".
        try paint.key("w", modifiers: [.control])
        try paint.key("BackSpace", modifiers: [.control])
        try paint.client.typeText("one two.png")
        try paint.key("Left", modifiers: [.control], times: 2)
        try paint.key("End", modifiers: [.shift])
        try paint.client.typeText("three.png")
        try paint.key("Return")
        let first = dir.file("one three.png")
        #expect(
            Wait.until(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: first) },
            "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: dir.path)))")
        // Ctrl+A and typing replace everything; Ctrl+U deletes it again; Ctrl+V pastes the folder
        // another program put on the clipboard.
        let owner = try clipboardText(paint, dir.path + "/", in: dir)
        defer { owner.killAndReap() }
        try paint.key("s", modifiers: [.control, .shift])
        // Saved: the prompt comes without the star the usual wait looks for.
        try paint.waitForStatus(ChromeColors.askFill, "the save prompt")
        try Wait.require("the save prompt's field") { try paint.statusWhiteRun() > 300 }
        try paint.key("a", modifiers: [.control])
        try paint.client.typeText("junk")
        try paint.key("u", modifiers: [.control])
        // The clipboard answers when it answers: wait until the field is empty (nothing dark but
        // the cursor), then until it shows more than that.
        let bar = paint.layout.statusBar
        let field = IntRect(x: try fieldX(paint) + 2, y: bar.y + 6, width: 300, height: bar.height - 12)
        let empty = try paint.client.waitForCapture(paint.window, rect: field, "the emptied field") { shot in
            (0..<shot.image.width).filter { x in (0..<shot.image.height).contains { shot.color(x: x, y: $0) != .white }
            }
            .count <= 2
        }
        try paint.key("v", modifiers: [.control])
        _ = try paint.client.waitForCapture(paint.window, rect: field, "the pasted text in the field") {
            $0.image != empty.image
        }
        try paint.client.typeText("pasted.png")
        try paint.key("Return")
        let second = dir.file("pasted.png")
        #expect(
            Wait.until(timeout: .seconds(20)) { FileManager.default.fileExists(atPath: second) },
            "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: dir.path)))\n\(paint.app.outputSummary)"
        )
    }

    @Test("Text field pointer: a click places the cursor, a double click selects a word")
    func fieldClicks() throws {
        let paint = try start()
        defer { paint.stop() }
        let bar = paint.layout.statusBar
        // A click before the text: "#" goes in front of "ff0000".
        try paint.key("b", modifiers: [.control])
        try Wait.require("the background prompt's field") { try paint.statusWhiteRun() > 200 }
        paint.parkPointer()
        try paint.client.typeText("ff0000")
        let x = try fieldX(paint)
        try paint.client.click(paint.window, x: x + 3, y: bar.y + bar.height / 2)
        paint.parkPointer()
        try paint.client.typeText("#\n")
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 255, g: 0, b: 0).pixel),
            "a red background")
        // A double click on "junk" selects it; Backspace deletes it, leaving " #0000ff".
        try paint.key("b", modifiers: [.control])
        try Wait.require("the background prompt's field") { try paint.statusWhiteRun() > 200 }
        paint.parkPointer()
        try paint.client.typeText("junk #0000ff")
        let word = (x: x + 6 + 10, y: bar.y + bar.height / 2)
        try paint.client.click(paint.window, x: word.x, y: word.y)
        try paint.client.click(paint.window, x: word.x, y: word.y)
        paint.parkPointer()
        try paint.key("BackSpace")
        try paint.key("Return")
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 0, g: 0, b: 255).pixel),
            "a blue background")
    }

    /// Puts `text` on the clipboard with xclip (which serves it until killed) and waits until
    /// it does.
    func clipboardText(_ paint: PaintWindow, _ text: String, in dir: TemporaryDirectory) throws -> ChildProcess {
        let file = dir.file("clip.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        var environment = ChildProcess.cleanEnvironment()
        environment["DISPLAY"] = paint.session.server.displayName
        let child = try ChildProcess(
            executable: "/usr/bin/xclip", arguments: ["-selection", "clipboard", "-i", file, "-loops", "1"],
            environment: environment, stdoutPath: dir.file("xclip.out"), stderrPath: dir.file("xclip.err"))
        let owned = Wait.until(timeout: .seconds(10)) {
            XGetSelectionOwner(paint.client.display, paint.client.atom("CLIPBOARD")) != 0
        }
        #expect(owned, "xclip never took the clipboard")
        return child
    }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import PaintText
import Testing

/// The text tool in the running program: T, a click, typing on the XTest keyboard (through the
/// input method), a click outside to put it down, Ctrl+S; the saved PNG holds exactly the
/// pixels the typesetter draws for that text, and the window shows them with no frame or caret
/// left behind.
@Suite("Text tool end to end", .serialized)
struct TextEndToEndTests: CanvasChecks {
    static let size = (w: 420, h: 240)

    /// What the picture must be: `lines` set in `font` with the box's corner at (x, y), merged
    /// in `color` at `opacity` over white, as this machine's typesetter draws it.
    static func expected(
        _ text: String, font: TextFont = .standard, x: Int, y: Int, color: Color = .black, opacity: Double = 1
    ) throws -> PixelImage {
        let typesetter = try #require(Typesetter())
        let canvas = IntRect(x: 0, y: 0, width: size.w, height: size.h)
        let layout = typesetter.layout(text, font: font)
        let mask = typesetter.rasterize(layout, atX: x, y: y, clip: canvas)
        let engine = StrokeEngine(width: size.w, height: size.h)
        let spec = TextSpec(mask: mask, text: text, font: font, x: x, y: y)
        Operation.text(StrokeStyle(color: color, opacity: opacity, width: 1), spec).apply(to: engine)
        return engine.flattenedImage()
    }

    /// Waits until the window shows something other than white in `rect` (image pixels).
    static func waitForInk(_ paint: PaintWindow, in rect: IntRect, _ what: String) throws {
        _ = try paint.waitForCapture(image: rect, what) { shot in
            (0..<shot.width).contains { x in (0..<shot.height).contains { shot.color(x: x, y: $0) != .white } }
        }
    }

    /// Text fully covering a pixel over white, in `color` at `opacity`.
    static func fullCoverage(_ color: Color, opacity: Double) throws -> Color {
        let one = StrokeEngine(width: 1, height: 1)
        one.beginText(StrokeStyle(color: color, opacity: opacity, width: 1))
        one.updateText(try #require(CoverageMask(x: 0, y: 0, width: 1, height: 1, bytes: [255])))
        one.end()
        let p = Pixel.unpack(one.flattenedImage()[0, 0])
        return Color(r: p.r, g: p.g, b: p.b)
    }

    /// Waits until every pixel `text` covers fully (box at image pixel (x, y)) shows `ink`,
    /// leaving out the caret's columns at the box's left edge (where a right-to-left line's
    /// caret stands after typing).
    /// Picks the text tool, opens a box at image (x, y), types `text` and waits until it shows.
    static func typeInNewBox(_ paint: PaintWindow, _ text: String, x: Int, y: Int) throws {
        try paint.key("t")
        try paint.click(imageX: x, imageY: y)
        paint.parkPointer()
        try paint.client.typeText(text)
        try waitForText(paint, text, x: x, y: y)
    }

    static func waitForText(_ paint: PaintWindow, _ text: String, x: Int, y: Int, shownAs ink: Color = .black) throws {
        let typesetter = try #require(Typesetter())
        let mask = typesetter.rasterize(
            typesetter.layout(text, font: .standard), atX: x, y: y,
            clip: IntRect(x: 0, y: 0, width: size.w, height: size.h))
        var full: [(x: Int, y: Int)] = []
        for row in 0..<mask.height {
            for col in 0..<mask.width where mask.bytes[row * mask.width + col] == 255 && mask.x + col > x + 3 {
                full.append((col, row))
            }
        }
        try #require(full.count > 20)
        _ = try paint.waitForCapture(image: mask.bounds, "“\(text)” shown in full") { shot in
            full.allSatisfy {
                ScreenCapture.matches(shot.color(x: $0.x, y: $0.y), ink, tolerance: paint.config.tolerance)
            }
        }
    }

    func start(_ config: ServerConfig, _ file: String) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", file], imageWidth: Self.size.w,
            imageHeight: Self.size.h)
    }

    @Test(
        "Typed, put down with a click outside, saved: the PNG holds the typesetter's pixels",
        arguments: ServerConfig.all)
    func typeCommitSave(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("text.png")
        let paint = try start(config, file)
        defer { paint.stop() }
        // Red at 50 %: the text merges at the opacity, like a stroke.
        try paint.key("5")
        try paint.click(.swatch(3))
        try paint.key("t")
        try paint.click(imageX: 30, imageY: 40)
        paint.parkPointer()
        try paint.client.typeText("Hello, SwiftPaint!\nqu")
        try paint.key("BackSpace")
        try paint.client.typeText("ty 42")
        let text = "Hello, SwiftPaint!\nqty 42"
        let red = Palette.colors[3]
        let expected = try Self.expected(text, x: 30, y: 40, color: red, opacity: 0.5)
        // Shown while typing: the window has the text (and the box's frame and caret over it).
        // Every letter shown before the click that puts the box down.
        try Self.waitForText(paint, text, x: 30, y: 40, shownAs: try Self.fullCoverage(red, opacity: 0.5))
        try paint.click(imageX: 380, imageY: 220)
        // Put down: exactly the text, no frame, no caret.
        expectCanvas(paint, equals: expected, "the text put down (\(config))")
        try save(paint)
        let saved = try load(file)
        #expect(saved == expected, "the saved PNG differs from the typesetter's rendering")
        // Real ink: the stems are fully covered, red at half strength over white there.
        let full = try Self.fullCoverage(red, opacity: 0.5).pixel
        #expect(full != Color.white.pixel && saved.pixels.filter { $0 == full }.count > 50)
        #expect(saved[5, 5] == Color.white.pixel)
    }

    @Test(
        "Hebrew typed on a Hebrew layout reads right to left; the box dragged before it is put down; Escape puts a box down"
    )
    func hebrewMovedAndEscaped() throws {
        let dir = try scratchFolder()
        let file = dir.file("hebrew.png")
        let paint = try start(ServerConfig.standard, file)
        defer { paint.stop() }
        try paint.key("t")
        try paint.click(imageX: 40, imageY: 30)
        try paint.client.setKeyboardLayout("il")
        paint.parkPointer()
        for name in ["hebrew_shin", "hebrew_lamed", "hebrew_waw", "hebrew_finalmem"] { try paint.client.key(name) }
        // All four letters shown, in order, before the press: a press in the box moves the caret.
        try Self.waitForText(paint, "שלום", x: 40, y: 30)
        // Drag the box by its frame (3 px left of the text, on the frame's margin: a drag over the
        // text selects) 60 px right and 80 down, then put it down with a tool change.
        try paint.drag(image: line(from: (37, 45), to: (97, 125), step: 5))
        try paint.client.setKeyboardLayout("us")
        // Letters now type into the box: the tool changes on the toolbar.
        try paint.click(.tool(.brush))
        let moved = try Self.expected("שלום", x: 100, y: 110)
        expectCanvas(paint, equals: moved, "the Hebrew text moved and put down")
        // Escape puts a box down, as GIMP's and Paint.NET's do: the text is saved; Ctrl+Z takes
        // it away.
        try paint.key("t")
        try paint.click(imageX: 20, imageY: 150)
        paint.parkPointer()
        try paint.client.typeText("kept")
        let second = IntRect(x: 20, y: 150, width: 120, height: 40)
        try Self.waitForInk(paint, in: second, "the second text")
        try paint.key("Escape")
        try save(paint)
        let kept = try load(file)
        #expect(
            (second.y..<second.maxY).contains { y in
                (second.x..<second.maxX).contains { kept[$0, y] != Color.white.pixel }
            }, "the text Escape put down is saved")
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: moved, "Ctrl+Z after Escape")
        try save(paint)
        #expect(try load(file) == moved)
    }

    @Test(
        "The input method opens at the first key press, not before the first click: a dead key as the program's first key composes é"
    )
    func firstKeyOpensTheInputMethod() throws {
        let file = try scratchFolder().file("first.png")
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", file],
            imageWidth: Self.size.w, imageHeight: Self.size.h, environment: ["SWIFTPAINT_TRACE_STARTUP": "1"])
        defer { paint.stop() }
        try paint.client.setKeyboardLayout("de")
        // Only the pointer first: the text tool from the toolbar, a box on the canvas (its frame
        // and caret show once the click is handled).
        try paint.click(.tool(.text))
        try paint.click(imageX: 30, imageY: 40)
        paint.parkPointer()
        try Self.waitForInk(paint, in: IntRect(x: 20, y: 30, width: 40, height: 40), "the empty box")
        let beforeKeys = paint.app.stderr
        #expect(beforeKeys.contains("startup input ready"), "\(beforeKeys)")
        #expect(!beforeKeys.contains("input method opened"), "opened before any key: \(beforeKeys)")
        // A dead key, then e: composed by the method this very press opened.
        try paint.key("dead_acute")
        try paint.key("e")
        try paint.client.typeText("t")
        try Self.waitForText(paint, "ét", x: 30, y: 40)
        let log = paint.app.stderr
        let ready = try #require(log.range(of: "startup input ready"))
        let opened = try #require(log.range(of: "startup input method opened"), "\(log)")
        #expect(ready.upperBound < opened.lowerBound)
    }

    @Test("kill -9 after the text is put down: the next start restores it pixel for pixel; a box still open is lost")
    func killNineRestoresText() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("k.png")
        let config = ServerConfig.standard
        let arguments = ["--size", "\(Self.size.w)x\(Self.size.h)", file]
        let expected = try Self.expected("Kept after a crash", x: 25, y: 60)
        do {
            let paint = try PaintWindow(
                config, arguments: arguments, imageWidth: Self.size.w, imageHeight: Self.size.h, home: home.path)
            defer { paint.stop() }
            try Self.typeInNewBox(paint, "Kept after a crash", x: 25, y: 60)
            try paint.click(imageX: 400, imageY: 20)
            expectCanvas(paint, equals: expected, "the text put down")
            try RecoveryTests.waitForJournal(home, operations: 1, "the text journaled")
            // A second box, open when the program dies: not put down, so not kept.
            try paint.click(imageX: 30, imageY: 150)
            paint.parkPointer()
            try paint.client.typeText("lost")
            try Self.waitForInk(paint, in: IntRect(x: 30, y: 150, width: 80, height: 40), "the open box")
            paint.app.killAndReap()
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        let paint = try PaintWindow(
            config, arguments: arguments, imageWidth: Self.size.w, imageHeight: Self.size.h, home: home.path,
            firstFrame: [ChromeColors.askFill])
        defer { paint.stop() }
        try paint.waitForStatus(ChromeColors.askFill, "the restore question")
        try paint.key("Return")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Restore")
        expectCanvas(paint, equals: expected, "the restored text")
    }
}

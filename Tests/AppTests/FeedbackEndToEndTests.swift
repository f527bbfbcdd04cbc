import CX11
import Foundation
import PaintApp
import PaintCore
import Testing

/// What the window says back while it is used (issue 17): the picker's color shows in the
/// toolbar at once, the status bar's position follows a drag, and "Saved to …" goes with the
/// next change to the picture.
@Suite("Feedback end to end", .serialized)
struct FeedbackEndToEndTests {
    static let size = (w: 400, h: 300)

    static func start(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> PaintWindow {
        try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "\(size.w)x\(size.h)"] + arguments,
            imageWidth: size.w, imageHeight: size.h, environment: environment)
    }

    /// The front (primary) square of the current-colors button, where the secondary one behind
    /// it does not reach (the button is drawn in a 40 x 40 box: primary at 5…25, secondary at
    /// 15…35).
    static func primarySpot(_ paint: PaintWindow) -> IntRect {
        let r = paint.layout.rect(of: .currentColors)
        return IntRect(x: r.x + r.width * 8 / 40, y: r.y + r.height * 8 / 40, width: 2, height: 2)
    }

    @Test("the picked color shows in the toolbar at once, the pointer still over the canvas")
    func thePickedColorShowsAtOnce() throws {
        let paint = try Self.start()
        defer { paint.stop() }
        let red = Palette.colors[3]
        try paint.click(.swatch(3))
        try paint.drag(image: line(from: (50, 100), to: (350, 100), step: 4))
        _ = try paint.waitForCapture(image: IntRect(x: 200, y: 100, width: 1, height: 1), "the red line") {
            $0.color(x: 0, y: 0) == red
        }
        try paint.click(.swatch(0))
        let spot = Self.primarySpot(paint)
        _ = try paint.client.waitForCapture(paint.window, rect: spot, "black as the primary color") {
            $0.count(of: .black) == 4
        }
        try paint.key("i")
        // A click on the red line, and the pointer stays there: no motion over the toolbar.
        try paint.click(imageX: 200, imageY: 100)
        let shown = try paint.client.waitForCapture(paint.window, rect: spot, "the picked red as the primary color") {
            $0.count(of: red) == 4
        }
        #expect(shown.color(x: 0, y: 0) == red)
        let click = paint.windowPoint(imageX: 200, imageY: 100)
        let pointer = paint.client.pointerPosition()
        #expect(
            pointer.x == paint.client.toScreen(paint.window, x: click.0, y: click.1).x,
            "the pointer is still where it clicked")
    }

    /// The position field: the left end of the status bar, short of the size field after it.
    static func positionField(_ paint: PaintWindow) -> IntRect {
        let bar = paint.layout.statusBar
        return IntRect(x: bar.x + 4, y: bar.y + 3, width: 72, height: bar.height - 6)
    }

    /// Pixels of the capture that are not the status bar's fill: the text's ink.
    static func ink(_ c: ScreenCapture) -> Int {
        c.width * c.height - c.count(of: ChromeColors.statusFill)
    }

    @Test("the position in the status bar follows a drag before the release")
    func thePositionFollowsADrag() throws {
        let paint = try Self.start()
        defer { paint.stop() }
        let field = Self.positionField(paint)
        // Off the picture the field shows a dash, a few pixels of ink.
        paint.parkPointer()
        _ = try paint.client.waitForCapture(paint.window, rect: field, "the dash off the picture") {
            (1...30).contains(Self.ink($0))
        }
        let a = paint.windowPoint(imageX: 20, imageY: 200)
        paint.client.moveMouse(toWindow: paint.window, x: a.0, y: a.1)
        paint.client.press()
        defer { paint.client.release() }
        // Held at (20, 200): the field shows it, digits (the only other thing it can show, as
        // the pointer has not moved since).
        let atA = try paint.client.waitForCapture(paint.window, rect: field, "the position of the press") {
            Self.ink($0) > 100
        }
        // Dragged on, the button still held: the field changes before any release.
        for x in stride(from: 30, through: 310, by: 40) {
            let p = paint.windowPoint(imageX: x, imageY: 200)
            paint.client.moveMouse(toWindow: paint.window, x: p.0, y: p.1)
        }
        _ = try paint.client.waitForCapture(paint.window, rect: field, "the position during the drag") {
            Self.ink($0) > 100 && $0.image != atA.image
        }
        // The drag paints as it goes (the stroke is live, not released).
        _ = try paint.waitForCapture(image: IntRect(x: 310, y: 200, width: 1, height: 1), "the live stroke") {
            $0.color(x: 0, y: 0).brightest < 60
        }
    }

    /// The right end of the status bar, where messages go.
    static func messageArea(_ paint: PaintWindow) -> IntRect {
        let bar = paint.layout.statusBar
        return IntRect(x: bar.maxX - 130, y: bar.y + 3, width: 120, height: bar.height - 6)
    }

    @Test("messages (“Saved to …”) go with the next stroke")
    func theSavedMessageGoesWithTheNextChange() throws {
        let dir = try scratchFolder()
        let file = dir.file("feedback.png")
        let paint = try Self.start([file])
        defer { paint.stop() }
        let area = Self.messageArea(paint)
        let blank = { (c: ScreenCapture) in Self.ink(c) == 0 }
        // A new picture with a name says where Ctrl+S saves it; the first stroke takes that away.
        _ = try paint.client.waitForCapture(paint.window, rect: area, "where Ctrl+S saves, at start") { !blank($0) }
        try paint.drag(image: line(from: (50, 100), to: (350, 100), step: 4))
        try paint.waitForModified(true)
        _ = try paint.client.waitForCapture(paint.window, rect: area, "the message gone after a stroke", until: blank)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
        #expect(FileManager.default.fileExists(atPath: file))
        _ = try paint.client.waitForCapture(paint.window, rect: area, "“Saved to …” in the status bar") { !blank($0) }
        // The next change to the picture takes it away.
        try paint.drag(image: line(from: (50, 200), to: (350, 200), step: 4))
        try paint.waitForModified(true)
        _ = try paint.client.waitForCapture(paint.window, rect: area, "the message gone after the stroke", until: blank)
    }

    @Test("a notice goes by itself a few seconds after it shows, with no input")
    func aNoticeGoesByItself() throws {
        let dir = try scratchFolder()
        // The program's own lifetime (8 s), where the other tests keep notices an hour. Under
        // load this test may first look after the notice has gone, which it cannot tell from a
        // notice never shown: the window is then started again, until the notice has been seen.
        let lifetime = Session.messageLifetime
        var seen = false
        for _ in 0..<3 where !seen {
            let paint = try Self.start(
                [dir.file("notice.png")], environment: ["SWIFTPAINT_NOTICE_SECONDS": String(lifetime)])
            defer { paint.stop() }
            let area = Self.messageArea(paint)
            let blank = { (c: ScreenCapture) in Self.ink(c) == 0 }
            let shown = try? paint.client.waitForCapture(
                paint.window, rect: area, timeout: .seconds(2 * lifetime), "where Ctrl+S saves, at start"
            ) { !blank($0) }
            guard shown != nil else { continue }
            seen = true
            // No input from here on: the window's own timer takes it away (60 s allowed).
            _ = try paint.client.waitForCapture(
                paint.window, rect: area, timeout: .seconds(60), "the notice gone by itself", until: blank)
            #expect(paint.app.isRunning)
        }
        #expect(seen, "the notice of where Ctrl+S saves never showed, in 3 starts")
    }
}

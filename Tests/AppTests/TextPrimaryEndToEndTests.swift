import CX11
import Foundation
import PaintApp
import PaintCore
import PaintText
import Testing
import XDriver

/// The text box's selection in the real window: a double click selects a word and a triple
/// click its line, counted from the X server's times of the clicks (clicks the server spaces
/// more than 400 ms apart start a new count); what is selected is offered as the PRIMARY
/// selection (xclip reads it, as another program's middle click would), and a middle click in
/// the box pastes what another program (xclip) offers as PRIMARY, where it was clicked.
@Suite("Text selections end to end", .serialized)
struct TextPrimaryEndToEndTests: CanvasChecks {
    typealias Text = TextEndToEndTests
    typealias Clip = ClipboardEndToEndTests

    static let typed = "alpha beta\ngamma delta"

    /// Window point of the caret place before scalar `offset` of line `line` of `text` in a box
    /// at image (30, 40), halfway down the line.
    static func point(_ paint: PaintWindow, _ text: String, line: Int, offset: Int) throws -> (Int, Int) {
        let typesetter = try #require(Typesetter())
        let layout = typesetter.layout(text, font: .standard)
        let x = 30 + Int(layout.caret(line: line, offset: offset).x.rounded())
        let y = 40 + layout.lines[line].top + layout.lineHeight / 2
        return paint.windowPoint(imageX: x, imageY: y)
    }

    /// Waits until xclip reads `expected` from PRIMARY; false when it never does.
    func waitForPrimary(_ paint: PaintWindow, _ expected: String, _ last: inout String) -> Bool {
        Wait.until(poll: .milliseconds(50)) {
            guard let read = try? Clip().xclip(paint, ["-selection", "primary", "-t", "UTF8_STRING", "-o"]),
                read.status == .exited(0)
            else { return false }
            last = String(decoding: read.output, as: UTF8.self)
            return last == expected
        }
    }

    @Test(
        "Double and triple clicks by the server's times; the selection is PRIMARY; a middle click pastes PRIMARY",
        arguments: ServerConfig.all)
    func clicksAndPrimary(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("text.png")
        let paint = try Text().start(config, file)
        defer { paint.stop() }
        try Text.typeInNewBox(paint, Self.typed, x: 30, y: 40)
        var last = ""
        // Two clicks on "beta", sent together: a double click, the word.
        let beta = try Self.point(paint, Self.typed, line: 0, offset: 8)
        paint.client.clickRun(paint.window, x: beta.0, y: beta.1, delays: [0, 0])
        #expect(waitForPrimary(paint, "beta", &last), "\(config): PRIMARY after a double click: “\(last)”")
        // Three on "gamma": its line, without the break.
        let gamma = try Self.point(paint, Self.typed, line: 1, offset: 2)
        paint.client.clickRun(paint.window, x: gamma.0, y: gamma.1, delays: [0, 0, 0])
        #expect(waitForPrimary(paint, "gamma delta", &last), "\(config): PRIMARY after a triple click: “\(last)”")
        // On "alpha", the third click 600 ms after the second by the server's clock: a double
        // click (the word), then a single click that puts the caret between "al" and "pha";
        // Shift+End then selects "pha beta" (a triple click would have made it "alpha beta").
        let alpha = try Self.point(paint, Self.typed, line: 0, offset: 2)
        paint.client.clickRun(paint.window, x: alpha.0, y: alpha.1, delays: [0, 0, 600])
        paint.parkPointer()
        try paint.client.key("End", modifiers: [.shift])
        #expect(waitForPrimary(paint, "pha beta", &last), "\(config): PRIMARY after a slow third click: “\(last)”")
        // Another program takes PRIMARY; a middle click before "gamma" pastes its text there.
        let source = dir.file("primary.txt")
        try Data("from afar ".utf8).write(to: URL(fileURLWithPath: source))
        let owner = try Clip().xclip(paint, ["-selection", "primary", "-i", source], background: true)
        defer { owner.child.killAndReap() }
        #expect(waitForPrimary(paint, "from afar ", &last), "xclip never took PRIMARY: “\(last)”")
        let start = try Self.point(paint, Self.typed, line: 1, offset: 0)
        try paint.client.click(paint.window, x: start.0 + 1, y: start.1, button: 2)
        paint.parkPointer()
        let pasted = "alpha beta\nfrom afar gamma delta"
        try Text.waitForText(paint, pasted, x: 30, y: 40)
        // Put down and saved: the typesetter's pixels of that text, the picture not dragged.
        try paint.click(imageX: Text.size.w - 20, imageY: Text.size.h - 20)
        let expected = try Text.expected(pasted, x: 30, y: 40)
        expectCanvas(paint, equals: expected, "\(config): the text with PRIMARY pasted, put down")
        try save(paint)
        #expect(try load(file) == expected)
    }

    /// The window that owns PRIMARY now (0: none).
    static func primaryOwner(_ paint: PaintWindow) -> Window {
        XGetSelectionOwner(paint.client.display, XInternAtom(paint.client.display, "PRIMARY", 0))
    }

    @Test("A cleared selection gives PRIMARY up; one another program took since stays theirs")
    func clearedSelectionGivesPrimaryUp() throws {
        let dir = try scratchFolder()
        let paint = try Text().start(ServerConfig.standard, dir.file("text.png"))
        defer { paint.stop() }
        try Text.typeInNewBox(paint, Self.typed, x: 30, y: 40)
        var last = ""
        let beta = try Self.point(paint, Self.typed, line: 0, offset: 8)
        paint.client.clickRun(paint.window, x: beta.0, y: beta.1, delays: [0, 0])
        #expect(waitForPrimary(paint, "beta", &last), "PRIMARY after a double click: “\(last)”")
        #expect(Self.primaryOwner(paint) == paint.window)
        // A click in the text: nothing selected, and nobody owns PRIMARY (it kept offering
        // "beta"); xclip finds nothing to read.
        let gamma = try Self.point(paint, Self.typed, line: 1, offset: 2)
        try paint.client.click(paint.window, x: gamma.0, y: gamma.1)
        paint.parkPointer()
        try Wait.require("PRIMARY given up after the click (owner \(Self.primaryOwner(paint)))") {
            Self.primaryOwner(paint) == 0
        }
        let read = try Clip().xclip(paint, ["-selection", "primary", "-t", "UTF8_STRING", "-o"])
        #expect(read.status != .exited(0) && read.output.isEmpty, "\(String(decoding: read.output, as: UTF8.self))")
        // Selected again, then taken by xclip; a click that clears the box's selection leaves
        // xclip's text where it is.
        paint.client.clickRun(paint.window, x: beta.0, y: beta.1, delays: [0, 0])
        #expect(waitForPrimary(paint, "beta", &last), "PRIMARY after a second double click: “\(last)”")
        let source = dir.file("primary.txt")
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: source))
        let owner = try Clip().xclip(paint, ["-selection", "primary", "-i", source], background: true)
        defer { owner.child.killAndReap() }
        #expect(waitForPrimary(paint, "theirs", &last), "xclip never took PRIMARY: “\(last)”")
        try paint.client.click(paint.window, x: gamma.0, y: gamma.1)
        paint.parkPointer()
        // Handled: the click's caret is drawn once the window has answered (two round trips).
        try paint.roundTrip()
        #expect(waitForPrimary(paint, "theirs", &last) && Self.primaryOwner(paint) != paint.window, "“\(last)”")
    }
}

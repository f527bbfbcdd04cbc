import CX11
import PaintApp
import PaintCore
import Testing

/// A window manager's `_NET_WM_PING` (does the program still respond?), and what the tests
/// build on it: once the answer is back, the window shows everything the input and exposures
/// before the ping asked for, however far behind a loaded machine left the program.
@Suite("Window-manager ping end to end", .serialized)
struct PingEndToEndTests {
    func start(_ config: ServerConfig) throws -> PaintWindow {
        try PaintWindow(config, arguments: ["--no-journal", "--size", "400x300"], imageWidth: 400, imageHeight: 300)
    }

    @Test(
        "WM_PROTOCOLS offers _NET_WM_PING, answered only after the window shows the stroke sent before it",
        arguments: ServerConfig.all)
    func pingComesBackAfterTheDrawing(config: ServerConfig) throws {
        let paint = try start(config)
        defer { paint.stop() }
        var protocols: UnsafeMutablePointer<Atom>?
        var count: Int32 = 0
        #expect(XGetWMProtocols(paint.client.display, paint.window, &protocols, &count) != 0)
        let offered = protocols.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        if let protocols { XFree(protocols) }
        #expect(offered.contains(paint.client.atom("_NET_WM_PING")), "WM_PROTOCOLS \(offered)")
        #expect(offered.contains(paint.client.atom("WM_DELETE_WINDOW")), "WM_PROTOCOLS \(offered)")

        // Many motion events, each processed by the server before the next is sent; the
        // program may be far behind when the ping goes out.
        let end = (380, 260)
        try paint.drag(image: line(from: (20, 40), to: end, step: 2))
        try paint.roundTrip()
        // One look, no polling: the answer promised the end of the stroke is on screen.
        let shot = try paint.capture(image: IntRect(x: end.0 - 2, y: end.1 - 2, width: 5, height: 5))
        #expect(
            shot.color(x: 2, y: 2).brightest < 100, "\(config): the end of the stroke reads \(shot.color(x: 2, y: 2))")
    }

    @Test("a tooltip over the canvas leaves no trace once it is gone", arguments: ServerConfig.all)
    func tooltipLeavesNoTrace(config: ServerConfig) throws {
        let paint = try start(config)
        defer { paint.stop() }
        let client = paint.client
        let area = paint.layout.canvasArea
        paint.parkPointer()
        try paint.roundTrip()
        let reference = try client.capture(paint.window, rect: area)
        // A tooltip opens below its button: the lowest button's reaches over the canvas area.
        let lowest = try #require(
            Layout.items.filter { paint.layout.rect(of: $0).height > 0 }.max {
                paint.layout.rect(of: $0).maxY < paint.layout.rect(of: $1).maxY
            })
        let button = paint.center(of: lowest)
        client.moveMouse(toWindow: paint.window, x: button.0, y: button.1)
        var tips: [IntRect] = []
        try Wait.require("the tooltip of \(lowest)") {
            tips = WindowSizesEndToEndTests.overrideRedirectWindows(client, besides: paint.window)
            return !tips.isEmpty
        }
        let frame = try #require(client.geometry(paint.window))
        let tip = try #require(tips.first)
        let over = IntRect(x: tip.x - frame.x, y: tip.y - frame.y, width: tip.width, height: tip.height)
        try #require(!over.intersection(area).isEmpty, "the tooltip \(over) lies over the canvas area \(area)")
        // Mapped is not yet drawn: the tooltip's pixels follow its map request.
        let shows = Wait.until { (try? client.capture(paint.window, rect: area))?.image != reference.image }
        #expect(shows, "the tooltip shows over the canvas area")

        // Away from the swatch the tooltip goes, and the canvas area under it is drawn again.
        paint.parkPointer()
        try paint.roundTrip()
        #expect(WindowSizesEndToEndTests.overrideRedirectWindows(client, besides: paint.window).isEmpty)
        let after = try client.capture(paint.window, rect: area)
        #expect(
            differences(screen: after, file: reference.image).isEmpty,
            "\(config): where the tooltip was:\n\(differences(screen: after, file: reference.image).joined(separator: "\n"))"
        )
    }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

/// The menu bar, the zoom presets and the keys and About panels under Xvfb, driven by the keys
/// and the pointer as a user would.
@Suite("Menus end to end", .serialized)
struct MenuEndToEndTests {
    static var config: ServerConfig { .standard }
    /// The panels' light fill.
    static let panelFill = Color(r: 0xFA, g: 0xFA, b: 0xFB)

    /// A picture larger than the window with one black pixel, at (400, 250): in view at 100 %,
    /// and still at 150 % about the canvas centre. Opened at 100 % (the default, written into the
    /// settings too) unless `fitted` (`large-pictures = fitted`).
    func start(
        _ dir: TemporaryDirectory, width: Int = 1400, height: Int = 1000, fitted: Bool = false
    ) throws -> PaintWindow {
        try openLargePictures(fitted: fitted, home: dir.path)
        let file = dir.file("dot.png")
        var image = PixelImage(width: width, height: height, fill: Color(r: 220, g: 20, b: 20).pixel)
        image[400, 250] = Color.black.pixel
        try ImageFile.save(image, to: file, withAlpha: false)
        return try PaintWindow(
            Self.config, arguments: ["--no-journal", file], imageWidth: width, imageHeight: height, home: dir.path)
    }

    @Test("F10, Right to View, Enter: Zoom In shows the picture at 150 %, about the canvas centre")
    func keyboardMenu() throws {
        let dir = try scratchFolder()
        let paint = try start(dir)
        defer { paint.stop() }
        try paint.key("F10")
        try paint.key("Right", times: 3)
        try paint.key("Return")
        let area = paint.layout.canvasArea
        let zoomed = paint.layout.zoomed(
            to: Zoom(3, 2), keepingWindowX: area.x + area.width / 2, y: area.y + area.height / 2)
        let dot = zoomed.windowRect(forImageRect: IntRect(x: 400, y: 250, width: 1, height: 1))
        #expect(dot.width >= 1 && dot.height >= 1)
        // The window pixels that take their color from the dot: those whose centre falls on it.
        var showing = 0
        for y in dot.y..<dot.maxY {
            for x in dot.x..<dot.maxX {
                let p = zoomed.imagePoint(windowX: x, windowY: y)
                if Int(p.x.rounded(.down)) == 400 && Int(p.y.rounded(.down)) == 250 { showing += 1 }
            }
        }
        #expect(showing >= 1)
        _ = try paint.client.waitForCapture(paint.window, rect: dot, "the dot at 150 % (\(showing) pixels)") {
            $0.count(of: .black) == showing
        }
        #expect(paint.app.isRunning)
    }

    @Test("F1 shows the keys over the canvas, Escape closes them; Alt+H, A shows About, Enter closes it")
    func panels() throws {
        let dir = try scratchFolder()
        let paint = try start(dir)
        defer { paint.stop() }
        let area = paint.layout.canvasArea
        let middle = IntRect(x: area.x + area.width / 2 - 20, y: area.y + area.height / 2 - 20, width: 40, height: 40)
        func waitForPanel(_ shown: Bool, _ what: String) throws {
            _ = try paint.client.waitForCapture(paint.window, rect: middle, what) {
                ($0.count(of: Self.panelFill) > 800) == shown
            }
        }
        try paint.key("F1")
        try waitForPanel(true, "the keys panel")
        try paint.key("Escape")
        try waitForPanel(false, "the keys panel closed")
        try paint.key("h", modifiers: [.alt])
        try paint.key("a")
        try waitForPanel(true, "the About panel")
        try paint.key("Return")
        try waitForPanel(false, "the About panel closed")
    }

    @Test("the zoom field in the status bar opens the presets; Fit to Window shows the whole picture")
    func zoomField() throws {
        let dir = try scratchFolder()
        let paint = try start(dir)
        defer { paint.stop() }
        #expect(paint.layout.verticalScrollbar != nil, "the picture is larger than the window")
        // The field is the white box in the status bar (its place depends on the font).
        let bar = paint.layout.statusBar
        let row = try paint.client.capture(
            paint.window, rect: IntRect(x: 0, y: bar.y + bar.height / 2, width: bar.width, height: 1))
        let whites = (0..<row.width).filter { row.color(x: $0, y: 0) == .white }
        let x = try #require(whites.first, "a white box in the status bar")
        try paint.client.click(paint.window, x: x + 10, y: bar.y + bar.height / 2)
        // The presets open above the field; End goes to Fit to Window.
        _ = try paint.client.waitForCapture(
            paint.window, rect: IntRect(x: x + 5, y: bar.y - 30, width: 20, height: 20), "the presets above the field"
        ) { $0.count(of: .white) > 200 }
        try paint.key("End")
        try paint.key("Return")
        try expectFitted(paint)
    }

    /// Waits until the window shows the picture of `start` whole at the fit zoom: the dot where
    /// the fitted layout puts it, the gray surround past the picture's edge, no scrollbars.
    /// `layout` is the window's at its size now (the size it started with by default).
    func expectFitted(_ paint: PaintWindow, in layout: Layout? = nil) throws {
        let layout = layout ?? paint.layout
        let fitted = layout.zoomed(to: layout.fitZoom(), keepingWindowX: 0, y: layout.canvasArea.y)
        #expect(fitted.verticalScrollbar == nil && fitted.horizontalScrollbar == nil)
        let dot = fitted.windowRect(forImageRect: IntRect(x: 400, y: 250, width: 1, height: 1))
        _ = try paint.client.waitForCapture(paint.window, rect: dot, "the dot, the picture fitted") {
            $0.count { $0.r < 200 } > 0
        }
        let corner = fitted.visibleImage
        let outside =
            corner.x > fitted.canvasArea.x
            ? IntRect(x: corner.x - 2, y: corner.y + 5, width: 1, height: 1)
            : IntRect(x: corner.x + 5, y: corner.y - 2, width: 1, height: 1)
        _ = try paint.client.waitForCapture(paint.window, rect: outside, "the gray around the fitted picture") {
            $0.color(x: 0, y: 0) == Theme.surround
        }
    }

    @Test("with Open Large Pictures Fitted remembered, a start shows a large picture whole, fitted again on resizes")
    func fittedFollowsTheWindowsSize() throws {
        let dir = try scratchFolder()
        let paint = try start(dir, fitted: true)
        defer { paint.stop() }
        try expectFitted(paint)
        for (width, height) in [(800, 600), (1000, 740)] {
            XResizeWindow(paint.client.display, paint.window, UInt32(width), UInt32(height))
            paint.client.sync()
            try Wait.require("the window at \(width) x \(height)") {
                paint.client.geometry(paint.window).map { $0.width == width && $0.height == height } ?? false
            }
            let layout = Layout(windowWidth: width, windowHeight: height, imageWidth: 1400, imageHeight: 1000)
            #expect(layout.fitZoom() != paint.layout.fitZoom(), "\(width) x \(height) fits as the start did")
            try expectFitted(paint, in: layout)
        }
        #expect(paint.app.isRunning)
    }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// The window at the sizes and interface scales the program supports, under Xvfb: the scale
/// read from `Xft.dpi` (or `SWIFTPAINT_SCALE`), the toolbar reflowed at 640 x 480, 800 x 600 and
/// 1024 x 768 with no control over another (from `Layout`, and on screen where `Layout` says),
/// the minimum size asked of the window manager, and the scrollbars working.
@Suite("Window sizes and scales end to end", .serialized)
struct WindowSizesEndToEndTests {
    /// A picture larger than every window here, each pixel a color that says where it is.
    static let size = (w: 2400, h: 1600)
    static func color(x: Int, y: Int) -> Color {
        Color(r: UInt8(y & 0xFF), g: UInt8(x & 0xFF), b: UInt8((x >> 8) << 4 | (y >> 8)))
    }

    /// Chrome colors the checks look for (the program's `Theme` keeps them internal).
    enum Colors {
        static let floppy = Color(r: 0x3F, g: 0x6F, b: 0xB5)
        static let activeFill = Color(r: 0xCC, g: 0xDE, b: 0xF6)
        static let thumb = Color(r: 0xB4, g: 0xB8, b: 0xBE)
        static let thumbDragged = Color(r: 0x7E, g: 0x84, b: 0x8C)
    }

    /// Every region that must not overlap another: the toolbar controls' hit areas, the canvas,
    /// the scrollbars and the status bar.
    static func overlaps(_ layout: Layout) -> [String] {
        var regions = layout.controls.items.map { ("\($0)", layout.controls.hitRect(of: $0)) }
        regions += [("menu bar", layout.menuBar), ("canvas", layout.canvasArea), ("status bar", layout.statusBar)]
        if let bar = layout.horizontalScrollbar { regions.append(("horizontal scrollbar", bar.track)) }
        if let bar = layout.verticalScrollbar { regions.append(("vertical scrollbar", bar.track)) }
        var found: [String] = []
        for (i, a) in regions.enumerated() {
            if IntRect(x: 0, y: 0, width: layout.windowWidth, height: layout.windowHeight).intersection(a.1) != a.1 {
                found.append("\(a.0) leaves the window")
            }
            for b in regions[(i + 1)...] where !a.1.intersection(b.1).isEmpty { found.append("\(a.0) and \(b.0)") }
        }
        return found
    }

    /// Puts `Xft.dpi` into the server's resource database, as a desktop session does with xrdb.
    static func setXftDPI(_ dpi: Int, on client: XClient) {
        let text = Array("Xft.antialias:\t1\nXft.dpi:\t\(dpi)\n".utf8)
        text.withUnsafeBufferPointer {
            _ = XChangeProperty(
                client.display, client.root, XA_RESOURCE_MANAGER, XA_STRING, 8, PropModeReplace, $0.baseAddress,
                Int32($0.count))
        }
        client.sync()
    }

    /// The minimum size the window asks for (WM_NORMAL_HINTS).
    static func minimumSize(_ client: XClient, _ window: Window) -> (Int, Int)? {
        var hints = XSizeHints()
        var supplied = 0
        guard XGetWMNormalHints(client.display, window, &hints, &supplied) != 0, hints.flags & PMinSize != 0 else {
            return nil
        }
        return (Int(hints.min_width), Int(hints.min_height))
    }

    @Test(
        "1x and 2x from Xft.dpi, 1.5x from SWIFTPAINT_SCALE: at 640 x 480, 800 x 600, 1024 x 768 nothing overlaps and the window draws where Layout says",
        arguments: [(1.0, 96, false), (2.0, 192, false), (1.5, 192, true)])
    func sizesAndScales(scale: Double, dpi: Int, override: Bool) throws {
        let dir = try scratchFolder()
        let picture = dir.file("big.png")
        var image = PixelImage(width: Self.size.w, height: Self.size.h)
        for y in 0..<Self.size.h {
            for x in 0..<Self.size.w { image[x, y] = Self.color(x: x, y: y).pixel }
        }
        try ImageFile.save(image, to: picture, withAlpha: false)
        try openLargePicturesAtActualSize(home: dir.path)
        let ui = UIScale(scale)
        let session = try AppSession(
            arguments: ["--no-journal", picture], screenWidth: 2200, screenHeight: 1700,
            environment: override ? ["SWIFTPAINT_SCALE": String(scale)] : [:], home: dir.path,
            prepare: { Self.setXftDPI(dpi, on: $0) })
        defer { session.stop() }
        let client = session.client
        let window = session.window

        let minimum = Self.minimumSize(client, window)
        #expect(
            minimum.map { [$0.0, $0.1] } == [ui.px(640), ui.px(480)],
            "WM_NORMAL_HINTS minimum \(String(describing: minimum))")

        for (w, h) in [(640, 480), (800, 600), (1024, 768)] {
            let width = ui.px(Double(w))
            let height = ui.px(Double(h))
            XResizeWindow(client.display, window, UInt32(width), UInt32(height))
            client.sync()
            try Wait.require("the window at \(width) x \(height)") {
                client.geometry(window).map { $0.width == width && $0.height == height } ?? false
            }
            let layout = Layout(
                windowWidth: width, windowHeight: height, imageWidth: Self.size.w, imageHeight: Self.size.h, ui: ui)
            let what = "\(w) x \(h) at \(ui)"
            #expect(Self.overlaps(layout).isEmpty, "\(what): \(Self.overlaps(layout))")
            #expect(layout.controls.rows == (w >= 1024 ? 1 : 2), "\(what)")

            // Polled: the window redraws after the resize in its own time. The status bar's top
            // line where the layout puts it; the picture's top-left pixel at the canvas corner.
            let status = layout.statusBar
            _ = try client.waitForCapture(
                window, rect: IntRect(x: status.x + 3, y: status.y + ui.px(4), width: 1, height: 1),
                "\(what): the status bar"
            ) { $0.color(x: 0, y: 0) == ChromeColors.statusFill }
            let area = layout.canvasArea
            _ = try client.waitForCapture(
                window, rect: IntRect(x: area.x, y: area.y, width: 1, height: 1), "\(what): the canvas corner"
            ) { $0.color(x: 0, y: 0) == Self.color(x: 0, y: 0) }
            // The save button's floppy where the layout puts it, drawn at the scale.
            let save = layout.rect(of: .save)
            _ = try client.waitForCapture(window, rect: save, "\(what): the floppy at \(save)") {
                $0.count(of: Colors.floppy, tolerance: 2) > save.width * save.height / 14
            }
            // The scrollbars' thumbs.
            for bar in [layout.horizontalScrollbar, layout.verticalScrollbar] {
                let thumb = try #require(bar?.thumb, "\(what): both scrollbars")
                let middle = IntRect(x: thumb.x + thumb.width / 2, y: thumb.y + thumb.height / 2, width: 1, height: 1)
                _ = try client.waitForCapture(window, rect: middle, "\(what): a thumb at \(thumb)") {
                    $0.color(x: 0, y: 0) == Colors.thumb
                }
            }
            // A click where the layout puts the line tool selects it.
            let line = layout.rect(of: .tool(.line))
            try client.click(window, x: line.x + line.width / 2, y: line.y + line.height / 2)
            _ = try client.waitForCapture(
                window, rect: IntRect(x: line.x + line.width / 2, y: line.y + ui.px(3), width: 1, height: 1),
                "\(what): the line tool selected"
            ) { $0.color(x: 0, y: 0) == Colors.activeFill }
            client.moveMouse(toWindow: window, x: area.x + 5, y: area.y + 5)
            try client.key("b")
        }

        // Drag the vertical thumb down: the picture follows it.
        let layout = Layout(
            windowWidth: ui.px(1024), windowHeight: ui.px(768), imageWidth: Self.size.w, imageHeight: Self.size.h,
            ui: ui)
        let bar = try #require(layout.verticalScrollbar)
        let delta = ui.px(60)
        let start = (bar.thumb.x + bar.thumb.width / 2, bar.thumb.y + bar.thumb.height / 2)
        let path = (0...6).map { (start.0, start.1 + delta * $0 / 6) }
        try client.drag(window, path: path)
        let scrolled = bar.offset(from: 0, draggedBy: delta)
        let area = layout.canvasArea
        _ = try client.waitForCapture(
            window, rect: IntRect(x: area.x, y: area.y, width: 1, height: 1), "the picture scrolled by the thumb"
        ) { $0.color(x: 0, y: 0) == Self.color(x: 0, y: scrolled) }
        // A click on the track below the thumb: a page further down; above it, a page back up.
        let dragged = layout.scrolled(toX: 0, y: scrolled)
        let after = try #require(dragged.verticalScrollbar)
        try client.click(window, x: after.track.x + after.track.width / 2, y: after.track.maxY - ui.px(3))
        let paged = min(scrolled + after.page, after.maximumOffset)
        #expect(paged > scrolled)
        _ = try client.waitForCapture(
            window, rect: IntRect(x: area.x, y: area.y, width: 1, height: 1), "a page down from a click on the track"
        ) { $0.color(x: 0, y: 0) == Self.color(x: 0, y: paged) }
        let down = try #require(dragged.scrolled(toX: 0, y: paged).verticalScrollbar)
        #expect(down.thumb.y > down.track.y + ui.px(3), "room above the thumb")
        try client.click(window, x: down.track.x + down.track.width / 2, y: down.track.y + ui.px(3))
        _ = try client.waitForCapture(
            window, rect: IntRect(x: area.x, y: area.y, width: 1, height: 1), "a page back up"
        ) { $0.color(x: 0, y: 0) == Self.color(x: 0, y: max(0, paged - down.page)) }
        #expect(session.app.isRunning)
    }

    /// The top-level windows on the screen that are shown and placed by their program
    /// (override-redirect: tooltips), other than `window`.
    static func overrideRedirectWindows(_ client: XClient, besides window: Window) -> [IntRect] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(client.display, client.root, &rootReturn, &parent, &children, &count) != 0, let children
        else { return [] }
        defer { XFree(children) }
        return (0..<Int(count)).map { children[$0] }.filter { w in
            w != window && client.attributes(w).map { $0.map_state == IsViewable && $0.override_redirect != 0 } ?? false
        }.compactMap { client.geometry($0) }
    }

    @Test("a tooltip for a button at the screen's right edge stays on the screen, below the button")
    func tooltipAtTheEdge() throws {
        let dir = try scratchFolder()
        let screen = (w: 1600, h: 1200)
        let session = try AppSession(
            arguments: ["--no-journal", "--size", "400x300"], screenWidth: screen.w, screenHeight: screen.h,
            home: dir.path)
        defer { session.stop() }
        let client = session.client
        let window = session.window
        let size = try #require(client.geometry(window))
        // No window manager: the window goes where it is told, flush with the right edge.
        XMoveWindow(client.display, window, Int32(screen.w - size.width), 0)
        client.sync()
        try Wait.require("the window at the right edge") {
            client.geometry(window).map { $0.x == screen.w - size.width } ?? false
        }
        let layout = Layout(windowWidth: size.width, windowHeight: size.height, imageWidth: 400, imageHeight: 300)
        let save = layout.rect(of: .save)
        #expect(save.maxX > size.width - 60, "the save button is the rightmost control")
        client.moveMouse(toWindow: window, x: save.x + save.width / 2, y: save.y + save.height / 2)
        var tips: [IntRect] = []
        try Wait.require("a tooltip over the save button") {
            tips = Self.overrideRedirectWindows(client, besides: window)
            return !tips.isEmpty
        }
        let tip = try #require(tips.first)
        #expect(tip.x >= 0 && tip.maxX <= screen.w, "the tooltip \(tip) on the \(screen.w) px screen")
        #expect(tip.y >= save.maxY, "below the button")
        #expect(size.width - save.x < tip.width, "put where the button starts, it would leave the screen")
    }
}

import PaintCore
import Testing
import XDriver

/// Motion as fast as XTest can send it: the program takes what has arrived as one batch and
/// shows it with one put, and while the pointer moves it redraws the status bar's position slot
/// alone. Every event still lands, on screen and in the saved file, and the bar the slot
/// redraws leave is the bar a whole redraw makes.
@Suite("Bursts of motion end to end", .serialized)
struct BurstEndToEndTests: CanvasChecks {
    static let size = (w: 400, h: 300)
    /// Where both bursts end: below the teeth, a position shorter to write than the ones before
    /// it ("8, 290" after "390, 290"), so digits a slot redraw failed to clear would show.
    static let end = (8, 290)

    /// A row of teeth from x 40 to 380 on `base`: 2 px across and 6 px up or down per event,
    /// 24 px high, a tip every fourth event; then `via` (right of the teeth, so the jump paints
    /// none of them) and `end`. Returns the path and its tips.
    static func teeth(base: Int, via: (Int, Int)) -> (path: [(Int, Int)], tips: [(Int, Int)]) {
        var path: [(Int, Int)] = []
        var tips: [(Int, Int)] = []
        for (i, x) in stride(from: 40, through: 380, by: 2).enumerated() {
            let phase = i % 8
            let point = (x, base + 6 * (phase <= 4 ? phase : 8 - phase))
            path.append(point)
            if phase % 4 == 0 { tips.append(point) }
        }
        return (path + [via, end], tips)
    }

    /// Image pixels among `tips` that are not dark in `read` (x, y → color): a motion event
    /// that was dropped or merged would leave its tooth's tip white (the brush, 5 px wide,
    /// passes 6 px away from it when the corner is cut).
    static func unpainted(_ tips: [(Int, Int)], _ read: (Int, Int) -> Color) -> [(Int, Int)] {
        tips.filter { read($0.0, $0.1).brightest >= 100 }
    }

    /// Sends `path` as a drag without waiting for the server between events (XTest as fast as
    /// Xlib writes); `release` false keeps the button down at the last point.
    static func burst(_ paint: PaintWindow, _ path: [(Int, Int)], release: Bool) {
        let o = paint.layout.imageOrigin
        paint.client.waitsForServer = false
        defer {
            paint.client.waitsForServer = true
            paint.client.sync()
        }
        paint.client.moveMouse(toWindow: paint.window, x: o.x + path[0].0, y: o.y + path[0].1)
        paint.client.press()
        for (x, y) in path.dropFirst() { paint.client.moveMouse(toWindow: paint.window, x: o.x + x, y: o.y + y) }
        if release { paint.client.release() }
    }

    @Test(
        "a burst of motion paints every event, on screen and in the saved PNG; the status bar its position redraws leave is the bar redrawn whole",
        arguments: ServerConfig.all)
    func aBurstLandsWholeAndTheStatusBarMatchesAWholeRedraw(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("burst.png")
        let paint = try PaintWindow(
            config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", file], imageWidth: Self.size.w,
            imageHeight: Self.size.h)
        defer { paint.stop() }
        let endSpot = IntRect(x: Self.end.0, y: Self.end.1, width: 1, height: 1)
        let screen = { (shot: ScreenCapture) in { (x: Int, y: Int) in shot.color(x: x, y: y) } }

        // The first burst, released at the end point: the release marks the picture modified,
        // which redraws the whole status bar with the pointer there.
        let first = Self.teeth(base: 40, via: (385, 260))
        Self.burst(paint, first.path, release: true)
        try paint.waitForModified(true)
        _ = try paint.waitForCapture(image: endSpot, "the first burst's end point") {
            $0.color(x: 0, y: 0).brightest < 100
        }
        let whole = try paint.client.capture(paint.window, rect: paint.layout.statusBar)
        let canvas = try paint.captureCanvas()
        #expect(Self.unpainted(first.tips, screen(canvas)).isEmpty, "\(config): tips of the first burst left white")

        // The second burst ends at the same point with the button held, its last jump along the
        // bottom: once that is painted every event has been drawn, and since the press only the
        // position's slot has been redrawn (through positions as wide as "380, 174"). The bar
        // must come to read as the whole redraw did, pixel for pixel.
        let second = Self.teeth(base: 150, via: (390, 290))
        Self.burst(paint, second.path, release: false)
        let lastJump = IntRect(x: 199, y: 290, width: 1, height: 1)
        _ = try paint.waitForCapture(image: lastJump, "the second burst's last jump") {
            $0.color(x: 0, y: 0).brightest < 100
        }
        var held: ScreenCapture?
        let same = try Wait.until(poll: .milliseconds(20)) {
            held = try paint.client.capture(paint.window, rect: paint.layout.statusBar)
            return held?.image == whole.image
        }
        #expect(same, "\(config): the status bar after the slot's redraws differs from the bar redrawn whole")
        if !same, let held {
            let differing = (0..<whole.image.pixels.count).filter { held.image.pixels[$0] != whole.image.pixels[$0] }
            Issue.record(
                "\(differing.count) pixels differ, the first at x \(differing.first.map { $0 % whole.width } ?? -1)")
        }
        paint.client.release()
        paint.client.sync()
        let after = try paint.captureCanvas()
        #expect(Self.unpainted(second.tips, screen(after)).isEmpty, "\(config): tips of the second burst left white")

        try save(paint)
        let png = try load(file)
        let fromFile = { (x: Int, y: Int) -> Color in
            let p = Pixel.unpack(png[x, y])
            return Color(r: p.r, g: p.g, b: p.b)
        }
        #expect(Self.unpainted(first.tips + second.tips, fromFile).isEmpty, "tips left white in the saved PNG")
        #expect(fromFile(Self.end.0, Self.end.1).brightest < 100)
    }

    /// paint-bench x11's fidelity zigzag on this canvas: rows of tips 6 px apart bouncing 12 px,
    /// serpentine, 2,377 events with no wait between them, so the program reads hundreds in one
    /// turn (more stroke pieces than the engine gathers before it stamps some early). Every tip
    /// must show in the window while the button is still down, and again after the release.
    @Test(
        "a long zigzag burst shows every tip while the button is held and after the release",
        arguments: ServerConfig.all)
    func aLongZigzagBurstShowsEveryTip(config: ServerConfig) throws {
        let paint = try PaintWindow(
            config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"], imageWidth: Self.size.w,
            imageHeight: Self.size.h)
        defer { paint.stop() }
        var tips: [(Int, Int)] = []
        for row in 0..<13 {
            let top = 20 + row * 21
            for k in 0..<61 {
                let x = row % 2 == 0 ? 20 + k * 6 : 20 + (60 - k) * 6
                tips.append((x, k % 2 == 0 ? top : top + 12))
            }
        }
        // Two samples on the straight way from each tip to the next: more events (2,377) without
        // rounding the tips.
        var path = [tips[0]]
        for (a, b) in zip(tips, tips.dropFirst()) {
            path += [
                (a.0 + (b.0 - a.0) / 3, a.1 + (b.1 - a.1) / 3), (a.0 + 2 * (b.0 - a.0) / 3, a.1 + 2 * (b.1 - a.1) / 3),
                b,
            ]
        }
        // The last move goes to a spot no tip's stroke reaches: once it shows, every event before
        // it has been drawn.
        let end = (392, 294)
        Self.burst(paint, path + [end], release: false)
        _ = try paint.waitForCapture(image: IntRect(x: end.0, y: end.1, width: 1, height: 1), "the burst's last move") {
            $0.color(x: 0, y: 0).brightest < 100
        }
        let screen = { (shot: ScreenCapture) in { (x: Int, y: Int) in shot.color(x: x, y: y) } }
        let held = Self.unpainted(tips, screen(try paint.captureCanvas()))
        #expect(
            held.count == 0, "\(config): tips white with the button held, the first \(held.first.map { "\($0)" } ?? "")"
        )
        paint.client.release()
        try paint.waitForModified(true)
        let released = Self.unpainted(tips, screen(try paint.captureCanvas())).count
        #expect(released == 0, "\(config): tips white after the release")
    }
}

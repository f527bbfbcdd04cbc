import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// One X server configuration the drawing tests run on.
struct ServerConfig: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    let depth: Int
    let shm: Bool

    /// Depth 24 with MIT-SHM, depth 24 without it (`-extension MIT-SHM`), and depth 16.
    static let all = [
        ServerConfig(depth: 24, shm: true),
        ServerConfig(depth: 24, shm: false),
        ServerConfig(depth: 16, shm: true),
    ]

    /// Depth 24, with MIT-SHM or without it as `MITSHMChoice` decides for the running test: what
    /// a test that is not about the server's depth or transport runs on.
    static var standard: ServerConfig { ServerConfig(depth: 24, shm: MITSHMChoice.offered()) }

    var description: String { "depth \(depth)\(shm ? " + MIT-SHM" : ", no MIT-SHM")" }
    var testDescription: String { description }

    /// Per-channel tolerance for comparing on-screen colors with 8-bit colors (5-6-5 at depth 16).
    var tolerance: Int { depth == 16 ? 8 : 0 }
}

/// Colors of the chrome the tests look at (the program's `Theme` keeps them internal).
enum ChromeColors {
    /// The status bar in normal mode.
    static let statusFill = Color(r: 0xEE, g: 0xEF, b: 0xF1)
    /// The status bar while it asks something (close question, file-name prompt).
    static let askFill = Color(r: 0xFF, g: 0xF4, b: 0xC8)
    /// The 1-px border of the panels (the file dialog's runs round it).
    static let panelBorder = Color(r: 0xC4, g: 0xC6, b: 0xCA)
}

/// A running `swiftpaint` on a private Xvfb, with the geometry to aim at the canvas and toolbar.
///
/// Everything is in window coordinates unless a name says "image": image pixel (x, y) is at
/// window pixel `layout.imageOrigin + (x, y)`, and the program maps window pixel (wx, wy) to the
/// image point (wx - ox + 0.5, wy - oy + 0.5).
final class PaintWindow {
    let config: ServerConfig
    let session: AppSession
    let layout: Layout
    var client: XClient { session.client }
    var window: Window { session.window }
    var app: AppProcess { session.app }

    /// Starts swiftpaint with `arguments` on a fresh server of `config` and waits for its first
    /// complete frame (status bar drawn, which comes after the canvas in the same present).
    /// `executable` starts it through another program (strace, whose `-D` keeps swiftpaint the
    /// process started, so its window is found by its pid).
    init(
        _ config: ServerConfig, executable: String? = nil, arguments: [String], imageWidth: Int, imageHeight: Int,
        home: String? = nil, firstFrame: [Color] = [ChromeColors.statusFill], environment: [String: String] = [:]
    ) throws {
        self.config = config
        // SWIFTPAINT_DEBUG=1 makes swiftpaint log how it draws (MIT-SHM or XPutImage), so the
        // tests can tell that each configuration really takes its path.
        session = try AppSession(
            executable: executable, arguments: arguments, screenWidth: 1024, screenHeight: 768, depth: config.depth,
            shm: config.shm, environment: environment.merging(["SWIFTPAINT_DEBUG": "1"]) { $1 }, home: home)
        guard session.client.depth == config.depth, session.client.hasMITSHM == config.shm else {
            throw HarnessError.xRequestFailed(
                "the server is not \(config): depth \(session.client.depth), MIT-SHM \(session.client.hasMITSHM)")
        }
        guard let frame = session.client.geometry(session.window) else {
            throw HarnessError.captureFailed("no geometry for the swiftpaint window")
        }
        layout = Layout(
            windowWidth: frame.width, windowHeight: frame.height, imageWidth: imageWidth,
            imageHeight: imageHeight)
        // Only a barrier (the canvas is blitted before the chrome in the same present), so a
        // loose tolerance: wrong colors are for the tests to report, not for this wait.
        // `firstFrame` lists the status bar colors the first frame may have (a start that offers
        // to restore a crashed drawing opens with the yellow question).
        try waitForStatus(anyOf: firstFrame, "the first frame (status bar drawn)", tolerance: 40)
        // The transport line, when the program prints one, must match the server.
        if let transport = app.stderr.split(separator: "\n").first(where: { $0.contains("drawing through") }) {
            #expect(
                transport.contains("XPutImage") == !config.shm,
                "\(config): \(transport)")
        }
    }

    /// What the program wrote to stderr, without its debug lines about the transport and about
    /// the display's frames (`PacedMotionEndToEndTests`).
    var stderrWithoutTransport: String {
        app.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("drawing through") && !$0.contains("input paced by the display's frames") }
            .joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() { session.stop() }

    // MARK: Geometry

    /// Window coordinates of image pixel (x, y).
    func windowPoint(imageX x: Int, imageY y: Int) -> (Int, Int) {
        let o = layout.imageOrigin
        return (o.x + x, o.y + y)
    }

    /// The centre of a toolbar item.
    func center(of item: ToolbarItem) -> (Int, Int) {
        let r = layout.rect(of: item)
        return (r.x + r.width / 2, r.y + r.height / 2)
    }

    // MARK: Input

    /// Moves the pointer into the window over the gray surround left of the image: keys go to
    /// the window under the pointer (no window manager), and nothing there shows a tooltip or
    /// paints.
    func parkPointer() {
        client.moveMouse(toWindow: window, x: parkedPointer.x, y: parkedPointer.y)
    }

    /// Where `parkPointer` puts the pointer (a zoom key keeps the picture under it still).
    var parkedPointer: (x: Int, y: Int) {
        let area = layout.canvasArea
        return layout.imageOrigin.x > 12 ? (4, area.y + 4) : (area.x + 4, area.maxY - 4)
    }

    /// Presses a key (by keysym name) with the pointer parked inside the window.
    func key(_ name: String, modifiers: KeyModifiers = [], times: Int = 1) throws {
        parkPointer()
        for _ in 0..<times { try client.key(name, modifiers: modifiers) }
    }

    /// A drag through image coordinates, one motion event per point.
    func drag(image path: [(Int, Int)], button: UInt32 = 1) throws {
        let o = layout.imageOrigin
        try client.drag(window, path: path.map { ($0.0 + o.x, $0.1 + o.y) }, button: button)
    }

    /// A click on image pixel (x, y) without motion.
    func click(imageX x: Int, imageY y: Int, button: UInt32 = 1) throws {
        let p = windowPoint(imageX: x, imageY: y)
        try client.click(window, x: p.0, y: p.1, button: button)
    }

    /// Clicks a toolbar item, then parks the pointer (so no tooltip pops up over the canvas).
    func click(_ item: ToolbarItem, button: UInt32 = 1, atX x: Int? = nil) throws {
        let c = center(of: item)
        try client.click(window, x: x ?? c.0, y: c.1, button: button)
        parkPointer()
    }

    // MARK: Reading back

    /// Captures image pixels `rect` (image coordinates) from the screen.
    func capture(image rect: IntRect) throws -> ScreenCapture {
        try client.capture(window, rect: layout.windowRect(forImageRect: rect))
    }

    /// Polls captures of image pixels `rect` until `predicate` holds; returns that capture.
    func waitForCapture(
        image rect: IntRect, _ what: @autoclosure () -> String, until predicate: (ScreenCapture) -> Bool
    ) throws -> ScreenCapture {
        do {
            return try client.waitForCapture(
                window, rect: layout.windowRect(forImageRect: rect), what(), until: predicate)
        } catch {
            throw explained(error)
        }
    }

    /// `error`, or a clearer one when the cause is that the program is gone.
    func explained(_ error: Error) -> Error {
        // A window that vanished under a capture: give an exiting program a moment to finish.
        guard app.waitForExit(timeout: .seconds(2)) != nil else { return error }
        return HarnessError.timedOut("swiftpaint, which exited unexpectedly (\(error))\n\(app.outputSummary)")
    }

    /// The whole image as shown once the program has drawn everything it was sent so far.
    ///
    /// A pixel the test waited for proves only that its own part of the window is drawn: a
    /// tooltip that popped up over the canvas while the machine was slow and was then taken
    /// away leaves its pixels until the program handles the exposure. The round trip
    /// (`_NET_WM_PING`, answered after the program presents) waits for that, however loaded
    /// the machine is.
    func captureCanvas() throws -> ScreenCapture {
        try roundTrip()
        return try client.capture(window, rect: layout.visibleImage)
    }

    /// Waits until the program has handled and drawn every event sent to it so far (input,
    /// exposures): `XClient.roundTrip`, twice. The first answer means the input is handled
    /// and drawn; what the program did about it may have exposed part of its window (a
    /// tooltip unmapped), and the second answer comes after that exposure is drawn too.
    func roundTrip() throws {
        do {
            try client.roundTrip(with: window)
            try client.roundTrip(with: window)
        } catch {
            throw explained(error)
        }
    }

    /// The status bar's background color (a pixel left of any text, below its top border).
    func statusColor() throws -> Color {
        let bar = layout.statusBar
        return try client.capture(window, rect: IntRect(x: bar.x + 3, y: bar.y + 4, width: 1, height: 1))
            .color(x: 0, y: 0)
    }

    /// Polls until the status bar background is `color`.
    func waitForStatus(_ color: Color, _ what: String, tolerance: Int? = nil) throws {
        var last: Color?
        let ok: Bool
        do {
            ok = try Wait.until(poll: .milliseconds(20)) {
                last = try statusColor()
                return ScreenCapture.matches(last!, color, tolerance: tolerance ?? config.tolerance)
            }
        } catch {
            throw explained(error)
        }
        if !ok {
            throw HarnessError.timedOut(
                "\(what): status bar \(color) (it is \(last.map(\.description) ?? "?"))\n\(app.outputSummary)")
        }
    }

    /// Polls until the status bar background is one of `colors`.
    func waitForStatus(anyOf colors: [Color], _ what: String, tolerance: Int) throws {
        var last: Color?
        let ok: Bool
        do {
            ok = try Wait.until(poll: .milliseconds(20)) {
                let c = try statusColor()
                last = c
                return colors.contains { ScreenCapture.matches(c, $0, tolerance: tolerance) }
            }
        } catch {
            throw explained(error)
        }
        if !ok {
            throw HarnessError.timedOut(
                "\(what): status bar one of \(colors) (it is \(last.map(\.description) ?? "?"))\n\(app.outputSummary)")
        }
    }

    /// How many white pixels the status bar has in a row just inside its top (the file-name
    /// field of the save prompt is a wide white box; the close question has two small white
    /// buttons).
    func statusWhiteRun() throws -> Int {
        let bar = layout.statusBar
        let row = try client.capture(window, rect: IntRect(x: 0, y: bar.y + 5, width: bar.width, height: 1))
        return row.count(of: .white)
    }

    /// Where the file dialog sits in the window (centred, its size fitted to the window).
    var fileDialogFrame: IntRect {
        FileDialog.frame(windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, scale: layout.ui)
    }

    /// Whether the file dialog is shown: its border runs down the whole of its left edge.
    func fileDialogShown() throws -> Bool {
        let f = fileDialogFrame
        let edge = try client.capture(window, rect: IntRect(x: f.x, y: f.y, width: 1, height: f.height))
        return edge.count(of: ChromeColors.panelBorder, tolerance: config.tolerance) == f.height
    }

    /// Polls until the file dialog (Open, Save as, the background picture) is shown.
    func waitForFileDialog(_ what: String = "the file dialog") throws {
        try Wait.require("\(what)\n\(app.outputSummary)", poll: .milliseconds(20)) { try fileDialogShown() }
    }

    /// Polls until the file dialog is gone.
    func waitForFileDialogClosed(_ what: String = "the file dialog closed") throws {
        try Wait.require("\(what)\n\(app.outputSummary)", poll: .milliseconds(20)) { try !fileDialogShown() }
    }

    /// Polls until the Save as dialog is shown (and fails early when the program saved or
    /// exited instead).
    func waitForSavePrompt() throws {
        if !Wait.until(
            poll: .milliseconds(20),
            { (try? fileDialogShown()) == true || !app.isRunning || title?.hasPrefix("*") == false })
            || !app.isRunning || title?.hasPrefix("*") == false
        {
            throw HarnessError.timedOut(
                "the Save as dialog; instead the title is \(title ?? "nil")\n\(app.outputSummary)")
        }
    }

    /// Polls until the close question (yellow bar, no text field) is shown.
    func waitForCloseQuestion() throws {
        try waitForStatus(ChromeColors.askFill, "the Save / Discard / Cancel question")
        let white = try statusWhiteRun()
        if white > 300 {
            throw HarnessError.timedOut(
                "the close question, but the status bar shows a text field (\(white) white pixels)")
        }
    }

    /// The current title.
    var title: String? { client.windowTitle(window) }

    /// Polls until the title shows (`true`) or does not show (`false`) the unsaved-changes star.
    func waitForModified(_ modified: Bool) throws {
        let ok = client.waitForTitle(window) { $0.hasPrefix("*") == modified && $0.hasSuffix("SwiftPaint") } != nil
        if !ok {
            throw HarnessError.timedOut(
                "a title \(modified ? "with" : "without") the leading * (it is \(title ?? "nil"))\n\(app.outputSummary)"
            )
        }
    }
}

// MARK: - Pixels

extension Color {
    /// The 8-bit gray level when r == g == b, else nil.
    var gray: Int? { r == g && g == b ? Int(r) : nil }
    /// The darkest channel.
    var darkest: Int { Int(min(r, g, b)) }
    /// The brightest channel.
    var brightest: Int { Int(max(r, g, b)) }
}

extension PixelImage {
    /// The color at (x, y), for opaque pixels.
    func color(x: Int, y: Int) -> Color {
        let p = Pixel.unpack(self[x, y])
        return Color(r: p.r, g: p.g, b: p.b)
    }
}

extension ScreenCapture {
    /// Whether the capture at (x, y) shows `color` within `tolerance`.
    func shows(_ c: Color, x: Int, y: Int, tolerance: Int) -> Bool {
        ScreenCapture.matches(color(x: x, y: y), c, tolerance: tolerance)
    }
}

/// An 8-bit color the way a visual with `masks` shows it: each channel truncated to the mask's
/// bits (what swiftpaint's blitter does) and scaled back up the way the harness reads it.
func asShown(_ c: Color, masks: ChannelMasks) -> Color {
    func reduce(_ v: UInt8, _ mask: UInt) -> UInt {
        let shift = mask.trailingZeroBitCount
        let bits = min(8, (mask >> UInt(shift)).nonzeroBitCount)
        return (UInt(v) >> UInt(8 - bits)) << UInt(shift)
    }
    let value = reduce(c.r, masks.red) | reduce(c.g, masks.green) | reduce(c.b, masks.blue)
    let rgb = masks.rgb(value)
    return Color(r: rgb.r, g: rgb.g, b: rgb.b)
}

/// The first pixels where `screen` differs from `file` (as the visual shows it), for messages;
/// empty when they are equal.
func differences(screen: ScreenCapture, file: PixelImage, limit: Int = 10) -> [String] {
    guard screen.width == file.width && screen.height == file.height else {
        return ["sizes differ: screen \(screen.width)x\(screen.height), file \(file.width)x\(file.height)"]
    }
    var out: [String] = []
    var count = 0
    for y in 0..<file.height {
        for x in 0..<file.width {
            let p = Pixel.unpack(file[x, y])
            let expected = asShown(Color(r: p.r, g: p.g, b: p.b), masks: screen.masks)
            let shown = screen.color(x: x, y: y)
            if shown != expected || p.a != 255 {
                count += 1
                if out.count < limit {
                    out.append("(\(x),\(y)) screen \(shown) file \(Color(r: p.r, g: p.g, b: p.b)) a=\(p.a)")
                }
            }
        }
    }
    if count > out.count { out.append("... \(count) pixels differ in all") }
    return out
}

/// Distance from (px, py) to the segment a-b.
func distance(_ px: Double, _ py: Double, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
    let dx = b.0 - a.0
    let dy = b.1 - a.1
    let len2 = dx * dx + dy * dy
    var t = len2 == 0 ? 0 : ((px - a.0) * dx + (py - a.1) * dy) / len2
    t = min(max(t, 0), 1)
    let cx = a.0 + t * dx - px
    let cy = a.1 + t * dy - py
    return (cx * cx + cy * cy).squareRoot()
}

/// Distances from the centres of the pixels of `rect` (image coordinates) to the polyline
/// through `path`, row by row; pixels farther than `reach` from every segment get `.infinity`.
/// Visits only each segment's neighbourhood, so it stays fast in a debug build.
struct DistanceField {
    let rect: IntRect
    private var values: [Double]

    init(path: [(Int, Int)], rect: IntRect, reach: Double) {
        self.rect = rect
        values = [Double](repeating: .infinity, count: rect.width * rect.height)
        let pts = path.map { (Double($0.0), Double($0.1)) }
        let r = Int(reach.rounded(.up)) + 1
        for i in 0..<pts.count {
            let a = pts[i]
            let b = pts[min(i + 1, pts.count - 1)]
            let x0 = max(rect.x, Int(min(a.0, b.0)) - r)
            let x1 = min(rect.maxX - 1, Int(max(a.0, b.0)) + r)
            let y0 = max(rect.y, Int(min(a.1, b.1)) - r)
            let y1 = min(rect.maxY - 1, Int(max(a.1, b.1)) + r)
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0...y1 {
                for x in x0...x1 {
                    let d = distance(Double(x), Double(y), a, b)
                    let k = (y - rect.y) * rect.width + (x - rect.x)
                    if d < values[k] { values[k] = d }
                }
            }
        }
    }

    /// The distance at image pixel (x, y), which must lie in `rect`.
    subscript(x: Int, y: Int) -> Double { values[(y - rect.y) * rect.width + (x - rect.x)] }
}

/// Points from `a` to `b` in steps of about `step` pixels, both ends included.
func line(from a: (Int, Int), to b: (Int, Int), step: Int = 2) -> [(Int, Int)] {
    let n = max(1, max(abs(b.0 - a.0), abs(b.1 - a.1)) / step)
    return (0...n).map { i in
        (a.0 + (b.0 - a.0) * i / n, a.1 + (b.1 - a.1) * i / n)
    }
}

/// A fresh temporary folder for one test's files.
func scratchFolder() throws -> TemporaryDirectory {
    try TemporaryDirectory(prefix: "swiftpaint-draw")
}

/// The brush width a fresh session has after `keys` presses of `]` (or `[`), computed by the
/// program's own headless `Session`, so the test follows its step rule.
func widthAfter(pressing key: Character, times: Int) -> Double {
    let s = Session(
        document: Document(engine: StrokeEngine(width: 16, height: 16), history: History(base: nil), path: nil),
        windowWidth: 900, windowHeight: 400)
    for _ in 0..<times { s.handle(.key(.character(key), modifiers: [])) }
    return s.settings.brushWidth
}

import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

/// Settings that stay: chosen in one run, closed, painted with in the next; a damaged settings
/// file starts with the defaults and says so.
@Suite("Settings end to end", .serialized)
struct SettingsEndToEndTests {
    static var config: ServerConfig { .standard }
    static let size = (w: 300, h: 200)

    func start(home: TemporaryDirectory, _ extra: [String] = []) throws -> PaintWindow {
        try PaintWindow(
            Self.config, arguments: ["--no-journal", "--size", "\(Self.size.w)x\(Self.size.h)"] + extra,
            imageWidth: Self.size.w, imageHeight: Self.size.h, home: home.path)
    }

    /// Where the program keeps its settings under a test's HOME (AppProcess sets XDG_CONFIG_HOME).
    static func settingsPath(_ home: TemporaryDirectory) -> String { home.path + "/.config/swiftpaint/settings.conf" }

    /// Closes the window with Ctrl+Q (nothing unsaved) and waits for a clean exit.
    func quit(_ paint: PaintWindow) throws {
        try paint.key("q", modifiers: [.control])
        #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)")
    }

    @Test("tool, color, width, opacity and the toggles chosen, closed, started again: the next stroke has them")
    func roundTrip() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-settings")
        let green = Palette.colors.firstIndex { $0.g > 150 && $0.r < 100 && $0.b < 100 } ?? 6
        let color = Palette.colors[green]
        let presses = 6
        let width = widthAfter(pressing: "]", times: presses)
        do {
            let paint = try start(home: home)
            defer { paint.stop() }
            try paint.click(.swatch(green))
            try paint.key("bracketright", times: presses)
            try paint.key("5")
            try paint.click(.dashedToggle)
            try paint.key("l")
            try quit(paint)
        }
        let stored = SettingsFile.load(path: Self.settingsPath(home))
        #expect(stored.problems.isEmpty)
        #expect(stored["tool"] == "line" && stored["primary"] == color.hex && stored["width"] == String(Int(width)))
        #expect(stored["opacity"] == "50" && stored["dashed"] == "yes" && stored["filled"] == "no")

        // Started again: a line across, saved: it is dashed, of that color at 50 % and that width.
        let target = home.file("again.png")
        let paint = try start(home: home, [target])
        defer { paint.stop() }
        try paint.drag(image: [(20, 100), (150, 100), (280, 100)])
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
        let saved = try ImageFile.load(path: target)
        /// The color of a saved (opaque) pixel.
        func at(_ x: Int, _ y: Int) -> Color {
            let p = Pixel.unpack(saved[x, y])
            return Color(r: p.r, g: p.g, b: p.b)
        }
        // 50 % of the color over white, in the line's middle row.
        // (1 or 2 levels either way: the engine's 50 % is 127 or 128 of 255.)
        func over(_ c: UInt8) -> UInt8 {
            let sum: Int = Int(c) + 255
            return UInt8(sum / 2)
        }
        let half = Color(r: over(color.r), g: over(color.g), b: over(color.b))
        let row = (0..<Self.size.w).map { at($0, 100) }
        let painted = row.filter { ScreenCapture.matches($0, half, tolerance: 2) }.count
        let white = row[30..<270].filter { $0 == .white }.count
        #expect(painted > 60, "the line in the saved color: \(painted) pixels")
        #expect(white > 30, "dashed: gaps of white along the line (\(white))")
        // Its thickness across a dash: the saved width.
        let dash = try #require((30..<270).first { ScreenCapture.matches(row[$0], half, tolerance: 2) })
        let column = (0..<Self.size.h).map { at(dash + 2, $0) }
        let solid = column.filter { ScreenCapture.matches($0, half, tolerance: 2) }.count
        #expect(abs(Double(solid) - width) <= 1, "the line is \(solid) px thick, the saved width is \(width)")
    }

    @Test("a damaged settings file: the defaults, a message in the status bar and on stderr, never a crash")
    func damagedFile() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-settings")
        let path = Self.settingsPath(home)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array(repeating: 0xFF, count: 200))
            .write(to: URL(fileURLWithPath: path))
        let paint = try start(home: home)
        defer { paint.stop() }
        // The message names the file, in the error color of the status bar.
        try Wait.require("the message about the settings on stderr\n\(paint.app.outputSummary)") {
            paint.app.stderr.contains("Cannot use all of the settings in") && paint.app.stderr.contains("is not text")
        }
        let bar = paint.layout.statusBar
        _ = try paint.client.waitForCapture(paint.window, rect: bar, "the message in the status bar") {
            $0.count(of: Color(r: 0xB0, g: 0x20, b: 0x20), tolerance: 24) > 20
        }
        // The defaults: black, 5 px, the brush.
        try paint.click(imageX: 100, imageY: 100)
        let shot = try paint.waitForCapture(image: IntRect(x: 90, y: 90, width: 21, height: 21), "the dab") {
            $0.color(x: 10, y: 10) == .black
        }
        #expect(shot.color(x: 12, y: 10) == .black && shot.color(x: 14, y: 10) == .white, "a 5 px black disc")
        #expect(paint.app.isRunning)
    }

    /// Saves the (white) picture as `target` with Save as, answering the quality question with
    /// `answer` typed over the offered number ("" takes the offer), and waits for the title.
    func saveAs(_ paint: PaintWindow, _ target: String, answer: String) throws {
        try paint.key("s", modifiers: [.control, .shift])
        try paint.waitForFileDialog("the Save as dialog")
        try paint.key("a", modifiers: [.control])
        try paint.client.typeText(target)
        try paint.key("Return")
        // The quality question follows, its number selected: typing replaces it; the keys
        // are read in order.
        try paint.client.typeText(answer + "\n")
        let name = (target as NSString).lastPathComponent
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "\(name) — SwiftPaint" } != nil,
            "saved: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
    }

    @Test("the JPEG quality chosen is offered again in the next run; a quality outside 1 to 100 in the file is refused")
    func jpegQualityIsKept() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-settings")
        let white = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)
        func written(_ path: String) -> [UInt8] {
            [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        }
        let at37 = try JPEGCodec.encode(white, quality: 37)
        let at90 = try JPEGCodec.encode(white, quality: SaveOptions.defaultQuality)
        #expect(at37 != at90, "the two qualities give different files")
        do {
            let paint = try start(home: home)
            defer { paint.stop() }
            try saveAs(paint, home.file("first.jpg"), answer: "37")
            try quit(paint)
        }
        #expect(written(home.file("first.jpg")) == at37, "quality 37 as typed")
        let stored = SettingsFile.load(path: Self.settingsPath(home))
        #expect(stored["jpeg-quality"] == "37" && stored["webp-quality"] == "100", "\(stored.entries)")
        do {
            // Started again: Enter takes the offered quality, the 37 of last time.
            let paint = try start(home: home)
            defer { paint.stop() }
            try saveAs(paint, home.file("second.jpg"), answer: "")
            try quit(paint)
        }
        #expect(written(home.file("second.jpg")) == at37, "the offer was last run's 37")

        // A hostile settings file: the quality is refused with a message, 90 offered, no crash.
        try "jpeg-quality = 1000\nwebp-quality = -7\n".write(
            toFile: Self.settingsPath(home), atomically: true, encoding: .utf8)
        let paint = try start(home: home)
        defer { paint.stop() }
        try Wait.require("the message about the settings on stderr\n\(paint.app.outputSummary)") {
            paint.app.stderr.contains("“jpeg-quality = 1000”: expected a quality of 1 to 100")
        }
        try saveAs(paint, home.file("third.jpg"), answer: "")
        #expect(written(home.file("third.jpg")) == at90, "the default 90 offered")
        #expect(paint.app.isRunning)
    }
}

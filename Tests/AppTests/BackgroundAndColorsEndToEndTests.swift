import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// End-to-end tests of the background (toolbar button, Ctrl+B prompt, `--background FILE`), the
/// color editor panel and the recent-colors swatches: swiftpaint on Xvfb driven through XTest,
/// read back from the screen and from the PNGs it saves.
///
/// Expected pictures come from a headless `Session` replaying the same inputs (`ToolsDriver`);
/// where a replay would need the editor panel, the assertions are exact colors at stroke pixels
/// instead. Serialized, depth 24 (`ServerConfig.standard`).
@Suite("BackgroundAndColorsEndToEnd: background, color editor, recent colors", .serialized)
struct BackgroundAndColorsEndToEndTests {
    static var config: ServerConfig { .standard }
    static let size = (w: 400, h: 300)
    /// The helpers of the tools suite (canvas polling, save, save-and-compare).
    let tools = ToolsEndToEndTests()

    func start(_ extra: [String]) throws -> PaintWindow {
        try PaintWindow(
            Self.config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"] + extra, imageWidth: Self.size.w,
            imageHeight: Self.size.h)
    }

    /// The picture a fresh headless session shows after `setup`, then the driver's recorded actions.
    func replay(_ driver: ToolsDriver, setup: (Session) -> Void) -> Session {
        let s = ToolsDriver.session(for: driver.paint.layout)
        setup(s)
        for action in driver.actions { ToolsDriver.apply(action, to: s, layout: driver.paint.layout) }
        return s
    }

    func view(_ s: Session) -> PixelImage {
        var image = PixelImage(width: s.engine.width, height: s.engine.height)
        image.pixels = Array(s.engine.viewPixels)
        return image
    }

    /// The keys of the background prompt, for a headless session: Ctrl+B, the text, Enter.
    func typeBackground(_ text: String, into s: Session) {
        s.handle(.key(.character("b"), modifiers: [.control]))
        for c in text { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
    }

    /// Ctrl+B in the window, waits for the background dialog, types `text` and Enter.
    func promptBackground(_ paint: PaintWindow, _ text: String) throws {
        try paint.key("b", modifiers: [.control])
        try paint.waitForFileDialog("the background dialog after Ctrl+B")
        paint.parkPointer()
        try paint.client.typeText(text + "\n")
        try paint.waitForFileDialogClosed("the background dialog closed after Enter")
    }

    /// The center pixel of a toolbar item as shown.
    func shownColor(_ paint: PaintWindow, _ item: ToolbarItem) throws -> Color {
        let c = paint.center(of: item)
        return try paint.client.capture(paint.window, rect: IntRect(x: c.0, y: c.1, width: 1, height: 1))
            .color(x: 0, y: 0)
    }

    // MARK: Background color from the toolbar

    @Test(
        "background button: left click = primary behind an earlier stroke (window and PNG); Ctrl+Z restores white; right click = secondary"
    )
    func backgroundButton() throws {
        let dir = try scratchFolder()
        let file = dir.file("bg.png")
        let paint = try start([file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        let red = Palette.colors[3]
        let blue = Palette.colors[7]
        let green = Palette.colors[6]
        try driver.swatch(3)
        try driver.key("bracketright", "]", times: 3)
        let stroke = line(from: (40, 150), to: (360, 150), step: 6)
        try driver.drag(stroke)
        let beforeBackground = driver.actions.count
        let strokeOnly = driver.expected()
        tools.expectCanvas(paint, equals: strokeOnly, "the red stroke on white")
        try driver.swatch(7)
        try driver.toolbar(.background)
        let s = driver.replay()
        #expect(s.engine.background == .color(blue), "replay: the background is \(s.engine.background)")
        let png = try tools.saveAndCheck(driver, file, "blue background behind the red stroke")
        for x in stride(from: 50, through: 350, by: 25) {
            #expect(png.color(x: x, y: 150) == red, "the stroke at (\(x),150) is \(png.color(x: x, y: 150))")
        }
        for (x, y) in [(5, 5), (200, 40), (395, 295), (200, 250)] {
            #expect(png.color(x: x, y: y) == blue, "the background at (\(x),\(y)) is \(png.color(x: x, y: y))")
        }

        // Ctrl+Z: back to the white background, the stroke stays.
        try paint.key("z", modifiers: [.control])
        tools.expectCanvas(paint, equals: strokeOnly, "Ctrl+Z after the background (the replay before it)")
        try tools.save(paint)
        let undone = try tools.load(file)
        #expect(
            undone == strokeOnly,
            "the PNG after Ctrl+Z:\n\(pngDifferences(undone, strokeOnly).joined(separator: "\n"))")
        #expect(undone.color(x: 5, y: 5) == .white && undone.color(x: 200, y: 150) == red)

        // Right click: the secondary (green, set by a right click on a swatch).
        let after = ToolsDriver(paint)
        try after.swatch(6, button: .right)
        try after.toolbar(.background, button: .right)
        let s2 = replay(after) { s in
            for a in driver.actions.prefix(beforeBackground) { ToolsDriver.apply(a, to: s, layout: paint.layout) }
        }
        #expect(s2.engine.background == .color(green))
        tools.expectCanvas(paint, equals: view(s2), "green background (right click) behind the red stroke")
        let shot = try paint.captureCanvas()
        #expect(shot.color(x: 5, y: 5) == green && shot.color(x: 200, y: 150) == red)
    }

    // MARK: Transparent background

    @Test("Ctrl+B, transparent, Enter; a 50% stroke; Ctrl+S: the PNG has alpha 0 unpainted and ~128 painted")
    func transparentBackground() throws {
        let dir = try scratchFolder()
        let file = dir.file("clear.png")
        let paint = try start([file])
        defer { paint.stop() }
        try promptBackground(paint, "transparent")
        let driver = ToolsDriver(paint)
        try driver.swatch(3)
        try driver.key("5", "5")
        try driver.key("bracketright", "]", times: 3)
        let stroke = line(from: (40, 100), to: (360, 220), step: 6)
        try driver.drag(stroke)
        let s = replay(driver) { typeBackground("transparent", into: $0) }
        #expect(s.engine.background == .transparent && s.settings.opacityPercent == 50)
        // The window shows the checkerboard under the half-transparent stroke, as the replay does.
        tools.expectCanvas(paint, equals: view(s), "the 50% stroke over the transparency checkerboard")
        try tools.save(paint)
        let png = try tools.load(file)
        let expected = try PNGCodec.decode(
            PNGCodec.encode(s.engine.flattenedImage(), withAlpha: true), name: "replay")
        #expect(png == expected, "the PNG vs the replay:\n\(pngDifferences(png, expected).joined(separator: "\n"))")
        func alpha(_ x: Int, _ y: Int) -> Int { Int(png[x, y] >> 24) }
        for (x, y) in [(5, 5), (395, 5), (5, 295), (395, 295), (200, 40), (200, 260)] {
            #expect(alpha(x, y) == 0, "unpainted (\(x),\(y)) has alpha \(alpha(x, y))")
        }
        var painted = 0
        for i in stride(from: 2, to: stroke.count - 2, by: 3) {
            let (x, y) = stroke[i]
            let a = alpha(x, y)
            if abs(a - 128) <= 2 {
                painted += 1
            } else {
                Issue.record("stroke pixel (\(x),\(y)) has alpha \(a), not ~128")
            }
            // The palette red, premultiplied by the alpha (pixels are stored premultiplied).
            let p = Pixel.unpack(png[x, y])
            let red = Palette.colors[3]
            func pm(_ v: UInt8) -> Int { Int((Double(v) * Double(a) / 255).rounded()) }
            #expect(
                abs(Int(p.r) - pm(red.r)) <= 1 && abs(Int(p.g) - pm(red.g)) <= 1 && abs(Int(p.b) - pm(red.b)) <= 1,
                "stroke pixel (\(x),\(y)): \(p), expected \(red) premultiplied by \(a)")
        }
        #expect(painted > 10)
    }

    // MARK: --background FILE

    @Test("--background pic.png: the window shows the picture centred (white around) behind the paint")
    func backgroundFromFile() throws {
        let dir = try scratchFolder()
        let picPath = dir.file("pic.png")
        let quadrants = [Palette.colors[4], Palette.colors[6], Palette.colors[7], Palette.colors[9]]
        var pic = PixelImage(width: 120, height: 80)
        for y in 0..<80 {
            for x in 0..<120 { pic[x, y] = quadrants[(y / 40) * 2 + x / 60].pixel }
        }
        try ImageFile.save(pic, to: picPath, withAlpha: false)
        let file = dir.file("withpic.png")
        let paint = try start([file, "--background", picPath])
        defer { paint.stop() }
        // Before any paint: the picture alone, centred.
        guard case .image(let fitted) = Background.fitted(pic, width: Self.size.w, height: Self.size.h) else {
            Issue.record("Background.fitted is not an image")
            return
        }
        let first = tools.expectCanvas(paint, equals: fitted, "the background picture at start")
        if let shot = first {
            let dx = (Self.size.w - 120) / 2
            let dy = (Self.size.h - 80) / 2
            #expect(shot.color(x: dx + 30, y: dy + 20) == quadrants[0])
            #expect(shot.color(x: dx + 90, y: dy + 20) == quadrants[1])
            #expect(shot.color(x: dx + 30, y: dy + 60) == quadrants[2])
            #expect(shot.color(x: dx + 90, y: dy + 60) == quadrants[3])
            #expect(shot.color(x: dx - 1, y: dy + 20) == .white && shot.color(x: dx + 120, y: dy + 60) == .white)
            #expect(shot.color(x: dx + 30, y: dy - 1) == .white && shot.color(x: dx + 90, y: dy + 80) == .white)
            #expect(shot.color(x: 5, y: 5) == .white)
        }
        // Paint over it: the stroke is on top.
        let driver = ToolsDriver(paint)
        try driver.swatch(0)
        try driver.key("bracketright", "]", times: 2)
        try driver.drag(line(from: (100, 150), to: (300, 150), step: 5))
        let s = replay(driver) { $0.setBackground(fromText: picPath) }
        let expected = view(s)
        tools.expectCanvas(paint, equals: expected, "a stroke across the background picture")
        let shot = try paint.captureCanvas()
        let black = Palette.colors[0]
        for x in stride(from: 110, through: 290, by: 20) {
            #expect(shot.color(x: x, y: 150) == black, "the stroke at (\(x),150) shows \(shot.color(x: x, y: 150))")
        }
        try tools.save(paint)
        let png = try tools.load(file)
        #expect(png == expected, "the PNG vs the replay:\n\(pngDifferences(png, expected).joined(separator: "\n"))")
    }

    // MARK: Color editor

    /// Window coordinates of panel point (x, y).
    func panelPoint(_ paint: PaintWindow, _ x: Int, _ y: Int) -> (Int, Int) {
        let f = editorFrame(paint)
        return (f.x + x, f.y + y)
    }

    func editorFrame(_ paint: PaintWindow) -> IntRect {
        ToolsDriver.session(for: paint.layout).colorEditorFrame
    }

    static let panelFill = Color(r: 0xFA, g: 0xFA, b: 0xFB)

    /// Polls until the panel is shown (`true`: its light fill covers most of the frame) or gone.
    func waitForPanel(_ paint: PaintWindow, shown: Bool, _ what: String) throws {
        let f = editorFrame(paint)
        var count = -1
        let ok = Wait.until(poll: .milliseconds(20)) {
            guard let shot = try? paint.client.capture(paint.window, rect: f) else { return false }
            count = shot.count(of: Self.panelFill)
            return shown ? count > f.width * f.height / 3 : count < f.width * f.height / 20
        }
        if !ok {
            throw HarnessError.timedOut(
                "\(what): the panel \(shown ? "shown" : "gone") at \(f) (\(count) panel pixels)\n\(paint.app.outputSummary)"
            )
        }
    }

    /// The new-color half of the panel's preview as shown.
    func previewColor(_ paint: PaintWindow) throws -> Color {
        let pv = ColorEditor.geometry.preview
        let p = panelPoint(paint, pv.x + pv.width * 3 / 4, pv.y + pv.height / 2)
        return try paint.client.capture(paint.window, rect: IntRect(x: p.0, y: p.1, width: 1, height: 1))
            .color(x: 0, y: 0)
    }

    /// Drags along a slider's track in the panel, from its start to `fraction` of its width.
    func dragSlider(_ paint: PaintWindow, _ channel: ColorEditor.Channel, to toX: Int) throws -> [(Int, Int)] {
        let r = ColorEditor.geometry.track(channel)
        let y = r.y + r.height / 2
        let path = stride(from: r.x + 5, through: toX, by: 8).map { ($0, y) } + [(toX, y)]
        try paint.client.drag(paint.window, path: path.map { panelPoint(paint, $0.0, $0.1) })
        return path
    }

    @Test("color editor: click the current colors, drag red, type a hex code, Enter: the brush paints exactly it")
    func colorEditorAccept() throws {
        let dir = try scratchFolder()
        let file = dir.file("editor.png")
        let paint = try start([file])
        defer { paint.stop() }
        let f = editorFrame(paint)
        #expect(f.x == paint.layout.rect(of: .currentColors).x && f.y == paint.layout.toolbar.maxY + 2)
        #expect(f.width == 300 && f.height == 250)
        try waitForPanel(paint, shown: false, "before the click")
        try paint.click(.currentColors)
        try waitForPanel(paint, shown: true, "after a click on the current colors")

        // The red slider: the headless editor says which color the drag gives.
        var model = ColorEditor(target: .primary, color: .black)
        let toX = ColorEditor.geometry.track(.red).x + 120
        let path = try dragSlider(paint, .red, to: toX)
        _ = model.press(x: path[0].0, y: path[0].1)
        for p in path.dropFirst() { model.drag(x: p.0) }
        model.release()
        #expect(model.color.r > 100 && model.color.g == 0 && model.color.b == 0, "model after the drag: \(model.color)")
        var last = Color.black
        let previewOK = Wait.until(poll: .milliseconds(20)) {
            last = (try? previewColor(paint)) ?? last
            return last == model.color
        }
        #expect(previewOK, "the preview after dragging red shows \(last), expected \(model.color)")

        // The hex field: Backspace x7, then #1a7f3c, Enter.
        let chosen = Color(r: 0x1A, g: 0x7F, b: 0x3C)
        try paint.key("BackSpace", times: 7)
        paint.parkPointer()
        try paint.client.typeText("#1a7f3c")
        let hexOK = Wait.until(poll: .milliseconds(20)) {
            last = (try? previewColor(paint)) ?? last
            return last == chosen
        }
        #expect(hexOK, "the preview after typing #1a7f3c shows \(last)")
        try paint.key("Return")
        try waitForPanel(paint, shown: false, "after Enter")
        // The accepted color is the newest recent color.
        #expect(
            Wait.until(poll: .milliseconds(20)) {
                (try? shownColor(paint, .recent(0))) == chosen
            }, "recent(0) after OK shows \((try? shownColor(paint, .recent(0)))?.description ?? "?")")

        try paint.key("bracketright", times: 3)
        let stroke = line(from: (40, 200), to: (360, 200), step: 6)
        try paint.drag(image: stroke)
        try tools.save(paint)
        let png = try tools.load(file)
        for x in stride(from: 50, through: 350, by: 20) {
            #expect(png.color(x: x, y: 200) == chosen, "the stroke at (\(x),200) is \(png.color(x: x, y: 200))")
        }
        #expect(png.color(x: 200, y: 40) == .white)
        #expect(differences(screen: try paint.captureCanvas(), file: png).isEmpty, "window vs PNG")
    }

    @Test("color editor: typing #3366cc never previews #336's #333366; #f80 is taken by Enter")
    func hexPreviewWaitsForAWholeCode() throws {
        let paint = try start([])
        defer { paint.stop() }
        try paint.click(.currentColors)
        try waitForPanel(paint, shown: true, "the editor opened")
        paint.parkPointer()
        // The code shown on opening is selected: typing replaces it.
        try paint.client.typeText("#336")
        try paint.roundTrip()
        #expect(try previewColor(paint) == .black, "#336 typed, on its way to #3366cc: still black")
        try paint.client.typeText("6cc")
        let blue = Color(r: 0x33, g: 0x66, b: 0xCC)
        var last = Color.black
        #expect(
            Wait.until(poll: .milliseconds(20)) {
                last = (try? previewColor(paint)) ?? last
                return last == blue
            }, "the preview after #3366cc shows \(last)")
        try paint.key("BackSpace", times: 7)
        try paint.client.typeText("#f80")
        try paint.roundTrip()
        #expect(try previewColor(paint) == blue, "#f80 typed: not shown until Enter")
        try paint.key("Return")
        try waitForPanel(paint, shown: false, "after Enter")
        let orange = Color(r: 0xFF, g: 0x88, b: 0)
        #expect(
            Wait.until(poll: .milliseconds(20)) { (try? shownColor(paint, .recent(0))) == orange },
            "recent(0) after Enter shows \((try? shownColor(paint, .recent(0)))?.description ?? "?")")
    }

    @Test(
        "color editor: Escape and a click outside leave the primary unchanged; OK button; right click edits the secondary"
    )
    func colorEditorCancel() throws {
        let dir = try scratchFolder()
        let file = dir.file("cancel.png")
        let paint = try start([file])
        defer { paint.stop() }
        let red = Palette.colors[3]
        try paint.click(.swatch(3))
        try paint.key("bracketright", times: 3)

        // Escape.
        try paint.click(.currentColors)
        try waitForPanel(paint, shown: true, "opened for Escape")
        _ = try dragSlider(paint, .blue, to: ColorEditor.geometry.track(.blue).maxX - 2)
        #expect(
            Wait.until(poll: .milliseconds(20)) { (try? previewColor(paint))?.b ?? 0 > 200 },
            "the blue drag did not show in the preview")
        try paint.key("Escape")
        try waitForPanel(paint, shown: false, "after Escape")

        // A click outside (on the canvas, right of the panel): closes it and paints nothing.
        try paint.click(.currentColors)
        try waitForPanel(paint, shown: true, "opened for a click outside")
        _ = try dragSlider(paint, .green, to: ColorEditor.geometry.track(.green).maxX - 2)
        let f = editorFrame(paint)
        let outside = (x: f.maxX + 20 - paint.layout.imageOrigin.x, y: 250)
        try paint.click(imageX: outside.x, imageY: outside.y)
        try waitForPanel(paint, shown: false, "after a click outside")

        try paint.drag(image: line(from: (40, 200), to: (360, 200), step: 6))

        // Right click: the secondary; typed hex and the OK button.
        let secondary = Color(r: 0x33, g: 0x66, b: 0x99)
        try paint.click(.currentColors, button: 3)
        try waitForPanel(paint, shown: true, "opened by a right click")
        try paint.key("BackSpace", times: 7)
        paint.parkPointer()
        try paint.client.typeText("#336699")
        let ok = ColorEditor.geometry.acceptButton
        let okPoint = panelPoint(paint, ok.x + ok.width / 2, ok.y + ok.height / 2)
        try paint.client.click(paint.window, x: okPoint.0, y: okPoint.1)
        try waitForPanel(paint, shown: false, "after OK")
        try paint.drag(image: line(from: (40, 100), to: (360, 100), step: 6), button: 3)

        try tools.save(paint)
        let png = try tools.load(file)
        #expect(png.color(x: outside.x, y: outside.y) == .white, "the click outside painted")
        for x in stride(from: 50, through: 350, by: 20) {
            #expect(
                png.color(x: x, y: 200) == red,
                "left stroke at (\(x),200) is \(png.color(x: x, y: 200)), the primary changed")
            #expect(png.color(x: x, y: 100) == secondary, "right stroke at (\(x),100) is \(png.color(x: x, y: 100))")
        }
    }

    // MARK: Recent colors

    @Test(
        "recent colors: after strokes in three colors the swatches show them newest first; clicking recent(1) paints with it"
    )
    func recentColors() throws {
        let dir = try scratchFolder()
        let file = dir.file("recent.png")
        let paint = try start([file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        let colors = [3, 6, 7].map { Palette.colors[$0] }
        try driver.key("bracketright", "]", times: 2)
        for (i, swatch) in [3, 6, 7].enumerated() {
            try driver.swatch(swatch)
            try driver.drag(line(from: (40, 40 + i * 40), to: (360, 40 + i * 40), step: 6))
        }
        let s = driver.replay()
        #expect(s.settings.recentColors == colors.reversed(), "replay recent colors: \(s.settings.recentColors)")
        var shown: [Color] = []
        let ok = Wait.until(poll: .milliseconds(20)) {
            shown = (0..<3).compactMap { try? shownColor(paint, .recent($0)) }
            return shown == Array(colors.reversed())
        }
        #expect(ok, "recent(0...2) show \(shown), expected \(Array(colors.reversed()))")
        let empty = try (3..<8).map { try shownColor(paint, .recent($0)) }
        for (i, c) in empty.enumerated() {
            #expect(!colors.contains(c), "recent(\(i + 3)) shows \(c) though only three colors were used")
        }
        // Another color chosen without painting leaves the recent list alone.
        try driver.swatch(12)
        try driver.toolbar(.recent(1))
        #expect(driver.replay().settings.primary == colors[1])
        try driver.drag(line(from: (40, 250), to: (360, 250), step: 6))
        let png = try tools.saveAndCheck(driver, file, "strokes with three colors and one from recent(1)")
        for x in stride(from: 50, through: 350, by: 20) {
            #expect(
                png.color(x: x, y: 250) == colors[1], "the recent(1) stroke at (\(x),250) is \(png.color(x: x, y: 250))"
            )
        }
        // That stroke moved green to the front.
        let reordered = [colors[1], colors[2], colors[0]]
        let ok2 = Wait.until(poll: .milliseconds(20)) {
            shown = (0..<3).compactMap { try? shownColor(paint, .recent($0)) }
            return shown == reordered
        }
        #expect(ok2, "recent(0...2) after the green stroke show \(shown), expected \(reordered)")
    }
}

extension ColorEditor {
    /// The editor's geometry at scale 1, as the window lays it out on an ordinary screen.
    static var geometry: ColorEditor { ColorEditor(target: .primary, color: .black) }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// End-to-end drawing tests: swiftpaint on Xvfb, driven through XTest like a user, read back
/// from the screen (XGetImage) and from the files it saves. Every test runs on depth 24 with
/// MIT-SHM, depth 24 without it, and depth 16. Serialized: XTest input is per display but the
/// CPU is shared, and the timings of a loaded 2-core box are tight enough already.
@Suite("Drawing end to end", .serialized)
struct DrawingTests {
    static let configs = ServerConfig.all
    /// The canvas most tests use: small, so captures are quick.
    static let size = (w: 400, h: 300)
    static var sizeArgument: [String] { ["--size", "\(size.w)x\(size.h)"] }

    func start(_ config: ServerConfig, _ extra: [String] = [], home: String? = nil) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: Self.sizeArgument + extra, imageWidth: Self.size.w, imageHeight: Self.size.h, home: home)
    }

    // MARK: 1. Continuous anti-aliased line

    @Test("a drag paints a continuous anti-aliased line", arguments: configs)
    func dragPaintsContinuousLine(config: ServerConfig) throws {
        let paint = try start(config)
        defer { paint.stop() }
        // Slanted so that every segment between two (integer) pointer positions is slanted too
        // (steps of 4 px across, 1 or 2 px down): a horizontal segment of an odd width has its
        // edges on pixel boundaries and, rightly, no intermediate values.
        let a = (30, 90)
        let b = (370, 210)
        let path = line(from: a, to: b, step: 4)
        #expect(path.count > 80)
        try paint.drag(image: path)

        let band = IntRect(x: 20, y: 75, width: 360, height: 150)
        // The end of the drag on screen means every earlier motion was drawn (events are handled
        // and presented in order).
        let shot = try paint.waitForCapture(image: band, "the end of the dragged line") {
            $0.color(x: b.0 - band.x, y: b.1 - band.y).brightest < 100
        }
        try paint.waitForModified(true)

        var previousRun: ClosedRange<Int>?
        var grayAbove = 0
        var grayBelow = 0
        for x in a.0...b.0 {
            let cx = x - band.x
            let dark = (0..<band.height).filter { shot.color(x: cx, y: $0).brightest < 100 }
            guard let top = dark.first, let bottom = dark.last else {
                Issue.record("column \(x) of the drag has no dark pixel")
                previousRun = nil
                continue
            }
            #expect(dark.count == bottom - top + 1, "column \(x): the dark run has holes: \(dark.map { $0 + band.y })")
            let expectedY = Double(a.1) + Double(x - a.0) * Double(b.1 - a.1) / Double(b.0 - a.0) - Double(band.y)
            #expect(
                Double(top) <= expectedY + 1 && Double(bottom) >= expectedY - 1,
                "column \(x): dark rows \(top + band.y)...\(bottom + band.y) miss the line at y \(expectedY + Double(band.y))"
            )
            if let p = previousRun {
                #expect(p.overlaps(top...bottom), "gap between columns \(x - 1) and \(x)")
            }
            previousRun = top...bottom
            if config.depth == 24 {
                // An intermediate gray within a pixel or two of each edge of the dark run.
                func isRamp(_ y: Int) -> Bool {
                    guard y >= 0, y < band.height, let g = shot.color(x: cx, y: y).gray else { return false }
                    return g > 8 && g < 247
                }
                if (top - 2...top).contains(where: isRamp) { grayAbove += 1 }
                if (bottom...bottom + 2).contains(where: isRamp) { grayBelow += 1 }
            }
        }
        // A black line over white: every pixel is a neutral gray, and everything more than the
        // radius plus the anti-aliasing ramp away from the line is untouched white.
        let field = DistanceField(path: path, rect: band, reach: 6)
        var colored = 0
        var strayPaint = 0
        for y in 0..<band.height {
            for x in 0..<band.width {
                let c = shot.color(x: x, y: y)
                if config.depth == 24, c.gray == nil { colored += 1 }
                if field[x + band.x, y + band.y] > 2.5 + 1,
                    !ScreenCapture.matches(c, .white, tolerance: config.tolerance)
                {
                    strayPaint += 1
                }
            }
        }
        #expect(colored == 0, "a black stroke left \(colored) non-gray pixels")
        #expect(strayPaint == 0, "\(strayPaint) pixels far from the line are not white")
        if config.depth == 24 {
            // Anti-aliasing: intermediate grays along both edges (a slanted edge crosses pixel
            // centres at varying offsets, so nearly every column has one).
            let columns = b.0 - a.0 + 1
            #expect(
                grayAbove >= columns * 2 / 3, "only \(grayAbove) of \(columns) columns have an anti-aliased upper edge")
            #expect(
                grayBelow >= columns * 2 / 3, "only \(grayBelow) of \(columns) columns have an anti-aliased lower edge")
        }
    }

    // MARK: 2. A click makes a dot of the chosen width

    /// The extent of the dark (coverage above one half) pixels in a capture.
    private func darkBox(_ shot: ScreenCapture) -> IntRect? {
        shot.boundingBox { $0.brightest < 128 }
    }

    @Test("a click without motion makes a dot of the chosen width", arguments: configs)
    func clickMakesDot(config: ServerConfig) throws {
        let paint = try start(config)
        defer { paint.stop() }

        func dot(at x: Int, _ y: Int, expected: Double, _ what: String) throws {
            try paint.click(imageX: x, imageY: y)
            let r = Int(expected) / 2 + 6
            let rect = IntRect(x: x - r, y: y - r, width: 2 * r + 1, height: 2 * r + 1)
            let shot = try paint.waitForCapture(image: rect, "the \(what) dot") {
                $0.color(x: r, y: r).brightest < 100
            }
            guard let box = darkBox(shot) else {
                Issue.record("no dark pixels for the \(what) dot")
                return
            }
            #expect(abs(Double(box.width) - expected) <= 1, "\(what) dot: \(box.width) px wide, brush \(expected) px")
            #expect(abs(Double(box.height) - expected) <= 1, "\(what) dot: \(box.height) px high, brush \(expected) px")
            // Centred on the click: the box is symmetric around the clicked pixel within a pixel.
            let left = r - box.x
            let right = box.maxX - 1 - r
            #expect(abs(left - right) <= 1, "\(what) dot not centred on the click: \(box) in \(rect)")
            // A disc, not a square: the pixels more than half covered add up to its area.
            let area = Double(shot.count { $0.brightest < 128 })
            let disc = Double.pi * expected * expected / 4
            #expect(
                abs(area - disc) <= 1.6 * expected + 2,
                "\(what) dot covers \(Int(area)) px, a disc of \(expected) px covers \(Int(disc))")
        }

        try dot(at: 60, 80, expected: 5, "default 5 px")

        let presses = 8
        let grown = widthAfter(pressing: "]", times: presses)
        #expect(grown >= 12, "] ×\(presses) should give a clearly bigger brush, got \(grown)")
        try paint.key("bracketright", times: presses)
        try dot(at: 160, 80, expected: grown, "after ] ×\(presses)")

        // The width slider: a click on its track sets the width shown there.
        let track = paint.layout.rect(of: .widthSlider)
        let width = { SliderScale.width.value(atFraction: paint.layout.sliderFraction(.widthSlider, atX: $0)) }
        guard let x = (track.x..<track.maxX).first(where: { width($0) >= 30 }) else {
            Issue.record("the width slider never reaches 30 px")
            return
        }
        let chosen = width(x)
        try paint.click(.widthSlider, atX: x)
        try dot(at: 280, 150, expected: chosen, "slider \(chosen) px")
    }
}

// MARK: - Colors, opacity, saving, opening

extension DrawingTests {
    /// Loads a PNG the program saved (premultiplied packed pixels; opaque here).
    private func load(_ path: String) throws -> PixelImage {
        do { return try ImageFile.load(path: path) } catch {
            throw HarnessError.xRequestFailed("cannot load \(path): \(error)")
        }
    }

    /// Ctrl+S, then waits until the title loses its star.
    private func save(_ paint: PaintWindow) throws {
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
    }

    // MARK: 3. Palette swatches

    @Test("clicking a swatch sets the color the next stroke paints; right-click sets the secondary", arguments: configs)
    func swatchesChooseColors(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("out.png")
        let paint = try start(config, [file])
        defer { paint.stop() }
        let red = Palette.colors[3]
        let blue = Palette.colors[7]
        #expect(red == Color(hex: "#ed1c24") && blue == Color(hex: "#00a2e8"))

        try paint.click(.swatch(3))
        try paint.drag(image: line(from: (50, 100), to: (350, 100), step: 4))
        try paint.click(.swatch(7), button: 3)
        try paint.drag(image: line(from: (50, 200), to: (350, 200), step: 4), button: 3)

        let t = config.tolerance
        let shot = try paint.waitForCapture(
            image: IntRect(x: 40, y: 90, width: 320, height: 120), "the blue right-button stroke"
        ) {
            $0.shows(blue, x: 350 - 40, y: 200 - 90, tolerance: t)
        }
        for x in stride(from: 55, through: 345, by: 10) {
            #expect(
                shot.shows(red, x: x - 40, y: 100 - 90, tolerance: t),
                "screen at (\(x), 100): \(shot.color(x: x - 40, y: 10)), want \(red)")
            #expect(
                shot.shows(blue, x: x - 40, y: 200 - 90, tolerance: t),
                "screen at (\(x), 200): \(shot.color(x: x - 40, y: 110)), want \(blue)")
        }
        try save(paint)
        let png = try load(file)
        #expect(png.width == Self.size.w && png.height == Self.size.h)
        for x in stride(from: 55, through: 345, by: 5) {
            #expect(png[x, 100] == red.pixel, "file at (\(x), 100): \(png.color(x: x, y: 100)), want \(red)")
            #expect(png[x, 200] == blue.pixel, "file at (\(x), 200): \(png.color(x: x, y: 200)), want \(blue)")
        }
        #expect(png[200, 150] == Color.white.pixel, "between the strokes the canvas is still white")
    }

    // MARK: 4. Opacity 50% with a self-crossing stroke

    @Test(
        "at opacity 50% a self-crossing stroke reads 127 or 128 everywhere inside, crossing included",
        arguments: configs)
    func halfOpacityFigureEight(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("eight.png")
        let paint = try start(config, [file])
        defer { paint.stop() }

        var presses = 0
        while widthAfter(pressing: "]", times: presses) < 15 { presses += 1 }
        let width = widthAfter(pressing: "]", times: presses)
        try paint.key("5")
        try paint.key("bracketright", times: presses)

        // A figure eight around (200, 150) in small steps, going once and a bit around so the
        // end also lies over the start: the centre is crossed twice, mid-stroke.
        let center = (200, 150)
        var path: [(Int, Int)] = []
        let steps = 220
        for i in 0...steps + 20 {
            let t = 0.25 + 2 * Double.pi * Double(i) / Double(steps)
            let p = (center.0 + Int((120 * sin(t)).rounded()), center.1 + Int((70 * sin(t) * cos(t)).rounded()))
            if path.last.map({ $0 != p }) ?? true { path.append(p) }
        }
        // A short tail out of the figure, so the end point is painted only by the last event:
        // waiting for it then proves every earlier event is on screen.
        if let end = path.last {
            for k in 1...8 { path.append((end.0 + k, end.1 + 6 * k)) }
            // The last jump is longer than the brush is wide, so its end pixel cannot be
            // painted by the event before it.
            let jump: Int = 48 + Int(width) + 4
            path.append((end.0 + 8, end.1 + jump))
        }
        // The drag by hand, so the preview can be read while the button is still down.
        let o = paint.layout.imageOrigin
        paint.client.moveMouse(toWindow: paint.window, x: o.x + path[0].0, y: o.y + path[0].1)
        paint.client.press(button: 1)
        for p in path.dropFirst() { paint.client.moveMouse(toWindow: paint.window, x: o.x + p.0, y: o.y + p.1) }
        let last = path.last!
        let area = IntRect(x: 60, y: 75, width: 300, height: 190)
        let preview = try paint.waitForCapture(image: area, "the end of the figure eight (button still down)") {
            $0.color(x: last.0 - area.x, y: last.1 - area.y).brightest < 200
        }
        #expect(paint.title?.hasPrefix("*") == false, "modified before the stroke was finished")
        paint.client.release(button: 1)
        try paint.waitForModified(true)
        let shot = try paint.capture(image: area)
        // The preview is exactly what the release merges.
        let changed = zip(preview.image.pixels, shot.image.pixels).filter { $0 != $1 }.count
        #expect(changed == 0, "\(changed) pixels changed when the stroke was released (preview != merged)")
        try save(paint)
        let png = try load(file)

        let field = DistanceField(path: path, rect: area, reach: width / 2 + 3)
        let inner = width / 2 - 1
        var checked = 0
        var bad: [String] = []
        var screenBad: [String] = []
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX where field[x, y] <= inner {
                checked += 1
                let c = png.color(x: x, y: y)
                if !(c.gray == 127 || c.gray == 128) { bad.append("(\(x),\(y)) \(c)") }
                let s = shot.color(x: x - area.x, y: y - area.y)
                let okOnScreen = [127, 128].contains { v in
                    let g = UInt8(v)
                    return ScreenCapture.matches(s, asShown(Color(r: g, g: g, b: g), masks: shot.masks), tolerance: 0)
                }
                if !okOnScreen { screenBad.append("(\(x),\(y)) \(s)") }
            }
        }
        #expect(checked > 2000, "only \(checked) interior pixels: the stroke is too thin for the test")
        #expect(
            bad.isEmpty, "\(bad.count) of \(checked) interior pixels in the file are not 127/128: \(bad.prefix(12))")
        #expect(
            screenBad.isEmpty,
            "\(screenBad.count) of \(checked) interior pixels on screen are not 127/128: \(screenBad.prefix(12))")
        let crossing = png.color(x: center.0, y: center.1)
        #expect(crossing.gray == 127 || crossing.gray == 128, "the crossing point reads \(crossing)")
        // Outside the stroke (beyond radius + ramp) the canvas is untouched white.
        var outside = 0
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX where field[x, y] > width / 2 + 1.5 {
                if png[x, y] != Color.white.pixel { outside += 1 }
            }
        }
        #expect(outside == 0, "\(outside) pixels outside the stroke changed")
    }

    // MARK: 5. Ctrl+S writes what the window shows

    @Test("Ctrl+S writes a PNG whose pixels are the canvas on screen, and the title loses its star", arguments: configs)
    func saveMatchesScreen(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("picture.png")
        let paint = try start(config, [file])
        defer { paint.stop() }
        #expect(paint.title == "picture.png — SwiftPaint")

        try paint.drag(image: line(from: (20, 30), to: (380, 270), step: 3))
        try paint.key("3")
        try paint.click(.swatch(6))
        try paint.key("bracketright", times: 6)
        try paint.drag(image: line(from: (20, 270), to: (380, 40), step: 3))
        try paint.key("0")
        try paint.click(.swatch(4))
        var curve: [(Int, Int)] = []
        for i in 0...90 {
            let t = Double(i) / 90 * 2 * Double.pi
            curve.append((200 + Int((150 * cos(t)).rounded()), 150 + Int((100 * sin(2 * t)).rounded())))
        }
        try paint.drag(image: curve, button: 1)
        try paint.click(.swatch(9), button: 3)
        try paint.click(imageX: 330, imageY: 60, button: 3)
        let orange = Palette.colors[4]
        let purple = Palette.colors[9]
        _ = try paint.waitForCapture(image: IntRect(x: 320, y: 50, width: 21, height: 21), "the last (purple) dot") {
            $0.shows(purple, x: 10, y: 10, tolerance: config.tolerance)
        }
        try paint.waitForModified(true)
        // The dot proves only that its own pixels are on screen, not the rest of the window
        // (an exposure not yet drawn again, say): captureCanvas first waits until the program
        // has drawn everything sent to it (a round trip).
        let before = try paint.captureCanvas()
        #expect(before.contains(orange, tolerance: config.tolerance))
        try save(paint)
        #expect(paint.title == "picture.png — SwiftPaint")
        let png = try load(file)
        #expect(png.isOpaque)
        let diff = differences(screen: before, file: png)
        #expect(diff.isEmpty, "\(config): the saved file differs from the screen:\n\(diff.joined(separator: "\n"))")
        // Saving does not change what is shown.
        let after = try paint.captureCanvas()
        #expect(after.image == before.image, "the canvas changed while saving")
    }

    // MARK: 8. Opening files

    @Test("opening a PNG shows its pixels", arguments: configs)
    func openShowsFilePixels(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("gradient.png")
        let (w, h) = (200, 150)
        var image = PixelImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                image.pixels[y * w + x] = Pixel.pack(
                    r: UInt8(x * 255 / (w - 1)), g: UInt8(y * 255 / (h - 1)), b: UInt8((x * 3 + y * 5) & 0xFF), a: 255)
            }
        }
        do { try ImageFile.save(image, to: file, withAlpha: false) } catch {
            Issue.record("cannot write the test PNG: \(error)")
            return
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))

        let paint = try PaintWindow(config, arguments: [file], imageWidth: w, imageHeight: h)
        defer { paint.stop() }
        #expect(paint.title == "gradient.png — SwiftPaint")
        let shot = try paint.waitForCapture(image: IntRect(x: 0, y: 0, width: w, height: h), "the gradient on screen") {
            differences(screen: $0, file: image, limit: 1).isEmpty
        }
        #expect(differences(screen: shot, file: image).isEmpty)
        paint.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "opening changed the file")
    }

    @Test("a file that is not a PNG opens a blank canvas and Ctrl+S asks instead of overwriting it", arguments: configs)
    func corruptFileIsNeverOverwritten(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("corrupt.png")
        let bytes = Data("not a png\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: file))

        let paint = try start(config, [file])
        defer { paint.stop() }
        let blank = try paint.captureCanvas()
        #expect(
            blank.count(of: .white) == Self.size.w * Self.size.h,
            "the canvas is not blank white: \(blank.histogram(limit: 4))")

        try paint.drag(image: line(from: (50, 50), to: (300, 200), step: 3))
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        #expect(throws: Never.self, "Ctrl+S must ask for a name: the document has none") {
            try paint.waitForSavePrompt()
        }
        try paint.key("Escape")
        try paint.waitForFileDialogClosed("the Save as dialog closed after Escape")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Escape")
        #expect(paint.app.isRunning, "\(paint.app.outputSummary)")
        #expect(paint.title?.hasPrefix("*") == true, "the drawing is still unsaved: \(paint.title ?? "nil")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "the unreadable file was changed")
        paint.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "the unreadable file was changed")
    }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// End-to-end tests of the shape tools, the flood fill and the color picker: swiftpaint on Xvfb
/// driven through XTest, read back from the screen and from the PNGs it saves.
///
/// Expected pictures come from a headless `Session` fed the same input events (same window size,
/// same window coordinates, same modifiers), as in `HistoryDriver`; the assertions on specific
/// pixels (fill inside/outside, picked colors, the circle's squareness) do not depend on it.
///
/// Serialized, depth 24 (`ServerConfig.standard`), except one smoke test at depth 16 without MIT-SHM.
@Suite("ToolsEndToEnd: shape tools, fill and picker", .serialized)
struct ToolsEndToEndTests: CanvasChecks {
    static var config: ServerConfig { .standard }
    static let size = (w: 400, h: 300)
    static var sizeArgument: [String] { ["--size", "\(size.w)x\(size.h)"] }

    func start(_ config: ServerConfig = Self.config, _ extra: [String] = []) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: Self.sizeArgument + extra, imageWidth: Self.size.w, imageHeight: Self.size.h)
    }

    /// Saves, loads the PNG and checks it against the replay and the window.
    @discardableResult
    func saveAndCheck(
        _ driver: ToolsDriver, _ file: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PixelImage {
        let paint = driver.paint
        let expected = driver.expected()
        expectCanvas(paint, equals: expected, "\(what): the window", sourceLocation: sourceLocation)
        try save(paint)
        let png = try load(file)
        #expect(png.isOpaque, "\(what): the PNG is not opaque", sourceLocation: sourceLocation)
        if png != expected {
            Issue.record(
                "\(what): the saved PNG is not the headless replay:\n\(pngDifferences(png, expected).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        }
        let now = try paint.captureCanvas()
        let diff = differences(screen: now, file: png)
        #expect(
            diff.isEmpty, "\(what): the saved PNG differs from the window:\n\(diff.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return png
    }
}

/// The first pixels where two images differ, for messages.
func pngDifferences(_ a: PixelImage, _ b: PixelImage, limit: Int = 10) -> [String] {
    guard a.width == b.width, a.height == b.height else { return ["sizes differ"] }
    var out: [String] = []
    var count = 0
    for y in 0..<a.height {
        for x in 0..<a.width where a[x, y] != b[x, y] {
            count += 1
            if out.count < limit {
                let p = Pixel.unpack(a[x, y])
                let q = Pixel.unpack(b[x, y])
                out.append(
                    "(\(x),\(y)) file \(Color(r: p.r, g: p.g, b: p.b)) a=\(p.a) replay \(Color(r: q.r, g: q.g, b: q.b)) a=\(q.a)"
                )
            }
        }
    }
    if count > out.count { out.append("... \(count) pixels differ in all") }
    return out
}

// MARK: - Driving the window and a headless replay together

/// Drives the window and records every input, so a headless `Session` can replay them.
final class ToolsDriver {
    enum Action {
        case toolbar(ToolbarItem, button: PointerButton)
        case key(name: String, character: Character)
        case drag([(Int, Int)], button: PointerButton, modifiers: Modifiers)
        /// Press, motions, Escape, release.
        case cancelledDrag([(Int, Int)])
        case click(Int, Int, button: PointerButton, modifiers: Modifiers)
    }

    let paint: PaintWindow
    private(set) var actions: [Action] = []

    init(_ paint: PaintWindow) { self.paint = paint }

    static func session(for layout: Layout) -> Session {
        Session(
            document: Document(
                engine: StrokeEngine(width: layout.imageWidth, height: layout.imageHeight), history: History(base: nil),
                path: nil), windowWidth: layout.windowWidth, windowHeight: layout.windowHeight)
    }

    static func xButton(_ b: PointerButton) -> UInt32 { b == .right ? 3 : b == .middle ? 2 : 1 }

    static func modifiers(_ m: KeyModifiers) -> Modifiers {
        var out: Modifiers = []
        if m.contains(.shift) { out.insert(.shift) }
        if m.contains(.control) { out.insert(.control) }
        if m.contains(.alt) { out.insert(.alt) }
        return out
    }

    func toolbar(_ item: ToolbarItem, button: PointerButton = .left) throws {
        try paint.click(item, button: Self.xButton(button))
        actions.append(.toolbar(item, button: button))
    }

    func swatch(_ i: Int, button: PointerButton = .left) throws { try toolbar(.swatch(i), button: button) }

    func key(_ name: String, _ character: Character, times: Int = 1) throws {
        for _ in 0..<times {
            try paint.key(name)
            actions.append(.key(name: name, character: character))
        }
    }

    func drag(_ path: [(Int, Int)], button: PointerButton = .left, modifiers: KeyModifiers = []) throws {
        let o = paint.layout.imageOrigin
        try paint.client.drag(
            paint.window, path: path.map { ($0.0 + o.x, $0.1 + o.y) }, button: Self.xButton(button),
            modifiers: modifiers)
        actions.append(.drag(path, button: button, modifiers: Self.modifiers(modifiers)))
    }

    func click(_ x: Int, _ y: Int, button: PointerButton = .left, modifiers: KeyModifiers = []) throws {
        let w = paint.windowPoint(imageX: x, imageY: y)
        try paint.client.click(paint.window, x: w.0, y: w.1, button: Self.xButton(button), modifiers: modifiers)
        actions.append(.click(x, y, button: button, modifiers: Self.modifiers(modifiers)))
    }

    /// Presses the left button at the path's start, moves through it, waits until `midDrag`
    /// (a check of the preview while the button is still down) returns, presses Escape with the
    /// pointer where it is, then releases the button.
    func cancelledDrag(_ path: [(Int, Int)], midDrag: () throws -> Void) throws {
        let o = paint.layout.imageOrigin
        let c = paint.client
        let origin = c.toScreen(paint.window, x: 0, y: 0)
        guard let first = path.first else { return }
        c.moveMouse(toScreenX: origin.x + o.x + first.0, y: origin.y + o.y + first.1)
        c.press(button: 1)
        defer { c.release(button: 1) }
        for p in path.dropFirst() { c.moveMouse(toScreenX: origin.x + o.x + p.0, y: origin.y + o.y + p.1) }
        try midDrag()
        try c.key("Escape")
        actions.append(.cancelledDrag(path))
    }

    static func apply(_ action: Action, to s: Session, layout: Layout) {
        let o = layout.imageOrigin
        switch action {
        case .toolbar(let item, let button):
            let r = layout.rect(of: item)
            let (x, y) = (r.x + r.width / 2, r.y + r.height / 2)
            s.handle(.motion(x: x, y: y, modifiers: []))
            s.handle(.press(x: x, y: y, button: button, modifiers: []))
            s.handle(.release(x: x, y: y, button: button, modifiers: []))
        case .key(_, let c):
            s.handle(.key(.character(c), modifiers: []))
        case .drag(let path, let button, let m):
            let points = path.map { (x: $0.0 + o.x, y: $0.1 + o.y) }
            guard let first = points.first, let last = points.last else { return }
            // The pointer moves before the modifiers go down (XClient.drag).
            s.handle(.motion(x: first.x, y: first.y, modifiers: []))
            s.handle(.press(x: first.x, y: first.y, button: button, modifiers: m))
            for p in points.dropFirst() { s.handle(.motion(x: p.x, y: p.y, modifiers: m)) }
            s.handle(.release(x: last.x, y: last.y, button: button, modifiers: m))
        case .cancelledDrag(let path):
            let points = path.map { (x: $0.0 + o.x, y: $0.1 + o.y) }
            guard let first = points.first, let last = points.last else { return }
            s.handle(.motion(x: first.x, y: first.y, modifiers: []))
            s.handle(.press(x: first.x, y: first.y, button: .left, modifiers: []))
            for p in points.dropFirst() { s.handle(.motion(x: p.x, y: p.y, modifiers: [])) }
            s.handle(.key(.escape, modifiers: []))
            s.handle(.release(x: last.x, y: last.y, button: .left, modifiers: []))
        case .click(let x, let y, let button, let m):
            let (wx, wy) = (x + o.x, y + o.y)
            s.handle(.motion(x: wx, y: wy, modifiers: []))
            s.handle(.press(x: wx, y: wy, button: button, modifiers: m))
            s.handle(.release(x: wx, y: wy, button: button, modifiers: m))
        }
    }

    /// A fresh session after the first `count` recorded actions (all by default).
    func replay(first count: Int? = nil) -> Session {
        let s = Self.session(for: paint.layout)
        for action in actions.prefix(count ?? actions.count) { Self.apply(action, to: s, layout: paint.layout) }
        return s
    }

    /// The picture a fresh session shows after the first `count` recorded actions.
    func expected(first count: Int? = nil) -> PixelImage {
        let s = replay(first: count)
        var image = PixelImage(width: s.engine.width, height: s.engine.height)
        image.pixels = Array(s.engine.viewPixels)
        return image
    }
}

extension PixelImage {
    /// The smallest rectangle holding every pixel that is not pure white, or nil.
    func nonWhiteBox() -> IntRect? {
        let white = Pixel.pack(r: 255, g: 255, b: 255, a: 255)
        var x0 = Int.max
        var y0 = Int.max
        var x1 = Int.min
        var y1 = Int.min
        for y in 0..<height {
            for x in 0..<width where self[x, y] != white {
                x0 = min(x0, x)
                y0 = min(y0, y)
                x1 = max(x1, x)
                y1 = max(y1, y)
            }
        }
        return x0 == Int.max ? nil : IntRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }
}

// MARK: - Shapes

/// One shape-tool case: how it is chosen and the drag that draws it.
struct ShapeCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// Key name and character that select the tool.
    let key: (String, Character)
    let toggle: ToolbarItem?
    let swatch: Int
    let shift: Bool
    /// Extra keys before the drag (width, opacity).
    let extraKeys: [(String, Character)]
    let path: [(Int, Int)]
    var testDescription: String { name }

    static let all: [ShapeCase] = [
        ShapeCase(
            name: "line", key: ("l", "l"), toggle: nil, swatch: 8, shift: false,
            extraKeys: [("bracketright", "]"), ("bracketright", "]")],
            path: [(40, 250), (60, 230), (120, 180), (390, 20), (300, 60), (250, 90), (330, 75)]),
        ShapeCase(
            name: "dashed line", key: ("l", "l"), toggle: .dashedToggle, swatch: 3, shift: false,
            extraKeys: [("bracketright", "]")],
            path: [(30, 40), (80, 80), (200, 200), (380, 290), (350, 250), (361, 263)]),
        ShapeCase(
            name: "rectangle outline", key: ("r", "r"), toggle: nil, swatch: 9, shift: false,
            extraKeys: [("bracketleft", "[")],
            path: [(60, 50), (70, 60), (390, 290), (200, 120), (300, 200), (321, 233)]),
        ShapeCase(
            name: "filled rectangle", key: ("r", "r"), toggle: .filledToggle, swatch: 4, shift: false,
            extraKeys: [("5", "5")],
            path: [(340, 250), (330, 240), (10, 10), (150, 150), (100, 90), (83, 61)]),
        ShapeCase(
            name: "ellipse", key: ("o", "o"), toggle: nil, swatch: 6, shift: false,
            extraKeys: [("bracketright", "]"), ("bracketright", "]"), ("bracketright", "]")],
            path: [(50, 40), (60, 50), (390, 290), (200, 150), (300, 240), (351, 262)]),
        ShapeCase(
            name: "filled circle (Shift)", key: ("o", "o"), toggle: .filledToggle, swatch: 7, shift: true,
            extraKeys: [],
            path: [(100, 60), (110, 70), (380, 280), (150, 100), (230, 130), (261, 141)]),
    ]
}

extension ToolsEndToEndTests {
    @Test(
        "a shape tool chosen by key draws what a headless replay draws; the PNG equals it and the window",
        arguments: ShapeCase.all)
    func shapeMatchesReplay(shape: ShapeCase) throws {
        let dir = try scratchFolder()
        let file = dir.file("shape.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        try driver.swatch(shape.swatch)
        try driver.key(shape.key.0, shape.key.1)
        if let toggle = shape.toggle { try driver.toolbar(toggle) }
        for (name, c) in shape.extraKeys { try driver.key(name, c) }
        let s = driver.replay()
        #expect(s.settings.tool == (shape.key.1 == "l" ? .line : shape.key.1 == "r" ? .rectangle : .ellipse))
        #expect(s.settings.shapeFilled == (shape.toggle == .filledToggle))
        #expect(s.settings.lineDashed == (shape.toggle == .dashedToggle))
        try driver.drag(shape.path, modifiers: shape.shift ? [.shift] : [])
        let expected = driver.expected()
        let blank = ToolsDriver(paint).expected()
        #expect(expected != blank, "\(shape.name): the replay drew nothing")
        let png = try saveAndCheck(driver, file, shape.name)
        #expect(paint.title == "shape.png — SwiftPaint")

        // Independent of the replay: the picture only spans the final drag, not the overshoot.
        guard let box = png.nonWhiteBox() else {
            Issue.record("\(shape.name): the PNG is blank")
            return
        }
        let a = shape.path.first!
        var b = shape.path.last!
        if shape.shift {
            let side = max(abs(b.0 - a.0), abs(b.1 - a.1))
            b = (a.0 + (b.0 < a.0 ? -side : side), a.1 + (b.1 < a.1 ? -side : side))
        }
        let margin = 12
        let reach = IntRect(
            x0: min(a.0, b.0) - margin, y0: min(a.1, b.1) - margin, x1: max(a.0, b.0) + margin,
            y1: max(a.1, b.1) + margin)
        #expect(
            box.intersection(reach) == box,
            "\(shape.name): paint at \(box) outside the final drag's reach \(reach) (an earlier preview stayed?)")
        if shape.shift {
            #expect(abs(box.width - box.height) <= 1, "\(shape.name): not a circle: \(box)")
            #expect(abs(box.width - 160) <= 8, "\(shape.name): the circle is \(box.width) px wide, side 160")
        }
        if shape.toggle == .filledToggle {
            let cx = (a.0 + b.0) / 2
            let cy = (a.1 + b.1) / 2
            let centre = png.color(x: cx, y: cy)
            #expect(centre != .white, "\(shape.name): the centre (\(cx),\(cy)) is not filled")
        } else if shape.key.1 != "l" {
            let cx = (a.0 + b.0) / 2
            let cy = (a.1 + b.1) / 2
            #expect(png.color(x: cx, y: cy) == .white, "\(shape.name): the centre of an outline is painted")
        }
    }

    // MARK: Escape

    @Test("Escape during a shape drag drops the preview: canvas and title unchanged, no history step")
    func escapeCancelsShape() throws {
        let dir = try scratchFolder()
        let file = dir.file("cancel.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        try driver.swatch(3)
        try driver.key("r", "r")
        let before = try paint.captureCanvas()
        let blank = driver.expected()
        #expect(differences(screen: before, file: blank).isEmpty, "the fresh canvas is not blank")

        let band = IntRect(x: 0, y: 0, width: Self.size.w, height: Self.size.h)
        try driver.cancelledDrag([(60, 50), (100, 90), (250, 200), (301, 221)]) {
            // The preview shows while the button is down.
            _ = try paint.waitForCapture(image: band, "the rectangle preview during the drag") {
                $0.image != before.image
            }
        }
        expectCanvas(paint, equals: before.image, "the canvas after Escape mid-drag (the capture before)")
        expectCanvas(paint, equals: driver.expected(), "the canvas after Escape mid-drag (the replay)")
        #expect(paint.title == "cancel.png — SwiftPaint", "the title after a cancelled shape: \(paint.title ?? "nil")")
        // Barrier: Ctrl+S on the unmodified document writes the file after the release was handled.
        try paint.key("s", modifiers: [.control])
        try Wait.require("the file after Ctrl+S") { FileManager.default.fileExists(atPath: file) }
        let png = try load(file)
        #expect(
            png == blank,
            "the PNG after a cancelled shape is not blank:\n\(pngDifferences(png, blank).joined(separator: "\n"))")
        #expect(paint.title == "cancel.png — SwiftPaint")

        // A committed line, then a cancelled ellipse: the canvas keeps the line, and one undo
        // removes the line (the cancelled shape left no history step).
        try driver.key("l", "l")
        try driver.drag([(30, 250), (90, 200), (151, 171)])
        let afterLine = expectCanvas(paint, equals: driver.expected(), "the committed line")
        try paint.waitForModified(true)
        try driver.key("o", "o")
        guard let afterLine else { return }
        try driver.cancelledDrag([(200, 40), (250, 90), (380, 140), (341, 131)]) {
            _ = try paint.waitForCapture(image: band, "the ellipse preview during the drag") {
                $0.image != afterLine.image
            }
        }
        expectCanvas(paint, equals: afterLine.image, "the canvas after Escape during the ellipse")
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: blank, "Ctrl+Z after the cancelled ellipse (only the line goes)")
        try paint.waitForModified(false)
    }

    // MARK: Fill

    @Test("fill: F, a swatch, a click inside an ellipse outline fills it; tolerance decides the anti-aliased edge")
    func fillInsideOutline() throws {
        let dir = try scratchFolder()
        let file = dir.file("fill.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        let fillBlue = Palette.colors[7]
        let fillOrange = Palette.colors[4]
        // Two light gray (#c3c3c3) ellipse outlines, width 4: an anti-aliased ring of partial
        // coverage (some of it within 32 of white) on either side of each outline. (Rectangles
        // have crisp edges since drawing version 4.)
        try driver.swatch(11)
        try driver.key("o", "o")
        try driver.key("bracketleft", "[")
        #expect(driver.replay().settings.brushWidth == 4)
        try driver.drag([(40, 40), (60, 60), (190, 250), (150, 200), (180, 220)])
        try driver.drag([(220, 40), (250, 60), (390, 290), (370, 230), (360, 220)])
        let outlines = driver.expected()
        expectCanvas(paint, equals: outlines, "the two outlines")

        // Fill A at the default tolerance 32: the half-covered ring is within it.
        try driver.key("f", "f")
        #expect(driver.replay().settings.fillTolerance == 32)
        try driver.swatch(7)
        try driver.click(110, 130)
        // Fill B at tolerance 0 (`[` four times): only exact white.
        try driver.key("bracketleft", "[", times: 4)
        let s = driver.replay()
        #expect(s.settings.fillTolerance == 0)
        #expect(s.settings.brushWidth == 4, "[ with the fill tool changed the brush width")
        try driver.swatch(4)
        try driver.click(290, 130)
        let png = try saveAndCheck(driver, file, "two fills")

        // Independent checks on the PNG against the picture before the fills.
        let before = outlines
        let white = Color.white
        for (x, y) in [(110, 130), (45, 130), (110, 45), (110, 215)] {
            #expect(png.color(x: x, y: y) == fillBlue, "A's inside at (\(x),\(y)) is \(png.color(x: x, y: y))")
        }
        for (x, y) in [(290, 130), (225, 130), (355, 130), (290, 45)] {
            #expect(png.color(x: x, y: y) == fillOrange, "B's inside at (\(x),\(y)) is \(png.color(x: x, y: y))")
        }
        for (x, y) in [(10, 10), (200, 150), (30, 280), (395, 295), (205, 20), (380, 260), (45, 45), (355, 215)] {
            #expect(png.color(x: x, y: y) == white, "outside at (\(x),\(y)) is \(png.color(x: x, y: y))")
        }
        // Every pixel: A's and B's interiors (inside the outlines' middle lines) are filled
        // exactly where the picture before was within the tolerance of white; the soft outline
        // beyond takes the fill where it is a mix of white and the outline (version 3 fills,
        // modelled here from the rule); the rest is unchanged; outside both nothing changed.
        func within(_ c: Color, _ tol: Int) -> Bool { ScreenCapture.matches(c, white, tolerance: tol) }
        func far(_ c: Color) -> Int { [255 - Int(c.r), 255 - Int(c.g), 255 - Int(c.b)].map { $0 * $0 }.reduce(0, +) }
        /// The soft edge of a fill: from each filled pixel towards each neighbour not filled, the
        /// pixels getting farther from white, up to edgeReach + 1 of them; the last is the
        /// outline, the ones before it take the fill mixed under it, up to the first that is no
        /// mix. A pixel reached twice keeps the walk whose outline is farther from white.
        func ramps(_ fill: Color, filled: (Int, Int) -> Bool) -> [Int: Color] {
            var found: [Int: (Int, Color)] = [:]
            for y in 0..<png.height {
                for x in 0..<png.width where filled(x, y) {
                    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)] {
                        var ramp: [(x: Int, y: Int, c: Color)] = []
                        var last = 0
                        for k in 1...(StrokeEngine.edgeReach + 1) {
                            let (qx, qy) = (x + k * dx, y + k * dy)
                            guard qx >= 0, qy >= 0, qx < png.width, qy < png.height, !filled(qx, qy) else { break }
                            let c = before.color(x: qx, y: qy)
                            guard far(c) > last else { break }
                            last = far(c)
                            ramp.append((qx, qy, c))
                        }
                        guard ramp.count >= 2, let outline = ramp.last?.c else { continue }
                        for step in ramp.dropLast() {
                            guard
                                let v = StrokeEngine.filledEdgePixel(
                                    pixel: step.c.pixel, target: white.pixel, outline: outline.pixel, fill: fill.pixel,
                                    opacity: 1)
                            else { break }
                            let key = step.y * png.width + step.x
                            if let held = found[key], held.0 >= last { continue }
                            found[key] = (
                                last, Color(r: UInt8(v >> 16 & 0xFF), g: UInt8(v >> 8 & 0xFF), b: UInt8(v & 0xFF))
                            )
                        }
                    }
                }
            }
            return found.mapValues { $0.1 }
        }
        /// Inside an outline's middle line: the ellipse inscribed in its drag's box.
        func inside(_ x: Int, _ y: Int, centreX: Double) -> Bool {
            let dx = (Double(x) + 0.5 - centreX) / 70
            let dy = (Double(y) + 0.5 - 130.5) / 90
            return dx * dx + dy * dy < 1
        }
        func insideA(_ x: Int, _ y: Int) -> Bool { inside(x, y, centreX: 110.5) }
        func insideB(_ x: Int, _ y: Int) -> Bool { inside(x, y, centreX: 290.5) }
        let edgeA = ramps(fillBlue) { insideA($0, $1) && within(before.color(x: $0, y: $1), 32) }
        let edgeB = ramps(fillOrange) { insideB($0, $1) && before.color(x: $0, y: $1) == white }
        /// Whether `a` and `b` differ by at most one in each channel (the compositor's rounding).
        func near(_ a: Color, _ b: Color) -> Bool {
            abs(Int(a.r) - Int(b.r)) <= 1 && abs(Int(a.g) - Int(b.g)) <= 1 && abs(Int(a.b) - Int(b.b)) <= 1
        }
        var edgesB = 0
        var ringFilledA = 0
        var ringKeptA = 0
        var ringKeptB = 0
        var wrong: [String] = []
        for y in 0..<png.height {
            for x in 0..<png.width {
                let old = before.color(x: x, y: y)
                let new = png.color(x: x, y: y)
                let inA = insideA(x, y)
                let inB = insideB(x, y)
                var want: Color
                if inA {
                    want = within(old, 32) ? fillBlue : old
                    if old != white && within(old, 32) { ringFilledA += 1 }
                    if !within(old, 32) { ringKeptA += 1 }
                    if let blended = edgeA[y * png.width + x] { want = near(new, blended) ? new : blended }
                } else if inB {
                    want = old == white ? fillOrange : old
                    if old != white && within(old, 32) { ringKeptB += 1 }
                    if let blended = edgeB[y * png.width + x] {
                        want = near(new, blended) ? new : blended
                        edgesB += 1
                    }
                } else {
                    want = old
                }
                if new != want && wrong.count < 10 {
                    wrong.append("(\(x),\(y)) \(new), expected \(want) (before \(old))")
                }
            }
        }
        #expect(wrong.isEmpty, "fill pixels:\n\(wrong.joined(separator: "\n"))")
        #expect(ringFilledA > 100, "only \(ringFilledA) anti-aliased pixels inside A were within tolerance 32")
        #expect(ringKeptA > 100, "only \(ringKeptA) outline pixels inside A's middle line")
        #expect(ringKeptB > 100, "only \(ringKeptB) anti-aliased pixels inside B kept at tolerance 0")
        // A's half-covered ring was within its tolerance (filled whole), the line beyond it solid;
        // B's ring, outside tolerance 0, is the soft edge its fill takes.
        #expect(edgesB > 100, "only \(edgesB) pixels along B's edge")
    }

    // MARK: Picker

    @Test("picker: I + left click sets the primary, right click the secondary; Ctrl+click with the brush picks too")
    func pickerFeedsBrush() throws {
        let dir = try scratchFolder()
        let file = dir.file("pick.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        let green = Palette.colors[6]
        let blue = Palette.colors[7]
        let red = Palette.colors[3]
        // Two filled squares: green and blue.
        try driver.key("r", "r")
        try driver.toolbar(.filledToggle)
        try driver.swatch(6)
        try driver.drag([(30, 30), (80, 80), (131, 131)])
        try driver.swatch(7)
        try driver.drag([(250, 30), (300, 80), (351, 131)])
        // Primary red; secondary stays white.
        try driver.swatch(3)
        #expect(driver.replay().settings.primary == red)

        try driver.key("i", "i")
        try driver.click(80, 80)
        try driver.click(300, 80, button: .right)
        let s = driver.replay()
        #expect(
            s.settings.primary == green && s.settings.secondary == blue,
            "replay: primary \(s.settings.primary), secondary \(s.settings.secondary)")

        try driver.key("b", "b")
        try driver.key("bracketright", "]", times: 3)
        try driver.drag(line(from: (30, 200), to: (180, 200), step: 5))
        try driver.drag(line(from: (30, 260), to: (180, 260), step: 5), button: .right)
        // Ctrl+click with the brush: picks (from the blue square) instead of painting.
        try driver.swatch(3)
        try driver.click(320, 100, modifiers: [.control])
        try driver.drag(line(from: (220, 200), to: (380, 200), step: 5))
        let png = try saveAndCheck(driver, file, "picked colors")

        for x in stride(from: 40, through: 170, by: 10) {
            #expect(
                png.color(x: x, y: 200) == green, "the left-button stroke at (\(x),200) is \(png.color(x: x, y: 200))")
            #expect(
                png.color(x: x, y: 260) == blue, "the right-button stroke at (\(x),260) is \(png.color(x: x, y: 260))")
        }
        for x in stride(from: 230, through: 370, by: 10) {
            #expect(
                png.color(x: x, y: 200) == blue,
                "the stroke after Ctrl+click at (\(x),200) is \(png.color(x: x, y: 200))")
        }
        // The Ctrl+click left no dot.
        #expect(png.color(x: 320, y: 100) == blue)
        #expect(
            !png.pixels.contains {
                let p = Pixel.unpack($0)
                return Color(r: p.r, g: p.g, b: p.b) == red
            },
            "red (the swatch before the picks) was painted")
    }

    // MARK: Depth 16, no MIT-SHM

    @Test("smoke: a rectangle outline and a fill at depth 16 without MIT-SHM match the replay")
    func shapeAndFillDepth16() throws {
        let config = ServerConfig(depth: 16, shm: false)
        let dir = try scratchFolder()
        let file = dir.file("d16.png")
        let paint = try start(config, [file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        try driver.swatch(2)
        try driver.key("r", "r")
        try driver.drag([(50, 40), (90, 90), (380, 280), (300, 230), (331, 241)])
        try driver.key("o", "o")
        try driver.drag([(120, 90), (150, 120), (261, 191)])
        try driver.key("f", "f")
        try driver.swatch(14)
        try driver.click(70, 60)
        try driver.swatch(17)
        try driver.click(190, 140)
        // saveAndCheck compares the window with the replay as the 5-6-5 visual shows it
        // (channels truncated), and the PNG exactly.
        let png = try saveAndCheck(driver, file, "depth 16")
        #expect(png.color(x: 70, y: 60) == Palette.colors[14])
        #expect(png.color(x: 190, y: 140) == Palette.colors[17])
        #expect(png.color(x: 10, y: 10) == .white)
        let shot = try paint.captureCanvas()
        #expect(shot.shows(Palette.colors[14], x: 70, y: 60, tolerance: config.tolerance))
        #expect(shot.shows(Palette.colors[17], x: 190, y: 140, tolerance: config.tolerance))
    }
}

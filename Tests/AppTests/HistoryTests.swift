import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// End-to-end undo, redo and the stroke eraser: swiftpaint on Xvfb driven through XTest, read
/// back from the screen and from the PNGs it saves.
///
/// The expected pictures come from two independent sources: captures of the screen taken while
/// drawing (what an undo must bring back), and a headless `Session` fed the same input events
/// (same window size, same window coordinates) but only the strokes that should remain — so an
/// expected picture never depends on the program's own undo or removal logic.
///
/// Serialized, depth 24 (`ServerConfig.standard`: with MIT-SHM or without, by the test's name)
/// except the stroke-eraser smoke test, which runs without MIT-SHM and at depth 16.
@Suite("HistoryEndToEnd: undo, redo and the stroke eraser", .serialized)
struct HistoryEndToEndTests: CanvasChecks {
    static var config: ServerConfig { .standard }
    static let size = (w: 400, h: 300)
    static var sizeArgument: [String] { ["--size", "\(size.w)x\(size.h)"] }
    /// The stroke eraser's hover outline color (dashed with white); no swatch has it.
    static let magenta = Color(r: 0xFF, g: 0x2B, b: 0xD6)

    func start(_ config: ServerConfig = Self.config, _ extra: [String] = []) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: Self.sizeArgument + extra, imageWidth: Self.size.w, imageHeight: Self.size.h)
    }

    /// How many pixels of `shot` show the hover outline's magenta.
    func magentaCount(_ shot: ScreenCapture, _ config: ServerConfig) -> Int {
        shot.count { ScreenCapture.matches($0, Self.magenta, tolerance: config.tolerance) }
    }
}

// MARK: - Driving the window and a headless replay together

/// Drives the window and remembers every input, so a headless `Session` can replay them with
/// some strokes left out.
final class HistoryDriver {
    enum Action {
        case swatch(Int)
        case key(name: String, character: Character)
        case drag([(Int, Int)])
    }

    let paint: PaintWindow
    private(set) var actions: [Action] = []
    /// The brush width the window has now (followed headlessly, so `[`/`]` presses can be chosen).
    private let model: Session

    init(_ paint: PaintWindow) {
        self.paint = paint
        model = Self.session(for: paint.layout)
    }

    static func session(for layout: Layout) -> Session {
        Session(
            document: Document(
                engine: StrokeEngine(width: layout.imageWidth, height: layout.imageHeight), history: History(base: nil),
                path: nil), windowWidth: layout.windowWidth, windowHeight: layout.windowHeight)
    }

    var brushWidth: Double { model.settings.brushWidth }

    func swatch(_ i: Int) throws {
        try paint.click(.swatch(i))
        record(.swatch(i))
    }

    func key(_ name: String, _ character: Character, times: Int = 1) throws {
        for _ in 0..<times {
            try paint.key(name)
            record(.key(name: name, character: character))
        }
    }

    /// Presses `]` until the width is at least `target`.
    func widen(to target: Double) throws {
        while brushWidth < target { try key("bracketright", "]") }
    }

    /// Presses `[` until the width is at most `target`.
    func narrow(to target: Double) throws {
        while brushWidth > target { try key("bracketleft", "[") }
    }

    /// Drags through image points; returns the stroke's index among the drags.
    @discardableResult
    func drag(_ path: [(Int, Int)]) throws -> Int {
        try paint.drag(image: path)
        record(.drag(path))
        return strokeCount - 1
    }

    var strokeCount: Int { actions.filter { if case .drag = $0 { return true } else { return false } }.count }

    private func record(_ action: Action) {
        actions.append(action)
        Self.apply(action, to: model, layout: paint.layout)
    }

    static func apply(_ action: Action, to session: Session, layout: Layout) {
        let o = layout.imageOrigin
        switch action {
        case .swatch(let i):
            let r = layout.rect(of: .swatch(i))
            let (x, y) = (r.x + r.width / 2, r.y + r.height / 2)
            session.handle(.motion(x: x, y: y, modifiers: []))
            session.handle(.press(x: x, y: y, button: .left, modifiers: []))
            session.handle(.release(x: x, y: y, button: .left, modifiers: []))
        case .key(_, let c):
            session.handle(.key(.character(c), modifiers: []))
        case .drag(let path):
            let points = path.map { (x: $0.0 + o.x, y: $0.1 + o.y) }
            guard let first = points.first, let last = points.last else { return }
            session.handle(.motion(x: first.x, y: first.y, modifiers: []))
            session.handle(.press(x: first.x, y: first.y, button: .left, modifiers: []))
            for p in points.dropFirst() { session.handle(.motion(x: p.x, y: p.y, modifiers: [])) }
            session.handle(.release(x: last.x, y: last.y, button: .left, modifiers: []))
        }
    }

    /// The picture a fresh session shows after every recorded action, with the strokes whose
    /// indices are in `omitting` left out (their settings keys and swatches still applied).
    func expected(omitting: Set<Int> = []) -> PixelImage {
        let s = Self.session(for: paint.layout)
        var stroke = 0
        for action in actions {
            if case .drag = action {
                defer { stroke += 1 }
                if omitting.contains(stroke) { continue }
            }
            Self.apply(action, to: s, layout: paint.layout)
        }
        var image = PixelImage(width: s.engine.width, height: s.engine.height)
        image.pixels = Array(s.engine.viewPixels)
        return image
    }

    /// The expected picture with only the first `n` strokes.
    func expected(firstStrokes n: Int) -> PixelImage {
        expected(omitting: Set(n..<max(n, strokeCount)))
    }
}

// MARK: - Three strokes in distinct colors

extension HistoryEndToEndTests {
    /// The three strokes of the undo tests, each in its own color; they cross each other.
    static func path(_ i: Int) -> [(Int, Int)] {
        switch i {
        case 0: return line(from: (30, 60), to: (370, 110), step: 4)
        case 1: return line(from: (40, 250), to: (360, 40), step: 3)
        case 2:
            return (0...60).map { k in
                let t = 1.6 * Double.pi * Double(k) / 60
                return (200 + Int((120 * cos(t)).rounded()), 170 + Int((70 * sin(t)).rounded()))
            }
        default: return line(from: (60, 280), to: (340, 180), step: 4)
        }
    }

    /// Draws stroke `i` of `path(_:)` (red, blue, orange at growing widths; then purple) and
    /// waits until the canvas shows what a headless replay of everything so far shows; returns
    /// that capture.
    @discardableResult
    func drawStroke(_ driver: HistoryDriver, _ i: Int) throws -> ScreenCapture {
        let swatches = [3, 7, 4, 9]
        try driver.swatch(swatches[i])
        if i > 0 { try driver.key("bracketright", "]", times: 2) }
        try driver.drag(Self.path(i))
        let expected = driver.expected()
        guard let shot = expectCanvas(driver.paint, equals: expected, "the canvas after stroke \(i)") else {
            throw HarnessError.captureFailed("no capture after stroke \(i)")
        }
        try driver.paint.waitForModified(true)
        return shot
    }

    // MARK: 1. Undo, then save

    @Test("draw 3 strokes, Ctrl+Z, Ctrl+S: the PNG and the window are the first two strokes")
    func undoThenSave() throws {
        let dir = try scratchFolder()
        let file = dir.file("undo.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        let driver = HistoryDriver(paint)
        _ = try drawStroke(driver, 0)
        let afterTwo = try drawStroke(driver, 1)
        let afterThree = try drawStroke(driver, 2)
        #expect(afterThree.image != afterTwo.image, "the third stroke changed nothing")

        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterTwo.image, "the canvas after Ctrl+Z (the capture after stroke 2)")
        let firstTwo = driver.expected(firstStrokes: 2)
        #expect(firstTwo != driver.expected(), "the third stroke changes nothing in the replay")
        expectCanvas(paint, equals: firstTwo, "the canvas after Ctrl+Z (a replay of strokes 0 and 1)")
        try save(paint)
        let png = try load(file)
        #expect(png.isOpaque)
        #expect(png == firstTwo, "the saved PNG is not a replay of the first two strokes")
        let diff = differences(screen: afterTwo, file: png)
        #expect(diff.isEmpty, "the saved PNG differs from the capture after stroke 2:\n\(diff.joined(separator: "\n"))")
        let now = try paint.captureCanvas()
        let shown = differences(screen: now, file: png)
        #expect(shown.isEmpty, "the saved PNG differs from the window:\n\(shown.joined(separator: "\n"))")
    }

    // MARK: 2. Redo

    @Test("Ctrl+Z twice, then Ctrl+Y and Ctrl+Shift+Z step forward again to the captures taken while drawing")
    func redoStepsForward() throws {
        let paint = try start()
        defer { paint.stop() }
        let driver = HistoryDriver(paint)
        let afterOne = try drawStroke(driver, 0)
        let afterTwo = try drawStroke(driver, 1)
        let afterThree = try drawStroke(driver, 2)

        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterTwo.image, "after one Ctrl+Z")
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterOne.image, "after two Ctrl+Z")
        try paint.key("y", modifiers: [.control])
        expectCanvas(paint, equals: afterTwo.image, "after Ctrl+Y")
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterOne.image, "after Ctrl+Y, Ctrl+Z")
        try paint.key("z", modifiers: [.control, .shift])
        expectCanvas(paint, equals: afterTwo.image, "after Ctrl+Shift+Z")
        try paint.key("z", modifiers: [.control, .shift])
        expectCanvas(paint, equals: afterThree.image, "after Ctrl+Shift+Z to the end")

        // Undo to the blank canvas and back.
        try paint.key("z", modifiers: [.control], times: 3)
        let blank = HistoryDriver(paint).expected()
        expectCanvas(paint, equals: blank, "after undoing every stroke")
        try paint.key("y", modifiers: [.control], times: 3)
        expectCanvas(paint, equals: afterThree.image, "after redoing every stroke")

        // A new stroke after an undo drops the undone step: Ctrl+Y then has nothing to redo.
        // The fourth stroke drawn after it is the barrier that proves the Ctrl+Y was handled.
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterTwo.image, "after Ctrl+Z before a new stroke")
        try paint.key("y", modifiers: [.control])  // redoes stroke 2 ...
        try paint.key("z", modifiers: [.control])  // ... and undoes it again
        try driver.swatch(9)
        try driver.drag(Self.path(3))
        try paint.key("y", modifiers: [.control])
        try driver.swatch(0)
        try driver.drag([(20, 20), (24, 22)])
        // Independent of the undo logic: a fresh replay without stroke 2.
        expectCanvas(
            paint, equals: driver.expected(omitting: [2]),
            "after Ctrl+Z, a new stroke and Ctrl+Y (the undone stroke must stay gone)")
    }

    // MARK: 3. The title's star follows the saved step

    @Test("undoing back to the saved step clears the title's *, a new stroke sets it again")
    func titleFollowsSavedStep() throws {
        let dir = try scratchFolder()
        let file = dir.file("star.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        #expect(paint.title == "star.png — SwiftPaint")
        let driver = HistoryDriver(paint)
        let afterOne = try drawStroke(driver, 0)
        try save(paint)
        let afterTwo = try drawStroke(driver, 1)
        try paint.waitForModified(true)

        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterOne.image, "Ctrl+Z back to the saved step")
        try paint.waitForModified(false)
        #expect(paint.title == "star.png — SwiftPaint")

        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: HistoryDriver(paint).expected(), "Ctrl+Z before the saved step (blank)")
        try paint.waitForModified(true)

        try paint.key("y", modifiers: [.control])
        expectCanvas(paint, equals: afterOne.image, "Ctrl+Y back to the saved step")
        try paint.waitForModified(false)

        try paint.key("y", modifiers: [.control])
        expectCanvas(paint, equals: afterTwo.image, "Ctrl+Y past the saved step")
        try paint.waitForModified(true)
        try paint.key("z", modifiers: [.control])
        try paint.waitForModified(false)

        // A new stroke on top of the saved step sets the star; undoing it clears it again (the
        // saved step is still in the history: only the unsaved redo step was dropped).
        try driver.swatch(4)
        try driver.drag(Self.path(2))
        expectCanvas(paint, equals: driver.expected(omitting: [1]), "a new stroke on the saved step")
        try paint.waitForModified(true)
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterOne.image, "Ctrl+Z of the new stroke")
        try paint.waitForModified(false)

        // The file still holds the saved step.
        let png = try load(file)
        let diff = differences(screen: afterOne, file: png)
        #expect(diff.isEmpty, "the file is not the saved step:\n\(diff.joined(separator: "\n"))")
    }

    // MARK: 4. The toolbar buttons

    @Test("the toolbar's undo button undoes; the redo button is greyed exactly when there is nothing to redo")
    func toolbarButtons() throws {
        let paint = try start()
        defer { paint.stop() }
        let driver = HistoryDriver(paint)
        let afterOne = try drawStroke(driver, 0)
        paint.parkPointer()
        let undoRect = paint.layout.rect(of: .undo)
        let redoRect = paint.layout.rect(of: .redo)
        #expect(undoRect.intersection(redoRect).isEmpty, "undo \(undoRect) and redo \(redoRect) overlap")
        #expect(!undoRect.intersection(paint.layout.toolbar).isEmpty, "the undo button is not on the toolbar")
        let redoGreyed = try paint.client.capture(paint.window, rect: redoRect)
        let undoEnabled = try paint.client.capture(paint.window, rect: undoRect)

        try paint.click(.undo)
        expectCanvas(paint, equals: HistoryDriver(paint).expected(), "after a click on the undo button")
        let redoEnabled = try paint.client.waitForCapture(
            paint.window, rect: redoRect, "the redo button enabled after an undo"
        ) { $0.image != redoGreyed.image }
        let undoGreyed = try paint.client.waitForCapture(
            paint.window, rect: undoRect, "the undo button greyed with nothing to undo"
        ) { $0.image != undoEnabled.image }
        // Greyed means dimmer: the enabled icon has darker ink than the greyed one.
        #expect(
            redoEnabled.image.pixels.map { Int(Pixel.unpack($0).g) }.min()!
                < redoGreyed.image.pixels.map { Int(Pixel.unpack($0).g) }.min()!,
            "the enabled redo button is not darker than the greyed one")
        #expect(
            undoEnabled.image.pixels.map { Int(Pixel.unpack($0).g) }.min()!
                < undoGreyed.image.pixels.map { Int(Pixel.unpack($0).g) }.min()!,
            "the enabled undo button is not darker than the greyed one")

        try paint.click(.redo)
        expectCanvas(paint, equals: afterOne.image, "after a click on the redo button")
        _ = try paint.client.waitForCapture(
            paint.window, rect: redoRect, "the redo button greyed again at the end"
        ) { $0.image == redoGreyed.image }
        _ = try paint.client.waitForCapture(
            paint.window, rect: undoRect, "the undo button enabled again"
        ) { $0.image == undoEnabled.image }

        // A greyed button does nothing: a click on redo at the end leaves the canvas.
        try paint.click(.redo)
        try driver.swatch(7)
        try driver.drag([(380, 280), (384, 282)])
        expectCanvas(paint, equals: driver.expected(), "after a click on the greyed redo button and a dot")
    }
}

// MARK: - The stroke eraser

extension HistoryEndToEndTests {
    /// Stroke A: wide, green, horizontal.
    static let pathA = line(from: (40, 150), to: (360, 150), step: 4)
    /// Stroke B: thin, indigo, vertical, crossing A at (200, 150).
    static let pathB = line(from: (200, 40), to: (200, 262), step: 3)
    /// Stroke C: medium, orange, 50% opacity, crossing B at about (200, 228), away from A.
    static let pathC = line(from: (60, 250), to: (340, 205), step: 4)
    /// A point on B far from A and C, where the stroke eraser aims.
    static let onB = (200, 70)
    /// A point on B under the crossing with A.
    static let crossing = (200, 150)

    /// Draws A, B (and C when `withC`), each checked against a headless replay.
    func drawEraserStrokes(_ driver: HistoryDriver, withC: Bool) throws -> ScreenCapture {
        let paint = driver.paint
        try driver.swatch(6)
        try driver.widen(to: 24)
        try driver.drag(Self.pathA)
        expectCanvas(paint, equals: driver.expected(), "the canvas after stroke A")
        try driver.swatch(8)
        try driver.narrow(to: 3)
        try driver.drag(Self.pathB)
        var last = expectCanvas(paint, equals: driver.expected(), "the canvas after stroke B")
        if withC {
            try driver.swatch(4)
            try driver.widen(to: 9)
            try driver.key("5", "5")
            try driver.drag(Self.pathC)
            last = expectCanvas(paint, equals: driver.expected(), "the canvas after stroke C")
        }
        try paint.waitForModified(true)
        guard let last else { throw HarnessError.captureFailed("no capture of the canvas") }
        return last
    }

    /// B's whole length, a few pixels either side (image coordinates).
    static let bandB = IntRect(x: 190, y: 30, width: 21, height: 240)
    /// A's left part, away from B and C (image coordinates).
    static let bandA = IntRect(x: 30, y: 130, width: 150, height: 41)

    /// Moves the pointer over image point `p` and waits until the hover outline shows in `band`
    /// (B's by default).
    @discardableResult
    func hover(
        _ paint: PaintWindow, _ p: (Int, Int), _ what: String, band: IntRect = Self.bandB
    ) throws -> ScreenCapture {
        let w = paint.windowPoint(imageX: p.0, imageY: p.1)
        paint.client.moveMouse(toWindow: paint.window, x: w.0, y: w.1)
        return try paint.waitForCapture(image: band, what) { magentaCount($0, paint.config) >= 30 }
    }

    /// Clicks image point `p` (the pointer is already there after `hover`).
    func clickImage(_ paint: PaintWindow, _ p: (Int, Int)) throws {
        let w = paint.windowPoint(imageX: p.0, imageY: p.1)
        try paint.client.click(paint.window, x: w.0, y: w.1)
    }

    // MARK: 5. Remove a stroke, save, undo

    @Test("the stroke eraser outlines the hovered stroke, a click removes it, Ctrl+S saves that, Ctrl+Z brings it back")
    func strokeEraserRemovesAndUndoes() throws {
        let dir = try scratchFolder()
        let file = dir.file("erase.png")
        let config = Self.config
        let paint = try start(config, [file])
        defer { paint.stop() }
        let driver = HistoryDriver(paint)
        let afterC = try drawEraserStrokes(driver, withC: true)
        let green = Palette.colors[6]
        let indigo = Palette.colors[8]
        #expect(!afterC.contains(Self.magenta, tolerance: 0), "magenta is on the canvas before any hover")
        // B lies on top of A at the crossing and shows along its length.
        #expect(driver.expected(omitting: [1]) != driver.expected(), "removing B would change nothing")
        #expect(afterC.shows(indigo, x: Self.onB.0, y: Self.onB.1, tolerance: 40), "B is not at \(Self.onB)")

        try paint.key("E")  // Shift+E
        let outlined = try hover(paint, Self.onB, "the hover outline of B (magenta dashes)")
        #expect(paint.title?.hasPrefix("*") == true)
        // The outline follows B: no magenta farther than a few pixels from B's line.
        let stray = (0..<outlined.height).flatMap { y in
            (0..<outlined.width).compactMap { x -> String? in
                let c = outlined.color(x: x, y: y)
                guard ScreenCapture.matches(c, Self.magenta, tolerance: 0) else { return nil }
                return abs(190 + x - 200) > 3 ? "(\(190 + x),\(30 + y))" : nil
            }
        }
        #expect(stray.isEmpty, "magenta away from B: \(stray.prefix(8))")
        let whole = try paint.captureCanvas()
        let total = magentaCount(whole, config)
        #expect(total == magentaCount(outlined, config), "magenta outside B's band: \(total) in all")

        // Moving off the canvas removes the outline completely (it was never in the picture).
        paint.parkPointer()
        expectCanvas(paint, equals: afterC.image, "the canvas after the pointer left B")

        // Choosing the brush while the outline shows (the key goes to the window under the
        // pointer, which stays on B) wipes the outline too.
        try hover(paint, Self.onB, "the hover outline of B again")
        try paint.client.key("b")
        expectCanvas(paint, equals: afterC.image, "the canvas after B (brush) was pressed over the outline")
        try paint.client.key("E")
        // A motion to a new spot on B (the same spot would make no motion event).
        let aim = (Self.onB.0, Self.onB.1 + 2)
        try hover(paint, aim, "the hover outline of B after Shift+E over it")
        try clickImage(paint, aim)
        let withoutB = driver.expected(omitting: [1])
        let shot = expectCanvas(paint, equals: withoutB, "the canvas after the click removed B (a replay of A and C)")
        if let shot {
            #expect(magentaCount(shot, config) == 0, "the outline stayed after the click")
            #expect(shot.shows(.white, x: Self.onB.0, y: Self.onB.1, tolerance: 0), "B is still at \(Self.onB)")
            #expect(shot.shows(.white, x: 200, y: 100, tolerance: 0), "B is still at (200, 100)")
            #expect(
                shot.shows(green, x: Self.crossing.0, y: Self.crossing.1, tolerance: 0),
                "under the crossing A's green is not back: \(shot.color(x: Self.crossing.0, y: Self.crossing.1))")
        }
        try paint.waitForModified(true)

        try save(paint)
        let png = try load(file)
        #expect(png == withoutB, "the saved PNG is not a replay of A and C")
        let now = try paint.captureCanvas()
        let diff = differences(screen: now, file: png)
        #expect(diff.isEmpty, "the saved PNG differs from the window:\n\(diff.joined(separator: "\n"))")

        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterC.image, "Ctrl+Z after the removal (the capture after C)")
        try paint.waitForModified(true)
        // Redo removes it again and is back at the saved step.
        try paint.key("y", modifiers: [.control])
        expectCanvas(paint, equals: withoutB, "Ctrl+Y of the removal")
        try paint.waitForModified(false)
    }

    // MARK: 6. Without MIT-SHM and at depth 16

    @Test(
        "the stroke eraser removes a stroke without MIT-SHM and at depth 16",
        arguments: [ServerConfig(depth: 24, shm: false), ServerConfig(depth: 16, shm: true)])
    func strokeEraserOtherServers(config: ServerConfig) throws {
        let paint = try start(config)
        defer { paint.stop() }
        let driver = HistoryDriver(paint)
        let afterB = try drawEraserStrokes(driver, withC: false)
        // Chosen on the toolbar this time.
        try paint.click(.tool(.strokeEraser))
        try hover(paint, Self.onB, "\(config): the hover outline of B")
        let w = paint.windowPoint(imageX: Self.onB.0, imageY: Self.onB.1)
        try paint.client.click(paint.window, x: w.0, y: w.1)
        expectCanvas(paint, equals: driver.expected(omitting: [1]), "\(config): the canvas after the click removed B")
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterB.image, "\(config): Ctrl+Z after the removal")
    }

    // MARK: 7. Several removals, in either order, with undo and redo

    @Test("removing B then the bottom stroke A, undoing, redoing, and removing while a redo step is pending")
    func strokeEraserSeveralRemovals() throws {
        let paint = try start()
        defer { paint.stop() }
        let driver = HistoryDriver(paint)
        let afterC = try drawEraserStrokes(driver, withC: true)
        let onA = (100, 150)
        // On C at x = 300, far from A and B.
        let onC = (300, 250 - 45 * 240 / 280)
        try paint.key("E")

        // The outline moves from A straight to B: A's outline is wiped when B's is drawn.
        try hover(paint, onA, "the hover outline of A", band: Self.bandA)
        try hover(paint, Self.onB, "the hover outline of B after A's")
        _ = try paint.waitForCapture(image: Self.bandA, "A's outline wiped once B is hovered") {
            magentaCount($0, paint.config) == 0
        }
        try clickImage(paint, Self.onB)
        expectCanvas(paint, equals: driver.expected(omitting: [1]), "after removing B")

        // A is the bottom stroke and B's removal is recorded above it: A's region is rendered
        // again from the starting picture, without B, with C (50%) re-applied where it reaches.
        try hover(paint, onA, "the hover outline of A (B removed)", band: Self.bandA)
        try clickImage(paint, onA)
        expectCanvas(paint, equals: driver.expected(omitting: [0, 1]), "after removing A too")
        paint.parkPointer()
        try paint.waitForModified(true)

        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: driver.expected(omitting: [1]), "Ctrl+Z of A's removal")
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: afterC.image, "Ctrl+Z of B's removal")
        try paint.key("y", modifiers: [.control], times: 2)
        expectCanvas(paint, equals: driver.expected(omitting: [0, 1]), "Ctrl+Y of both removals")

        try paint.key("z", modifiers: [.control], times: 3)
        expectCanvas(paint, equals: driver.expected(omitting: [2]), "Ctrl+Z back before C")

        // The undone C cannot be hovered or removed: a click there does nothing.
        try paint.key("E")
        let onCWindow = paint.windowPoint(imageX: onC.0, imageY: onC.1)
        paint.client.moveMouse(toWindow: paint.window, x: onCWindow.0, y: onCWindow.1)
        try clickImage(paint, onC)
        // B's outline is the barrier that proves the click on C was handled.
        try hover(paint, Self.onB, "the hover outline of B (C undone)")
        paint.parkPointer()
        expectCanvas(paint, equals: driver.expected(omitting: [2]), "after a stroke-eraser click on the undone C")
        try hover(paint, Self.onB, "the hover outline of B before removing it")
        try clickImage(paint, Self.onB)
        expectCanvas(
            paint, equals: driver.expected(omitting: [1, 2]), "removing B while C's redo step is pending")
        try paint.key("y", modifiers: [.control])
        try paint.key("z", modifiers: [.control])
        expectCanvas(paint, equals: driver.expected(omitting: [2]), "Ctrl+Y (nothing to redo), Ctrl+Z: A and B")
    }
}

import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing

@testable import PaintApp

/// The session's behaviour without a window: events in, engine pixels and state out.
@Suite struct SessionTests {
    static func makeSession(
        path: String? = nil, width: Int = 200, height: Int = 100, windowWidth: Int = 1400, windowHeight: Int = 400
    ) -> Session {
        Session(
            document: Document(
                engine: StrokeEngine(width: width, height: height), history: History(base: nil), path: path),
            windowWidth: windowWidth, windowHeight: windowHeight)
    }

    /// Waits until the session's crash journal is made (on its own thread) and everything
    /// recorded is durable, then lets the session take it over, as the window's next look does.
    static func settleJournal(_ s: Session) {
        // One that cannot be made may give way to another (a file written over: the journal
        // starts from the picture's own encoding).
        for _ in 0..<3 {
            s.sink?.flush()
            s.watch(lookingAtFile: false)
            guard let journal = s.sink as? DocumentJournal, case .inProgress = journal.making else { return }
        }
    }

    /// A session whose committed operations a `RecordingSink` collects.
    static func recordingSession(path: String? = nil, width: Int = 200, height: Int = 100) -> (Session, RecordingSink) {
        let s = makeSession(path: path, width: width, height: height)
        let sink = RecordingSink()
        s.sink = sink
        return (s, sink)
    }

    static func temporaryFolder() -> String {
        let dir = NSTemporaryDirectory() + "swiftpaint-session-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Window position of image pixel (x, y).
    static func window(_ s: Session, _ x: Int, _ y: Int) -> (Int, Int) {
        (s.layout.imageOrigin.x + x, s.layout.imageOrigin.y + y)
    }

    /// A press at the first image pixel, motion through the others, a release at the last;
    /// returns what the session asks of the window.
    @discardableResult
    static func drag(
        _ s: Session, _ points: [(Int, Int)], button: PointerButton = .left, modifiers: Modifiers = []
    ) -> Effects {
        let w = points.map { window(s, $0.0, $0.1) }
        var events: [InputEvent] = [.press(x: w[0].0, y: w[0].1, button: button, modifiers: modifiers)]
        for p in w.dropFirst() { events.append(.motion(x: p.0, y: p.1, modifiers: modifiers)) }
        events.append(.release(x: w[w.count - 1].0, y: w[w.count - 1].1, button: button, modifiers: modifiers))
        return s.handle(events)
    }

    /// A left (or other) click on a toolbar item.
    @discardableResult
    static func click(_ s: Session, _ item: ToolbarItem, _ button: PointerButton = .left) -> Effects {
        let r = s.layout.rect(of: item)
        return s.handle([
            .press(x: r.x + 4, y: r.y + 4, button: button, modifiers: []),
            .release(x: r.x + 4, y: r.y + 4, button: button, modifiers: []),
        ])
    }

    @discardableResult
    static func key(_ s: Session, _ c: Character, _ modifiers: Modifiers = []) -> Effects {
        s.handle(.key(.character(c), modifiers: modifiers))
    }

    /// Replaces the file dialog's field with `text` (Ctrl+A, the characters) and presses Enter;
    /// records an issue when no dialog is open.
    static func typeInDialog(_ s: Session, _ text: String, enter: Bool = true) {
        guard s.fileDialog != nil else {
            Issue.record("no file dialog: \(s.mode)")
            return
        }
        key(s, "a", .control)
        if s.fileDialog?.field.text.isEmpty == false { s.handle(.key(.backspace, modifiers: [])) }
        for c in text { s.handle(.key(.character(c), modifiers: [])) }
        if enter { s.handle(.key(.enter, modifiers: [])) }
    }

    @Test func newDocumentDefaults() {
        let s = Self.makeSession()
        #expect(s.settings.primary == .black && s.settings.secondary == .white)
        #expect(s.settings.brushWidth == 5 && s.settings.opacityPercent == 100 && s.settings.tool == .brush)
        #expect(s.title == "Untitled — SwiftPaint")
    }

    @Test func keysSetOpacityWidthToolAndColors() {
        let s = Self.makeSession()
        Self.key(s, "5")
        #expect(s.settings.opacityPercent == 50)
        Self.key(s, "0")
        #expect(s.settings.opacityPercent == 100)
        Self.key(s, "1")
        #expect(s.settings.opacityPercent == 10)
        Self.key(s, "]")
        #expect(s.settings.brushWidth == 6)
        for _ in 0..<100 { Self.key(s, "]") }
        #expect(s.settings.brushWidth == 200)
        for _ in 0..<100 { Self.key(s, "[") }
        #expect(s.settings.brushWidth == 1)
        Self.key(s, "x")
        #expect(s.settings.primary == .white && s.settings.secondary == .black)
        Self.key(s, "e")
        #expect(s.settings.tool == .eraser)
        Self.key(s, "B")
        #expect(s.settings.tool == .brush)
    }

    @Test func swatchClicksSetPrimaryAndSecondary() {
        let s = Self.makeSession()
        let red = s.layout.rect(of: .swatch(3))
        s.handle(.press(x: red.x + 5, y: red.y + 5, button: .left, modifiers: []))
        s.handle(.release(x: red.x + 5, y: red.y + 5, button: .left, modifiers: []))
        #expect(s.settings.primary == Palette.colors[3])
        let blue = s.layout.rect(of: .swatch(8))
        s.handle(.press(x: blue.x + 5, y: blue.y + 5, button: .right, modifiers: []))
        s.handle(.release(x: blue.x + 5, y: blue.y + 5, button: .right, modifiers: []))
        #expect(s.settings.secondary == Palette.colors[8])
        // The right button paints with the secondary color.
        Self.drag(s, [(50, 50), (60, 50)], button: .right)
        #expect(s.engine.viewPixel(x: 55, y: 50) == Palette.colors[8].pixel)
        Self.drag(s, [(50, 80), (60, 80)])
        #expect(s.engine.viewPixel(x: 55, y: 80) == Palette.colors[3].pixel)
    }

    @Test func slidersFollowThePointer() {
        let s = Self.makeSession()
        let slider = s.layout.rect(of: .opacitySlider)
        s.handle(.press(x: slider.x, y: slider.y + 5, button: .left, modifiers: []))
        #expect(s.settings.opacityPercent == 1)
        s.handle(.motion(x: slider.maxX + 40, y: slider.y + 5, modifiers: []))
        #expect(s.settings.opacityPercent == 100)
        s.handle(.release(x: slider.maxX, y: slider.y + 5, button: .left, modifiers: []))
        let width = s.layout.rect(of: .widthSlider)
        s.handle(.press(x: width.maxX - 1, y: width.y + 5, button: .left, modifiers: []))
        s.handle(.release(x: width.maxX - 1, y: width.y + 5, button: .left, modifiers: []))
        #expect(s.settings.brushWidth == 200)
    }

    @Test func drawingMarksTheDocumentModifiedAndShiftClickDrawsALine() {
        let s = Self.makeSession(path: "/tmp/x.png")
        #expect(s.title == "x.png — SwiftPaint")
        Self.drag(s, [(10, 10)])
        #expect(s.title == "*x.png — SwiftPaint")
        #expect(s.engine.viewPixel(x: 10, y: 10) == Color.black.pixel)
        let (wx, wy) = Self.window(s, 150, 10)
        s.handle(.press(x: wx, y: wy, button: .left, modifiers: .shift))
        s.handle(.release(x: wx, y: wy, button: .left, modifiers: .shift))
        for x in stride(from: 10, through: 150, by: 10) {
            #expect(s.engine.viewPixel(x: x, y: 10) == Color.black.pixel, "gap at \(x)")
        }
    }

    @Test func ctrlClickPicksTheColorUnderThePointer() {
        let s = Self.makeSession()
        s.setPrimary(Color(r: 10, g: 20, b: 30))
        Self.drag(s, [(40, 40)])
        s.setPrimary(.black)
        Self.drag(s, [(40, 40)], button: .right, modifiers: .control)
        #expect(s.settings.secondary == Color(r: 10, g: 20, b: 30))
    }

    @Test func saveWritesThePictureAndClearsTheModifiedMark() throws {
        let dir = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = Self.makeSession(path: dir + "/a.png")
        Self.key(s, "5")
        Self.drag(s, [(20, 20), (80, 60), (20, 60), (80, 20)])
        Self.key(s, "s", .control)
        #expect(s.isModified == false)
        #expect(s.message.hasPrefix("Saved to"))
        let saved = try ImageFile.load(path: dir + "/a.png")
        #expect(saved.pixels == Array(s.engine.viewPixels))
        #expect(Pixel.unpack(saved[50, 40]).r == 127 || Pixel.unpack(saved[50, 40]).r == 128)
    }

    @Test func aFailedSaveKeepsTheDocumentModifiedAndSaysWhy() {
        let dir = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = Self.makeSession(path: dir)
        Self.drag(s, [(20, 20)])
        Self.key(s, "s", .control)
        #expect(s.isModified)
        #expect(s.message.contains("folder"), "\(s.message)")
        #expect(s.title.hasPrefix("*"))
    }

    @Test func saveWithoutANameAsksForOneAndTabCompletes() throws {
        let dir = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/existing-picture.png", contents: Data())
        let s = Self.makeSession()
        s.makesThumbnails = false
        Self.drag(s, [(20, 20)])
        Self.key(s, "s", .control)
        guard let dialog = s.fileDialog, dialog.purpose == .save(then: nil) else {
            Issue.record("no save dialog: \(s.mode)")
            return
        }
        // The name offered, its stem chosen so typing replaces it and keeps ".png".
        #expect(dialog.field.text == "untitled.png" && dialog.field.selection == 0..<8)
        // A path and a prefix, then Tab: completed from the folder it names.
        Self.typeInDialog(s, dir + "/exi", enter: false)
        s.handle(.key(.tab, modifiers: []))
        #expect(s.fileDialog?.field.text == dir + "/existing-picture.png")
        for _ in 0..<"existing-picture.png".count { s.handle(.key(.backspace, modifiers: [])) }
        for c in "new.png" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.fileDialog == nil && s.mode == .normal)
        #expect(FileManager.default.fileExists(atPath: dir + "/new.png"))
        #expect(s.title == "new.png — SwiftPaint")
    }

    @Test func closingWithUnsavedChangesAsks() {
        let s = Self.makeSession()
        #expect(s.handle(.closeRequest).exit == 0, "nothing to lose: closes at once")

        let t = Self.makeSession()
        Self.drag(t, [(20, 20)])
        #expect(t.handle(.closeRequest).exit == nil && t.mode == .confirmLeave(.quit))
        #expect(t.handle(.key(.escape, modifiers: [])).exit == nil && t.mode == .normal)
        t.handle(.closeRequest)
        #expect(Self.key(t, "d").exit == 0)
    }

    /// At every zoom, window and image coordinates agree both ways, and zooming keeps the point
    /// under the pointer in place.
    @Test(arguments: Zoom.steps)
    func zoomMapsWindowAndImageBothWays(zoom: Zoom) {
        // Scrolled to the middle of a large image, so zooming has room to keep the anchor.
        let base = Layout(
            windowWidth: 1000, windowHeight: 700, imageWidth: 3000, imageHeight: 2000, scrollX: 1000, scrollY: 700)
        let layout = base.zoomed(to: zoom, keepingWindowX: 400, y: 300)
        #expect(layout.zoom == zoom)
        let before = base.imagePoint(windowX: 400, windowY: 300)
        let after = layout.imagePoint(windowX: 400, windowY: 300)
        // Along an axis where the shown picture is larger than the canvas area the anchor stays
        // put; where it is smaller the picture is centred.
        let area = layout.canvasArea
        let tolerance = max(1, 1 / layout.zoom.factor)
        // (Unless that would scroll past the picture's edge: then it is scrolled to the edge.)
        if zoom.scaledUp(3000) > area.width {
            let atEdge = layout.scrollX == 0 || layout.scrollX == zoom.scaledUp(3000) - area.width
            #expect(abs(after.x - before.x) <= tolerance || atEdge, "\(before) → \(after)")
        } else {
            #expect(layout.scrollX == 0, "a picture narrower than the window is centred")
        }
        if zoom.scaledUp(2000) > area.height {
            let atEdge = layout.scrollY == 0 || layout.scrollY == zoom.scaledUp(2000) - area.height
            #expect(abs(after.y - before.y) <= tolerance || atEdge, "\(before) → \(after)")
        } else {
            #expect(layout.scrollY == 0, "a picture lower than the window is centred")
        }
        // Every image pixel of a rectangle is shown inside its window rectangle, and that window
        // rectangle shows no image pixel far outside it.
        let r = IntRect(x: Int(before.x) - 10, y: Int(before.y) - 6, width: 20, height: 12)
        let w = layout.windowRect(forImageRect: r)
        #expect(!w.isEmpty)
        for (wx, wy) in [(w.x, w.y), (w.maxX - 1, w.maxY - 1)] {
            let p = layout.imagePoint(windowX: wx, windowY: wy)
            let slack = 1 / layout.zoom.factor
            #expect(
                p.x >= Double(r.x) - slack && p.x <= Double(r.maxX) + slack, "x \(p.x) for \(r) at \(layout.zoomText)")
            #expect(p.y >= Double(r.y) - slack && p.y <= Double(r.maxY) + slack, "y \(p.y)")
        }
        let back = layout.imageRect(forWindowRect: w)
        #expect(back.intersection(r) == r, "\(back) covers \(r)")
    }

    @Test func zoomKeysAndControlWheelChangeWhatAStrokeCovers() {
        let s = Self.makeSession(width: 200, height: 100)
        Self.key(s, "=", .control)
        #expect(s.layout.zoom == Zoom(3, 2) && s.layout.zoomText == "150%")
        Self.key(s, "=", .control)
        #expect(s.layout.zoom == Zoom(2) && s.layout.zoomText == "200%")
        // A drag over 40 window pixels now covers 20 image pixels.
        let o = s.layout.imageOrigin
        s.handle(.press(x: o.x + 20, y: o.y + 20, button: .left, modifiers: []))
        s.handle(.motion(x: o.x + 60, y: o.y + 20, modifiers: []))
        s.handle(.release(x: o.x + 60, y: o.y + 20, button: .left, modifiers: []))
        #expect(s.engine.viewPixel(x: 20, y: 10) == Color.black.pixel)
        #expect(s.engine.viewPixel(x: 40, y: 10) == Color.white.pixel)
        Self.key(s, "5")
        Self.key(s, "0", .control)
        #expect(s.layout.zoom == .actualSize)
        let c = s.layout.imageOrigin
        s.handle(.press(x: c.x + 10, y: c.y + 10, button: .wheelDown, modifiers: [.control]))
        #expect(s.layout.zoom == Zoom(2, 3) && s.layout.zoomText == "67%")
        s.handle(.press(x: c.x + 10, y: c.y + 10, button: .wheelDown, modifiers: [.control]))
        #expect(s.layout.zoom == Zoom(1, 2) && s.layout.zoomText == "50%")
        for _ in 0..<5 { Self.key(s, "-", .control) }
        #expect(s.layout.zoom == Zoom.minimum && s.message == "Zoomed out as far as it goes")
        // Once the zoom moves it is no longer so: the message goes (it stayed, at 40 % after a
        // fit, until the next change to the picture).
        Self.key(s, "=", .control)
        #expect(s.layout.zoom != Zoom.minimum && s.message.isEmpty)
        for _ in 0..<12 { Self.key(s, "=", .control) }
        #expect(s.message == "Zoomed in as far as it goes")
        Self.key(s, "0", .control)
        #expect(s.layout.zoom == .actualSize && s.message.isEmpty)
        #expect(s.settings.opacityPercent == 50, "Ctrl+0 is not the opacity key")
    }

    @Test func thePointerIsTheBrushOutlineOrACrosshairOverThePictureAndAHandWhilePanning() {
        let s = Self.makeSession(width: 200, height: 100)
        #expect(s.pointerShape == .arrow)
        let (x, y) = Self.window(s, 50, 50)
        s.handle(.motion(x: x, y: y, modifiers: []))
        // The brush's circle at the brush's width, at the zoom.
        #expect(s.pointerShape == .brush(diameter: 5))
        Self.key(s, "]")
        Self.key(s, "=", .control)
        #expect(s.pointerShape == .brush(diameter: Int((s.settings.brushWidth * s.layout.zoom.factor).rounded())))
        #expect(s.handle(.key(.character("]"), modifiers: [])).pointer != nil, "a new width changes the pointer")
        Self.key(s, "0", .control)
        Self.key(s, "r")
        #expect(s.pointerShape == .crosshair)
        let tool = s.layout.rect(of: .tool(.brush))
        s.handle(.motion(x: tool.x + 2, y: tool.y + 2, modifiers: []))
        #expect(s.pointerShape == .arrow)
        s.handle(.press(x: x, y: y, button: .middle, modifiers: []))
        #expect(s.pointerShape == .move)
        s.handle(.release(x: x, y: y, button: .middle, modifiers: []))
        #expect(s.pointerShape == .crosshair)
        Self.key(s, "b")
        #expect(s.pointerShape == .brush(diameter: Int(s.settings.brushWidth)))
        s.handle(.leave)
        #expect(s.pointerShape == .arrow)
    }

    @Test func escapeCancelsAStrokeInProgress() {
        let s = Self.makeSession()
        let (x, y) = Self.window(s, 30, 30)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: x + 40, y: y, modifiers: []))
        #expect(s.engine.viewPixel(x: 50, y: 30) == Color.black.pixel)
        s.handle(.key(.escape, modifiers: []))
        s.handle(.release(x: x + 40, y: y, button: .left, modifiers: []))
        #expect(s.engine.viewPixel(x: 50, y: 30) == Color.white.pixel)
        #expect(!s.isModified)
    }

    @Test func layoutCentresSmallImagesAndMapsPointsBothWays() {
        let layout = Layout(windowWidth: 1000, windowHeight: 500, imageWidth: 200, imageHeight: 100)
        let o = layout.imageOrigin
        #expect(o.x == 400)
        #expect(layout.imagePoint(windowX: o.x + 7, windowY: o.y + 3) == Point(x: 7.5, y: 3.5))
        #expect(
            layout.windowRect(forImageRect: IntRect(x: 0, y: 0, width: 10, height: 10))
                == IntRect(x: o.x, y: o.y, width: 10, height: 10))
        for item in layout.controls.items {
            let r = layout.rect(of: item)
            #expect(layout.item(atX: r.x + r.width / 2, y: r.y + r.height / 2) == item, "\(item)")
        }
    }

    @Test func aLargeImageScrollsWithTheWheelAndPaintsWhereThePointerIs() {
        let s = Session(
            document: Document(engine: StrokeEngine(width: 3000, height: 2000), history: History(base: nil), path: nil),
            windowWidth: 800, windowHeight: 600)
        #expect(s.layout.imageOrigin.x == 0)
        s.handle(.press(x: 100, y: 200, button: .wheelDown, modifiers: []))
        s.handle(.press(x: 100, y: 200, button: .wheelDown, modifiers: .shift))
        #expect(s.layout.scrollY == 48 && s.layout.scrollX == 48)
        s.handle(.press(x: 100, y: 200, button: .left, modifiers: []))
        s.handle(.release(x: 100, y: 200, button: .left, modifiers: []))
        let expected = s.layout.imagePoint(windowX: 100, windowY: 200)
        let top = s.layout.canvasArea.y
        #expect(expected == Point(x: 148.5, y: Double(200 - top + 48) + 0.5))
        #expect(s.engine.viewPixel(x: 148, y: 200 - top + 48) == Color.black.pixel)
        for _ in 0..<1000 { s.handle(.press(x: 100, y: 200, button: .wheelUp, modifiers: [])) }
        #expect(s.layout.scrollY == 0)
    }

    @Test func chromeRendersWithoutTouchingTheCanvas() {
        let s = Self.makeSession()
        let before = Array(s.engine.viewPixels)
        let toolbar = s.renderToolbar()
        #expect(toolbar.pixels.width == 1400 && toolbar.pixels.height == s.layout.toolbar.height)
        #expect(s.layout.toolbar.height == 64, "one row at 1400 px")
        #expect(toolbar.texts.contains { $0.text == "5 px" })
        #expect(toolbar.texts.contains { $0.text == "100%" })
        let status = s.renderStatus()
        #expect(status.pixels.height == s.layout.statusBar.height && s.layout.statusBar.height == 28)
        #expect(status.texts.contains { $0.text == "200 × 100" })
        #expect(Array(s.engine.viewPixels) == before)
    }
}

@Suite struct CommandLineOptionsTests {
    @Test func parsesFileSizeAndBackground() throws {
        let o = try CommandLineOptions.parse(["--size", "640x480", "--background", "#ff0000", "a.png"])
        #expect(o.width == 640 && o.height == 480 && o.path == "a.png")
        #expect(o.background == .color(Color(r: 255, g: 0, b: 0)))
        #expect(try CommandLineOptions.parse(["--background", "transparent"]).background == .transparent)
        #expect(try CommandLineOptions.parse(["--help"]).action == .help)
    }

    @Test(arguments: [
        ["--size", "0x0"], ["--size"], ["--size", "abc"], ["--bogus"], ["--background"],
    ])
    func rejectsBadInputWithAMessage(args: [String]) {
        #expect(throws: OptionError.self) { try CommandLineOptions.parse(args) }
    }

    @Test func furtherFilesOpenInWindowsOfTheirOwnWithTheSameOptions() throws {
        let o = try CommandLineOptions.parse([
            "a.png", "--size", "64x32", "b.png", "--no-journal", "--background", "#00ff00", "c.png",
        ])
        #expect(o.path == "a.png")
        #expect(o.otherPaths == ["b.png", "c.png"])
        #expect(
            o.arguments(opening: "b.png") == ["--size", "64x32", "--no-journal", "--background", "#00ff00", "b.png"])
        // The other window's command line parses to the same options with that file alone.
        var other = try CommandLineOptions.parse(o.arguments(opening: "c.png"))
        #expect(other.path == "c.png" && other.otherPaths.isEmpty)
        other.path = o.path
        other.otherPaths = o.otherPaths
        #expect(other == o)
    }
}

/// Undo and redo from the keyboard and the toolbar, and what they do to the modified mark.
@Suite struct UndoTests {
    typealias T = SessionTests

    @Test func ctrlZUndoesAndCtrlYRedoesAndTheSavedStepIsNotModified() throws {
        let dir = T.temporaryFolder()
        let s = T.makeSession(path: dir + "/u.png")
        let blank = Array(s.engine.viewPixels)
        T.drag(s, [(10, 10), (50, 50)])
        let one = Array(s.engine.viewPixels)
        T.key(s, "s", .control)
        #expect(!s.isModified)
        T.drag(s, [(80, 10), (20, 60)])
        #expect(s.isModified)
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == one)
        #expect(!s.isModified, "back on the saved step")
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == blank && s.isModified)
        T.key(s, "y", .control)
        #expect(Array(s.engine.viewPixels) == one && !s.isModified)
        T.key(s, "Z", [.control, .shift])
        #expect(s.isModified && !s.history.canRedo)
    }

    @Test func toolbarButtonsUndoAndRedo() {
        let s = T.makeSession()
        T.drag(s, [(10, 10)])
        let undo = s.layout.rect(of: .undo)
        s.handle(.press(x: undo.x + 5, y: undo.y + 5, button: .left, modifiers: []))
        s.handle(.release(x: undo.x + 5, y: undo.y + 5, button: .left, modifiers: []))
        #expect(s.engine.viewPixel(x: 10, y: 10) == Color.white.pixel)
        let redo = s.layout.rect(of: .redo)
        s.handle(.press(x: redo.x + 5, y: redo.y + 5, button: .left, modifiers: []))
        s.handle(.release(x: redo.x + 5, y: redo.y + 5, button: .left, modifiers: []))
        #expect(s.engine.viewPixel(x: 10, y: 10) == Color.black.pixel)
    }

    /// A stroke redraws the toolbar only when it changes what the toolbar shows (undo or redo
    /// turning available or not, a new recent color): the redraw costs milliseconds.
    @Test func theToolbarIsRedrawnWhenUndoOrRedoChangeNotAfterEveryStroke() {
        let s = T.makeSession()
        _ = s.takeEffects()
        #expect(T.drag(s, [(10, 10), (50, 50)]).toolbar, "undo turns available")
        let afterFirst = s.renderToolbar().pixels
        #expect(!T.drag(s, [(20, 10), (60, 50)]).toolbar, "a second stroke changes nothing there")
        #expect(!T.drag(s, [(25, 10), (65, 50)]).toolbar)
        #expect(s.renderToolbar().pixels == afterFirst, "and the toolbar it did not redraw is the same")
        #expect(T.key(s, "z", .control).toolbar, "redo turns available")
        #expect(!T.key(s, "z", .control).toolbar, "undo and redo both still available: nothing changes")
        #expect(s.history.canUndo && s.history.canRedo)
        #expect(T.drag(s, [(30, 10), (70, 50)]).toolbar, "a new stroke ends redo")
        #expect(!s.history.canRedo)
        s.setPrimary(Color(r: 200, g: 0, b: 0))
        _ = s.takeEffects()
        #expect(T.drag(s, [(40, 10), (80, 50)]).toolbar, "a new color joins the recent colors")
        #expect(!T.drag(s, [(50, 10), (90, 50)]).toolbar)
    }

    @Test func clearIsUndoable() {
        let s = T.makeSession()
        T.drag(s, [(10, 10), (90, 40)])
        let drawn = Array(s.engine.viewPixels)
        s.clear()
        T.key(s, "z", .control)
        #expect(Array(s.engine.viewPixels) == drawn)
    }
}

/// Every region of the window, at every scale and size the program supports: nothing overlaps.
@Suite struct WindowGeometryTests {
    /// Window sizes in 96-dpi pixels.
    static let sizes = [(640, 480), (800, 600), (1024, 768), (1920, 1080)]

    @Test(
        "toolbar controls, canvas, scrollbars and status bar never overlap; the toolbar has one row at 1024",
        arguments: [1.0, 1.25, 1.5, 2.0])
    func nothingOverlaps(scale: Double) throws {
        let ui = UIScale(scale)
        for (w, h) in Self.sizes {
            // A picture larger than the window (both scrollbars) and one that fits.
            for image in [(4000, 3000), (100, 80)] {
                let layout = Layout(
                    windowWidth: ui.px(Double(w)), windowHeight: ui.px(Double(h)), imageWidth: image.0,
                    imageHeight: image.1, ui: ui)
                var regions: [(String, IntRect)] = layout.controls.items.map {
                    ("\($0)", layout.controls.hitRect(of: $0))
                }
                regions.append(("menu bar", layout.menuBar))
                regions.append(("canvas", layout.canvasArea))
                regions.append(("status bar", layout.statusBar))
                if let bar = layout.horizontalScrollbar { regions.append(("horizontal scrollbar", bar.track)) }
                if let bar = layout.verticalScrollbar { regions.append(("vertical scrollbar", bar.track)) }
                if !layout.scrollbarCorner.isEmpty { regions.append(("corner", layout.scrollbarCorner)) }
                let window = IntRect(x: 0, y: 0, width: layout.windowWidth, height: layout.windowHeight)
                for (name, r) in regions {
                    #expect(window.intersection(r) == r, "\(name) \(r) leaves the \(w) x \(h) window at \(ui)")
                }
                let overlaps = ToolbarLayoutTests.overlaps(regions)
                #expect(overlaps.isEmpty, "\(w) x \(h) at \(ui): \(overlaps)")
                #expect(layout.canvasArea.height >= ui.px(200), "\(w) x \(h) at \(ui): the canvas keeps room")
                #expect((layout.horizontalScrollbar != nil) == (image.0 > 1000))
                if w >= 1024 { #expect(layout.controls.rows == 1, "\(w) x \(h) at \(ui)") }
                // In the menu bar its titles, side by side; in the status bar the zoom field.
                let session = Session(
                    document: Document(
                        engine: StrokeEngine(width: image.0, height: image.1), history: History(base: nil), path: nil),
                    windowWidth: layout.windowWidth, windowHeight: layout.windowHeight)
                session.uiScale = ui
                _ = session.renderMenuBar(measure: FixedWidthMeasurer())
                let titles = session.menuGeometry.titles
                #expect(titles.allSatisfy { layout.menuBar.intersection($0) == $0 }, "\(titles)")
                #expect(zip(titles, titles.dropFirst()).allSatisfy { $0.maxX <= $1.x })
                #expect(layout.statusBar.intersection(session.zoomField) == session.zoomField)
                // Every menu opened, the zoom presets and the keys panel: inside the window.
                for index in MenuName.allCases.indices {
                    let d = session.menuGeometry.dropDown(index)
                    #expect(window.intersection(d) == d, "menu \(index) \(d) at \(w) x \(h), \(ui)")
                }
                session.zoomMenu = MenuBar(menus: [session.zoomPresets])
                let presets = session.zoomMenuGeometry.dropDown(0)
                #expect(window.intersection(presets) == presets, "the zoom presets \(presets) at \(w) x \(h), \(ui)")
                #expect(presets.maxY <= session.zoomField.y, "the presets stand above the field")
                session.zoomMenu = MenuBar(menus: [])
                for kind in [InfoPanel.Kind.keys, .about] {
                    session.showInfo(kind)
                    let frame = session.infoFrame
                    #expect(window.intersection(frame) == frame, "\(kind) \(frame) at \(w) x \(h), \(ui)")
                }
                session.infoPanel = nil
                // The status bar's fields side by side: the zoom, the stabilizer, then the name.
                let status = session.renderStatus()
                let stabilizer = try #require(session.stabilizerField)
                #expect(
                    session.zoomField.maxX <= stabilizer.x && layout.statusBar.intersection(stabilizer) == stabilizer)
                let name = try #require(status.texts.first { $0.bold })
                #expect(name.x >= stabilizer.maxX, "the file name after the fields")
            }
        }
    }
}

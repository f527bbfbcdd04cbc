import Glibc
import PaintCore
import Testing

@testable import PaintApp

/// The shape, fill and picker tools in the session: keys, toggles, Shift, Escape, and that what
/// they record replays to the same pixels.
@Suite struct ToolTests {
    typealias T = SessionTests

    static func replayed(_ ops: [Operation], width: Int, height: Int) -> [UInt32] {
        let engine = StrokeEngine(width: width, height: height)
        let history = History(base: nil)
        for op in ops { history.perform(op, engine: engine) }
        return Array(engine.viewPixels)
    }

    @Test func keysChooseTheTools() {
        let s = T.makeSession()
        for (key, tool) in [
            ("l", Tool.line), ("r", .rectangle), ("o", .ellipse), ("f", .fill), ("i", .picker), ("b", .brush),
        ] {
            T.key(s, Character(key))
            #expect(s.settings.tool == tool)
        }
    }

    @Test func aLineDragDrawsALineAndShiftSnapsItTo15Degrees() {
        let (s, sink) = T.recordingSession(width: 200, height: 120)
        T.key(s, "l")
        T.drag(s, [(10, 60), (100, 20), (190, 60)])
        #expect(s.engine.viewPixel(x: 100, y: 60) == Color.black.pixel, "the line ends where the drag ended")
        #expect(s.engine.viewPixel(x: 100, y: 20) == Color.white.pixel, "no trace of the intermediate preview")
        // Shift: a drag to 20° off horizontal lands on 15°.
        T.drag(s, [(10, 100), (150, 100 - 51)], modifiers: .shift)
        guard case .shape(_, let spec) = sink.operations.last else {
            Issue.record("no shape recorded")
            return
        }
        let angle = atan2(spec.from.y - spec.to.y, spec.to.x - spec.from.x) * 180 / Double.pi
        #expect(abs(angle - 15) < 1e-9, "\(angle)")
        #expect(Self.replayed(sink.operations, width: 200, height: 120) == Array(s.engine.viewPixels))
    }

    @Test func filledToggleAndShiftSquareAndEscapeCancels() {
        let (s, sink) = T.recordingSession(width: 200, height: 120)
        T.key(s, "r")
        let toggle = s.layout.rect(of: .filledToggle)
        s.handle(.press(x: toggle.x + 3, y: toggle.y + 3, button: .left, modifiers: []))
        s.handle(.release(x: toggle.x + 3, y: toggle.y + 3, button: .left, modifiers: []))
        #expect(s.settings.shapeFilled)
        T.drag(s, [(20, 20), (90, 50)], modifiers: .shift)
        #expect(s.engine.viewPixel(x: 55, y: 55) == Color.black.pixel, "Shift made it a 70 x 70 square, filled")
        let before = Array(s.engine.viewPixels)
        let (x, y) = T.window(s, 120, 20)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: x + 50, y: y + 60, modifiers: []))
        #expect(Array(s.engine.viewPixels) != before)
        s.handle(.key(.escape, modifiers: []))
        s.handle(.release(x: x + 50, y: y + 60, button: .left, modifiers: []))
        #expect(Array(s.engine.viewPixels) == before)
        #expect(sink.operations.count == 1)
    }

    @Test func fillFillsTheEnclosedRegionAndThePickerPicksIt() {
        let (s, sink) = T.recordingSession(width: 200, height: 120)
        T.key(s, "r")
        T.drag(s, [(20, 20), (120, 100)])
        T.key(s, "f")
        let red = s.layout.rect(of: .swatch(3))
        s.handle(.press(x: red.x + 4, y: red.y + 4, button: .left, modifiers: []))
        s.handle(.release(x: red.x + 4, y: red.y + 4, button: .left, modifiers: []))
        T.drag(s, [(70, 60)])
        #expect(s.engine.viewPixel(x: 70, y: 60) == Palette.colors[3].pixel)
        #expect(s.engine.viewPixel(x: 160, y: 60) == Color.white.pixel, "the outline holds the fill in")
        T.key(s, "]")
        #expect(s.settings.fillTolerance == 40)
        T.key(s, "i")
        T.drag(s, [(160, 60)], button: .right)
        #expect(s.settings.secondary == .white)
        T.drag(s, [(70, 60)])
        #expect(s.settings.primary == Palette.colors[3])
        #expect(Self.replayed(sink.operations, width: 200, height: 120) == Array(s.engine.viewPixels))
        // A fill can be undone like any step.
        T.key(s, "z", .control)
        #expect(s.engine.viewPixel(x: 70, y: 60) == Color.white.pixel)
    }

    /// The fill has no width: the toolbar's preview shows the color it pours, the same whatever
    /// the brush width, and no brush tip (it showed a dot of the brush's width).
    @Test func theFillsPreviewShowsItsColorNotABrushTip() {
        let s = T.makeSession()
        let box = s.layout.widthPreview
        let bar = s.layout.toolbar
        func preview() -> PixelImage {
            s.renderToolbar().pixels.cropped(
                to: IntRect(x: box.x, y: box.y - bar.y, width: box.width, height: box.height))
        }
        s.setPrimary(Color(r: 200, g: 20, b: 20))
        for _ in 0..<8 { T.key(s, "[") }
        #expect(s.settings.brushWidth < 3)
        T.key(s, "f")
        let thin = preview()
        T.key(s, "b")
        for _ in 0..<12 { T.key(s, "]") }
        #expect(s.settings.brushWidth >= 16)
        let brush = preview()
        T.key(s, "f")
        // Compared as Bools: a failure would print every pixel.
        let unchanged = preview() == thin
        let notTheBrushTip = preview() != brush
        #expect(unchanged, "the fill's preview changed with the brush width")
        #expect(notTheBrushTip)
        // The color fills the box, most of the way to its edges, not a dot in its middle.
        let red = Color(r: 200, g: 20, b: 20).pixel
        let inner = [
            (box.width / 2, box.height / 2), (box.width / 3, box.height / 3), (box.width * 2 / 3, box.height / 3),
        ]
        #expect(inner.allSatisfy { thin[$0.0, $0.1] == red }, "the swatch is not the primary color")
    }

    /// The picker, the selection and the stroke eraser have no width: the toolbar shows their
    /// width slider disabled (greyed, no blue fill, no highlight) and an empty preview box, and
    /// neither a click, a drag, the wheel over the slider nor [ and ] changes anything; [ and ]
    /// say so in the status bar. Every other tool's slider still works. Before, they showed a
    /// brush dot and a live "Width 5 px" slider that changed a width none of them uses.
    @Test(arguments: Tool.allCases)
    func theWidthSliderIsDisabledForToolsWithoutAWidth(tool: Tool) {
        let s = T.makeSession()
        s.setPrimary(Color(r: 200, g: 20, b: 20))
        s.select(tool)
        let bar = s.layout.toolbar
        func crop(_ r: IntRect) -> PixelImage {
            s.renderToolbar().pixels.cropped(to: IntRect(x: r.x, y: r.y - bar.y, width: r.width, height: r.height))
        }
        let slider = s.layout.rect(of: .widthSlider)
        let blue = Color(r: 0x4A, g: 0x7F, b: 0xD0).pixel
        let before = s.settings
        let preview = crop(s.layout.widthPreview)
        let track = crop(slider)
        // A click and a drag on the slider, the wheel over it (both kinds), then [ and ].
        let y = slider.y + slider.height / 2
        s.handle([
            .press(x: slider.x + 2, y: y, button: .left, modifiers: []),
            .motion(x: slider.x + slider.width / 2, y: y, modifiers: []),
            .release(x: slider.x + slider.width / 2, y: y, button: .left, modifiers: []),
        ])
        let dragged = s.settings
        s.handle([
            .press(x: slider.x + 10, y: y, button: .wheelUp, modifiers: []),
            .scroll(x: slider.x + 10, y: y, dx: 0, dy: -3, modifiers: []),
        ])
        let wheeled = s.settings
        T.key(s, "]")
        T.key(s, "]")
        if tool.hasWidth {
            #expect(dragged != before && wheeled != dragged, "\(tool): the slider does not work")
            #expect(s.settings != wheeled, "\(tool): ] does nothing")
            #expect(track.pixels.contains(blue), "\(tool): the slider is drawn disabled")
            return
        }
        #expect(s.settings == before, "\(tool): the settings changed")
        #expect(s.pressed == nil)
        #expect(s.message == "\(tool.name) has no width ([ and ] size brushes, shapes, text)")
        #expect(!track.pixels.contains(blue), "\(tool): the slider is drawn live")
        #expect(crop(slider) == track)
        // The preview box is empty, whatever the brush width: no tip of the primary color.
        let red = Color(r: 200, g: 20, b: 20).pixel
        #expect(!preview.pixels.contains(red), "\(tool): a brush tip shows")
        let inside = preview.cropped(to: IntRect(x: 4, y: 4, width: preview.width - 8, height: preview.height - 8))
        #expect(Set(inside.pixels).count == 1, "\(tool): something is drawn in the preview")
        s.select(.brush)
        for _ in 0..<6 { T.key(s, "]") }
        s.select(tool)
        #expect(crop(s.layout.widthPreview) == preview, "\(tool): the preview follows the brush width")
        // Its tooltip says why.
        s.handle(.motion(x: slider.x + 10, y: y, modifiers: []))
        #expect(s.tooltip == "\(tool.name) has no width")
    }

    @Test func shapesSurviveTheBinaryForm() {
        let style = StrokeStyle(color: Color(r: 1, g: 2, b: 3), opacity: 0.4, width: 7)
        let ops: [Operation] = [
            .shape(style, ShapeSpec(kind: .ellipse, from: Point(x: 1, y: 2), to: Point(x: 30, y: 40), filled: true)),
            .shape(style, ShapeSpec(kind: .dashedLine, from: Point(x: 5, y: 5), to: Point(x: 90, y: 7), filled: false)),
            .fill(style, at: Point(x: 3.5, y: 4.5), tolerance: 200),
        ]
        for op in ops { #expect(Operation(decoding: op.encoded()) == op) }
    }

    /// On a transparent picture the picker takes the paint's color, never the checkerboard
    /// shown behind it: a transparent pixel picks nothing, a half-transparent one its color.
    @Test func thePickerOnATransparentPictureReadsThePaintNotTheCheckerboard() {
        var image = PixelImage(width: 40, height: 20, fill: 0)
        let green = Color(r: 40, g: 200, b: 60)
        image[30, 10] = Pixel.premultiply(Pixel.pack(r: green.r, g: green.g, b: green.b, a: 128))
        let s = Session(
            document: Document(
                engine: StrokeEngine(image: image, background: .transparent), history: History(base: nil), path: nil),
            windowWidth: 1400, windowHeight: 400)
        let before = s.settings.primary
        T.key(s, "i")
        // (12, 3) and (5, 12) show the checkerboard's gray squares.
        T.drag(s, [(12, 3)])
        T.drag(s, [(5, 12)], button: .right)
        #expect(s.settings.primary == before && s.settings.secondary == .white)
        #expect(s.message == "Nothing to pick there: the picture is transparent")
        T.drag(s, [(30, 10)])
        let picked = s.settings.primary
        #expect(abs(Int(picked.r) - 40) <= 1 && abs(Int(picked.g) - 200) <= 1 && abs(Int(picked.b) - 60) <= 1)
        #expect(s.message.hasPrefix("Picked #"))
    }
}

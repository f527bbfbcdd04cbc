import PaintCore
import Testing

@testable import PaintApp

/// A high-resolution wheel or a touchpad turns by fractions of a click: the picture scrolls and
/// zooms by as much, and whole turns do what the old wheel's clicks do.
@Suite struct SmoothWheelTests {
    static func session(scale: Double = 1) -> Session {
        let ui = UIScale(scale)
        let s = Session(
            document: Document(engine: StrokeEngine(width: 3000, height: 2000), history: History(base: nil), path: nil),
            windowWidth: ui.px(800), windowHeight: ui.px(600))
        s.uiScale = ui
        return s
    }

    static func turn(_ s: Session, dx: Double = 0, dy: Double, _ modifiers: Modifiers = [], times: Int = 1) {
        for _ in 0..<times { s.handle(.scroll(x: 300, y: 300, dx: dx, dy: dy, modifiers: modifiers)) }
    }

    @Test("four quarter clicks scroll as far as one click; small turns add up; Shift and a touchpad go sideways")
    func scrolls() {
        let click = Self.session()
        click.handle(.press(x: 300, y: 300, button: .wheelDown, modifiers: []))
        #expect(click.layout.scrollY == 48)
        let s = Self.session()
        Self.turn(s, dy: 0.25, times: 4)
        #expect(s.layout.scrollY == click.layout.scrollY && s.layout.scrollX == 0)
        // A hundredth of a click is under half a pixel: three of them make one.
        Self.turn(s, dy: 0.01)
        #expect(s.layout.scrollY == 48)
        Self.turn(s, dy: 0.01, times: 2)
        #expect(s.layout.scrollY == 49)
        Self.turn(s, dy: 0.5, .shift)
        #expect(s.layout.scrollX == 24 && s.layout.scrollY == 49)
        // Half a click up takes 24 pixels from the 49.44 scrolled so far: 25.44, shown at 26.
        Self.turn(s, dx: 0.5, dy: -0.5)
        #expect(s.layout.scrollX == 48 && s.layout.scrollY == 26)
        // On a 2x screen a click scrolls twice as many pixels: the same distance to the eye.
        let big = Self.session(scale: 2)
        Self.turn(big, dy: 1)
        #expect(big.layout.scrollY == 96)
        big.handle(.press(x: 300, y: 300, button: .wheelDown, modifiers: []))
        #expect(big.layout.scrollY == 192)
        #expect(!s.isModified && !big.isModified)
    }

    @Test("Ctrl: the zoom follows the turn about the pointer, settles on a step near one, small turns add up")
    func zooms() {
        let s = Self.session()
        let pointer = (x: 300, y: 300)
        let under = s.layout.imagePoint(windowX: pointer.x, windowY: pointer.y)
        Self.turn(s, dy: -0.1, .control)
        #expect(s.layout.zoomText == "104%", "a tenth of a click: 1.5^0.1")
        Self.turn(s, dy: -0.1, .control, times: 9)
        #expect(s.layout.zoom == Zoom(3, 2), "a whole click: one zoom step, exactly")
        let after = s.layout.imagePoint(windowX: pointer.x, windowY: pointer.y)
        #expect(abs(after.x - under.x) <= 1 && abs(after.y - under.y) <= 1, "the point under the pointer stays")
        Self.turn(s, dy: 0.5, .control, times: 2)
        #expect(s.layout.zoom == .actualSize, "turned back: 100 % exactly")
        // Turns too small to leave 100 % on their own add up until they do.
        Self.turn(s, dy: -0.005, .control, times: 9)
        #expect(s.layout.zoom == .actualSize)
        Self.turn(s, dy: -0.005, .control, times: 6)
        #expect(s.layout.zoom > .actualSize && s.layout.zoom < Zoom(3, 2))
        // Zoomed another way meanwhile: the turn starts from what is shown.
        s.resetZoom()
        Self.turn(s, dy: 1, .control)
        #expect(s.layout.zoom == Zoom(2, 3))
        Self.turn(s, dy: 40, .control)
        #expect(s.layout.zoom == Zoom.minimum)
    }

    @Test("while a menu is open, whole turns act as wheel clicks: three half clicks are one")
    func overAMenu() {
        let s = Self.session()
        _ = s.renderMenuBar(measure: FixedWidthMeasurer())
        s.handle(.key(.function(10), modifiers: []))
        #expect(!s.popups.isEmpty)
        Self.turn(s, dy: 0.5, times: 3)
        #expect(s.layout.scrollY == 48)
    }
}

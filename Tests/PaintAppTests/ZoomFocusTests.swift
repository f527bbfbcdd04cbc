import PaintCore
import Testing

@testable import PaintApp

/// What a zoom by key keeps still: the picture under the pointer on the canvas; else the caret
/// of the text being typed or a floating picture, in view; else the middle. A zoom chosen in a
/// menu never takes the pointer (it is on the menu).
@Suite struct ZoomFocusTests {
    typealias T = SessionTests

    /// A 2000 x 1500 picture in a 900 x 600 window, scrolled into its middle.
    static func scrolledSession() -> Session {
        let s = T.makeSession(width: 2000, height: 1500, windowWidth: 900, windowHeight: 600)
        s.setLayout(s.layout.scrolled(toX: 500, y: 400))
        return s
    }

    static func zoomKeys() -> [(Character, Zoom)] {
        [("=", Zoom(3, 2)), ("-", Zoom(2, 3)), ("0", .actualSize)]
    }

    /// Distance in image pixels between two points.
    static func distance(_ a: Point, _ b: Point) -> Double { max(abs(a.x - b.x), abs(a.y - b.y)) }

    /// Ctrl+=, Ctrl+- and Ctrl+0 with the pointer on the canvas keep the picture under it still
    /// (they zoomed about the middle of the canvas).
    @Test func zoomKeysKeepThePictureUnderThePointer() {
        for (key, expected) in Self.zoomKeys() {
            let s = Self.scrolledSession()
            if key == "0" { s.zoom(to: Zoom(2)) }
            let area = s.layout.canvasArea
            let p = (x: area.x + 90, y: area.y + 70)
            s.handle(.motion(x: p.x, y: p.y, modifiers: []))
            let before = s.layout.imagePoint(windowX: p.x, windowY: p.y)
            T.key(s, key, .control)
            #expect(s.layout.zoom == expected)
            let after = s.layout.imagePoint(windowX: p.x, windowY: p.y)
            #expect(Self.distance(before, after) < 1, "Ctrl+\(key): \(before) moved to \(after)")
        }
    }

    /// The wheel and the keys keep a point still through the same code: Ctrl+wheel over the
    /// same pixel gives the same layout as Ctrl+= there.
    @Test func wheelAndKeysAgree() {
        let byKey = Self.scrolledSession()
        let byWheel = Self.scrolledSession()
        let area = byKey.layout.canvasArea
        let p = (x: area.x + 300, y: area.y + 200)
        byKey.handle(.motion(x: p.x, y: p.y, modifiers: []))
        T.key(byKey, "=", .control)
        byWheel.handle(.press(x: p.x, y: p.y, button: .wheelUp, modifiers: .control))
        #expect(byKey.layout == byWheel.layout)
    }

    /// Typing near the canvas's right edge with the pointer gone: Ctrl+= keeps the caret where
    /// it is on screen (about the middle it went out of sight); a caret out of sight is brought
    /// to the middle.
    @Test func zoomKeysKeepTheCaretInView() throws {
        let s = Self.scrolledSession()
        s.select(.text)
        let area = s.layout.canvasArea
        let place = s.layout.imagePoint(windowX: area.maxX - 120, windowY: area.maxY - 100)
        TextToolTests.click(s, Int(place.x), Int(place.y))
        TextToolTests.type(s, "Hi")
        s.handle(.leave)
        let caret = try #require(s.textCaretInWindow)
        for _ in 0..<2 { T.key(s, "=", .control) }
        #expect(s.layout.zoom == Zoom(2))
        let zoomed = try #require(s.textCaretInWindow)
        #expect(area.contains(zoomed.x, zoomed.y) && area.contains(zoomed.x, zoomed.maxY - 1))
        // The caret's middle stays where it was on screen.
        let (cy, zy) = (caret.y + caret.height / 2, zoomed.y + zoomed.height / 2)
        #expect(abs(zoomed.x - caret.x) <= 2 && abs(zy - cy) <= 2, "\(caret) went to \(zoomed)")
        // Scrolled away, the next zoom brings it back to the middle.
        s.setLayout(s.layout.scrolled(toX: 0, y: 0))
        #expect(!area.contains(try #require(s.textCaretInWindow).x, area.y + 1))
        T.key(s, "-", .control)
        let back = try #require(s.textCaretInWindow)
        #expect(abs(back.x - (area.x + area.width / 2)) <= 2, "\(back) in \(area)")
        #expect(area.contains(back.x, back.y) && area.contains(back.x, back.maxY - 1))
        #expect(s.editedText == "Hi")
    }

    /// A selection being moved stays where it is on screen through a zoom by key.
    @Test func zoomKeysKeepAFloatingPictureInView() throws {
        let s = Self.scrolledSession()
        s.select(.select)
        let area = s.layout.canvasArea
        let (x, y) = (area.maxX - 150, area.maxY - 150)
        s.handle([
            .press(x: x, y: y, button: .left, modifiers: []), .motion(x: x + 60, y: y + 60, modifiers: []),
            .release(x: x + 60, y: y + 60, button: .left, modifiers: []),
            .press(x: x + 30, y: y + 30, button: .left, modifiers: []), .motion(x: x + 40, y: y + 40, modifiers: []),
            .release(x: x + 40, y: y + 40, button: .left, modifiers: []), .leave,
        ])
        let floating = try #require(s.placing).rect
        let before = s.layout.windowRect(forImageRect: floating)
        T.key(s, "=", .control)
        let after = s.layout.windowRect(forImageRect: floating)
        #expect(area.contains(after.x, after.y) && area.contains(after.maxX - 1, after.maxY - 1))
        // The floating picture's middle stays where it was on screen.
        let (mx, my) = (before.x + before.width / 2, before.y + before.height / 2)
        let (nx, ny) = (after.x + after.width / 2, after.y + after.height / 2)
        #expect(abs(nx - mx) <= 2 && abs(ny - my) <= 2, "\(before) to \(after)")
    }

    /// View > Zoom In chosen in the menu keeps the middle of the canvas, not the menu item under
    /// the pointer; so does the pointer off the canvas.
    @Test func theMenuAndAPointerOffTheCanvasKeepTheMiddle() {
        for viaMenu in [true, false] {
            let s = Self.scrolledSession()
            let area = s.layout.canvasArea
            let middle = (x: area.x + area.width / 2, y: area.y + area.height / 2)
            let before = s.layout.imagePoint(windowX: middle.x, windowY: middle.y)
            if viaMenu {
                s.handle(.motion(x: area.x + 40, y: area.y + 40, modifiers: []))
                s.runCommand("zoom-in")
            } else {
                s.handle(.motion(x: 5, y: s.layout.statusBar.y + 5, modifiers: []))
                T.key(s, "=", .control)
            }
            #expect(s.layout.zoom == Zoom(3, 2))
            let after = s.layout.imagePoint(windowX: middle.x, windowY: middle.y)
            #expect(Self.distance(before, after) < 1, "menu \(viaMenu): \(before) moved to \(after)")
        }
    }
}

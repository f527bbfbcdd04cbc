import PaintCore
import Testing

@testable import PaintApp

/// Scrollbar geometry: the thumb shows the part in view, a drag moves the offset, the track pages.
@Suite struct ScrollbarTests {
    /// A 500 px horizontal bar over a picture shown 2,000 px wide in a 500 px view.
    static func bar(offset: Int) -> Scrollbar {
        Scrollbar(
            axis: .horizontal, track: IntRect(x: 0, y: 600, width: 500, height: 14), content: 2000, viewport: 500,
            offset: offset, minimumThumb: 20)
    }

    @Test("the thumb is as long as the part in view and stands where the view is")
    func thumbLengthAndPosition() {
        #expect(Self.bar(offset: 0).thumb == IntRect(x: 0, y: 600, width: 125, height: 14))
        #expect(Self.bar(offset: 1500).thumb.maxX == 500, "scrolled to the end: the thumb at the end")
        #expect(Self.bar(offset: 750).thumb.x == 187)
        // A picture a hundred times the view still has a thumb to catch.
        let long = Scrollbar(
            axis: .vertical, track: IntRect(x: 0, y: 0, width: 14, height: 400), content: 40000, viewport: 400,
            offset: 0, minimumThumb: 20)
        #expect(long.thumb.height == 20)
    }

    @Test("a press before or after the thumb pages, on it grabs it; a drag there and back returns")
    func hitsAndDrags() {
        let b = Self.bar(offset: 750)
        #expect(b.hit(x: 10, y: 605) == .pageBack)
        #expect(b.hit(x: 400, y: 605) == .pageForward)
        #expect(b.hit(x: 200, y: 605) == .thumb(grab: 13))
        #expect(b.hit(x: 200, y: 599) == nil)
        #expect(b.offset(from: 750, draggedBy: 0) == 750)
        #expect(b.offset(from: 750, draggedBy: 375) == 1500, "dragged past the end: the end")
        #expect(b.offset(from: 750, draggedBy: -250) == 0)
        // Every offset a drag can reach: the thumb follows the pointer pixel for pixel.
        for delta in -187..<188 {
            let moved = Self.bar(offset: b.offset(from: 750, draggedBy: delta))
            #expect(moved.thumb.x == b.thumb.x + delta, "dragged by \(delta)")
        }
        #expect(b.page == 450)
    }
}

/// The scrollbars in a session: a press on the track pages, the thumb drags, nothing is painted.
@Suite struct ScrollbarSessionTests {
    static func session(width: Int, height: Int) -> Session {
        SessionTests.makeSession(width: width, height: height, windowWidth: 1100, windowHeight: 700)
    }

    @Test("a picture larger than the window gets both scrollbars; they page and drag, and never paint")
    func pageAndDrag() throws {
        let s = Self.session(width: 3000, height: 2000)
        let blank = Array(s.engine.viewPixels)
        let v = try #require(s.layout.verticalScrollbar)
        let h = try #require(s.layout.horizontalScrollbar)
        #expect(s.layout.scrollbarCorner.width == v.track.width && s.layout.scrollbarCorner.height == h.track.height)
        // Below the thumb: one page down.
        s.handle(.press(x: v.track.x + 5, y: v.track.maxY - 5, button: .left, modifiers: []))
        s.handle(.release(x: v.track.x + 5, y: v.track.maxY - 5, button: .left, modifiers: []))
        #expect(s.layout.scrollY == v.page)
        // Drag the horizontal thumb 100 px right: the picture follows the thumb.
        let thumb = h.thumb
        let y = thumb.y + thumb.height / 2
        s.handle(.press(x: thumb.x + 10, y: y, button: .left, modifiers: []))
        #expect(s.draggedScrollbar == .horizontal && s.pointerShape == .arrow)
        s.handle(.motion(x: thumb.x + 60, y: y + 40, modifiers: []))
        s.handle(.motion(x: thumb.x + 110, y: y + 80, modifiers: []))
        s.handle(.release(x: thumb.x + 110, y: y + 80, button: .left, modifiers: []))
        #expect(s.draggedScrollbar == nil)
        let moved = try #require(s.layout.horizontalScrollbar)
        #expect(moved.thumb.x == thumb.x + 100, "the thumb followed the pointer")
        #expect(s.layout.scrollX == h.offset(from: 0, draggedBy: 100))
        #expect(s.layout.scrollY == v.page, "a horizontal drag leaves the vertical offset")
        #expect(Array(s.engine.viewPixels) == blank, "nothing was painted")
        #expect(!s.isModified)
    }

    @Test("the keys scroll: arrows a wheel step, Page Up and Down a page (Shift: sideways), Home and End the corners")
    func keysScroll() throws {
        let s = Self.session(width: 3000, height: 2000)
        let blank = Array(s.engine.viewPixels)
        let v = try #require(s.layout.verticalScrollbar)
        let h = try #require(s.layout.horizontalScrollbar)
        let step = Int(Session.wheelStep)
        func press(_ key: Key, _ modifiers: Modifiers = []) -> (Int, Int) {
            s.handle(.key(key, modifiers: modifiers))
            return (s.layout.scrollX, s.layout.scrollY)
        }
        #expect(press(.pageDown) == (0, v.page))
        #expect(press(.down) == (0, v.page + step))
        #expect(press(.up) == (0, v.page))
        #expect(press(.pageUp) == (0, 0))
        #expect(press(.right) == (step, 0))
        #expect(press(.pageDown, [.shift]) == (step + h.page, 0))
        #expect(press(.left) == (h.page, 0))
        #expect(press(.pageUp, [.shift]) == (0, 0))
        let end = (3000 - s.layout.canvasArea.width, 2000 - s.layout.canvasArea.height)
        #expect(press(.end) == end, "the bottom-right corner")
        #expect(press(.down) == end && press(.right) == end, "no further than the edge")
        #expect(press(.home) == (0, 0))
        #expect(Array(s.engine.viewPixels) == blank && !s.isModified, "scrolling paints nothing")
        // A picture that fits does not move.
        let small = Self.session(width: 300, height: 200)
        let origin = small.layout.imageOrigin
        for key in [Key.down, .pageDown, .end, .right] { small.handle(.key(key, modifiers: [])) }
        #expect(small.layout.imageOrigin == origin)
    }

    @Test("the wheel over the width or opacity slider turns it and leaves the picture where it is")
    func theWheelOverASliderTurnsIt() {
        let s = Self.session(width: 3000, height: 2000)
        func wheel(_ item: ToolbarItem, _ button: PointerButton) {
            let r = s.layout.rect(of: item)
            s.handle(.press(x: r.x + r.width / 2, y: r.y + r.height / 2, button: button, modifiers: []))
        }
        let width = s.settings.brushWidth
        let step = s.settings.widthStep(down: false)
        wheel(.widthSlider, .wheelUp)
        #expect(s.settings.brushWidth == width + step, "one step wider")
        wheel(.widthSlider, .wheelDown)
        #expect(s.settings.brushWidth == width)
        wheel(.opacitySlider, .wheelDown)
        #expect(s.settings.opacityPercent == 95)
        wheel(.opacitySlider, .wheelDown)
        wheel(.opacitySlider, .wheelUp)
        #expect(s.settings.opacityPercent == 95)
        // With the fill tool the width slider is the tolerance, as for [ and ].
        SessionTests.key(s, "f")
        let tolerance = s.settings.fillTolerance
        wheel(.widthSlider, .wheelUp)
        #expect(s.settings.fillTolerance == tolerance + 8)
        // A touchpad's smooth turn: whole clicks step it.
        let r = s.layout.rect(of: .opacitySlider)
        s.handle(.scroll(x: r.x + 4, y: r.y + r.height / 2, dx: 0, dy: -0.5, modifiers: []))
        #expect(s.settings.opacityPercent == 95, "half a click: not yet")
        s.handle(.scroll(x: r.x + 4, y: r.y + r.height / 2, dx: 0, dy: -0.5, modifiers: []))
        #expect(s.settings.opacityPercent == 100)
        #expect(s.layout.scrollX == 0 && s.layout.scrollY == 0, "the picture did not scroll")
        // Elsewhere the wheel still scrolls.
        let area = s.layout.canvasArea
        s.handle(.press(x: area.x + 10, y: area.y + 10, button: .wheelDown, modifiers: []))
        #expect(s.layout.scrollY > 0)
    }

    @Test("a picture that fits has no scrollbars and the whole area between the bars")
    func noBarsWhenItFits() {
        let s = Self.session(width: 300, height: 200)
        #expect(s.layout.horizontalScrollbar == nil && s.layout.verticalScrollbar == nil)
        #expect(s.layout.canvasArea.width == 1100 && s.layout.canvasArea.maxY == s.layout.statusBar.y)
    }
}

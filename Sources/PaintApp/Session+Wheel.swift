import Glibc
import PaintCore

/// The wheel: a click scrolls the picture a step (Shift: sideways) or, with Ctrl, zooms one
/// zoom step about the pointer; a high-resolution wheel or a touchpad turns by fractions of a
/// click and scrolls and zooms by as much, smoothly.
extension Session {
    /// Window pixels one wheel click scrolls, at 96 dpi.
    static let wheelStep = 48.0
    /// How much one click of Ctrl+wheel zooms on a smooth wheel: a zoom step, near enough.
    static let wheelZoom = 1.5

    /// A wheel click: scrolls a step that way.
    func scroll(_ button: PointerButton, _ modifiers: Modifiers) {
        switch button {
        case .wheelUp: scroll(by: modifiers.contains(.shift) ? (-1, 0) : (0, -1))
        case .wheelDown: scroll(by: modifiers.contains(.shift) ? (1, 0) : (0, 1))
        case .wheelLeft: scroll(by: (-1, 0))
        case .wheelRight: scroll(by: (1, 0))
        default: return
        }
    }

    /// What a scrolling key does to a picture larger than the window, or nil for another key:
    /// an arrow scrolls a wheel click's step that way, Page Up and Page Down a page (Shift:
    /// sideways, as Shift+wheel), Home to the top-left corner, End to the bottom-right, as in
    /// MS Paint and Paint.NET. A picture that fits stays where it is.
    func scrollKey(_ key: Key, _ modifiers: Modifiers) -> (() -> Void)? {
        let sideways = modifiers.contains(.shift)
        switch key {
        case .left: return { self.scroll(by: (-1, 0)) }
        case .right: return { self.scroll(by: (1, 0)) }
        case .up: return { self.scroll(by: (0, -1)) }
        case .down: return { self.scroll(by: (0, 1)) }
        case .pageUp, .pageDown:
            return {
                let bar = sideways ? self.layout.horizontalScrollbar : self.layout.verticalScrollbar
                guard let bar else { return }
                let page = key == .pageUp ? -bar.page : bar.page
                let (x, y) = (self.layout.scrollX, self.layout.scrollY)
                self.setLayout(self.layout.scrolled(toX: x + (sideways ? page : 0), y: y + (sideways ? 0 : page)))
            }
        case .home: return { self.setLayout(self.layout.scrolled(toX: 0, y: 0)) }
        case .end: return { self.setLayout(self.layout.scrolled(toX: Int.max / 4, y: Int.max / 4)) }
        default: return nil
        }
    }

    /// Scrolls by `notches` clicks (fractions from a smooth wheel add up until they make a pixel).
    private func scroll(by notches: (x: Double, y: Double)) {
        let step = Self.wheelStep * layout.ui.factor
        let x = wheelRemainder.x + notches.x * step
        let y = wheelRemainder.y + notches.y * step
        let whole = (x: Int(x.rounded(.towardZero)), y: Int(y.rounded(.towardZero)))
        wheelRemainder = (x - Double(whole.x), y - Double(whole.y))
        guard whole.x != 0 || whole.y != 0 else { return }
        setLayout(layout.scrolled(toX: layout.scrollX + whole.x, y: layout.scrollY + whole.y))
    }

    /// A smooth turn of `dx`, `dy` clicks at window pixel (x, y). Over an open panel or menu,
    /// or a toolbar slider, whole clicks act as wheel clicks there.
    func handleScroll(_ x: Int, _ y: Int, dx: Double, dy: Double, _ modifiers: Modifiers) {
        let overSlider = [ToolbarItem.widthSlider, .opacitySlider].contains(layout.item(atX: x, y: y))
        if sizeDialog != nil || colorEditor != nil || fontChooser != nil || popupOpen || overSlider {
            wheelClicks.x += dx
            wheelClicks.y += dy
            while abs(wheelClicks.y) >= 1 {
                let down = wheelClicks.y > 0
                wheelClicks.y -= down ? 1 : -1
                handlePress(x, y, down ? .wheelDown : .wheelUp, modifiers)
            }
            while abs(wheelClicks.x) >= 1 {
                let right = wheelClicks.x > 0
                wheelClicks.x -= right ? 1 : -1
                handlePress(x, y, right ? .wheelRight : .wheelLeft, modifiers)
            }
            return
        }
        lastPointer = (x, y)
        if modifiers.contains(.control) {
            // Ctrl: zoom about the pointer, by as much as the wheel turned.
            if dy != 0 { zoomSmoothly(by: pow(Self.wheelZoom, -dy), aroundWindowX: x, y: y) }
        } else if modifiers.contains(.shift) && dx == 0 {
            scroll(by: (dy, 0))
        } else {
            scroll(by: (dx, dy))
        }
    }

    /// Multiplies the zoom by `factor` about window pixel (x, y). The zoom followed is kept
    /// unrounded, so many small turns add up; it shows as a zoom step when within 2 % of one, so
    /// turning back lands on 100 % exactly.
    private func zoomSmoothly(by factor: Double, aroundWindowX x: Int, y: Int) {
        let shown = layout.zoom.factor
        // Zoomed some other way meanwhile: follow from what is shown.
        if abs(smoothZoom / shown - 1) > 0.03 { smoothZoom = shown }
        smoothZoom = min(max(smoothZoom * factor, Zoom.minimum.factor), Zoom.maximum.factor)
        let target =
            Zoom.steps.first { abs($0.factor / smoothZoom - 1) <= 0.02 } ?? Zoom(approximately: smoothZoom)
        if target != layout.zoom { zoom(to: target, aroundWindowX: x, y: y) }
    }
}

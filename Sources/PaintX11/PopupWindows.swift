import CX11
import PaintApp
import PaintCore

/// The popups over the canvas (the session's panel: the color editor, the font list or the size
/// dialog; an open menu; the zoom presets; the keys and About panels), each a child window of the main one: made when the session shows it, moved
/// when its frame moves, gone when it closes. Input in them goes to the session in window
/// coordinates: the session knows where each popup is.
final class PopupWindows {
    private let display: OpaquePointer
    private let parent: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private var shown: [Popup: (window: Window, frame: IntRect)] = [:]
    /// Popups uncovered since they were drawn.
    private var exposed: Set<Popup> = []

    init(display: OpaquePointer, parent: Window, visual: UnsafeMutablePointer<Visual>, depth: Int32) {
        self.display = display
        self.parent = parent
        self.visual = visual
        self.depth = depth
    }

    /// Whether a popup was uncovered and waits to be drawn again.
    var owesDrawing: Bool { !exposed.isEmpty }

    /// Makes the child windows match what the session shows and draws them: all of them when
    /// `redraw` (the session changed one), else those uncovered. `draw` puts a strip into a
    /// window at a rectangle.
    func present(_ session: Session, redraw: Bool, measure: TextMeasuring, draw: (ChromeStrip, IntRect, Window) -> Void)
    {
        let wanted = session.popups
        for (popup, entry) in shown where !wanted.contains(where: { $0.popup == popup }) {
            XDestroyWindow(display, entry.window)
            shown[popup] = nil
        }
        for (popup, frame) in wanted where !frame.isEmpty {
            var needsDrawing = redraw || exposed.contains(popup)
            if let entry = shown[popup] {
                if entry.frame != frame {
                    XMoveResizeWindow(
                        display, entry.window, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height)
                    )
                    shown[popup] = (entry.window, frame)
                    needsDrawing = true
                }
            } else {
                var attributes = XSetWindowAttributes()
                attributes.background_pixmap = 0
                // Motion with and without a button: sliders are dragged, menus and lists light up.
                attributes.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
                let window = XCreateWindow(
                    display, parent, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height), 0,
                    depth, UInt32(InputOutput), visual, UInt(CWBackPixmap | CWEventMask), &attributes)
                XMapRaised(display, window)
                shown[popup] = (window, frame)
                needsDrawing = true
            }
            if needsDrawing, let strip = session.renderPopup(popup, measure: measure), let window = shown[popup]?.window
            {
                draw(strip, IntRect(x: 0, y: 0, width: frame.width, height: frame.height), window)
            }
        }
        exposed.removeAll()
    }

    /// Translates an event of one of the popups' windows into session input (window
    /// coordinates); returns false for an event of another window.
    func translate(_ event: inout XEvent, into batch: inout [InputEvent]) -> Bool {
        guard let (popup, entry) = shown.first(where: { $0.value.window == event.xany.window }) else { return false }
        let frame = entry.frame
        switch event.type {
        case ButtonPress, ButtonRelease:
            guard let button = EventTranslator.button(event.xbutton.button) else { return true }
            let x = frame.x + Int(event.xbutton.x)
            let y = frame.y + Int(event.xbutton.y)
            let modifiers = EventTranslator.modifiers(event.xbutton.state)
            batch.append(
                event.type == ButtonPress
                    ? .press(x: x, y: y, button: button, modifiers: modifiers)
                    : .release(x: x, y: y, button: button, modifiers: modifiers))
        case MotionNotify:
            batch.append(
                .motion(
                    x: frame.x + Int(event.xmotion.x), y: frame.y + Int(event.xmotion.y),
                    modifiers: EventTranslator.modifiers(event.xmotion.state)))
        case Expose:
            exposed.insert(popup)
        default:
            break
        }
        return true
    }
}

import CX11
import Foundation
import PaintCore
import XDriver

/// A plain X window owned by the test, on its own `XClient` connection, that records what it
/// receives. The harness self-tests use it to prove that faked input arrives with the right
/// coordinates, buttons, modifiers and keysyms, that captures read the right colors, and that
/// `sendCloseRequest` speaks WM_DELETE_WINDOW. Also usable as "another application" (focus
/// stealing, covering the program's window, ...).
final class ProbeWindow {
    /// The connection that owns the window (separate from the one sending input).
    let client: XClient
    /// The window.
    let window: Window
    /// Every event received so far, oldest first.
    private(set) var received: [XEvent] = []

    /// Creates, names and maps a window filled with `background`, sets `_NET_WM_PID` to `pid`,
    /// WM_PROTOCOLS to WM_DELETE_WINDOW, and waits until it is viewable and has the focus.
    init(
        client: XClient, x: Int = 100, y: Int = 100, width: Int = 300, height: Int = 200,
        background: Color = .white, title: String = "probe", pid: pid_t = getpid()
    ) throws {
        self.client = client
        let d = client.display
        var color = XColor()
        color.red = UInt16(background.r) * 257
        color.green = UInt16(background.g) * 257
        color.blue = UInt16(background.b) * 257
        color.flags = CChar(DoRed | DoGreen | DoBlue)
        XAllocColor(d, XDefaultColormap(d, client.screen), &color)
        window = XCreateSimpleWindow(
            d, client.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, color.pixel)
        XSelectInput(
            d, window,
            KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
                | ExposureMask | StructureNotifyMask | FocusChangeMask)
        var title8 = Array(title.utf8)
        XChangeProperty(
            d, window, client.atom("_NET_WM_NAME"), client.atom("UTF8_STRING"), 8, PropModeReplace,
            &title8, Int32(title8.count))
        var pidValue = Int(pid)
        withUnsafeBytes(of: &pidValue) { raw in
            _ = XChangeProperty(
                d, window, client.atom("_NET_WM_PID"), XA_CARDINAL, 32, PropModeReplace,
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        var protocols = [client.atom("WM_DELETE_WINDOW")]
        XSetWMProtocols(d, window, &protocols, 1)
        XMapRaised(d, window)
        XSync(d, 0)
        try client.waitUntilMapped(window)
        XSetInputFocus(d, window, RevertToParent, Time(CurrentTime))
        XSync(d, 0)
    }

    deinit {
        if !client.isConnectionLost {
            XDestroyWindow(client.display, window)
            XSync(client.display, 0)
        }
    }

    /// Reads every event that has arrived into `received`.
    func drain() {
        while XPending(client.display) > 0 {
            var event = XEvent()
            XNextEvent(client.display, &event)
            received.append(event)
        }
    }

    /// Polls (draining events) until `condition` holds for everything received so far.
    @discardableResult
    func waitForEvents(timeout: Duration = Wait.defaultTimeout, _ condition: ([XEvent]) -> Bool) -> Bool {
        Wait.until(timeout: timeout) {
            drain()
            return condition(received)
        }
    }

    /// Forgets the events received so far.
    func clear() {
        drain()
        received.removeAll()
    }

    /// The received events of one type (`KeyPress`, `ButtonPress`, `MotionNotify`, ...).
    func events(ofType type: Int32) -> [XEvent] { received.filter { $0.type == type } }

    /// The text the received KeyPress events type, through `XLookupString` (so Shift counts).
    var typedText: String {
        var text = ""
        for var event in events(ofType: KeyPress) {
            var buffer = [CChar](repeating: 0, count: 16)
            var sym: KeySym = 0
            let n = XLookupString(&event.xkey, &buffer, 15, &sym, nil)
            if n > 0 { text += String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
        return text
    }

    /// The keysyms (unshifted, index 0) and modifier state of the received KeyPress events.
    var keyPresses: [(keysym: KeySym, state: UInt32)] {
        events(ofType: KeyPress).map { event in
            var key = event.xkey
            return (XLookupKeysym(&key, 0), key.state)
        }
    }
}

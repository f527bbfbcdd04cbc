import CX11
import XDriver

/// A stand-in window manager that watches titles: it redirects the mapping of top-level windows
/// (SubstructureRedirect on the root, as a real window manager does), so a window shows only when
/// it maps it, and it records the title each window had at that moment and every change after
/// (PropertyNotify on WM_NAME and `_NET_WM_NAME`). What a window manager's frame would show,
/// from the first frame on.
///
/// Single-threaded: the test calls `serve` while it waits (nothing is mapped meanwhile). Windows
/// that bypass the window manager (override-redirect: tooltips, menus) are not seen.
final class TitleWatcher {
    /// Its own connection (a second `XClient` of the test: a ping from this one would undo the
    /// redirect, `XClient.roundTrip` selecting on the root for itself).
    let client: XClient
    /// Each mapped window's titles, the one it was mapped with first, then each different one it
    /// was given while mapped (nil: none).
    private(set) var titles: [Window: [String?]] = [:]
    private let wmName: Atom
    private let netWMName: Atom

    /// Becomes the window manager of `displayName`; throws when another one is.
    init(displayName: String) throws {
        client = try XClient(display: displayName)
        wmName = XA_WM_NAME
        netWMName = client.atom("_NET_WM_NAME")
        let masks = SubstructureRedirectMask | SubstructureNotifyMask
        XSelectInput(client.display, client.root, masks)
        // Only one client may redirect the root's children: the server refuses a second
        // (BadAccess), and the mask it keeps for this connection says so. (Not the error count:
        // it is the whole test process's.)
        guard let root = client.attributes(client.root), root.your_event_mask & masks == masks else {
            throw HarnessError.xRequestFailed("another window manager runs on \(displayName)")
        }
    }

    /// Answers the map and configure requests that have arrived and records title changes.
    func serve() {
        let display = client.display
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            switch event.type {
            case MapRequest:
                let window = event.xmaprequest.window
                // Selected before the title is read: a change from then on comes as an event.
                XSelectInput(display, window, PropertyChangeMask)
                record(window)
                XMapWindow(display, window)
            case ConfigureRequest:
                let r = event.xconfigurerequest
                var changes = XWindowChanges(
                    x: r.x, y: r.y, width: r.width, height: r.height, border_width: r.border_width,
                    sibling: r.above, stack_mode: r.detail)
                XConfigureWindow(display, r.window, UInt32(r.value_mask), &changes)
            case PropertyNotify:
                let p = event.xproperty
                if titles[p.window] != nil, p.atom == wmName || p.atom == netWMName { record(p.window) }
            default:
                break
            }
        }
        XFlush(display)
    }

    /// Whether `window` has been mapped through this window manager.
    func mapped(_ window: Window) -> Bool { titles[window] != nil }

    /// Adds `window`'s title now when it differs from the last one recorded (both properties are
    /// set one after the other: a change shows as one title).
    private func record(_ window: Window) {
        let title = client.windowTitle(window)
        if let last = titles[window]?.last, last == title { return }
        titles[window, default: []].append(title)
    }
}

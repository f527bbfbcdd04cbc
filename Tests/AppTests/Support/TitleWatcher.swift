import CX11
import XDriver

/// A stand-in window manager that watches titles: it redirects the mapping of top-level windows
/// (SubstructureRedirect on the root, as a real window manager does), so a window shows only when
/// it maps it, and it records every name each window has from the moment it is created
/// (CreateNotify, then PropertyNotify on WM_NAME and `_NET_WM_NAME`): what a window manager's
/// frame would show, and what a taskbar or `xdotool search --name` could see before that.
///
/// Single-threaded: the test calls `serve` while it waits (nothing is mapped meanwhile). Windows
/// that bypass the window manager (override-redirect: tooltips, menus) are not seen.
final class TitleWatcher {
    /// Its own connection (a second `XClient` of the test: a ping from this one would undo the
    /// redirect, `XClient.roundTrip` selecting on the root for itself).
    let client: XClient
    /// Each window's titles (`_NET_WM_NAME`, else WM_NAME) since it was created: each different
    /// one it was given (nil: taken away; a window not named yet has none).
    private(set) var titles: [Window: [String?]] = [:]
    /// Each window's WM_NAME (the Latin-1 one old window managers read) likewise.
    private(set) var wmNames: [Window: [String?]] = [:]
    /// The title each window had when it was mapped.
    private(set) var mappedTitles: [Window: String?] = [:]
    /// The title each window had as the watcher learnt it was created (nil: none yet).
    private(set) var createdTitles: [Window: String?] = [:]
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
            case CreateNotify where event.xcreatewindow.override_redirect == 0:
                let window = event.xcreatewindow.window
                watch(window)
                createdTitles[window] = .some(client.windowTitle(window))
            case MapRequest:
                let window = event.xmaprequest.window
                // Created before the watcher started: watched from now on.
                if titles[window] == nil { watch(window) }
                record(window)
                mappedTitles[window] = .some(client.windowTitle(window))
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
    func mapped(_ window: Window) -> Bool { mappedTitles[window] != nil }

    /// Selects `window`'s property changes, then reads its names: a change from then on comes as
    /// an event.
    private func watch(_ window: Window) {
        XSelectInput(client.display, window, PropertyChangeMask)
        titles[window] = []
        wmNames[window] = []
        record(window)
    }

    /// Adds `window`'s names now where they differ from the last ones recorded (both properties
    /// are set one after the other: a change shows as one title).
    private func record(_ window: Window) {
        func add(_ name: String?, to list: inout [String?]) {
            if list.isEmpty ? name == nil : list.last == name { return }
            list.append(name)
        }
        add(client.windowTitle(window), to: &titles[window, default: []])
        // Latin-1, byte for byte.
        let latin1 = client.property(window, "WM_NAME").map { String($0.bytes.map { Character(Unicode.Scalar($0)) }) }
        add(latin1, to: &wmNames[window, default: []])
    }
}

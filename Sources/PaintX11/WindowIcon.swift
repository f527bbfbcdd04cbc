import CWindowIcon
import CX11

/// The application icon on the window (`_NET_WM_ICON`), for task bars, window lists and Alt+Tab.
///
/// The pictures are the PNGs rendered from `resources/icons/swiftpaint.svg`, decoded by `make
/// icons` into the property's value itself (`CWindowIcon`), so the window has its icon even when
/// the program is run from the build folder, not installed, and nothing is decoded before the
/// window shows (the PNGs embedded as hex and decoded here took 7.6 M instructions).
enum WindowIcon {
    /// Sets `_NET_WM_ICON` on `window` (before it is mapped, so the window manager sees it at once).
    static func set(on window: Window, display: OpaquePointer) {
        let count = Int(swiftpaint_window_icon_count())
        guard count > 0, let values = swiftpaint_window_icon() else { return }
        let atom = XInternAtom(display, "_NET_WM_ICON", 0)
        // For each size its width, its height, then its pixels as non-premultiplied ARGB (EWMH),
        // each a C long: format-32 property data is an array of longs in Xlib, whatever the
        // protocol width.
        values.withMemoryRebound(to: UInt8.self, capacity: count * MemoryLayout<UInt>.size) {
            _ = XChangeProperty(display, window, atom, XA_CARDINAL, 32, PropModeReplace, $0, Int32(count))
        }
    }
}

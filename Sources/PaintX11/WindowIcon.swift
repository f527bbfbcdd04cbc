import CX11
import PaintCore
import PaintIO

/// The application icon on the window (`_NET_WM_ICON`), for task bars, window lists and Alt+Tab.
///
/// The pictures are the PNGs rendered from `resources/icons/swiftpaint.svg`, embedded by
/// `make icons` (`WindowIconPNGs.swift`) so the window has its icon even when the program is
/// run from the build folder, not installed.
enum WindowIcon {
    /// The property's value: for each size its width, its height, then its pixels row by row as
    /// non-premultiplied ARGB, one per CARDINAL (EWMH). Sizes that fail to decode are left out.
    static func cardinals() -> [UInt] {
        var values: [UInt] = []
        for hex in pngHex {
            guard let bytes = bytes(fromHex: hex),
                let image = try? PNGCodec.decode(bytes, name: "the window icon")
            else { continue }
            values.append(UInt(image.width))
            values.append(UInt(image.height))
            // PixelImage packs A, R, G, B from the high byte down, as _NET_WM_ICON does, but
            // premultiplied.
            for p in image.pixels { values.append(UInt(Pixel.unpremultiply(p))) }
        }
        return values
    }

    /// Sets `_NET_WM_ICON` on `window` (before it is mapped, so the window manager sees it at once).
    static func set(on window: Window, display: OpaquePointer) {
        var values = cardinals()
        guard !values.isEmpty else { return }
        let atom = XInternAtom(display, "_NET_WM_ICON", 0)
        // Format-32 property data is an array of C longs in Xlib, whatever the protocol width.
        let count = Int32(values.count)
        values.withUnsafeMutableBytes { raw in
            _ = XChangeProperty(
                display, window, atom, XA_CARDINAL, 32, PropModeReplace,
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count)
        }
    }

    /// The bytes a string of hex digit pairs spells; nil for anything else.
    static func bytes(fromHex hex: String) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for c in hex.utf8 {
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            default: return nil
            }
            if let h = high {
                result.append(h << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return high == nil ? result : nil
    }
}

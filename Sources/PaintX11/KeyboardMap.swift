import CX11
import PaintApp

/// The keyboard's layout as XKB describes it: for a keycode, its keysyms in every group and
/// level and its key name. Read once and again after the layout changes (MappingNotify, e.g.
/// `setxkbmap`).
final class KeyboardMap {
    private let display: OpaquePointer
    private var xkb: XkbDescPtr?
    private var stale = true

    init(display: OpaquePointer) {
        self.display = display
    }

    deinit {
        if let xkb { XkbFreeKeyboard(xkb, 0, 1) }
    }

    /// The layout changed: read it again at the next key press.
    func invalidate() { stale = true }

    /// The facts of a KeyPress, with the keysym and text the lookup gave.
    func press(_ event: XKeyEvent, keysym: KeySym, text: String) -> KeyStroke {
        var press = KeyStroke(keysym: keysym, text: text)
        press.modifiers = EventTranslator.modifiers(event.state)
        press.group = Int(cx_xkb_group(event.state))
        // A key the input method made up (keycode 0) has no place on the keyboard.
        guard event.keycode != 0, let xkb = current() else { return press }
        let code = event.keycode
        let groups = Int(cx_xkb_key_groups(xkb, code))
        press.table = (0..<groups).map { g in
            (0..<Int(cx_xkb_key_width(xkb, code, Int32(g)))).map { cx_xkb_keysym(xkb, code, Int32(g), Int32($0)) }
        }
        var name = [CChar](repeating: 0, count: 5)
        cx_xkb_key_name(xkb, code, &name)
        press.keyName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The event's group can exceed the key's groups: XKB wraps it (the default for keys).
        if groups > 0 { press.group %= groups }
        return press
    }

    private func current() -> XkbDescPtr? {
        if stale {
            stale = false
            if let xkb { XkbFreeKeyboard(xkb, 0, 1) }
            xkb = XkbGetMap(display, UInt32(XkbKeyTypesMask | XkbKeySymsMask), UInt32(XkbUseCoreKbd))
            // Without key names only the US-position fallback is lost.
            if let xkb { _ = XkbGetNames(display, UInt32(XkbKeyNamesMask), xkb) }
        }
        return xkb
    }
}

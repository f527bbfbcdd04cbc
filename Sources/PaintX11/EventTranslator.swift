import CX11
import PaintApp

/// Turns X events into the session's platform-free input events.
enum EventTranslator {
    static func modifiers(_ state: UInt32) -> Modifiers {
        var m: Modifiers = []
        if state & UInt32(ShiftMask) != 0 { m.insert(.shift) }
        if state & UInt32(ControlMask) != 0 { m.insert(.control) }
        if state & UInt32(Mod1Mask) != 0 { m.insert(.alt) }
        return m
    }

    static func button(_ number: UInt32) -> PointerButton? {
        switch number {
        case 1: return .left
        case 2: return .middle
        case 3: return .right
        case 4: return .wheelUp
        case 5: return .wheelDown
        case 6: return .wheelLeft
        case 7: return .wheelRight
        default: return nil
        }
    }

    /// The key of a KeyPress: keysym for named keys, the shifted character for printable ones
    /// (looked up without Control, so Ctrl+S still reads as "s").
    static func key(_ event: inout XKeyEvent) -> Key? {
        var plain = event
        plain.state &= ~UInt32(ControlMask)
        var keysym: KeySym = 0
        var buffer = [CChar](repeating: 0, count: 16)
        let count = XLookupString(&plain, &buffer, Int32(buffer.count - 1), &keysym, nil)
        switch Int32(keysym) {
        case XK_Return, XK_KP_Enter: return .enter
        case XK_Escape: return .escape
        case XK_Tab, XK_ISO_Left_Tab: return .tab
        case XK_BackSpace: return .backspace
        case XK_Delete, XK_KP_Delete: return .delete
        case XK_Left, XK_KP_Left: return .left
        case XK_Right, XK_KP_Right: return .right
        case XK_Up, XK_KP_Up: return .up
        case XK_Down, XK_KP_Down: return .down
        case XK_Home, XK_KP_Home: return .home
        case XK_End, XK_KP_End: return .end
        default: break
        }
        guard count > 0 else { return nil }
        let bytes = buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }
        guard let text = Optional(String(decoding: bytes, as: UTF8.self)), let c = text.first, text.count == 1,
            !c.isNewline,
            c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { return nil }
        return .character(c)
    }
}

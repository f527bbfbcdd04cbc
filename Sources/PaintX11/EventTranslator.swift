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
}

import CX11
import PaintApp

/// One key press as the keyboard reported it: everything needed to decide what it means,
/// recorded so the decision is a pure function (tested on recorded layouts).
struct KeyStroke: Equatable {
    /// The keysym the user sees (the active group and shift level), from the lookup.
    var keysym: KeySym
    /// The text the input method produced for it (empty for none).
    var text: String
    /// The key's keysyms, group by group and level by level (empty for a key the input method
    /// made up, such as a committed composition).
    var table: [[KeySym]] = []
    /// The active XKB group.
    var group = 0
    /// The key's XKB name ("AB01"): where the key sits, whatever the layout prints on it.
    var keyName = ""
    /// The modifiers held.
    var modifiers: Modifiers = []
}

/// What a key press means for the program: text for a field that has the keyboard, or a
/// command key matched on any layout the way GTK and Qt match accelerators.
///
/// A command is matched on the character the user sees; when that is not Latin (Cyrillic,
/// Greek, Hebrew…), on the Latin character of the same key in the layout's other groups, or
/// else at the key's place on a US keyboard, so Ctrl+Я undoes on a Russian layout. A key that
/// also carries a digit (the AZERTY digit row: `&` and `1`) gives the digit when its own
/// character does nothing.
enum KeyTranslation {
    /// The keys to send for `press`. `acceptsText`: a field has the keyboard; `binds`: whether
    /// a character with the press's modifiers does something now.
    static func keys(
        for press: KeyStroke, acceptsText: Bool, binds: (Character, Modifiers) -> Bool
    ) -> [Key] {
        if let named = namedKey(press.keysym) { return [named] }
        let command = !press.modifiers.isDisjoint(with: [.control, .alt])
        let typed = press.text.filter { c in c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
        if acceptsText && !command {
            return typed.map { .character($0) }
        }
        let candidates = commandCandidates(press)
        if let bound = candidates.first(where: { binds($0, press.modifiers) }) { return [.character(bound)] }
        if let first = candidates.first { return [.character(first)] }
        // Nothing Latin anywhere on the key: the typed character (answers to questions are
        // matched on it too).
        return typed.first.map { [.character($0)] } ?? []
    }

    /// The characters a command key may mean, in the order they are tried.
    static func commandCandidates(_ press: KeyStroke) -> [Character] {
        var out: [Character] = []
        func add(_ c: Character?) {
            if let c, !out.contains(c) { out.append(c) }
        }
        let groupSyms = press.group < press.table.count ? press.table[press.group] : []
        // The shift level the press is on: where its keysym sits in the active group.
        let level = groupSyms.firstIndex(of: press.keysym) ?? (press.modifiers.contains(.shift) ? 1 : 0)
        if let seen = ascii(press.keysym) {
            add(seen)
        } else if !isLatin(press.keysym) {
            // The same key in the layout's other groups (a "us,ru" user in the Russian group).
            for (g, syms) in press.table.enumerated() where g != press.group {
                add(level < syms.count ? ascii(syms[level]) : nil)
                if level > 0, let base = syms.first.flatMap(ascii) {
                    add(level % 2 == 1 ? Character(base.uppercased()) : base)
                }
            }
            // The key's place on a US keyboard (a layout with no Latin group at all).
            if let us = usPositions[press.keyName] { add(level % 2 == 1 ? us.shifted : us.plain) }
        }
        // A digit on the same key, in the active group first (AZERTY's digit row).
        let groups = [press.group] + press.table.indices.filter { $0 != press.group }
        for g in groups where g < press.table.count {
            for sym in press.table[g] where sym >= KeySym(XK_0) && sym <= KeySym(XK_9) { add(ascii(sym)) }
        }
        return out
    }

    /// Keys with a name of their own (Enter, arrows…), keypad twins included.
    static func namedKey(_ keysym: KeySym) -> Key? {
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_Return, XK_KP_Enter, XK_ISO_Enter: return .enter
        case XK_Escape: return .escape
        case XK_Tab, XK_ISO_Left_Tab, XK_KP_Tab: return .tab
        case XK_BackSpace: return .backspace
        case XK_Delete, XK_KP_Delete: return .delete
        case XK_Left, XK_KP_Left: return .left
        case XK_Right, XK_KP_Right: return .right
        case XK_Up, XK_KP_Up: return .up
        case XK_Down, XK_KP_Down: return .down
        case XK_Home, XK_KP_Home: return .home
        case XK_End, XK_KP_End: return .end
        case XK_Page_Up, XK_KP_Page_Up: return .pageUp
        case XK_Page_Down, XK_KP_Page_Down: return .pageDown
        case XK_F1...XK_F12: return .function(Int(Int32(truncatingIfNeeded: keysym) - XK_F1) + 1)
        default: return nil
        }
    }

    /// The printable ASCII character of a keysym (keypad digits and operators included).
    static func ascii(_ keysym: KeySym) -> Character? {
        if keysym >= 0x20 && keysym <= 0x7E { return Character(Unicode.Scalar(UInt8(keysym))) }
        if keysym >= KeySym(XK_KP_0) && keysym <= KeySym(XK_KP_9) {
            return Character(Unicode.Scalar(UInt8(0x30 + keysym - KeySym(XK_KP_0))))
        }
        switch Int32(truncatingIfNeeded: keysym) {
        case XK_KP_Add: return "+"
        case XK_KP_Subtract: return "-"
        case XK_KP_Multiply: return "*"
        case XK_KP_Divide: return "/"
        case XK_KP_Decimal: return "."
        case XK_KP_Equal: return "="
        default: return nil
        }
    }

    /// Whether a keysym is a Latin letter or sign (Latin-1 to Latin-4, Latin-8 and -9, Latin
    /// Unicode keysyms): such a key is matched as it is, with no look at other groups.
    static func isLatin(_ keysym: KeySym) -> Bool {
        if keysym < 0x400 { return true }
        if (0x12A1...0x12FF).contains(keysym) || (0x13BC...0x13BE).contains(keysym) { return true }
        if keysym >= 0x100_0000 && keysym <= 0x110_FFFF {
            let scalar = keysym - 0x100_0000
            return scalar < 0x250 || (0x1E00...0x1EFF).contains(scalar)
        }
        return false
    }

    /// What a US keyboard prints on the keys a command can be on, by XKB key name.
    static let usPositions: [String: (plain: Character, shifted: Character)] = {
        var table: [String: (plain: Character, shifted: Character)] = [
            "TLDE": ("`", "~"), "AE11": ("-", "_"), "AE12": ("=", "+"), "AD11": ("[", "{"), "AD12": ("]", "}"),
            "AC10": (";", ":"), "AC11": ("'", "\""), "AB08": (",", "<"), "AB09": (".", ">"), "AB10": ("/", "?"),
            "BKSL": ("\\", "|"),
        ]
        let rows: [(String, String, String)] = [
            ("AE", "1234567890", "!@#$%^&*()"), ("AD", "qwertyuiop", "QWERTYUIOP"), ("AC", "asdfghjkl", "ASDFGHJKL"),
            ("AB", "zxcvbnm", "ZXCVBNM"),
        ]
        for (row, plain, shifted) in rows {
            for (i, (p, s)) in zip(plain, shifted).enumerated() {
                table[row + (i < 9 ? "0" : "") + String(i + 1)] = (p, s)
            }
        }
        return table
    }()
}

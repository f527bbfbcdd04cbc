import CX11
import PaintApp
import Testing

@testable import PaintX11

/// Key presses on real layouts (the keysym tables of xkb-data 2.35's `fr`, `ru`, `us,ru`,
/// `gr` and `de`, as XKB reports them for one key) turned into the keys the session gets.
@Suite struct KeyTranslationTests {
    /// A session-like predicate: what the canvas binds (digits, `[`, a few letters, Ctrl+Z…).
    static func canvasBinds(_ c: Character, _ m: Modifiers) -> Bool {
        if m.contains(.control) { return "zZyYsSvV-=0".contains(c) }
        return c.isASCII && (c.isNumber || "[]bBeElLxX".contains(c))
    }

    static func keys(_ press: KeyStroke, text acceptsText: Bool = false) -> [Key] {
        KeyTranslation.keys(for: press, acceptsText: acceptsText, binds: canvasBinds)
    }

    static let ya = KeySym(XK_Cyrillic_ya)
    static let yaCapital = KeySym(XK_Cyrillic_YA)

    @Test func russianLettersGiveTheirLatinKeyForCommands() {
        // `ru` alone: no Latin group; the key's place (AB01) is Z on a US keyboard.
        var press = KeyStroke(keysym: Self.ya, text: "\u{1A}", table: [[Self.ya, Self.yaCapital]], keyName: "AB01")
        press.modifiers = .control
        #expect(Self.keys(press) == [.character("z")])
        press.keysym = Self.yaCapital
        press.modifiers = [.control, .shift]
        #expect(Self.keys(press) == [.character("Z")])
        // `us,ru` in the Russian group: the Latin group's letter, whatever the key's name.
        press = KeyStroke(
            keysym: Self.ya, text: "я", table: [[KeySym(XK_z), KeySym(XK_Z)], [Self.ya, Self.yaCapital]], group: 1,
            keyName: "", modifiers: .control)
        #expect(Self.keys(press) == [.character("z")])
        // In a field the letter is typed; with Control it is the field's command.
        press.modifiers = []
        #expect(Self.keys(press, text: true) == [.character("я")])
        press.modifiers = .control
        #expect(Self.keys(press, text: true) == [.character("z")])
        // Greek: ε at AD03 is E (the eraser) on the canvas.
        let epsilon = KeyStroke(
            keysym: KeySym(XK_Greek_epsilon), text: "ε", table: [[KeySym(XK_Greek_epsilon), KeySym(XK_Greek_EPSILON)]],
            keyName: "AD03")
        #expect(Self.keys(epsilon) == [.character("e")])
    }

    @Test func azertyDigitRowGivesDigitsUnlessItsOwnCharacterIsACommand() {
        func key(_ syms: [Int32], level: Int, _ modifiers: Modifiers = []) -> KeyStroke {
            let table = syms.map { KeySym($0) }
            return KeyStroke(
                keysym: table[level], text: "", table: [table], keyName: "AE01", modifiers: modifiers)
        }
        let one = [XK_ampersand, XK_1, XK_onesuperior, XK_exclamdown]
        #expect(Self.keys(key(one, level: 0)) == [.character("1")])
        #expect(Self.keys(key(one, level: 1, .shift)) == [.character("1")])
        // In a field, & is typed.
        var typed = key(one, level: 0)
        typed.text = "&"
        #expect(Self.keys(typed, text: true) == [.character("&")])
        // Ctrl+- zooms out on AZERTY too: the minus is bound, the 6 is not tried.
        let six: [Int32] = [XK_minus, XK_6, XK_bar, 0xAC5]  // fiveeighths
        #expect(Self.keys(key(six, level: 0, .control)) == [.character("-")])
        // AltGr+5 is [ (brush smaller), not 5.
        let five: [Int32] = [XK_parenleft, XK_5, XK_bracketleft, 0xAC4]  // threeeighths
        #expect(Self.keys(key(five, level: 2)) == [.character("[")])
        // Ctrl+à is Ctrl+0 (zoom back to 100 %).
        let zero = [XK_agrave, XK_0, XK_at, XK_degree]
        #expect(Self.keys(key(zero, level: 0, .control)) == [.character("0")])
    }

    @Test func latinKeysAreMatchedAsTheyAre() {
        // German ö is Latin: no other group is consulted, it is sent as typed.
        let o = KeyStroke(
            keysym: KeySym(XK_odiaeresis), text: "ö",
            table: [[KeySym(XK_odiaeresis), KeySym(XK_Odiaeresis)]], keyName: "AC10")
        #expect(Self.keys(o) == [.character("ö")])
        #expect(Self.keys(o, text: true) == [.character("ö")])
        // German z sits where a US y is: Ctrl+Z is the key that says Z.
        let z = KeyStroke(
            keysym: KeySym(XK_z), text: "\u{1A}", table: [[KeySym(XK_z), KeySym(XK_Z)]], keyName: "AD06",
            modifiers: .control)
        #expect(Self.keys(z) == [.character("z")])
    }

    @Test func namedKeysAndInputMethodText() {
        #expect(Self.keys(KeyStroke(keysym: KeySym(XK_KP_Enter), text: "\r")) == [.enter])
        #expect(Self.keys(KeyStroke(keysym: KeySym(XK_BackSpace), text: "\u{8}", modifiers: .control)) == [.backspace])
        // A committed composition: no keysym, several characters, all typed into a field.
        let commit = KeyStroke(keysym: 0, text: "日本語")
        #expect(Self.keys(commit, text: true) == [.character("日"), .character("本"), .character("語")])
        // The keypad's digits are digits.
        #expect(Self.keys(KeyStroke(keysym: KeySym(XK_KP_5), text: "5")) == [.character("5")])
    }
}

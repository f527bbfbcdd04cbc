import CX11
import Testing

@testable import PaintX11

/// The preedit as an input method's draw callbacks edit it (the structures an on-the-spot
/// server such as IBus passes, built here as it builds them).
@Suite struct InputMethodTests {
    /// Applies a draw callback carrying `text` (multibyte UTF-8, or wide characters).
    static func draw(
        _ preedit: inout [Unicode.Scalar], _ caret: inout Int, first: Int, length: Int, caretTo: Int,
        text: String?, wide: Bool = false
    ) {
        guard let text else {
            let call = XIMPreeditDrawCallbackStruct(
                caret: Int32(caretTo), chg_first: Int32(first), chg_length: Int32(length), text: nil)
            InputMethod.apply(call, to: &preedit, caret: &caret)
            return
        }
        var ximText = XIMText()
        ximText.length = UInt16(text.unicodeScalars.count)
        var bytes = Array(text.utf8CString)
        var wideChars = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
        bytes.withUnsafeMutableBufferPointer { b in
            wideChars.withUnsafeMutableBufferPointer { w in
                if wide {
                    ximText.encoding_is_wchar = 1
                    ximText.string.wide_char = w.baseAddress
                } else {
                    ximText.string.multi_byte = b.baseAddress
                }
                withUnsafeMutablePointer(to: &ximText) { t in
                    let call = XIMPreeditDrawCallbackStruct(
                        caret: Int32(caretTo), chg_first: Int32(first), chg_length: Int32(length), text: t)
                    InputMethod.apply(call, to: &preedit, caret: &caret)
                }
            }
        }
    }

    @Test func drawCallbacksEditThePreedit() {
        var preedit: [Unicode.Scalar] = []
        var caret = 0
        Self.draw(&preedit, &caret, first: 0, length: 0, caretTo: 2, text: "にほ")
        #expect(String(String.UnicodeScalarView(preedit)) == "にほ" && caret == 2)
        Self.draw(&preedit, &caret, first: 2, length: 0, caretTo: 3, text: "ん", wide: true)
        #expect(String(String.UnicodeScalarView(preedit)) == "にほん" && caret == 3)
        // Conversion replaces the reading.
        Self.draw(&preedit, &caret, first: 0, length: 3, caretTo: 2, text: "日本")
        #expect(String(String.UnicodeScalarView(preedit)) == "日本" && caret == 2)
        // A deletion (no text), and ranges past the end are clamped, never a crash.
        Self.draw(&preedit, &caret, first: 1, length: 9, caretTo: 7, text: nil)
        #expect(String(String.UnicodeScalarView(preedit)) == "日" && caret == 1)
        Self.draw(&preedit, &caret, first: -4, length: -1, caretTo: -3, text: "x")
        #expect(String(String.UnicodeScalarView(preedit)) == "x日" && caret == 0)
    }
}

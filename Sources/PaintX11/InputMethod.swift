import CX11
import Glibc
import PaintApp

/// Text input through the X input method (XIM): dead keys and compose sequences through
/// Xlib's built-in method, any script and IMEs through a server such as IBus or Fcitx. Key
/// presses go through `filter` (the method may take them) and `lookup` (what they typed, in
/// UTF-8). What a server is composing (its preedit) is drawn by the window in the field, at
/// the cursor (on-the-spot), or by the server at the spot the window gives (over-the-spot).
final class InputMethod {
    private let display: OpaquePointer
    private let window: Window
    /// Called with the preedit text and its caret (in characters) whenever they change.
    private let onPreedit: (String, Int) -> Void
    private var im: XIM?
    private(set) var ic: XIC?
    /// The input style in use (XIMPreedit… | XIMStatus…).
    private(set) var style: XIMStyle = 0
    /// The preedit so far, as the method's draw callbacks edit it (XIM counts in characters).
    private(set) var preedit: [Unicode.Scalar] = []
    private var caret = 0
    /// Preedit start, done, draw, caret and the method's destroy callback: the method keeps
    /// their addresses, so they live as long as this object.
    private let callbacks = UnsafeMutablePointer<XIMCallback>.allocate(capacity: 5)
    private var fontSet: XFontSet?
    private var spot: XPoint?

    /// Makes text input work in a C or POSIX locale too: LC_CTYPE from the environment, or
    /// C.UTF-8 when that is not UTF-8 (or Xlib does not know it), so typed text arrives as
    /// UTF-8 and file names are written as the user typed them. Call before opening the
    /// display.
    static func prepareLocale() {
        setlocale(LC_CTYPE, "")
        if !isUTF8 || XSupportsLocale() == 0 {
            if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "en_US.UTF-8") }
        }
        // XMODIFIERS names the input method server (`@im=ibus`); "" reads it.
        if XSetLocaleModifiers("") == nil { XSetLocaleModifiers("@im=none") }
    }

    private static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    init(display: OpaquePointer, window: Window, onPreedit: @escaping (String, Int) -> Void) {
        self.display = display
        self.window = window
        self.onPreedit = onPreedit
        callbacks.initialize(repeating: XIMCallback(), count: 5)
    }

    /// Whether `start` has opened the method (or tried: without one, keys are looked up
    /// without it).
    private(set) var started = false

    /// Opens the input method, once; true when this call opened it. The window calls it at its
    /// first key press: Xlib's own method reads the locale's whole Compose table (12–15 ms),
    /// which a click need not wait for.
    func start() -> Bool {
        guard !started else { return false }
        started = true
        open()
        return true
    }

    deinit {
        close()
        if let fontSet { XFreeFontSet(display, fontSet) }
        XUnregisterIMInstantiateCallback(display, nil, nil, nil, Self.instantiated, context)
        callbacks.deinitialize(count: 5)
        callbacks.deallocate()
    }

    private var context: XPointer {
        Unmanaged.passUnretained(self).toOpaque().assumingMemoryBound(to: CChar.self)
    }

    private static func from(_ data: XPointer?) -> InputMethod? {
        data.map { Unmanaged<InputMethod>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }

    /// Opens the method and a context for the window; without a method (none running, a
    /// locale Xlib does not support) keys are looked up without one, and the window waits for
    /// a server to appear.
    private func open() {
        im = XOpenIM(display, nil, nil, nil)
        if im == nil {
            // The server named by XMODIFIERS is not running: Xlib's own method still does
            // dead keys and compose sequences.
            XSetLocaleModifiers("@im=none")
            im = XOpenIM(display, nil, nil, nil)
            XSetLocaleModifiers("")
            XRegisterIMInstantiateCallback(display, nil, nil, nil, Self.instantiated, context)
        }
        guard let im else { return }
        callbacks[4] = XIMCallback(client_data: context, callback: Self.destroyed)
        cx_im_set_destroy_callback(im, callbacks + 4)
        style = Self.chooseStyle(im)
        if style & XIMStyle(XIMPreeditCallbacks) != 0 {
            callbacks[0] = XIMCallback(
                client_data: context, callback: unsafeBitCast(Self.preeditStart, to: XIMProc.self))
            callbacks[1] = XIMCallback(client_data: context, callback: Self.preeditDone)
            callbacks[2] = XIMCallback(client_data: context, callback: Self.preeditDraw)
            callbacks[3] = XIMCallback(client_data: context, callback: Self.preeditCaret)
            ic = cx_create_ic_callbacks(im, window, style, callbacks, callbacks + 1, callbacks + 2, callbacks + 3)
        } else if style & XIMStyle(XIMPreeditPosition) != 0 {
            ic = cx_create_ic_spot(im, window, style, spot ?? XPoint(x: 0, y: 0), overTheSpotFonts())
        } else {
            ic = cx_create_ic(im, window, style)
        }
        if let ic { XSetICFocus(ic) }
    }

    private func close() {
        if let ic { XDestroyIC(ic) }
        if let im { XCloseIM(im) }
        ic = nil
        im = nil
    }

    /// On-the-spot first (the preedit in our field, in our font), then over-the-spot, then
    /// the method's own window, then none.
    static func chooseStyle(_ im: XIM) -> XIMStyle {
        guard let styles = cx_im_styles(im) else { return XIMStyle(XIMPreeditNothing | XIMStatusNothing) }
        defer { XFree(styles) }
        let offered = UnsafeBufferPointer(
            start: styles.pointee.supported_styles, count: Int(styles.pointee.count_styles))
        let preferred = [XIMPreeditCallbacks, XIMPreeditPosition, XIMPreeditNothing, XIMPreeditNone]
        for preedit in preferred {
            for status in [XIMStatusNothing, XIMStatusNone] {
                let wanted = XIMStyle(preedit | status)
                if offered.contains(wanted) { return wanted }
            }
        }
        return XIMStyle(XIMPreeditNothing | XIMStatusNothing)
    }

    /// A font set for over-the-spot servers that draw with the client's fonts; nil when the
    /// server has no core fonts (most servers then use their own).
    private func overTheSpotFonts() -> XFontSet? {
        if fontSet == nil {
            var missing: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var missingCount: Int32 = 0
            var defaultString: UnsafeMutablePointer<CChar>?
            fontSet = XCreateFontSet(
                display, "-*-*-medium-r-normal--14-*-*-*-*-*-*-*,*", &missing, &missingCount, &defaultString)
            if let missing { XFreeStringList(missing) }
        }
        return fontSet
    }

    /// The events the method needs the window to select as well.
    var eventMask: Int { ic.map { Int(cx_ic_filter_events($0)) } ?? 0 }

    /// Gives every event to the method first; true when it took the event (a key that starts
    /// or continues a composition, the method's own messages).
    func filter(_ event: inout XEvent) -> Bool {
        XFilterEvent(&event, 0) != 0
    }

    /// The window gained or lost the keyboard.
    func focus(_ focused: Bool) {
        guard let ic else { return }
        if focused { XSetICFocus(ic) } else { XUnsetICFocus(ic) }
    }

    /// Where the field's text cursor is (window coordinates of its baseline), for a method
    /// that draws the preedit itself.
    func setSpot(x: Int, y: Int) {
        let new = XPoint(x: Int16(clamping: x), y: Int16(clamping: y))
        guard spot?.x != new.x || spot?.y != new.y else { return }
        spot = new
        if let ic, style & XIMStyle(XIMPreeditPosition) != 0 { cx_ic_set_spot(ic, new) }
    }

    /// The keysym and the UTF-8 text of a KeyPress (committed compositions arrive as a press
    /// with text and no keysym).
    func lookup(_ event: inout XKeyEvent) -> (keysym: KeySym, text: String) {
        guard let ic else { return Self.lookupWithoutMethod(&event) }
        var keysym: KeySym = 0
        var status: Int32 = 0
        var buffer = [CChar](repeating: 0, count: 64)
        var count = Xutf8LookupString(ic, &event, &buffer, Int32(buffer.count), &keysym, &status)
        if status == XBufferOverflow {
            buffer = [CChar](repeating: 0, count: Int(count) + 1)
            count = Xutf8LookupString(ic, &event, &buffer, Int32(buffer.count), &keysym, &status)
        }
        let hasText = status == XLookupChars || status == XLookupBoth
        let hasKeysym = status == XLookupKeySym || status == XLookupBoth
        let bytes = buffer.prefix(hasText ? Int(max(0, count)) : 0).map { UInt8(bitPattern: $0) }
        return (hasKeysym ? keysym : 0, String(decoding: bytes, as: UTF8.self))
    }

    /// Without a method: the keysym, and its character for Latin-1 and Unicode keysyms.
    static func lookupWithoutMethod(_ event: inout XKeyEvent) -> (keysym: KeySym, text: String) {
        var keysym: KeySym = 0
        var buffer = [CChar](repeating: 0, count: 16)
        _ = XLookupString(&event, &buffer, Int32(buffer.count), &keysym, nil)
        let scalar: UInt32? =
            (0x20...0xFF).contains(keysym)
            ? UInt32(keysym)
            : (0x100_0100...0x110_FFFF).contains(keysym) ? UInt32(keysym - 0x100_0000) : nil
        let text = scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? ""
        return (keysym, text)
    }

    // MARK: Preedit (on-the-spot)

    /// Applies one draw callback to the preedit: `chg_length` characters from `chg_first` are
    /// replaced by the callback's text (none: deleted; a text without characters changes only
    /// its look), and the caret moves.
    static func apply(
        _ draw: XIMPreeditDrawCallbackStruct, to preedit: inout [Unicode.Scalar], caret: inout Int
    ) {
        let first = min(max(Int(draw.chg_first), 0), preedit.count)
        let length = min(max(Int(draw.chg_length), 0), preedit.count - first)
        var replacement: [Unicode.Scalar] = []
        if let text = draw.text {
            let t = text.pointee
            if t.encoding_is_wchar != 0 {
                guard let wide = t.string.wide_char else { return moveCaret(draw.caret, preedit, &caret) }
                replacement = (0..<Int(t.length)).compactMap { Unicode.Scalar(UInt32(bitPattern: wide[$0])) }
            } else {
                guard let bytes = t.string.multi_byte else { return moveCaret(draw.caret, preedit, &caret) }
                replacement = Array(String(cString: bytes).unicodeScalars)
            }
        }
        preedit.replaceSubrange(first..<first + length, with: replacement)
        moveCaret(draw.caret, preedit, &caret)
    }

    private static func moveCaret(_ to: Int32, _ preedit: [Unicode.Scalar], _ caret: inout Int) {
        caret = min(max(Int(to), 0), preedit.count)
    }

    private func preeditChanged() {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: preedit)
        let string = String(text)
        // The caret in characters: the scalars before it, as a string.
        var before = String.UnicodeScalarView()
        before.append(contentsOf: preedit.prefix(caret))
        onPreedit(string, String(before).count)
    }

    private static let preeditStart: @convention(c) (OpaquePointer?, XPointer?, XPointer?) -> Int32 = { _, data, _ in
        guard let method = from(data) else { return -1 }
        method.preedit = []
        method.caret = 0
        method.preeditChanged()
        return -1  // no length limit
    }

    private static let preeditDone: XIMProc = { _, data, _ in
        guard let method = from(data) else { return }
        method.preedit = []
        method.caret = 0
        method.preeditChanged()
    }

    private static let preeditDraw: XIMProc = { _, data, call in
        guard let method = from(data), let call else { return }
        let draw = UnsafeRawPointer(call).assumingMemoryBound(to: XIMPreeditDrawCallbackStruct.self).pointee
        apply(draw, to: &method.preedit, caret: &method.caret)
        method.preeditChanged()
    }

    private static let preeditCaret: XIMProc = { _, data, call in
        guard let method = from(data), let call else { return }
        var move = UnsafeMutableRawPointer(call).assumingMemoryBound(to: XIMPreeditCaretCallbackStruct.self)
        switch move.pointee.direction {
        case XIMForwardChar: method.caret = min(method.caret + 1, method.preedit.count)
        case XIMBackwardChar: method.caret = max(method.caret - 1, 0)
        case XIMAbsolutePosition: method.caret = min(max(Int(move.pointee.position), 0), method.preedit.count)
        case XIMLineStart: method.caret = 0
        case XIMLineEnd: method.caret = method.preedit.count
        default: break
        }
        move.pointee.position = Int32(method.caret)
        method.preeditChanged()
    }

    // MARK: The method coming and going

    /// The server went away (XIM destroy callback): its context is gone with it.
    private static let destroyed: XIMProc = { _, data, _ in
        guard let method = from(data) else { return }
        method.ic = nil
        method.im = nil
        method.preedit = []
        method.preeditChanged()
        XRegisterIMInstantiateCallback(method.display, nil, nil, nil, instantiated, data)
    }

    /// A server started (again): use it.
    private static let instantiated: XIDProc = { _, data, _ in
        guard let method = from(data) else { return }
        XUnregisterIMInstantiateCallback(method.display, nil, nil, nil, instantiated, data)
        method.close()
        method.open()
    }
}

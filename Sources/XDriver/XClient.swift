import CX11
import CXTest
import Foundation
import PaintCore
import Synchronization
import TestSupport
import XConnect

/// X protocol errors seen by any `XClient` in this process (they are reported, not fatal).
private let xErrorCount = Atomic<Int>(0)
/// The error code of the most recent X protocol error.
private let xLastErrorCode = Atomic<Int>(0)

/// The test's own connection to the test X server: it finds the program's window, drives the
/// pointer and keyboard through XTest exactly like a user, and reads back the pixels on screen.
///
/// Not thread-safe and not `Sendable`: keep each client inside the test that made it (Xlib's
/// own shared state is guarded: `XConnection`). X protocol errors (e.g. a window that vanished while the
/// tree was being walked) are counted in `errorCount` instead of killing the test process, and a
/// server that dies under the client sets `isConnectionLost` instead of calling `exit`.
///
/// Every input method flushes and `XSync`s after each faked event, so when it returns the server
/// has processed the event (the program may not have yet: wait on a condition for that).
public final class XClient {
    /// The Xlib connection.
    public let display: OpaquePointer
    /// The display name it was opened with.
    public let displayName: String
    /// The default screen number.
    public let screen: Int32
    /// The root window of the default screen.
    public let root: Window
    /// Whether input calls wait until the server has processed each faked event (`XSync`, the
    /// default: a test then knows the server has it) or only send it (`XFlush`: a benchmark
    /// that paces events itself, or sends them as fast as it can).
    public var waitsForServer = true
    private let connection: XConnection
    /// Whether `close` was called (nothing may use the connection after that).
    public var closed: Bool { connection.isClosed }
    private var atoms: [String: Atom] = [:]

    /// Opens `displayName` (e.g. `server.displayName`), polling until the server accepts the
    /// connection or `timeout` passes, and checks that the XTEST extension is there.
    public init(display displayName: String, timeout: Duration = Wait.defaultTimeout) throws {
        _ = Self.installErrorHandler
        guard let connection = Wait.value(timeout: timeout, { XConnection(displayName) }) else {
            throw HarnessError.cannotOpenDisplay(displayName)
        }
        self.connection = connection
        display = connection.display
        self.displayName = displayName
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XTestQueryExtension(display, &event, &error, &major, &minor) != 0 else {
            // Through `close`: the client is whole, so the throw runs `deinit` (which closes
            // an open connection); a second XCloseDisplay would free the Display twice.
            close()
            throw HarnessError.xRequestFailed("the server has no XTEST extension")
        }
    }

    deinit { close() }

    /// Closes the connection. Idempotent; nothing else may be called afterwards.
    public func close() { connection.close() }

    /// Whether the server went away under this connection (Xlib's IO error).
    public var isConnectionLost: Bool { connection.isLost }

    /// X protocol errors seen by all clients in this process so far.
    public static var errorCount: Int { xErrorCount.load(ordering: .relaxed) }

    /// Installs the process-wide Xlib error handler once: protocol errors are counted (a lost
    /// server is `XConnection`'s).
    private static let installErrorHandler: Void = {
        XSetErrorHandler { _, event in
            xErrorCount.add(1, ordering: .relaxed)
            xLastErrorCode.store(Int(event?.pointee.error_code ?? 0), ordering: .relaxed)
            return 0
        }
    }()

    // MARK: - Server facts

    /// The default depth of the screen (24 or 16 on the test servers).
    public var depth: Int { Int(XDefaultDepth(display, screen)) }
    /// The screen size in pixels.
    public var screenSize: (width: Int, height: Int) {
        (Int(XDisplayWidth(display, screen)), Int(XDisplayHeight(display, screen)))
    }
    /// Whether the server offers MIT-SHM.
    public var hasMITSHM: Bool { XShmQueryExtension(display) != 0 }

    /// `XSync`: waits until the server has processed every request sent so far.
    public func sync() { XSync(display, 0) }

    /// The atom for `name`, interned once per client.
    public func atom(_ name: String) -> Atom {
        if let a = atoms[name] { return a }
        let a = XInternAtom(display, name, 0)
        atoms[name] = a
        return a
    }

    // MARK: - Finding windows

    /// Every window below `root`, breadth first (so top-level windows come first).
    public func allWindows() -> [Window] {
        var result: [Window] = []
        var queue: [Window] = [root]
        var index = 0
        while index < queue.count {
            let w = queue[index]
            index += 1
            if w != root { result.append(w) }
            var rootReturn: Window = 0
            var parent: Window = 0
            var children: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            guard XQueryTree(display, w, &rootReturn, &parent, &children, &count) != 0 else { continue }
            if let children {
                queue.append(contentsOf: UnsafeBufferPointer(start: children, count: Int(count)))
                XFree(children)
            }
        }
        return result
    }

    /// The raw bytes, type and format of property `name` on `window`; nil when absent.
    public func property(_ window: Window, _ name: String) -> (bytes: [UInt8], type: Atom, format: Int32, items: Int)? {
        var actualType: Atom = 0
        var actualFormat: Int32 = 0
        var items: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, window, atom(name), 0, 1 << 20, 0, Atom(AnyPropertyType),
            &actualType, &actualFormat, &items, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, actualType != 0, let data else { return nil }
        // Format-32 items are C longs in memory, whatever the protocol says.
        let itemSize = actualFormat == 32 ? MemoryLayout<Int>.size : Int(actualFormat) / 8
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(items) * itemSize))
        return (bytes, actualType, actualFormat, Int(items))
    }

    /// `_NET_WM_PID` of `window`, if set.
    public func windowPID(_ window: Window) -> pid_t? {
        guard let p = property(window, "_NET_WM_PID"), p.format == 32, p.items >= 1 else { return nil }
        return p.bytes.withUnsafeBytes { pid_t(truncatingIfNeeded: $0.loadUnaligned(as: Int.self)) }
    }

    /// The window's attributes, or nil if it does not exist (any more).
    public func attributes(_ window: Window) -> XWindowAttributes? {
        var attributes = XWindowAttributes()
        return XGetWindowAttributes(display, window, &attributes) != 0 ? attributes : nil
    }

    /// Whether the window exists.
    public func exists(_ window: Window) -> Bool { attributes(window) != nil }

    /// Whether the window is mapped and all its ancestors are (`map_state == IsViewable`).
    public func isViewable(_ window: Window) -> Bool { attributes(window)?.map_state == IsViewable }

    /// Picks the main window among candidates: viewable and not override-redirect first.
    private func best(_ candidates: [Window]) -> Window? {
        func rank(_ w: Window) -> Int {
            guard let a = attributes(w) else { return 3 }
            return (a.override_redirect != 0 ? 2 : 0) + (a.map_state == IsViewable ? 0 : 1)
        }
        return candidates.enumerated().min { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element
    }

    /// The top-most window whose `_NET_WM_PID` is `pid` (a viewable, non-override-redirect one
    /// when there are several), or nil.
    public func findWindow(pid: pid_t) -> Window? {
        best(allWindows().filter { windowPID($0) == pid })
    }

    /// The top-most window whose WM_CLASS name or class, `_NET_WM_NAME` or WM_NAME equals
    /// `name` (for programs that do not set `_NET_WM_PID`, such as xlogo), or nil.
    public func findWindow(named name: String) -> Window? {
        best(
            allWindows().filter { w in
                if let c = windowClass(w), c.name == name || c.className == name { return true }
                return windowTitle(w) == name
            })
    }

    /// Polls until a window of `pid` exists and is viewable; returns it.
    /// - Throws: `HarnessError.timedOut` (with the hint, e.g. the program's output).
    public func waitForWindow(
        pid: pid_t, timeout: Duration = Wait.defaultTimeout, hint: @autoclosure () -> String = ""
    ) throws -> Window {
        guard
            let w = Wait.value(
                timeout: timeout, poll: .milliseconds(20),
                {
                    findWindow(pid: pid).flatMap { isViewable($0) ? $0 : nil }
                })
        else {
            throw HarnessError.timedOut("a viewable window with _NET_WM_PID \(pid)\n\(hint())")
        }
        return w
    }

    /// Polls until a window matching `findWindow(named:)` exists and is viewable; returns it.
    public func waitForWindow(named name: String, timeout: Duration = Wait.defaultTimeout) throws -> Window {
        guard
            let w = Wait.value(
                timeout: timeout, poll: .milliseconds(20),
                {
                    findWindow(named: name).flatMap { isViewable($0) ? $0 : nil }
                })
        else {
            throw HarnessError.timedOut("a viewable window named \(name)")
        }
        return w
    }

    /// Polls until `window` is viewable.
    public func waitUntilMapped(_ window: Window, timeout: Duration = Wait.defaultTimeout) throws {
        try Wait.require("window \(window) to be viewable", timeout: timeout) { isViewable(window) }
    }

    /// Polls until `window` no longer exists (destroyed, or its client disconnected).
    public func waitUntilGone(_ window: Window, timeout: Duration = Wait.defaultTimeout) -> Bool {
        Wait.until(timeout: timeout) { !exists(window) }
    }

    /// Polls `condition` every ~10 ms until it holds or `timeout` passes.
    @discardableResult
    public func waitUntil(timeout: Duration = Wait.defaultTimeout, _ condition: () throws -> Bool) rethrows -> Bool {
        try Wait.until(timeout: timeout, poll: .milliseconds(10), condition)
    }

    // MARK: - Window properties

    /// The title: `_NET_WM_NAME` (UTF8_STRING), else WM_NAME; nil when neither is set.
    public func windowTitle(_ window: Window) -> String? {
        if let p = property(window, "_NET_WM_NAME"), p.format == 8, p.type == atom("UTF8_STRING") {
            return String(decoding: p.bytes, as: UTF8.self)
        }
        var name: UnsafeMutablePointer<CChar>?
        guard XFetchName(display, window, &name) != 0, let name else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// Polls until the title satisfies `predicate`; returns it, or nil on timeout.
    public func waitForTitle(
        _ window: Window, timeout: Duration = Wait.defaultTimeout, _ predicate: (String) -> Bool
    ) -> String? {
        Wait.value(timeout: timeout) { windowTitle(window).flatMap { predicate($0) ? $0 : nil } }
    }

    /// WM_CLASS as (instance name, class name).
    public func windowClass(_ window: Window) -> (name: String, className: String)? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            if let n = hint.res_name { XFree(n) }
            if let c = hint.res_class { XFree(c) }
        }
        return (hint.res_name.map { String(cString: $0) } ?? "", hint.res_class.map { String(cString: $0) } ?? "")
    }

    /// The window's rectangle in root (screen) coordinates, or nil if it does not exist.
    public func geometry(_ window: Window) -> IntRect? {
        guard let a = attributes(window) else { return nil }
        let origin = toScreen(window, x: 0, y: 0)
        return IntRect(x: origin.x, y: origin.y, width: Int(a.width), height: Int(a.height))
    }

    /// Window coordinates to root coordinates (`XTranslateCoordinates`).
    public func toScreen(_ window: Window, x: Int, y: Int) -> (x: Int, y: Int) {
        var rx: Int32 = 0
        var ry: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, Int32(x), Int32(y), &rx, &ry, &child)
        return (Int(rx), Int(ry))
    }

    /// Asks the window to close the way a window manager does: a WM_PROTOCOLS ClientMessage
    /// carrying WM_DELETE_WINDOW.
    public func sendCloseRequest(_ window: Window) {
        sendClientMessage(
            display, type: atom("WM_PROTOCOLS"), to: window, [Int(atom("WM_DELETE_WINDOW")), Int(CurrentTime)])
    }

    // MARK: - Pointer

    /// After a faked event: wait for the server, or only send (`waitsForServer`).
    private func sent() {
        if waitsForServer { XSync(display, 0) } else { XFlush(display) }
    }

    /// Moves the pointer to root coordinates (x, y) with XTest.
    public func moveMouse(toScreenX x: Int, y: Int) {
        XTestFakeMotionEvent(display, screen, Int32(x), Int32(y), UInt(CurrentTime))
        sent()
    }

    /// Moves the pointer to (x, y) in `window`'s coordinates.
    public func moveMouse(toWindow window: Window, x: Int, y: Int) {
        let p = toScreen(window, x: x, y: y)
        moveMouse(toScreenX: p.x, y: p.y)
    }

    /// Presses a pointer button (1 left, 2 middle, 3 right, 4/5 wheel).
    public func press(button: UInt32 = 1) {
        XTestFakeButtonEvent(display, button, 1, UInt(CurrentTime))
        sent()
    }

    /// Releases a pointer button.
    public func release(button: UInt32 = 1) {
        XTestFakeButtonEvent(display, button, 0, UInt(CurrentTime))
        sent()
    }

    /// Moves to (x, y) in `window`, then presses and releases `button` with `modifiers` held.
    public func click(_ window: Window, x: Int, y: Int, button: UInt32 = 1, modifiers: KeyModifiers = []) throws {
        moveMouse(toWindow: window, x: x, y: y)
        try withModifiers(modifiers) {
            press(button: button)
            release(button: button)
        }
    }

    /// Clicks `button` at (x, y) in `window` once per entry of `delays`, sent together and
    /// flushed once, so the X server stamps them back to back; each press waits its entry's
    /// milliseconds in the server first (XTest's delay), so the gaps between the clicks'
    /// server times are at least those: a double or triple click, or clicks too slow to make one.
    public func clickRun(_ window: Window, x: Int, y: Int, button: UInt32 = 1, delays: [UInt]) {
        let p = toScreen(window, x: x, y: y)
        XTestFakeMotionEvent(display, screen, Int32(p.x), Int32(p.y), UInt(CurrentTime))
        for delay in delays {
            XTestFakeButtonEvent(display, button, 1, delay)
            XTestFakeButtonEvent(display, button, 0, UInt(CurrentTime))
        }
        XSync(display, 0)
    }

    /// A drag in `window` coordinates: move to the first point, press, move through every
    /// further point (one motion event each, in order), release; `modifiers` held throughout.
    public func drag(_ window: Window, path: [(Int, Int)], button: UInt32 = 1, modifiers: KeyModifiers = []) throws {
        guard let first = path.first else { return }
        let origin = toScreen(window, x: 0, y: 0)
        moveMouse(toScreenX: origin.x + first.0, y: origin.y + first.1)
        try withModifiers(modifiers) {
            press(button: button)
            for (x, y) in path.dropFirst() {
                moveMouse(toScreenX: origin.x + x, y: origin.y + y)
            }
            release(button: button)
        }
    }

    /// The pointer position in root coordinates (`XQueryPointer`).
    public func pointerPosition() -> (x: Int, y: Int) {
        var rootReturn: Window = 0
        var child: Window = 0
        var rx: Int32 = 0
        var ry: Int32 = 0
        var wx: Int32 = 0
        var wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, root, &rootReturn, &child, &rx, &ry, &wx, &wy, &mask)
        return (Int(rx), Int(ry))
    }

    // MARK: - Keyboard

    /// The keysym for a name such as "z", "Z", "Return", "bracketleft", "Escape".
    public func keysym(named name: String) throws -> KeySym {
        let sym = XStringToKeysym(name)
        guard sym != 0 else { throw HarnessError.noKeycode("keysym name \(name)") }
        return sym
    }

    /// The keycode producing `sym` in the first group, and whether Shift is needed for it
    /// (e.g. "Z", "[" vs "{"). Read from the server each time, so a layout set with
    /// `setKeyboardLayout` is seen at once.
    public func keycode(for sym: KeySym) throws -> (code: KeyCode, shift: Bool) {
        var minCode: Int32 = 0
        var maxCode: Int32 = 0
        XDisplayKeycodes(display, &minCode, &maxCode)
        var perCode: Int32 = 0
        let count = maxCode - minCode + 1
        guard let syms = XGetKeyboardMapping(display, KeyCode(minCode), count, &perCode) else {
            throw HarnessError.noKeycode(String(format: "keysym 0x%lx (no keyboard mapping)", sym))
        }
        defer { XFree(syms) }
        // Columns 0 and 1 are the first group's plain and shifted levels.
        for level in 0..<min(2, Int(perCode)) {
            for i in 0..<Int(count) where syms[i * Int(perCode) + level] == sym {
                return (KeyCode(Int(minCode) + i), level == 1)
            }
        }
        throw HarnessError.noKeycode(String(format: "keysym 0x%lx", sym))
    }

    /// Whether the server repeats a key held down (`XGetKeyboardControl`); off on the test
    /// servers (`XvfbServer`), so a key's release that comes late never types it twice.
    public var keyAutoRepeat: Bool {
        var state = XKeyboardState()
        XGetKeyboardControl(display, &state)
        return state.global_auto_repeat != AutoRepeatModeOff
    }

    /// Switches the server's keyboard to an XKB layout (`de`, `ru`, `fr`) with setxkbmap, as a
    /// user does; later key presses are looked up in it.
    public func setKeyboardLayout(_ layout: String) throws {
        let executable = "/usr/bin/setxkbmap"
        let dir = try TemporaryDirectory(prefix: "swiftpaint-setxkbmap")
        let child = try ChildProcess(
            executable: executable, arguments: ["-display", displayName, layout],
            environment: ChildProcess.cleanEnvironment(), stdoutPath: dir.file("out"), stderrPath: dir.file("err"))
        guard child.waitForExit() == .exited(0) else {
            child.killAndReap()
            let why = (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? ""
            throw HarnessError.xRequestFailed("setxkbmap \(layout): \(why)")
        }
        XSync(display, 0)
    }

    /// Presses and releases the key for `sym` with `modifiers` held (Shift is added when the
    /// keysym is on the shifted level, so `key(XK_Z)` types a capital Z).
    public func key(_ sym: KeySym, modifiers: KeyModifiers = []) throws {
        let (code, needsShift) = try keycode(for: sym)
        var held = modifiers
        if needsShift { held.insert(.shift) }
        try withModifiers(held) {
            XTestFakeKeyEvent(display, UInt32(code), 1, UInt(CurrentTime))
            sent()
            XTestFakeKeyEvent(display, UInt32(code), 0, UInt(CurrentTime))
            sent()
        }
    }

    /// `key` by keysym name, e.g. `key("z", modifiers: [.control, .shift])`.
    public func key(_ name: String, modifiers: KeyModifiers = []) throws {
        try key(try keysym(named: name), modifiers: modifiers)
    }

    /// Types `text` key by key (ASCII, Latin-1, newline as Return, tab as Tab).
    public func typeText(_ text: String) throws {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let sym: KeySym
            switch v {
            case 0x0A, 0x0D: sym = KeySym(XK_Return)
            case 0x09: sym = KeySym(XK_Tab)
            case 0x20...0x7E, 0xA0...0xFF: sym = KeySym(v)
            default: sym = KeySym(0x0100_0000 + v)
            }
            try key(sym)
        }
    }

    /// Presses (`down`) or releases the modifier keys, each handled by the server before this
    /// returns: for a test that lets go of them at a moment of its own choosing (`withModifiers`
    /// is the usual way).
    public func setModifiers(_ modifiers: KeyModifiers, down: Bool) throws {
        for name in modifiers.keysymNames {
            let (code, _) = try keycode(for: try keysym(named: name))
            XTestFakeKeyEvent(display, UInt32(code), down ? 1 : 0, UInt(CurrentTime))
        }
        XSync(display, 0)
    }

    /// Runs `body` with the modifier keys pressed, releasing them afterwards (even on error).
    public func withModifiers<T>(_ modifiers: KeyModifiers, _ body: () throws -> T) throws -> T {
        var pressed: [KeyCode] = []
        defer {
            for code in pressed.reversed() {
                XTestFakeKeyEvent(display, UInt32(code), 0, UInt(CurrentTime))
            }
            XSync(display, 0)
        }
        for name in modifiers.keysymNames {
            let (code, _) = try keycode(for: try keysym(named: name))
            XTestFakeKeyEvent(display, UInt32(code), 1, UInt(CurrentTime))
            XSync(display, 0)
            pressed.append(code)
        }
        return try body()
    }

    // MARK: - Pixels

    /// The visual's channel masks for `window`.
    public func channelMasks(_ window: Window) throws -> ChannelMasks {
        guard let a = attributes(window), let visual = a.visual else {
            throw HarnessError.captureFailed("window \(window) does not exist")
        }
        return ChannelMasks(
            red: visual.pointee.red_mask, green: visual.pointee.green_mask, blue: visual.pointee.blue_mask)
    }

    /// Reads the pixels of `rect` (window coordinates; the whole window by default) with
    /// `XGetImage(ZPixmap)`, converting each pixel (`cx_get_pixel`) through the visual's masks
    /// to 8-bit sRGB. What is read is what is on screen: parts covered by other windows show
    /// those windows.
    public func capture(_ window: Window, rect: IntRect? = nil) throws -> ScreenCapture {
        guard let a = attributes(window) else {
            throw HarnessError.captureFailed("window \(window) does not exist")
        }
        let r = rect ?? IntRect(x: 0, y: 0, width: Int(a.width), height: Int(a.height))
        guard !r.isEmpty else { throw HarnessError.captureFailed("empty rectangle \(r)") }
        let masks = try channelMasks(window)
        guard
            let image = XGetImage(
                display, window, Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height), UInt.max, ZPixmap)
        else {
            throw HarnessError.captureFailed("\(r) of window \(window) (\(a.width)x\(a.height))")
        }
        defer { cx_destroy_image(image) }
        var out = PixelImage(width: r.width, height: r.height)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            var i = 0
            for y in 0..<r.height {
                for x in 0..<r.width {
                    let c = masks.rgb(cx_get_pixel(image, Int32(x), Int32(y)))
                    pixels[i] = Pixel.pack(r: c.r, g: c.g, b: c.b, a: 255)
                    i += 1
                }
            }
        }
        return ScreenCapture(image: out, rect: r, masks: masks)
    }

    /// Captures `rect` of `window` repeatedly until `predicate` holds for the capture; returns
    /// that capture. On timeout throws, describing the last capture's most common colors.
    public func waitForCapture(
        _ window: Window, rect: IntRect? = nil, timeout: Duration = Wait.defaultTimeout,
        _ what: @autoclosure () -> String = "the expected pixels",
        until predicate: (ScreenCapture) -> Bool
    ) throws -> ScreenCapture {
        var last: ScreenCapture?
        let ok = try Wait.until(timeout: timeout, poll: .milliseconds(20)) {
            let c = try capture(window, rect: rect)
            last = c
            return predicate(c)
        }
        if ok, let last { return last }
        let colors = last?.histogram().map { "\($0.color) x\($0.count)" }.joined(separator: ", ") ?? "none"
        throw HarnessError.timedOut("\(what()); last capture's colors: \(colors)")
    }
}

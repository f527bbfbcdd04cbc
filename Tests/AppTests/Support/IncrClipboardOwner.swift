import CX11
import XDriver

/// Another program on the display that owns the CLIPBOARD with a PNG and hands it out only in
/// INCR chunks (ICCCM §2.7.2), as GTK and Qt programs send large pictures. It has its own
/// connection; `serve` answers whatever has arrived, so call it while waiting.
///
/// A hostile or hung owner is one `behaviour` away: `.endless` never sends the empty chunk that
/// ends a transfer (it sends its bytes over and over), `.silent` never answers at all.
final class IncrClipboardOwner {
    enum Behaviour { case honest, endless, silent }
    private let behaviour: Behaviour
    private let display: OpaquePointer
    private let window: Window
    private let bytes: [UInt8]
    private let chunk: Int
    private let clipboard: Atom
    private let png: Atom
    private let incr: Atom
    /// Transfers in progress: the next offset to send into each requestor's property.
    private var transfers: [(requestor: Window, property: Atom, offset: Int)] = []
    /// How many chunks went out (the empty one that ends a transfer included).
    private(set) var chunksSent = 0

    init(displayName: String, png bytes: [UInt8], chunk: Int = 64 << 10, behaviour: Behaviour = .honest) throws {
        guard let display = XOpenDisplay(displayName) else { throw HarnessError.cannotOpenDisplay(displayName) }
        self.behaviour = behaviour
        self.display = display
        self.bytes = bytes
        self.chunk = chunk
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        clipboard = XInternAtom(display, "CLIPBOARD", 0)
        png = XInternAtom(display, "image/png", 0)
        incr = XInternAtom(display, "INCR", 0)
        XSetSelectionOwner(display, clipboard, window, UInt(CurrentTime))
        XSync(display, 0)
        // Not closed here on failure: every property is set, so the throw runs `deinit`, which
        // closes the connection (closing it here too would free the Display twice).
        guard XGetSelectionOwner(display, clipboard) == window else {
            throw HarnessError.timedOut("the CLIPBOARD selection for the test's owner window")
        }
    }

    deinit { XCloseDisplay(display) }

    /// Answers the requests and property deletions that have arrived.
    func serve() {
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if behaviour == .silent { continue }
            switch event.type {
            case SelectionRequest:
                let request = event.xselectionrequest
                var property = request.property
                if request.target == png && property != 0 {
                    // Announce the size; the chunks follow each deletion of the property.
                    XSelectInput(display, request.requestor, PropertyChangeMask)
                    var size = UInt(bytes.count)
                    _ = withUnsafeBytes(of: &size) {
                        XChangeProperty(
                            display, request.requestor, property, incr, 32, PropModeReplace,
                            $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
                    }
                    transfers.append((request.requestor, property, 0))
                } else {
                    property = 0
                }
                var reply = XEvent()
                reply.xselection.type = SelectionNotify
                reply.xselection.requestor = request.requestor
                reply.xselection.selection = request.selection
                reply.xselection.target = request.target
                reply.xselection.property = property
                reply.xselection.time = request.time
                XSendEvent(display, request.requestor, 0, 0, &reply)
            case PropertyNotify where event.xproperty.state == PropertyDelete:
                let e = event.xproperty
                guard let k = transfers.firstIndex(where: { $0.requestor == e.window && $0.property == e.atom }) else {
                    continue
                }
                // The endless owner starts over instead of ending.
                if behaviour == .endless && transfers[k].offset == bytes.count { transfers[k].offset = 0 }
                let start = transfers[k].offset
                let end = min(bytes.count, start + chunk)
                _ = bytes[start..<end].withUnsafeBufferPointer {
                    XChangeProperty(
                        display, e.window, e.atom, png, 8, PropModeReplace, $0.baseAddress, Int32($0.count))
                }
                chunksSent += 1
                if start == end { transfers.remove(at: k) } else { transfers[k].offset = end }
            default:
                break
            }
        }
        XFlush(display)
    }
}

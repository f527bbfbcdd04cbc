import CX11
import XConnect
import XDriver

/// Another program on the display that owns the CLIPBOARD with one picture in several formats,
/// as GTK and Qt programs offer theirs: TARGETS lists them in the order given, and each is sent
/// in one piece. It records every target it was asked for, so a test sees which one a paste
/// took. It has its own connection; `serve` answers whatever has arrived, so call it while
/// waiting.
final class FormatsClipboardOwner {
    private let connection: XConnection
    private let display: OpaquePointer
    private let window: Window
    private let clipboard: Atom
    private let targetsAtom: Atom
    /// The formats offered, in TARGETS order: the atom and its bytes.
    private let offered: [(atom: Atom, bytes: [UInt8])]
    /// The targets asked for, by name, in order (TARGETS included).
    private(set) var asked: [String] = []

    init(displayName: String, offering formats: [(target: String, bytes: [UInt8])]) throws {
        guard let connection = XConnection(displayName) else { throw HarnessError.cannotOpenDisplay(displayName) }
        self.connection = connection
        let display = connection.display
        self.display = display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        clipboard = XInternAtom(display, "CLIPBOARD", 0)
        targetsAtom = XInternAtom(display, "TARGETS", 0)
        offered = formats.map { (XInternAtom(display, $0.target, 0), $0.bytes) }
        XSetSelectionOwner(display, clipboard, window, UInt(CurrentTime))
        XSync(display, 0)
        // The connection closes itself when the owner goes, thrown or not.
        guard XGetSelectionOwner(display, clipboard) == window else {
            throw HarnessError.timedOut("the CLIPBOARD selection for the test's owner window")
        }
    }

    /// Answers the requests that have arrived (none once the server is gone).
    func serve() {
        while !connection.isLost && XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            guard event.type == SelectionRequest else { continue }
            let request = event.xselectionrequest
            var property = request.property
            if let name = XGetAtomName(display, request.target) {
                asked.append(String(cString: name))
                XFree(name)
            }
            if property == 0 {
                // An obsolete requestor: refused (SwiftPaint always names a property).
            } else if request.target == targetsAtom {
                var list = [targetsAtom] + offered.map(\.atom)
                let count = Int32(list.count)
                _ = list.withUnsafeMutableBytes {
                    XChangeProperty(
                        display, request.requestor, property, XA_ATOM, 32, PropModeReplace,
                        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count)
                }
            } else if let format = offered.first(where: { $0.atom == request.target }) {
                _ = format.bytes.withUnsafeBufferPointer {
                    XChangeProperty(
                        display, request.requestor, property, request.target, 8, PropModeReplace, $0.baseAddress,
                        Int32($0.count))
                }
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
        }
        XFlush(display)
    }
}

import CX11
import XConnect
import XDriver

/// Another program's X connection with a 1 x 1 window that owns one selection (or none, for a
/// requestor): what the tests' other programs (the INCR clipboard owner, the clipboard manager,
/// the XDND drag source, `ClipboardRequestor`) have in common. It opens the connection, takes and checks the selection, reads properties, names
/// atoms, answers selection requests, and closes the connection once, when it goes. A server
/// that dies under it marks it lost (`isLost`) and it reads no more events.
final class SelectionConnection {
    let display: OpaquePointer
    let window: Window
    private let connection: XConnection

    /// Opens `displayName` and takes `selection` (`CLIPBOARD`, `CLIPBOARD_MANAGER`, ...; nil:
    /// none).
    init(displayName: String, selection: String?) throws {
        guard let connection = XConnection(displayName) else { throw HarnessError.cannotOpenDisplay(displayName) }
        self.connection = connection
        let display = connection.display
        self.display = display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        guard let selection else { return }
        XSetSelectionOwner(display, XInternAtom(display, selection, 0), window, UInt(CurrentTime))
        XSync(display, 0)
        // Not closed here on failure: the connection closes itself when it goes.
        guard XGetSelectionOwner(display, XInternAtom(display, selection, 0)) == window else {
            throw HarnessError.timedOut("the \(selection) selection for the test's window")
        }
    }

    /// Whether the server went away under the connection.
    var isLost: Bool { connection.isLost }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    /// The name of `atom`, "None" for 0.
    func name(_ atom: Atom) -> String {
        guard atom != 0, let name = XGetAtomName(display, atom) else { return "None" }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// `property` of `window` (ours or another's), deleted once read when `delete`; format-32
    /// items are C longs, as Xlib hands them out.
    func read(_ window: Window, _ property: Atom, delete: Bool) -> (type: Atom, format: Int32, bytes: [UInt8]) {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XGetWindowProperty(
            display, window, property, 0, 1 << 20, delete ? 1 : 0, Atom(AnyPropertyType), &type, &format, &count,
            &after, &data)
        defer { if let data { XFree(data) } }
        let size = format == 32 ? MemoryLayout<UInt>.size : Int(format) / 8
        return (
            type, format, data.map { Array(UnsafeBufferPointer(start: $0, count: Int(count) * max(1, size))) } ?? []
        )
    }

    /// The atoms of a format-32 property's bytes.
    func atoms(_ bytes: [UInt8]) -> [Atom] {
        bytes.withUnsafeBytes { raw in
            (0..<bytes.count / MemoryLayout<UInt>.size).map {
                Atom(raw.load(fromByteOffset: $0 * MemoryLayout<UInt>.size, as: UInt.self))
            }
        }
    }

    /// Tells `request`'s requestor the answer is in `property` (0: refused), for `selection`
    /// (the request's own unless given).
    func reply(to request: XSelectionRequestEvent, property: Atom, selection: Atom? = nil) {
        var reply = XEvent()
        reply.xselection.type = SelectionNotify
        reply.xselection.requestor = request.requestor
        reply.xselection.selection = selection ?? request.selection
        reply.xselection.target = request.target
        reply.xselection.property = property
        reply.xselection.time = request.time
        XSendEvent(display, request.requestor, 0, 0, &reply)
    }

    /// Hands every event that has arrived to `handle`, then sends what it queued.
    func drain(_ handle: (inout XEvent) -> Void) {
        // A lost connection has nothing more to read (Xlib refuses it; XPending says 0).
        while !connection.isLost && XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            handle(&event)
        }
        XFlush(display)
    }
}

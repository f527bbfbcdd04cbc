import CX11
import XDriver

/// Another program asking for a selection as a paste does (`XConvertSelection`, then the owner's
/// `SelectionNotify`), with whatever target, time and property a test gives: what GIMP, Qt
/// programs (Krita) and LibreOffice ask of a copied picture, and what a careless or hostile
/// requestor sends (no property, a time before the copy, a window that is gone).
final class ClipboardRequestor {
    let connection: SelectionConnection

    /// What the owner answered: the property it names (0: refused) and what that property holds
    /// on our window (read and deleted; empty when none is there).
    struct Answer {
        /// The target and time the answer names (ICCCM: those of the request).
        var target: Atom
        var time: Time
        var property: Atom
        var type: Atom
        var format: Int32
        var bytes: [UInt8]
    }

    init(displayName: String) throws {
        connection = try SelectionConnection(displayName: displayName, selection: nil)
        XSelectInput(connection.display, connection.window, PropertyChangeMask)
    }

    var display: OpaquePointer { connection.display }
    var window: Window { connection.window }
    func atom(_ name: String) -> Atom { connection.atom(name) }
    func name(_ atom: Atom) -> String { connection.name(atom) }

    /// Who owns `selection` now (0: nobody).
    func owner(_ selection: String = "CLIPBOARD") -> Window { XGetSelectionOwner(display, atom(selection)) }

    /// The server's time now: the time of a PropertyNotify for a property appended to on our
    /// window, as ICCCM §2.1 suggests for a client with no recent event to take it from.
    func serverTime() throws -> Time {
        let stamp = atom("SWIFTPAINT_TEST_STAMP")
        XChangeProperty(display, window, stamp, XA_STRING, 8, PropModeAppend, nil, 0)
        XFlush(display)
        var time: Time?
        _ = Wait.until(poll: .milliseconds(5)) {
            var event = XEvent()
            while XCheckTypedWindowEvent(display, window, PropertyNotify, &event) != 0 {
                if event.xproperty.atom == stamp { time = event.xproperty.time }
            }
            return time != nil
        }
        guard let time else { throw HarnessError.timedOut("a PropertyNotify for the server's time") }
        return time
    }

    /// Sets our window's `property` to `atoms` (format 32) of `type`: a MULTIPLE request's pairs.
    func setAtoms(_ atoms: [Atom], _ property: Atom, type: Atom) {
        var list = atoms.map { UInt($0) }
        _ = list.withUnsafeMutableBytes {
            XChangeProperty(
                display, window, property, type, 32, PropModeReplace,
                $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(atoms.count))
        }
    }

    /// Reads (and deletes) our window's `property`.
    func take(_ property: Atom) -> (type: Atom, format: Int32, bytes: [UInt8]) {
        guard property != 0 else { return (0, 0, []) }
        let read = connection.read(window, property, delete: true)
        return (read.type, read.format, read.bytes)
    }

    /// Asks the owner of `selection` for `target` into `property` (0: none, as an obsolete
    /// client) at `time`; waits for its answer and takes the property it names.
    func request(
        _ target: Atom, into property: Atom, time: Time, selection: String = "CLIPBOARD"
    ) throws -> Answer {
        XConvertSelection(display, atom(selection), target, property, window, time)
        XFlush(display)
        var reply: XSelectionEvent?
        _ = Wait.until(poll: .milliseconds(5)) {
            var event = XEvent()
            if XCheckTypedWindowEvent(display, window, SelectionNotify, &event) != 0 { reply = event.xselection }
            return reply != nil
        }
        guard let reply else { throw HarnessError.timedOut("the owner's answer for \(name(target))") }
        let read = take(reply.property)
        return Answer(
            target: reply.target, time: reply.time, property: reply.property, type: read.type, format: read.format,
            bytes: read.bytes)
    }

    /// Asks the owner of CLIPBOARD for `target` into `property` at `time` and returns at once;
    /// `answer()` looks for the reply. The server has the request when this returns (a round
    /// trip), so anything sent to the owner after it reaches the owner after the request.
    func send(_ target: Atom, into property: Atom, time: Time) {
        XConvertSelection(display, atom("CLIPBOARD"), target, property, window, time)
        XSync(display, 0)
    }

    /// The owner's reply to what `send` asked, if it has come (read from the server first).
    func answer() -> XSelectionEvent? {
        XSync(display, 0)
        var event = XEvent()
        return XCheckTypedWindowEvent(display, window, SelectionNotify, &event) != 0 ? event.xselection : nil
    }

    /// The bytes the reply `reply` names, in one piece or in INCR chunks (ICCCM §2.7.2: the
    /// property deleted to ask for each next chunk, an empty one ends it); its type with them.
    func receive(_ reply: XSelectionEvent) throws -> (type: Atom, bytes: [UInt8]) {
        // What was written before the reply (the INCR announcement itself) is no chunk.
        var stale = XEvent()
        while XCheckTypedWindowEvent(display, window, PropertyNotify, &stale) != 0 {}
        let first = take(reply.property)
        guard first.type == atom("INCR") else { return (first.type, first.bytes) }
        var bytes: [UInt8] = []
        var type: Atom = 0
        while true {
            var chunk: (type: Atom, format: Int32, bytes: [UInt8])?
            _ = Wait.until(poll: .milliseconds(2)) {
                var event = XEvent()
                while XCheckTypedWindowEvent(display, window, PropertyNotify, &event) != 0 {
                    if event.xproperty.atom == reply.property && event.xproperty.state == PropertyNewValue {
                        chunk = take(reply.property)
                        return true
                    }
                }
                return false
            }
            guard let chunk else { throw HarnessError.timedOut("the owner's next INCR chunk of \(name(reply.target))") }
            if chunk.bytes.isEmpty { return (type, bytes) }
            type = chunk.type
            bytes += chunk.bytes
        }
    }
}

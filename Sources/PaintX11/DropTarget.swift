import CX11
import PaintApp
import PaintIO

/// The window as a drag-and-drop target (XDND, version 5): a file manager's drag is accepted as
/// a copy, and the dropped `text/uri-list` is asked for, read and handed to the session as
/// `InputEvent.dropped` with its local paths (Ctrl held at the drop: paste instead of open).
/// A drop whose list never comes (the source quit, refused, or hangs) is given up, as
/// `InputEvent.dropFailed`: at once when the answer is a refusal, after `patience` seconds of
/// silence, or quietly when another drag enters.
///
/// Each drop asks for its list with a requestor window of its own, destroyed when the drop ends
/// (its list read, refused or given up): a hung source that wakes up later answers a window that
/// is gone, so its answer never reaches this program and cannot be taken for a later drop's,
/// whether or not its drop named a time (XdndDrop's time may be CurrentTime, which an answer
/// repeats as 0) and whether it hands a list over or refuses.
final class DropTarget {
    private let display: OpaquePointer
    private let window: Window
    /// Where a drop's requestor window is made.
    private let root: Window
    private let enter, position, status, drop, finished, leave, selection, copy, uriList, property: Atom
    /// The window dragging to us (0: none).
    private var source: Window = 0
    /// Whether the source offers a uri list (the types of XdndEnter, or XdndTypeList).
    private var offersURIs = false
    /// The drop whose uri list was asked for and has not arrived: its source, the window that
    /// asked (only this drop's answer names it), when it was asked (monotonic seconds) and
    /// whether Ctrl was held at the drop.
    private var awaited: (source: Window, requestor: Window, since: Double, paste: Bool)?
    /// Seconds a source may leave the request for its list unanswered: a file manager answers
    /// at once.
    let patience: Double

    init(display: OpaquePointer, window: Window, patience: Double = 5) {
        self.display = display
        self.window = window
        root = XDefaultRootWindow(display)
        self.patience = patience
        func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }
        enter = atom("XdndEnter")
        position = atom("XdndPosition")
        status = atom("XdndStatus")
        drop = atom("XdndDrop")
        finished = atom("XdndFinished")
        leave = atom("XdndLeave")
        selection = atom("XdndSelection")
        copy = atom("XdndActionCopy")
        uriList = atom("text/uri-list")
        property = atom("SWIFTPAINT_DROP")
        // XdndAware: the version spoken.
        var version: UInt = 5
        XChangeProperty(display, window, atom("XdndAware"), XA_ATOM, 32, PropModeReplace, &version, 1)
    }

    /// A client message of the protocol (true), answered; anything else is not ours (false).
    func handle(_ e: XClientMessageEvent) -> Bool {
        let type = e.message_type
        guard [enter, position, drop, leave].contains(type) else { return false }
        let from = Window(UInt(bitPattern: e.data.l.0))
        switch type {
        case enter:
            // A new drag: one still waiting for its list is given up, its requestor with it (a
            // late answer, if any, reaches nobody).
            if let old = awaited {
                awaited = nil
                XDestroyWindow(display, old.requestor)
                send(finished, to: old.source, [Int(window), 0, 0, 0, 0])
            }
            source = from
            // Up to three types inline; more are in XdndTypeList (bit 0 of l[1]).
            let inline = [e.data.l.2, e.data.l.3, e.data.l.4].map { Atom(UInt(bitPattern: $0)) }
            offersURIs = inline.contains(uriList) || (e.data.l.1 & 1 != 0 && typeList(of: from).contains(uriList))
        case position:
            guard from == source else { return true }
            send(status, to: from, [Int(window), offersURIs ? 1 : 0, 0, 0, offersURIs ? Int(copy) : 0])
        case drop:
            guard from == source, offersURIs else {
                send(finished, to: from, [Int(window), 0, 0, 0, 0])
                return true
            }
            // Ctrl is read at the drop, where the user let go: by the time the list arrives
            // (a source may take its time) the key may be up, and once XdndFinished is sent the
            // source's program may act on it at once.
            let time = Time(UInt(bitPattern: e.data.l.2))
            // Unmapped and input-only: it takes no events but the source's answer, which a
            // SendEvent without a mask brings to the connection that made it (this one).
            let requestor = XCreateWindow(display, root, 0, 0, 1, 1, 0, 0, UInt32(InputOnly), nil, 0, nil)
            awaited = (from, requestor, Clipboard.now(), controlHeld())
            XConvertSelection(display, selection, uriList, property, requestor, time)
        default:
            source = 0
        }
        return true
    }

    /// The dropped list arriving (a SelectionNotify for it): the paths, once read, or why there
    /// are none (refused: the source quit or would not); nil for another selection, or for an
    /// answer to another requestor than the awaited drop's (a given-up drop's, sent before its
    /// window was destroyed and read after).
    func take(_ e: XSelectionEvent) -> InputEvent? {
        guard e.selection == selection, let dropped = awaited, e.requestor == dropped.requestor else { return nil }
        awaited = nil
        if source == dropped.source { source = 0 }
        defer { XDestroyWindow(display, dropped.requestor) }
        guard e.property != 0 else {
            // The server answers None itself when the source's window is gone (it owned
            // XdndSelection through it).
            send(finished, to: dropped.source, [Int(window), 0, 0, 0, 0])
            return .dropFailed(.notHandedOver)
        }
        var paths: [String] = []
        var namesNotUTF8 = 0
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        // A uri list of 1 MB is thousands of files: more is not read.
        if XGetWindowProperty(
            display, dropped.requestor, property, 0, 1 << 18, 1, Atom(AnyPropertyType), &type, &format, &count,
            &after, &data)
            == Success, let data, format == 8
        {
            // Past 1 MB the last line read may be cut mid-name: it is left out.
            let text = FileURI.text(ofURIList: UnsafeBufferPointer(start: data, count: Int(count)), cut: after > 0)
            paths = FileURI.paths(inURIList: text).paths
            namesNotUTF8 = FileURI.namesNotUTF8(inURIList: text)
        }
        if let data { XFree(data) }
        send(finished, to: dropped.source, [Int(window), paths.isEmpty ? 0 : 1, paths.isEmpty ? 0 : Int(copy), 0, 0])
        return .dropped(paths: paths, paste: dropped.paste, namesNotUTF8: namesNotUTF8)
    }

    /// When the drop awaited is given up unless its list arrives (monotonic seconds), for the
    /// event loop's poll time-out; nil when none is awaited.
    var deadline: Double? { awaited.map { $0.since + patience } }

    /// Gives up the drop awaited once its source has been silent past the patience: the source
    /// is told the drop failed (XdndFinished), the session why; nil before then.
    func expire(now: Double) -> InputEvent? {
        guard let dropped = awaited, let deadline, now >= deadline else { return nil }
        awaited = nil
        XDestroyWindow(display, dropped.requestor)
        if source == dropped.source { source = 0 }
        send(finished, to: dropped.source, [Int(window), 0, 0, 0, 0])
        return .dropFailed(.noAnswer(seconds: Int(patience)))
    }

    /// The types a source lists in its XdndTypeList property; none when its window is gone (the
    /// server's refusal is taken by `XErrorTrap`: Xlib's default handler would end the program;
    /// the read then fails, with no round trip more).
    private func typeList(of window: Window) -> [Atom] {
        var list: [Atom] = []
        XErrorTrap.tolerate(display) { list = readTypeList(of: window) }
        return list
    }

    private func readTypeList(of window: Window) -> [Atom] {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, window, XInternAtom(display, "XdndTypeList", 0), 0, 64, 0, XA_ATOM, &type, &format, &count,
                &after, &data) == Success, let data
        else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { p in (0..<Int(count)).map { Atom(p[$0]) } }
    }

    /// Whether Ctrl is down now (XDND does not carry the modifiers: they are asked for at the
    /// drop).
    private func controlHeld() -> Bool {
        var root: Window = 0
        var child: Window = 0
        var rx: Int32 = 0
        var ry: Int32 = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, window, &root, &child, &rx, &ry, &x, &y, &mask)
        return mask & UInt32(ControlMask) != 0
    }

    /// Sends a message of the protocol to the source's window, which may be gone (the program
    /// quit mid-drag): the server's refusal is taken by `XErrorTrap`, where Xlib's default handler
    /// would end this program.
    private func send(_ type: Atom, to target: Window, _ values: [Int]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = target
        event.xclient.message_type = type
        event.xclient.format = 32
        event.xclient.data.l = (values[0], values[1], values[2], values[3], values[4])
        XErrorTrap.tolerate(display) { _ = XSendEvent(display, target, 0, 0, &event) }
    }
}

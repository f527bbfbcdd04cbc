import CX11

/// `_NET_WM_PING` (EWMH): a window manager asks whether the program still responds (a hung
/// one is offered to be killed), and gets the same message back on the root window.
///
/// The answers are sent after the window has drawn what the events before the ping asked for
/// (`answer` is called at the end of a present, before its flush): when the asker receives one,
/// the server has every request the program made for those events, so the window shows their
/// result. The end-to-end tests use it as that barrier.
struct PingAnswers {
    /// `_NET_WM_PING`, listed in the window's WM_PROTOCOLS.
    let atom: Atom
    private let protocols: Atom
    private var waiting: [XClientMessageEvent] = []

    init(display: OpaquePointer) {
        atom = XInternAtom(display, "_NET_WM_PING", 0)
        protocols = XInternAtom(display, "WM_PROTOCOLS", 0)
    }

    /// Keeps `message` for `answer` when it is a ping; whether it was one.
    mutating func take(_ message: XClientMessageEvent) -> Bool {
        guard message.message_type == protocols, message.format == 32, Atom(message.data.l.0) == atom else {
            return false
        }
        waiting.append(message)
        return true
    }

    /// Sends every ping taken so far back to the root window (the asker reads it there).
    mutating func answer(display: OpaquePointer, root: Window) {
        for var message in waiting {
            message.window = root
            var event = XEvent()
            event.xclient = message
            XSendEvent(display, root, 0, SubstructureNotifyMask | SubstructureRedirectMask, &event)
        }
        waiting.removeAll()
    }
}

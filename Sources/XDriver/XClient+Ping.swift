import CX11
import Synchronization
import TestSupport

/// Matches the answer to one ping: a `_NET_WM_PING` client message on the root window carrying
/// the token (in the timestamp's place) that `arg` points at.
private let isPingAnswer: @convention(c) (OpaquePointer?, UnsafeMutablePointer<XEvent>?, XPointer?) -> Int32 = {
    _, event, arg in
    guard let event, let arg, event.pointee.type == ClientMessage else { return 0 }
    let wanted = UnsafeRawPointer(arg).assumingMemoryBound(to: PingToken.self).pointee
    let message = event.pointee.xclient
    return message.window == wanted.root && message.message_type == wanted.protocols
        && Atom(message.data.l.0) == wanted.ping && message.data.l.1 == wanted.token ? 1 : 0
}

/// What `isPingAnswer` looks for.
private struct PingToken {
    var root: Window
    var protocols: Atom
    var ping: Atom
    var token: Int
}

/// The last token a ping from this process carried (tokens only need to differ).
private let pingTokens = Atomic<Int>(0)

extension XClient {
    /// Pings `window`'s program as a window manager does (`_NET_WM_PING`) and waits for its
    /// answer on the root window.
    ///
    /// A barrier: every event the server delivered to the program before the ping (the input
    /// faked so far, exposures) is handled and drawn, and its drawing is on the server, when
    /// the answer arrives (swiftpaint answers after presenting; see `PingAnswers`). Throws
    /// `HarnessError.timedOut` when no answer comes within `timeout`.
    public func roundTrip(with window: Window, timeout: Duration = Wait.defaultTimeout) throws {
        // Answers come to the root window with SubstructureNotify: selected only meanwhile.
        XSelectInput(display, root, SubstructureNotifyMask)
        defer {
            XSelectInput(display, root, NoEventMask)
            XSync(display, 0)
            dropRootEvents()
        }
        var wanted = PingToken(
            root: root, protocols: atom("WM_PROTOCOLS"), ping: atom("_NET_WM_PING"),
            token: pingTokens.add(1, ordering: .relaxed).newValue)
        sendClientMessage(
            display, type: wanted.protocols, to: window, [Int(wanted.ping), wanted.token, Int(window)])
        let answered = withUnsafeMutablePointer(to: &wanted) { token in
            Wait.until(timeout: timeout, poll: .milliseconds(5)) {
                var answer = XEvent()
                return XCheckIfEvent(display, &answer, isPingAnswer, XPointer(OpaquePointer(token))) != 0
            }
        }
        guard answered else { throw HarnessError.timedOut("an answer to _NET_WM_PING from window \(window)") }
    }

    /// Drops the events selected on the root window meanwhile (other windows' map and
    /// configure notifications): nothing else reads them.
    private func dropRootEvents() {
        var event = XEvent()
        var root = self.root
        while withUnsafeMutablePointer(
            to: &root,
            { XCheckIfEvent(display, &event, isRootEvent, XPointer(OpaquePointer($0))) != 0 })
        {}
    }
}

/// Matches events reported to the root window (`arg` points at it).
private let isRootEvent: @convention(c) (OpaquePointer?, UnsafeMutablePointer<XEvent>?, XPointer?) -> Int32 = {
    _, event, arg in
    guard let event, let arg else { return 0 }
    return event.pointee.xany.window == UnsafeRawPointer(arg).assumingMemoryBound(to: Window.self).pointee ? 1 : 0
}

import CX11

/// Sends a 32-bit ClientMessage of `type` with up to five `values` to `window` (no event mask:
/// it goes to the window's owner, as a window manager's and a drag source's messages do) and
/// returns once the server has it. The one builder for the close request, the ping and XDND.
public func sendClientMessage(_ display: OpaquePointer, type: Atom, to window: Window, _ values: [Int]) {
    precondition(values.count <= 5, "a ClientMessage carries five longs")
    let v = values + Array(repeating: 0, count: 5 - values.count)
    var event = XEvent()
    event.xclient.type = ClientMessage
    event.xclient.display = display
    event.xclient.window = window
    event.xclient.message_type = type
    event.xclient.format = 32
    event.xclient.data.l = (v[0], v[1], v[2], v[3], v[4])
    XSendEvent(display, window, 0, NoEventMask, &event)
    XSync(display, 0)
}

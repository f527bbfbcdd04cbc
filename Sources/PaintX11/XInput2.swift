import CX11
import PaintApp

/// Pointer input through XInput 2.2 where the server has it: buttons and motion of the master
/// pointer with the sub-pixel positions the device reports (FP16.16 on the wire, doubles in
/// Xlib), so a tablet's pen or a high-resolution mouse draws between pixels. Without XI 2.2
/// (or with `SWIFTPAINT_NO_XI2=1`) the window keeps the core events. A value the window keeps
/// in place (not a class: no retain and release of it at every event).
struct XInput2 {
    /// The extension's major opcode: GenericEvents carrying it are ours.
    let opcode: Int32
    private let display: OpaquePointer
    /// The axes and last pressure of each source device seen (a tablet's pen, its eraser, a
    /// mouse).
    private var devices = DeviceStates()
    /// Where each device's scroll valuators stood: a smooth wheel's turns.
    private var scrolls = ScrollTracker()

    /// Opens XInput 2.2 for `window`; nil when the server does not have it.
    init?(display: OpaquePointer, window: Window, root: Window) {
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0 else { return nil }
        var major: Int32 = 2
        var minor: Int32 = 2
        guard XIQueryVersion(display, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else {
            return nil
        }
        self.opcode = opcode
        self.display = display
        var bits = [UInt8](repeating: 0, count: Int(XI_LASTEVENT) / 8 + 1)
        for e in [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_DeviceChanged] { cx_xi_set_mask(&bits, e) }
        let status = bits.withUnsafeMutableBufferPointer { b in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(b.count), mask: b.baseAddress)
            return XISelectEvents(display, window, &mask, 1)
        }
        guard status == Success else { return nil }
        // Devices plugged in and out: ids are reused, so what is known of them is forgotten.
        var hierarchy = [UInt8](repeating: 0, count: Int(XI_LASTEVENT) / 8 + 1)
        cx_xi_set_mask(&hierarchy, XI_HierarchyChanged)
        hierarchy.withUnsafeMutableBufferPointer { b in
            var mask = XIEventMask(deviceid: XIAllDevices, mask_len: Int32(b.count), mask: b.baseAddress)
            _ = XISelectEvents(display, root, &mask, 1)
        }
    }

    /// Whether the environment turns XInput 2 off (`SWIFTPAINT_NO_XI2=1`: core events, for
    /// comparing the two).
    static var disabled: Bool {
        guard let value = getenv("SWIFTPAINT_NO_XI2") else { return false }
        return String(cString: value) == "1"
    }

    /// The input event of an XInput 2 GenericEvent (nil for another extension's, or one this
    /// window does not use), and its server time.
    mutating func translate(_ event: inout XEvent) -> (event: InputEvent, time: Time)? {
        guard event.xcookie.extension == opcode, XGetEventData(display, &event.xcookie) != 0 else { return nil }
        defer { XFreeEventData(display, &event.xcookie) }
        guard let data = event.xcookie.data else { return nil }
        switch event.xcookie.evtype {
        case XI_HierarchyChanged:
            devices.hierarchyChanged()
            scrolls.forget()
            return nil
        case XI_DeviceChanged:
            devices.deviceChanged(data.assumingMemoryBound(to: XIDeviceChangedEvent.self).pointee.sourceid)
            scrolls.forget()
            return nil
        default:
            break
        }
        // Read where Xlib keeps it, not copied (a 200-byte copy at every event).
        let device = data.assumingMemoryBound(to: XIDeviceEvent.self)
        let source = device.pointee.sourceid
        let time = device.pointee.time
        let pen = devices.pen(source: source, valuators: device.pointee.valuators) { [display] in
            DeviceAxes.query(display, device: $0)
        }
        switch device.pointee.evtype {
        case XI_Motion where pen.scrolls:
            if let turn = scrolls.turn(source: source, axes: devices.scrollAxes, state: device.pointee.valuators) {
                return (Self.scrollEvent(device.pointee, dx: turn.dx, dy: turn.dy), time)
            }
        case XI_ButtonPress, XI_ButtonRelease:
            // The wheel clicks the server makes up from a turn read above.
            if scrolls.isEmulatedWheel(source: source, button: device.pointee.detail, flags: device.pointee.flags) {
                return nil
            }
        default:
            break
        }
        return Self.inputEvent(device.pointee, pressure: pen.pressure, eraser: pen.isEraser).map { ($0, time) }
    }

    /// The pointer left the window: scroll valuators go on adding up elsewhere, so the next turn
    /// here starts afresh.
    mutating func pointerLeft() { scrolls.forget() }

    /// A smooth turn of `dx`, `dy` clicks as the session's input event.
    static func scrollEvent(_ e: XIDeviceEvent, dx: Double, dy: Double) -> InputEvent {
        .scroll(
            x: Int(e.event_x.rounded(.down)), y: Int(e.event_y.rounded(.down)), dx: dx, dy: dy,
            modifiers: EventTranslator.modifiers(UInt32(bitPattern: e.mods.effective)))
    }

    /// A device event as the session's input event: whole pixels for hit-testing, the exact
    /// position as the sample (pixel centres at +0.5, as core positions are taken), with the
    /// pen's pressure when the device has one, and whether it is a stylus's eraser end.
    /// Inlined, so that the window's events are read where Xlib keeps them (a call takes a
    /// copy of the 200-byte event).
    @inline(__always)
    static func inputEvent(_ e: XIDeviceEvent, pressure: Double? = nil, eraser: Bool = false) -> InputEvent? {
        let x = Int(e.event_x.rounded(.down))
        let y = Int(e.event_y.rounded(.down))
        let sample = PointerSample(x: e.event_x + 0.5, y: e.event_y + 0.5, pressure: pressure, eraser: eraser)
        let modifiers = EventTranslator.modifiers(UInt32(bitPattern: e.mods.effective))
        switch e.evtype {
        case XI_Motion:
            return .motion(x: x, y: y, modifiers: modifiers, sample: sample)
        case XI_ButtonPress:
            guard let button = EventTranslator.button(UInt32(e.detail)) else { return nil }
            return .press(x: x, y: y, button: button, modifiers: modifiers, sample: sample)
        case XI_ButtonRelease:
            guard let button = EventTranslator.button(UInt32(e.detail)) else { return nil }
            return .release(x: x, y: y, button: button, modifiers: modifiers, sample: sample)
        default:
            return nil
        }
    }
}

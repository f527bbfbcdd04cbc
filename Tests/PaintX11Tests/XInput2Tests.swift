import CX11
import PaintApp
import Testing

@testable import PaintX11

/// The XI2 path from a device event to the session's input event, on event data in the form
/// `xinput list --long` and `xinput test-xi2` print it: a Wacom pen and its eraser (wacom
/// driver: X, Y, pressure 0…65536, tilt X and Y, wheel), and a mouse (relative X and Y only).
@Suite struct XInput2Tests {
    static let pen = DeviceAxes(
        name: "Wacom Intuos S Pen stylus",
        valuators: [
            .init(number: 0, label: "Abs X", min: 0, max: 15200),
            .init(number: 1, label: "Abs Y", min: 0, max: 9500),
            .init(number: 2, label: "Abs Pressure", min: 0, max: 65536),
            .init(number: 3, label: "Abs Tilt X", min: -64, max: 63),
            .init(number: 4, label: "Abs Tilt Y", min: -64, max: 63),
            .init(number: 5, label: "Abs Wheel", min: -900, max: 899),
        ])

    /// An XIDeviceEvent of `evtype` at event position (x, y) carrying valuators `values`
    /// (number → value), handed to `body`.
    static func withEvent<R>(
        _ evtype: Int32, x: Double, y: Double, detail: Int32 = 0, state: Int32 = 0, values: [Int: Double],
        _ body: (XIDeviceEvent) -> R
    ) -> R {
        var mask = [UInt8](repeating: 0, count: 4)
        for number in values.keys { cx_xi_set_mask(&mask, Int32(number)) }
        var packed = values.keys.sorted().map { values[$0]! }
        return mask.withUnsafeMutableBufferPointer { m in
            packed.withUnsafeMutableBufferPointer { v in
                var e = XIDeviceEvent()
                e.type = GenericEvent
                e.evtype = evtype
                e.deviceid = 2
                e.sourceid = 11
                e.detail = detail
                e.event_x = x
                e.event_y = y
                e.mods.effective = state
                e.valuators = XIValuatorState(mask_len: Int32(m.count), mask: m.baseAddress, values: v.baseAddress)
                return body(e)
            }
        }
    }

    @Test func penMotionCarriesItsPositionBetweenPixelsAndItsPressure() {
        // xinput test-xi2: EVENT type 6 (Motion) device: 2 (11) event: 512.38/300.91
        //   valuators: 0: 8120.00 1: 4763.00 2: 21856.00 3: -14.00 4: 27.00
        let event = Self.withEvent(
            XI_Motion, x: 512.375, y: 300.90625, state: Int32(ShiftMask),
            values: [0: 8120, 1: 4763, 2: 21856, 3: -14, 4: 27]
        ) { e -> InputEvent? in
            #expect(DeviceAxes.value(of: 3, in: e.valuators) == -14)
            #expect(DeviceAxes.value(of: 5, in: e.valuators) == nil)
            return XInput2.inputEvent(e, pressure: Self.pen.pressure(in: e.valuators))
        }
        let sample = PointerSample(x: 512.875, y: 301.40625, pressure: 21856.0 / 65536)
        #expect(event == .motion(x: 512, y: 300, modifiers: .shift, sample: sample))
    }

    @Test func onlyTheValuatorsThatChangedAreSent() {
        // Pressure alone changed: the values array holds one number, valuator 2's.
        let pressure = Self.withEvent(XI_Motion, x: 10, y: 10, values: [2: 65536]) {
            Self.pen.pressure(in: $0.valuators)
        }
        #expect(pressure == 1)
        // Position only: no pressure in this event (the caller keeps the last one).
        let none = Self.withEvent(XI_Motion, x: 10, y: 10, values: [0: 100, 1: 200]) {
            Self.pen.pressure(in: $0.valuators)
        }
        #expect(none == nil)
        // A value outside the advertised range is clamped.
        let over = Self.withEvent(XI_Motion, x: 10, y: 10, values: [2: 70000, 5: 3]) {
            Self.pen.pressure(in: $0.valuators)
        }
        #expect(over == 1)
    }

    @Test func buttonsAndDevices() {
        let press = Self.withEvent(XI_ButtonPress, x: 3, y: 4, detail: 3, values: [:]) { XInput2.inputEvent($0) }
        #expect(press == .press(x: 3, y: 4, button: .right, modifiers: [], sample: PointerSample(x: 3.5, y: 4.5)))
        let wheel = Self.withEvent(XI_ButtonPress, x: 3, y: 4, detail: 5, values: [:]) { XInput2.inputEvent($0) }
        #expect(wheel == .press(x: 3, y: 4, button: .wheelDown, modifiers: [], sample: PointerSample(x: 3.5, y: 4.5)))
        let unknown = Self.withEvent(XI_ButtonPress, x: 3, y: 4, detail: 12, values: [:]) { XInput2.inputEvent($0) }
        #expect(unknown == nil)
        // The eraser end is a device of its own; a mouse has no pressure axis.
        let eraser = DeviceAxes(
            name: "Wacom Intuos S Pen eraser",
            valuators: [.init(number: 2, label: "Abs Pressure", min: 0, max: 65536)])
        #expect(eraser.isEraser && eraser.pressure == .init(number: 2, min: 0, max: 65536))
        let mouse = DeviceAxes(
            name: "Logitech USB Optical Mouse",
            valuators: [
                .init(number: 0, label: "Rel X", min: -1, max: -1), .init(number: 1, label: "Rel Y", min: -1, max: -1),
            ])
        #expect(!mouse.isEraser && mouse.pressure == nil && !Self.pen.isEraser)
    }

    @Test func aPenKeepsItsLastPressureUntilItsDevicesChange() {
        var states = DeviceStates()
        var queried: [Int32] = []
        func pen(_ source: Int32, _ values: [Int: Double]) -> DeviceStates.Pen {
            Self.withEvent(XI_Motion, x: 10, y: 10, values: values) { e in
                states.pen(source: source, valuators: e.valuators) { id in
                    queried.append(id)
                    return id == 11 ? Self.pen : DeviceAxes(name: "Logitech USB Optical Mouse", valuators: [])
                }
            }
        }
        // A pen's first event without its pressure: none known yet.
        #expect(pen(11, [0: 100, 1: 200]).pressure == nil)
        #expect(pen(11, [0: 100, 2: 32768]).pressure == 0.5)
        // Moved at the same pressure: positions alone, the last pressure holds.
        #expect(pen(11, [0: 120, 1: 210]).pressure == 0.5)
        // A mouse (device 12) meanwhile has none, and does not disturb the pen's.
        #expect(pen(12, [0: 3, 1: 4]).pressure == nil)
        #expect(pen(11, [1: 220]).pressure == 0.5)
        #expect(queried == [11, 12], "each device's axes are asked for once")
        // The tablet changed tools: its axes are asked again and its pressure forgotten.
        states.deviceChanged(11)
        #expect(pen(11, [1: 230]).pressure == nil)
        #expect(pen(11, [2: 65536]).pressure == 1)
        // Devices plugged in or out: everything is forgotten.
        states.hierarchyChanged()
        #expect(pen(11, [1: 240]).pressure == nil)
        #expect(pen(12, [0: 5]).pressure == nil)
        #expect(queried == [11, 12, 11, 11, 12])
        // A change to a device other than the last one seen (the mouse): the pen's axes too.
        #expect(pen(11, [2: 32768]).pressure == 0.5)
        #expect(pen(12, [0: 6]).pressure == nil)
        states.deviceChanged(11)
        #expect(pen(11, [1: 250]).pressure == nil)
        #expect(queried == [11, 12, 11, 11, 12, 11])
    }
}

extension XInput2Tests {
    /// What `pen` tells of each device, read where its axes are kept: a wheel's scroll
    /// valuators (and `scrollAxes` then), a stylus's eraser end, a mouse with neither.
    @Test func aDevicesScrollingAndEraserAreToldWithoutItsAxes() {
        var states = DeviceStates()
        var wheel = DeviceAxes(name: "Logitech USB Optical Mouse", valuators: [])
        wheel.scroll = ScrollTrackerTests.axes
        let eraser = DeviceAxes(name: "Wacom Intuos Pen eraser", valuators: [])
        func pen(_ source: Int32) -> DeviceStates.Pen {
            Self.withEvent(XI_Motion, x: 1, y: 1, values: [:]) { e in
                states.pen(source: source, valuators: e.valuators) { $0 == 5 ? wheel : $0 == 6 ? eraser : Self.pen }
            }
        }
        let w = pen(5)
        #expect(w.scrolls && !w.isEraser && w.pressure == nil && states.scrollAxes == ScrollTrackerTests.axes)
        let e = pen(6)
        #expect(!e.scrolls && e.isEraser && states.scrollAxes.isEmpty)
        let p = pen(11)
        #expect(!p.scrolls && !p.isEraser && p.pressure == nil)
        #expect(pen(5).scrolls && states.scrollAxes == ScrollTrackerTests.axes)
    }
}

/// Smooth scrolling on event data as `xinput test-xi2` prints it for a mouse with a
/// high-resolution wheel under libinput: valuator 2 horizontal, 3 vertical, 120 per click.
@Suite struct ScrollTrackerTests {
    static let axes = [
        DeviceAxes.Scroll(number: 2, vertical: false, increment: 120),
        DeviceAxes.Scroll(number: 3, vertical: true, increment: 120),
    ]

    static func turn(_ tracker: inout ScrollTracker, _ values: [Int: Double]) -> [Double]? {
        XInput2Tests.withEvent(XI_Motion, x: 40, y: 50, values: values) { e in
            tracker.turn(source: e.sourceid, axes: Self.axes, state: e.valuators).map { [$0.dx, $0.dy] }
        }
    }

    @Test func aTurnIsTheValuatorsChangeOverTheIncrement() {
        var tracker = ScrollTracker()
        let emulated = Int32(XIPointerEmulated)
        // The first event only says where the valuator stands; the old wheel clicks still count.
        #expect(Self.turn(&tracker, [3: 1200]) == nil)
        #expect(!tracker.isEmulatedWheel(source: 11, button: 5, flags: emulated))
        // A quarter click down (30 of 120), then one and a half up and half a click left.
        #expect(Self.turn(&tracker, [3: 1230]) == [0, 0.25])
        #expect(Self.turn(&tracker, [2: -600]) == nil, "the horizontal valuator's first value")
        #expect(Self.turn(&tracker, [2: -660, 3: 1050]) == [-0.5, -1.5])
        #expect(Self.turn(&tracker, [0: 17, 1: 4]) == nil, "motion without scrolling")
        // Now the made-up wheel clicks are dropped; real ones and other buttons are not.
        #expect(tracker.isEmulatedWheel(source: 11, button: 5, flags: emulated))
        #expect(tracker.isEmulatedWheel(source: 11, button: 6, flags: emulated))
        #expect(!tracker.isEmulatedWheel(source: 11, button: 5, flags: 0))
        #expect(!tracker.isEmulatedWheel(source: 11, button: 1, flags: emulated))
        #expect(!tracker.isEmulatedWheel(source: 12, button: 4, flags: emulated), "another device")
        // A valuator that started over is not a turn of a thousand clicks.
        #expect(Self.turn(&tracker, [3: 1050 + 120 * 1000]) == nil)
        #expect(Self.turn(&tracker, [3: 1050 + 120 * 1000 + 60]) == [0, 0.5])
        // After the pointer left, the next value starts afresh.
        tracker.forget()
        #expect(Self.turn(&tracker, [3: 0]) == nil)
        #expect(!tracker.isEmulatedWheel(source: 11, button: 5, flags: emulated))
    }

    @Test func theEventCarriesThePointerAndModifiers() {
        let event = XInput2Tests.withEvent(XI_Motion, x: 40.75, y: 50.25, state: Int32(ControlMask), values: [:]) {
            XInput2.scrollEvent($0, dx: 0, dy: -0.25)
        }
        #expect(event == .scroll(x: 40, y: 50, dx: 0, dy: -0.25, modifiers: .control))
    }
}

import CX11

/// What a pointer device's valuators mean for painting: which one is the pen's pressure and its
/// range (XI2 names axes by label atoms: "Abs Pressure"), and whether the device is a stylus's
/// eraser end (tablet drivers make it a device of its own, named "… eraser").
struct DeviceAxes: Equatable {
    /// The pressure valuator's number and range.
    var pressure: Range?
    /// Whether the device is the eraser end of a stylus.
    var isEraser = false
    /// The scroll valuators of a high-resolution wheel or a touchpad (XI 2.1).
    var scroll: [Scroll] = []

    /// A scroll valuator: its number, its direction, and how much of it one click of a classic
    /// wheel is (negative when the device scrolls the other way).
    struct Scroll: Equatable {
        let number: Int
        let vertical: Bool
        let increment: Double
    }

    struct Range: Equatable {
        let number: Int
        let min: Double
        let max: Double
    }

    /// One valuator as the device describes it.
    struct Valuator {
        let number: Int
        let label: String
        let min: Double
        let max: Double
    }

    /// The axes of a device named `name` with these valuators, `scroll` among them.
    init(name: String, valuators: [Valuator], scroll: [Scroll] = []) {
        self.scroll = scroll
        isEraser = name.lowercased().contains("eraser")
        if let p = valuators.first(where: { $0.label == "Abs Pressure" }), p.max > p.min {
            pressure = Range(number: p.number, min: p.min, max: p.max)
        }
    }

    /// The axes of device `id`, asked of the server (XIQueryDevice); none for a device that is
    /// gone.
    static func query(_ display: OpaquePointer, device id: Int32) -> DeviceAxes {
        var count: Int32 = 0
        guard let info = XIQueryDevice(display, id, &count), count > 0 else {
            return DeviceAxes(name: "", valuators: [])
        }
        defer { XIFreeDeviceInfo(info) }
        let device = info.pointee
        var valuators: [Valuator] = []
        var scroll: [Scroll] = []
        for i in 0..<Int(device.num_classes) {
            guard let any = device.classes[i] else { continue }
            if any.pointee.type == XIScrollClass {
                let s = UnsafeRawPointer(any).assumingMemoryBound(to: XIScrollClassInfo.self).pointee
                scroll.append(
                    Scroll(
                        number: Int(s.number), vertical: s.scroll_type == XIScrollTypeVertical, increment: s.increment))
            }
            guard any.pointee.type == XIValuatorClass else { continue }
            let v = UnsafeRawPointer(any).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
            var label = ""
            if v.label != 0, let name = XGetAtomName(display, v.label) {
                label = String(cString: name)
                XFree(name)
            }
            valuators.append(Valuator(number: Int(v.number), label: label, min: v.min, max: v.max))
        }
        return DeviceAxes(name: device.name.map { String(cString: $0) } ?? "", valuators: valuators, scroll: scroll)
    }

    /// The pressure an event reports, 0...1, or nil when it does not carry the pressure
    /// valuator (XI2 sends the valuators that changed).
    func pressure(in state: XIValuatorState) -> Double? {
        guard let p = pressure, let raw = Self.value(of: p.number, in: state) else { return nil }
        return min(max((raw - p.min) / (p.max - p.min), 0), 1)
    }

    /// Valuator `number` of an event: the values hold only the valuators set in the mask, in
    /// order.
    static func value(of number: Int, in state: XIValuatorState) -> Double? {
        guard number >= 0, number < Int(state.mask_len) * 8, let mask = state.mask, let values = state.values,
            cx_xi_mask_is_set(mask, Int32(number)) != 0
        else { return nil }
        var index = 0
        for bit in 0..<number where cx_xi_mask_is_set(mask, Int32(bit)) != 0 { index += 1 }
        return values[index]
    }
}

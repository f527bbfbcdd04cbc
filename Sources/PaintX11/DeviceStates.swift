import CX11

/// What the window knows of each pointer device while events arrive: its axes (asked of the
/// server once) and its pen's last pressure, since XI2 events carry only the valuators that
/// changed, so a pen moved at constant pressure sends positions alone.
struct DeviceStates {
    private var axes: [Int32: DeviceAxes] = [:]
    private var lastPressure: [Int32: Double] = [:]
    /// The device of the last event and its axes: a stroke's events come from one device, so
    /// they find it here instead of hashing its id into `axes` at every event.
    private var recent: (source: Int32, axes: DeviceAxes)?

    /// Devices were plugged in or out: ids are reused, so everything known is forgotten.
    mutating func hierarchyChanged() {
        axes = [:]
        lastPressure = [:]
        recent = nil
    }

    /// Device `id` changed its axes (a tablet switching tools): they are asked for again.
    mutating func deviceChanged(_ id: Int32) {
        axes[id] = nil
        lastPressure[id] = nil
        if recent?.source == id { recent = nil }
    }

    /// What an event tells of its device (`pen`): the pen's pressure (this event's, else the
    /// last one it reported; nil for a device without a pressure axis), whether it is a
    /// stylus's eraser end, and whether it has scroll valuators (`scrollAxes`).
    struct Pen {
        var pressure: Double?
        var isEraser: Bool
        var scrolls: Bool
    }

    /// What device `source` is at an event of it with `valuators`. `query` asks the server for
    /// the axes of a device not yet known.
    mutating func pen(source: Int32, valuators: XIValuatorState, query: (Int32) -> DeviceAxes) -> Pen {
        if recent?.source != source {
            if let kept = axes[source] {
                recent = (source, kept)
            } else {
                // Stored once, not at every event of the device.
                let known = query(source)
                axes[source] = known
                recent = (source, known)
            }
        }
        // Read where the axes are kept: a copy of them retained and released their scroll list
        // at every event.
        let isEraser = recent?.axes.isEraser ?? false
        let scrolls = recent?.axes.scroll.isEmpty == false
        guard recent?.axes.pressure != nil else { return Pen(pressure: nil, isEraser: isEraser, scrolls: scrolls) }
        if let p = recent?.axes.pressure(in: valuators) { lastPressure[source] = p }
        return Pen(pressure: lastPressure[source], isEraser: isEraser, scrolls: scrolls)
    }

    /// The scroll valuators of the device `pen` looked at last.
    var scrollAxes: [DeviceAxes.Scroll] { recent?.axes.scroll ?? [] }
}

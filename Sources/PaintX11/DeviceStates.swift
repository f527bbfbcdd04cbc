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

    /// The axes of device `source` and the pen's pressure at an event of it with `valuators`
    /// (this event's, else the last one it reported; nil for a device without a pressure
    /// axis). `query` asks the server for the axes of a device not yet known.
    mutating func pen(
        source: Int32, valuators: XIValuatorState, query: (Int32) -> DeviceAxes
    ) -> (axes: DeviceAxes, pressure: Double?) {
        let known: DeviceAxes
        if let recent, recent.source == source {
            known = recent.axes
        } else if let kept = axes[source] {
            known = kept
            recent = (source, kept)
        } else {
            // Stored once, not at every event of the device.
            known = query(source)
            axes[source] = known
            recent = (source, known)
        }
        guard known.pressure != nil else { return (known, nil) }
        if let p = known.pressure(in: valuators) { lastPressure[source] = p }
        return (known, lastPressure[source])
    }
}

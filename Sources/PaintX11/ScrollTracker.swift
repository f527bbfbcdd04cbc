import CX11

/// Smooth scrolling (XInput 2.1): a high-resolution wheel or a touchpad reports how far it has
/// turned as scroll valuators that only ever add up; the change between two events, over the
/// device's increment (what one click of a classic wheel adds), is the turn in notches. The
/// server also sends the old wheel buttons for each whole notch, marked as emulated: they are
/// dropped for a device whose turns are read here, so nothing scrolls twice.
struct ScrollTracker {
    /// Each device's scroll valuators as last seen, by device id and valuator number.
    private var last: [Int32: [Int: Double]] = [:]
    /// The devices whose turns are read from their valuators.
    private(set) var smooth: Set<Int32> = []

    /// Forgets every position: after the pointer left the window the valuators went on adding
    /// up elsewhere, so the next event starts afresh instead of jumping by all of that.
    mutating func forget() {
        last = [:]
        smooth = []
    }

    /// The turn (dx, dy in notches; right and down positive) that an event of device `source`
    /// with scroll valuators `axes` carrying `state` stands for; nil when it carries none of
    /// them, or only sets where they start.
    mutating func turn(source: Int32, axes: [DeviceAxes.Scroll], state: XIValuatorState) -> (dx: Double, dy: Double)? {
        var dx = 0.0
        var dy = 0.0
        var counted = false
        for axis in axes where axis.increment != 0 {
            guard let value = DeviceAxes.value(of: axis.number, in: state) else { continue }
            defer { last[source, default: [:]][axis.number] = value }
            guard let previous = last[source]?[axis.number] else { continue }
            let notches = (value - previous) / axis.increment
            // A valuator that was reset (or wrapped) is not a turn of hundreds of notches.
            guard notches.isFinite, abs(notches) <= Self.largestTurn else { continue }
            if axis.vertical { dy += notches } else { dx += notches }
            counted = true
        }
        guard counted else { return nil }
        smooth.insert(source)
        return (dx, dy)
    }

    /// The most notches one event can turn; more means the valuator started over.
    static let largestTurn = 50.0

    /// Whether a button event is one the server made up from a smooth turn this tracker reads
    /// (wheel buttons 4 to 7, flagged as emulated).
    func isEmulatedWheel(source: Int32, button: Int32, flags: Int32) -> Bool {
        (4...7).contains(button) && flags & XIPointerEmulated != 0 && smooth.contains(source)
    }
}

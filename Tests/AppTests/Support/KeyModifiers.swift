/// Modifier keys held down around a faked key press or button click.
struct KeyModifiers: OptionSet, Hashable {
    let rawValue: Int
    /// Control_L.
    static let control = KeyModifiers(rawValue: 1)
    /// Shift_L.
    static let shift = KeyModifiers(rawValue: 2)
    /// Alt_L.
    static let alt = KeyModifiers(rawValue: 4)

    /// The keysym names of the held keys, in press order.
    var keysymNames: [String] {
        var names: [String] = []
        if contains(.control) { names.append("Control_L") }
        if contains(.shift) { names.append("Shift_L") }
        if contains(.alt) { names.append("Alt_L") }
        return names
    }
}

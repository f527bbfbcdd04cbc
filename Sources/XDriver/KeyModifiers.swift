/// Modifier keys held down around a faked key press or button click.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Control_L.
    public static let control = KeyModifiers(rawValue: 1)
    /// Shift_L.
    public static let shift = KeyModifiers(rawValue: 2)
    /// Alt_L.
    public static let alt = KeyModifiers(rawValue: 4)

    /// The keysym names of the held keys, in press order.
    public var keysymNames: [String] {
        var names: [String] = []
        if contains(.control) { names.append("Control_L") }
        if contains(.shift) { names.append("Shift_L") }
        if contains(.alt) { names.append("Alt_L") }
        return names
    }
}

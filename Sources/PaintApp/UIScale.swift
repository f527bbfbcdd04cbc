/// How much larger than at 96 dpi the toolbar, icons, text, status bar, dialogs and hit areas
/// are drawn: 1 on an ordinary screen, 2 on a "2x" one, 1.25 or 1.5 in between.
///
/// The canvas keeps its own zoom: a picture at 100 % is one screen pixel per picture pixel
/// whatever this says.
public struct UIScale: Sendable, Equatable, CustomStringConvertible {
    /// Screen pixels per 96-dpi pixel.
    public let factor: Double

    /// The smallest and largest factors accepted.
    public static let range = 1.0...4.0
    /// Ordinary screens.
    public static let one = UIScale(1)

    /// A scale of `factor` (kept within `range`, to hundredths).
    public init(_ factor: Double) {
        let f = factor.isFinite ? factor : 1
        self.factor = (min(max(f, Self.range.lowerBound), Self.range.upperBound) * 100).rounded() / 100
    }

    /// The scale for a display: `override` (the `SWIFTPAINT_SCALE` environment variable) when it
    /// is a number, else `Xft.dpi` / 96 from the X resource database (`resources`, the text of
    /// the RESOURCE_MANAGER property, as `xrdb -query` prints it), else 1. Returns a message
    /// about an override that is not a number.
    public static func detect(resources: String?, override: String?) -> (scale: UIScale, problem: String?) {
        if let override, !override.isEmpty {
            if let value = Double(override.trimmingSpaces), value.isFinite, value > 0 {
                return (UIScale(value), nil)
            }
            return (
                detect(resources: resources, override: nil).scale,
                "SWIFTPAINT_SCALE=\(override) is not a number such as 1.5; using the screen's scale"
            )
        }
        if let dpi = resources.flatMap(xftDPI), dpi > 0 { return (UIScale(dpi / 96), nil) }
        return (.one, nil)
    }

    /// The value of `Xft.dpi` in resource-database text (`Xft.dpi:\t192` on a line), if any.
    static func xftDPI(_ resources: String) -> Double? {
        var found: Double?
        for line in resources.split(whereSeparator: { $0 == "\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // Both the exact name and the loose binding `*dpi` of the Xft class count; the last
            // line wins, as xrdb merges them.
            let name = String(line[..<colon]).trimmingSpaces
            guard name == "Xft.dpi" || name == "Xft*dpi" || name == "*dpi" else { continue }
            if let value = Double(String(line[line.index(after: colon)...]).trimmingSpaces) { found = value }
        }
        return found
    }

    /// `value` (a length at 96 dpi) on this screen, rounded to whole pixels.
    public func px(_ value: Double) -> Int { Int((value * factor).rounded()) }
    /// `value` (a length at 96 dpi) on this screen, in fractions of a pixel (for anti-aliased
    /// drawing).
    public func d(_ value: Double) -> Double { value * factor }

    public var description: String {
        factor == factor.rounded() ? "\(Int(factor))x" : "\(factor)x"
    }
}

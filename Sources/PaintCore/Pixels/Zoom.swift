/// How large the picture is shown: `numerator / denominator` window pixels per image pixel.
///
/// A fraction, not a `Double`, so that mapping between window and image pixels is exact integer
/// arithmetic at every zoom (a third is not a binary fraction, and a rounding error of one pixel
/// would leave a seam between two redrawn rectangles).
public struct Zoom: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// The zoom `numerator / denominator`, reduced; both must be positive.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(numerator > 0 && denominator > 0, "a zoom is a positive fraction")
        var a = numerator
        var b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        self.numerator = numerator / a
        self.denominator = denominator / a
    }

    /// 100 %: one window pixel per image pixel.
    public static let actualSize = Zoom(1)
    /// The zoom steps of the keys, the wheel and the zoom menu: 12.5 % to 1600 %, close enough
    /// together (about 1.5 times apart) to feel continuous.
    public static let steps: [Zoom] = [
        Zoom(1, 8), Zoom(1, 4), Zoom(1, 3), Zoom(1, 2), Zoom(2, 3), Zoom(1), Zoom(3, 2), Zoom(2), Zoom(3), Zoom(4),
        Zoom(8), Zoom(16),
    ]
    /// The smallest and largest zooms.
    public static let minimum = steps[0]
    public static let maximum = steps[steps.count - 1]
    /// The denominator of a zoom that is not a step (fit to window): fine enough that the picture
    /// fills the window to within a pixel or two.
    static let fineDenominator = 1024

    /// Window pixels per image pixel.
    public var factor: Double { Double(numerator) / Double(denominator) }

    /// The zoom closest to `factor` on a grid of 1/1024, within `minimum...maximum`.
    public init(approximately factor: Double) {
        let clamped = min(max(factor, Self.minimum.factor), Self.maximum.factor)
        self.init(max(1, Int((clamped * Double(Self.fineDenominator)).rounded(.down))), Self.fineDenominator)
    }

    /// This zoom kept within `minimum...maximum`.
    public var clamped: Zoom { min(max(self, Self.minimum), Self.maximum) }

    /// The next step above this zoom, or nil at the top.
    public var stepIn: Zoom? { Self.steps.first { $0 > self } }
    /// The next step below this zoom, or nil at the bottom.
    public var stepOut: Zoom? { Self.steps.last { $0 < self } }

    public static func < (a: Zoom, b: Zoom) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    /// As the status bar shows it: "100%", "12.5%", "33%", "67%".
    public var description: String {
        let tenths = (numerator * 1000 + denominator / 2) / denominator
        if tenths % 10 == 0 || tenths >= 200 { return "\((tenths + 5) / 10)%" }
        return "\(tenths / 10).\(tenths % 10)%"
    }

    // MARK: Mapping

    /// `value * numerator / denominator`, rounded down (exact, also for negative values).
    public func scaledDown(_ value: Int) -> Int { Self.floorDivide(value * numerator, denominator) }
    /// `value * numerator / denominator`, rounded up.
    public func scaledUp(_ value: Int) -> Int { -Self.floorDivide(-value * numerator, denominator) }
    /// `value * denominator / numerator` (window to image length), rounded down.
    public func unscaledDown(_ value: Int) -> Int { Self.floorDivide(value * denominator, numerator) }
    /// `value * denominator / numerator`, rounded up.
    public func unscaledUp(_ value: Int) -> Int { -Self.floorDivide(-value * denominator, numerator) }

    /// Where the window pixel `offset` (from the picture's left or top edge) takes its color
    /// from when zoomed in: the image pixel under its centre.
    public func sourcePixel(_ offset: Int) -> Int { Self.floorDivide((2 * offset + 1) * denominator, 2 * numerator) }

    /// `a / b` rounded down (towards minus infinity), for positive `b`.
    public static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

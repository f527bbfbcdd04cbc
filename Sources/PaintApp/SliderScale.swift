/// How a toolbar slider's values spread along its track: the one place that maps a value to a
/// knob position and back (the pointer sets a value through it, the toolbar draws the knob
/// through it).
public enum SliderScale: Sendable, Equatable {
    /// Brush width, 1...200 px, on a square-root scale so small sizes get most of the track.
    case width
    /// Fill tolerance, 0 (exact color) ... 255.
    case tolerance
    /// Opacity, 1...100 %.
    case opacity
    /// The text tool's size, 4...400 px, on a square-root scale like the width.
    case textSize

    /// The value at a fraction 0...1 of the track, rounded to what the setting holds.
    public func value(atFraction fraction: Double) -> Double {
        let t = min(max(fraction, 0), 1)
        switch self {
        case .width:
            let root = 1 + t * (Self.widthRoot - 1)
            return max(1, min(200, (root * root).rounded()))
        case .tolerance:
            return (t * 255).rounded()
        case .opacity:
            return max(1, (1 + t * 99).rounded())
        case .textSize:
            let root = Self.textRoot.lowerBound + t * (Self.textRoot.upperBound - Self.textRoot.lowerBound)
            return max(4, min(400, (root * root).rounded()))
        }
    }

    /// The fraction 0...1 of the track that shows `value`.
    public func fraction(of value: Double) -> Double {
        switch self {
        case .width: return min(max((value.squareRoot() - 1) / (Self.widthRoot - 1), 0), 1)
        case .tolerance: return value / 255
        case .opacity: return (value - 1) / 99
        case .textSize:
            return min(
                max(
                    (value.squareRoot() - Self.textRoot.lowerBound)
                        / (Self.textRoot.upperBound - Self.textRoot.lowerBound), 0),
                1)
        }
    }

    private static let widthRoot = 200.0.squareRoot()
    private static let textRoot = 4.0.squareRoot()...400.0.squareRoot()
}

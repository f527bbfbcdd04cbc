/// What shows through where the paint layer is not opaque.
public enum Background: Equatable, Sendable {
    /// One opaque color.
    case color(Color)
    /// Nothing: saved files keep alpha; the view shows a checkerboard.
    case transparent
    /// An opaque image of the canvas size.
    case image(PixelImage)

    /// Checkerboard squares of 8 px, two light grays, as image editors show transparency.
    static let checkerLight: UInt32 = 0xFFFF_FFFF
    static let checkerDark: UInt32 = 0xFFCC_CCCC

    /// The backdrop pixel for a transparent background at (x, y).
    @inline(__always)
    static func checker(_ x: Int, _ y: Int) -> UInt32 {
        ((x >> 3) ^ (y >> 3)) & 1 == 0 ? checkerLight : checkerDark
    }
}

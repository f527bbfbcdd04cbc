import PaintCore
import TestSupport

/// The far ends of pieces at the limits of what `Capsule.roundsInRange` admits, shared by the
/// tests that stamp such pieces both ways (StampRoundingTests, StampInsideTests).
enum AwkwardEnd {
    /// A difference of 2^-20 from the start, the smallest the fast rounding is proven for.
    static let tiny = 0x1p-20
    /// An end 2^24 away, the farthest it is proven for.
    static let far = 0x1p24

    /// The far end of a piece from `a`: 0 nearly level (dy 2^-20), 1 nearly upright (dy 2^20
    /// times dx), 2 dx 2^-20 and under half a pixel long, 3 at x = 2^24.
    static func from(_ a: Point, kind: Int, rng: inout SplitMix) -> Point {
        switch kind {
        case 0: return Point(x: a.x + (rng.unit() - 0.5) * 12, y: a.y + tiny * (rng.unit() < 0.5 ? 1 : -1))
        case 1:
            let dx = (1 + rng.unit()) * tiny
            return Point(x: a.x + dx, y: a.y + dx * 0x1p20 * (0.5 + rng.unit() / 2))
        case 2: return Point(x: a.x + tiny, y: a.y + (rng.unit() - 0.5) * 0x1p-1)
        default: return Point(x: far, y: a.y + (rng.unit() - 0.5) * 30)
        }
    }
}

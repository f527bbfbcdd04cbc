/// Whether a pixel is "the same color" as a target, within a tolerance: what the fill floods
/// and what autocrop cuts away as border.
///
/// Each of the four channels of the 32-bit ARGB pixel may differ from the target's by at most
/// `tolerance` (0 to 255); 0 asks for the exact pixel. The same per-channel rule as
/// KolourPaint's color similarity, which its fill and autocrop share.
public struct ColorMatch: Sendable {
    /// The pixel compared against.
    public let target: UInt32
    /// How far each channel may be from the target's, 0 to 255.
    public let tolerance: UInt32

    /// A match for `target`; `tolerance` is clamped to 0...255.
    public init(_ target: UInt32, tolerance: Int) {
        self.target = target
        self.tolerance = UInt32(min(max(tolerance, 0), 255))
    }

    /// Whether `p` matches the target.
    @inline(__always)
    public func matches(_ p: UInt32) -> Bool {
        if tolerance == 0 { return p == target }
        @inline(__always) func near(_ shift: UInt32) -> Bool {
            let c = p >> shift & 0xFF
            let t = target >> shift & 0xFF
            return (c > t ? c - t : t - c) <= tolerance
        }
        return near(0) && near(8) && near(16) && near(24)
    }
}

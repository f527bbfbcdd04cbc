/// Packed 32-bit pixels and the exact 8-bit arithmetic that composites them.
///
/// A pixel is a `UInt32` whose little-endian bytes are B, G, R, A: the layout an X11 depth-24
/// TrueColor little-endian image uses (A lands in the unused X byte), so an opaque view pixel
/// goes to the server without conversion. Paint pixels carry premultiplied alpha.
///
/// Channels are processed two at a time (R and B in one word, A and G in another): every product
/// `c * a` stays below 2^16 per lane, so the lanes never carry into each other and the result is
/// bit-for-bit the per-channel formula.
public enum Pixel {
    /// Packs four channels.
    @inlinable
    public static func pack(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt32 {
        UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }

    /// The channels of a packed pixel as (r, g, b, a).
    @inlinable
    public static func unpack(_ p: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        (
            UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p),
            UInt8(truncatingIfNeeded: p >> 24)
        )
    }

    /// `round(x / 255)` exactly, for `x` in 0...65025.
    @inlinable @inline(__always)
    public static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Lane-wise `round(lanes / 255)` for two 16-bit lanes holding values up to 65025.
    @inlinable @inline(__always)
    static func div255Lanes(_ x: UInt32) -> UInt32 {
        let t = x &+ 0x0080_0080
        return ((t &+ ((t &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
    }

    /// Source-over of an opaque-or-premultiplied `source` at alpha `a` (0...255) onto a
    /// premultiplied `dest`: `out = div255(source * a + dest * (255 - a))` per channel.
    ///
    /// With `source == 0` this is the eraser: every channel scaled by `1 - a`.
    @inlinable @inline(__always)
    public static func blend(_ dest: UInt32, source: UInt32, alpha a: UInt32) -> UInt32 {
        let ia = 255 &- a
        let rb = (source & 0x00FF_00FF) &* a &+ (dest & 0x00FF_00FF) &* ia
        let ag = ((source &>> 8) & 0x00FF_00FF) &* a &+ ((dest &>> 8) & 0x00FF_00FF) &* ia
        return div255Lanes(rb) | (div255Lanes(ag) &<< 8)
    }

    /// A premultiplied pixel flattened onto an opaque backdrop: `p + backdrop * (1 - alpha(p))`,
    /// returned opaque.
    @inlinable @inline(__always)
    public static func over(_ p: UInt32, backdrop: UInt32) -> UInt32 {
        let ia = 255 &- (p &>> 24)
        let rb = div255Lanes((backdrop & 0x00FF_00FF) &* ia)
        let g = div255Lanes(((backdrop &>> 8) & 0x0000_00FF) &* ia)
        return (p &+ rb &+ (g &<< 8)) | 0xFF00_0000
    }

    /// Premultiplies a straight-alpha pixel.
    /// Premultiplied `source` over premultiplied `dest`: each channel `s + d * (255 - sa) / 255`.
    @inlinable @inline(__always)
    public static func sourceOver(_ source: UInt32, _ dest: UInt32) -> UInt32 {
        let ia = 255 &- (source &>> 24)
        let rb = div255Lanes((dest & 0x00FF_00FF) &* ia)
        let ag = div255Lanes(((dest &>> 8) & 0x00FF_00FF) &* ia)
        return source &+ rb &+ (ag &<< 8)
    }

    /// `p` with every color channel at most its alpha, as a premultiplied pixel must be.
    @inlinable
    public static func clampedPremultiplied(_ p: UInt32) -> UInt32 {
        let a = p &>> 24
        let r = min(a, p &>> 16 & 0xFF)
        let g = min(a, p &>> 8 & 0xFF)
        let b = min(a, p & 0xFF)
        return a &<< 24 | r &<< 16 | g &<< 8 | b
    }

    @inlinable
    public static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p &>> 24
        if a == 255 { return p }
        let rb = div255Lanes((p & 0x00FF_00FF) &* a)
        let g = div255Lanes(((p &>> 8) & 0xFF) &* a)
        return a &<< 24 | rb | g &<< 8
    }

    /// Undoes `premultiply` as closely as 8 bits allow (rounded); transparent pixels become 0.
    @inlinable
    public static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p &>> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        @inline(__always) func channel(_ c: UInt32) -> UInt32 { min(255, (c &* 255 &+ a / 2) / a) }
        return a &<< 24 | channel(p &>> 16 & 0xFF) &<< 16 | channel(p &>> 8 & 0xFF) &<< 8 | channel(p & 0xFF)
    }
}

/// The red, green and blue masks of a TrueColor visual, and the conversion of one pixel value of
/// that visual to 8-bit channels. Works for any mask layout: depth 24 (8 bits a channel) and
/// depth 16 (5-6-5, scaled up to 0...255 with rounding so 31 -> 255 and 0 -> 0).
public struct ChannelMasks: Equatable, Sendable {
    /// The visual's red mask, e.g. 0xFF0000 or 0xF800.
    public let red: UInt
    /// The visual's green mask, e.g. 0x00FF00 or 0x07E0.
    public let green: UInt
    /// The visual's blue mask, e.g. 0x0000FF or 0x001F.
    public let blue: UInt

    /// The usual depth-24 layout.
    public static let depth24 = ChannelMasks(red: 0xFF0000, green: 0x00FF00, blue: 0x0000FF)
    /// The usual depth-16 (RGB 565) layout.
    public static let depth16 = ChannelMasks(red: 0xF800, green: 0x07E0, blue: 0x001F)

    /// The channel under `mask` in `pixel`, scaled to 0...255.
    public static func channel(_ pixel: UInt, mask: UInt) -> UInt8 {
        guard mask != 0 else { return 0 }
        let shift = mask.trailingZeroBitCount
        let maxValue = mask >> shift
        let value = (pixel & mask) >> shift
        if maxValue == 255 { return UInt8(value) }
        return UInt8((value * 255 + maxValue / 2) / maxValue)
    }

    /// The 8-bit (r, g, b) of a pixel value of this visual.
    public func rgb(_ pixel: UInt) -> (r: UInt8, g: UInt8, b: UInt8) {
        (Self.channel(pixel, mask: red), Self.channel(pixel, mask: green), Self.channel(pixel, mask: blue))
    }

    /// Bits per channel, e.g. (8, 8, 8) or (5, 6, 5).
    public var bits: (r: Int, g: Int, b: Int) { (red.nonzeroBitCount, green.nonzeroBitCount, blue.nonzeroBitCount) }
}

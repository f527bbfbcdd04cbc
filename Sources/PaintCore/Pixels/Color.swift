/// An opaque sRGB color with 8 bits per channel.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0...255.
    public var r: UInt8
    /// Green, 0...255.
    public var g: UInt8
    /// Blue, 0...255.
    public var b: UInt8

    /// Makes a color from its three channels.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)

    /// Parses `#rrggbb`, `rrggbb` or the short `#rgb` (each digit doubled, as CSS: `#f80` is
    /// `#ff8800`), either case; nil for anything else. Three digits need the `#`: a background
    /// typed as `bad` is a file name, not a color.
    public init?(hex: String) {
        var text = Substring(hex)
        let marked = text.hasPrefix("#")
        if marked { text = text.dropFirst() }
        guard text.count == 6 || (text.count == 3 && marked), text.allSatisfy(\.isHexDigit),
            let value = UInt32(text, radix: 16)
        else { return nil }
        if text.count == 3 {
            let (r, g, b) = (UInt8(value >> 8), UInt8(value >> 4 & 0xF), UInt8(value & 0xF))
            self.init(r: r * 17, g: g * 17, b: b * 17)
        } else {
            self.init(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
        }
    }

    /// `#rrggbb` in lower case.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var out = "#"
        for channel in [r, g, b] {
            out.append(digits[Int(channel >> 4)])
            out.append(digits[Int(channel & 15)])
        }
        return out
    }

    public var description: String { hex }

    /// The color as an opaque packed pixel (see `Pixel`).
    public var pixel: UInt32 { Pixel.pack(r: r, g: g, b: b, a: 255) }
}

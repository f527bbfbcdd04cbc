import PaintCore

/// Pixels read back from the X server by `XClient.capture`: opaque `PixelImage` pixels
/// (B, G, R, A little-endian bytes, A = 255) already converted from the visual to 8-bit sRGB,
/// plus where they came from. On a depth-16 server channels are 5/6-bit values scaled to 8 bits,
/// so compare with a tolerance there (`tolerance: 8` covers the quantization).
public struct ScreenCapture: Sendable {
    /// The pixels, `rect.width` x `rect.height`.
    public let image: PixelImage
    /// The captured rectangle in the window's coordinates.
    public let rect: IntRect
    /// The visual's masks the pixels were converted with.
    public let masks: ChannelMasks

    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels.
    public var height: Int { image.height }

    /// The color at (x, y), relative to the captured rectangle.
    public func color(x: Int, y: Int) -> Color {
        let p = Pixel.unpack(image[x, y])
        return Color(r: p.r, g: p.g, b: p.b)
    }

    /// Whether two colors differ by at most `tolerance` in every channel.
    public static func matches(_ a: Color, _ b: Color, tolerance: Int = 0) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
            && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    /// How many pixels satisfy `predicate`.
    public func count(where predicate: (Color) -> Bool) -> Int {
        var n = 0
        for p in image.pixels {
            let c = Pixel.unpack(p)
            if predicate(Color(r: c.r, g: c.g, b: c.b)) { n += 1 }
        }
        return n
    }

    /// How many pixels are `color` (within `tolerance` per channel).
    public func count(of color: Color, tolerance: Int = 0) -> Int {
        count { Self.matches($0, color, tolerance: tolerance) }
    }

    /// Whether any pixel is `color` (within `tolerance` per channel).
    public func contains(_ color: Color, tolerance: Int = 0) -> Bool {
        image.pixels.contains { p in
            let c = Pixel.unpack(p)
            return Self.matches(Color(r: c.r, g: c.g, b: c.b), color, tolerance: tolerance)
        }
    }

    /// The smallest rectangle (relative to the capture) holding every pixel that satisfies
    /// `predicate`, or nil when none does.
    public func boundingBox(where predicate: (Color) -> Bool) -> IntRect? {
        var x0 = Int.max
        var y0 = Int.max
        var x1 = Int.min
        var y1 = Int.min
        for y in 0..<height {
            for x in 0..<width where predicate(color(x: x, y: y)) {
                x0 = min(x0, x)
                y0 = min(y0, y)
                x1 = max(x1, x)
                y1 = max(y1, y)
            }
        }
        return x0 == Int.max ? nil : IntRect(x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// The distinct colors present, most frequent first (for failure messages).
    public func histogram(limit: Int = 8) -> [(color: Color, count: Int)] {
        var counts: [UInt32: Int] = [:]
        for p in image.pixels { counts[p, default: 0] += 1 }
        return counts.sorted { $0.value > $1.value }.prefix(limit).map { entry in
            let c = Pixel.unpack(entry.key)
            return (Color(r: c.r, g: c.g, b: c.b), entry.value)
        }
    }
}

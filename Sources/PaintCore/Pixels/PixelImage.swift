/// A width x height grid of packed premultiplied pixels (see `Pixel`), row-major, no padding.
public struct PixelImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` packed premultiplied pixels, top row first.
    public var pixels: [UInt32]

    /// An image filled with one packed pixel (transparent by default).
    public init(width: Int, height: Int, fill: UInt32 = 0) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        self.pixels = [UInt32](repeating: fill, count: width * height)
    }

    /// Wraps existing pixels; nil when the count does not match the size.
    public init?(width: Int, height: Int, pixels: [UInt32]) {
        guard width >= 0, height >= 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The packed pixel at (x, y); the caller keeps x and y in range.
    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The part of the image inside `rect` (in the image's coordinates, clipped to it).
    public func cropped(to rect: IntRect) -> PixelImage {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        if r.x == 0 && r.y == 0 && r.width == width && r.height == height { return self }
        var out = PixelImage(width: r.width, height: r.height)
        for y in 0..<r.height {
            let from = (r.y + y) * width + r.x
            out.pixels.replaceSubrange((y * r.width)..<((y + 1) * r.width), with: pixels[from..<(from + r.width)])
        }
        return out
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool { pixels.allSatisfy { $0 >> 24 == 255 } }
}

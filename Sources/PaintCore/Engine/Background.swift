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

    /// An image as a background for a canvas of the given size: centred (cropped or padded with
    /// white) and flattened onto white, since a background is opaque.
    public static func fitted(_ image: PixelImage, width: Int, height: Int) -> Background {
        var out = PixelImage(width: width, height: height, fill: Color.white.pixel)
        let dx = (width - image.width) / 2
        let dy = (height - image.height) / 2
        for y in 0..<height {
            let sy = y - dy
            guard sy >= 0, sy < image.height else { continue }
            for x in 0..<width {
                let sx = x - dx
                guard sx >= 0, sx < image.width else { continue }
                out[x, y] = Pixel.over(image[sx, sy], backdrop: Color.white.pixel)
            }
        }
        return .image(out)
    }

    /// Puts `image`, the paint of `rect` of the canvas (premultiplied), over this background,
    /// as a save writes it; a transparent background leaves the paint as it is.
    func flatten(_ image: inout PixelImage, at rect: IntRect) {
        if case .transparent = self { return }
        image.pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<rect.height {
                let row = y * rect.width
                switch self {
                case .color(let color):
                    let backdrop = color.pixel
                    for x in 0..<rect.width { dst[row + x] = Pixel.over(dst[row + x], backdrop: backdrop) }
                case .transparent: break
                case .image(let picture):
                    let from = (rect.y + y) * picture.width + rect.x
                    for x in 0..<rect.width {
                        dst[row + x] = Pixel.over(dst[row + x], backdrop: picture.pixels[from + x])
                    }
                }
            }
        }
    }

    /// The opaque pixel that shows through at (x, y) of a canvas of this background (for
    /// views other than the per-span compositor's; an image must be of the canvas size).
    func backdrop(_ x: Int, _ y: Int) -> UInt32 {
        switch self {
        case .color(let c): return c.pixel
        case .transparent: return Self.checker(x, y)
        case .image(let image): return image[x, y]
        }
    }

    /// The backdrop pixel for a transparent background at (x, y).
    @inline(__always)
    static func checker(_ x: Int, _ y: Int) -> UInt32 {
        ((x >> 3) ^ (y >> 3)) & 1 == 0 ? checkerLight : checkerDark
    }
}

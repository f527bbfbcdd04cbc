import PaintCore

/// A picture as a decoder read it: premultiplied sRGB pixels and what the file said about them.
public struct DecodedImage: Equatable, Sendable {
    /// The pixels, premultiplied, converted to sRGB, oriented as the file asks (EXIF).
    public var image: PixelImage
    /// The format the bytes were in.
    public var format: ImageFormat
    /// Whether the file stores transparency (an alpha channel, a transparent color or palette
    /// entry), even where every pixel happens to be opaque: such a picture opens as paint over a
    /// transparent background and saves with alpha.
    public var hasAlpha: Bool
    /// Set when the file is damaged or cut short and `image` holds what could be read of it
    /// (`PictureDamage`); nil for a whole file.
    public var damage: PictureDamage?

    /// A decoded picture.
    public init(image: PixelImage, format: ImageFormat, hasAlpha: Bool, damage: PictureDamage? = nil) {
        self.image = image
        self.format = format
        self.hasAlpha = hasAlpha
        self.damage = damage
    }
}

/// Making decoders' pixel buffers.
enum PixelBuffer {
    /// `count` pixels written by `fill`, which must write every one of them when it returns.
    ///
    /// The buffer is not zeroed first: the pages of a large allocation stay untouched (and take
    /// no memory) until the decoder writes them, so a file that claims a big picture and then
    /// ends early costs only what it really held.
    static func make(
        count: Int, _ fill: (UnsafeMutableBufferPointer<UInt32>) throws(ImageFileError) -> Void
    ) throws(ImageFileError) -> [UInt32] {
        var failure: ImageFileError?
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(ImageFileError) {
                try fill(buffer)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return pixels
    }

    /// Makes every pixel of the `width`-wide picture in `out` outside the rectangle at
    /// (`x`, `y`) of `w` x `h` transparent: the canvas around a frame. Done after the frame is
    /// decoded, so a file that fails on the way has not touched the whole buffer.
    static func clear(
        _ out: UnsafeMutableBufferPointer<UInt32>, width: Int, outside x: Int, _ y: Int, _ w: Int, _ h: Int
    ) {
        guard let base = out.baseAddress, width > 0 else { return }
        let height = out.count / width
        for row in 0..<height {
            let start = base + row * width
            if row < y || row >= y + h {
                start.update(repeating: 0, count: width)
            } else {
                start.update(repeating: 0, count: min(x, width))
                if x + w < width { (start + x + w).update(repeating: 0, count: width - x - w) }
            }
        }
    }

    /// A 16-bit sample rounded to 8 bits: `round(v * 255 / 65535)`.
    @inline(__always)
    static func to8(_ v: UInt16) -> UInt32 { (UInt32(v) &* 255 &+ 32767) / 65535 }

    /// Straight 16-bit RGBA to one packed premultiplied pixel.
    @inline(__always)
    static func pack16(_ r: UInt16, _ g: UInt16, _ b: UInt16, _ a: UInt16) -> UInt32 {
        Pixel.premultiply(to8(a) << 24 | to8(r) << 16 | to8(g) << 8 | to8(b))
    }

    /// Straight bytes R, G, B, A read as one little-endian word to a packed premultiplied pixel.
    @inline(__always)
    static func packRGBA(_ word: UInt32) -> UInt32 {
        let bgra = (word & 0xFF00_FF00) | (word & 0xFF) << 16 | (word >> 16) & 0xFF
        return Pixel.premultiply(bgra)
    }
}

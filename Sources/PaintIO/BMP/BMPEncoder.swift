import PaintCore

/// Writes a picture as a BMP, for programs that ask the clipboard for `image/bmp` (LibreOffice,
/// Wine programs, older toolkits); SwiftPaint saves no BMP files. An opaque picture is written as
/// 24-bit BI_RGB with the 40-byte header every reader knows; one with transparency as 32-bit
/// BI_BITFIELDS with a V5 header naming the alpha mask and sRGB (as Windows' clipboard
/// CF_DIBV5 does), its pixels straight, not premultiplied. Rows are stored bottom-up.
public enum BMPEncoder {
    /// The largest BMP written: 256 MiB, a 8192 x 8192 picture with alpha. A larger picture is
    /// offered as PNG only (its BMP would hold 4 bytes a pixel, uncompressed).
    public static let maxBytes = 256 << 20

    /// The size of the BMP of a `width` x `height` picture, nil past `maxBytes`.
    public static func byteCount(width: Int, height: Int, withAlpha: Bool) -> Int? {
        guard width > 0, height > 0, width <= maxBytes, height <= maxBytes else { return nil }
        let row = rowBytes(width: width, withAlpha: withAlpha)
        let (pixels, overflow) = row.multipliedReportingOverflow(by: height)
        guard !overflow else { return nil }
        let total = pixels + headerBytes(withAlpha: withAlpha)
        return total <= maxBytes ? total : nil
    }

    /// `image` (premultiplied) as a BMP file's bytes; nil when it is larger than `maxBytes`.
    /// `withAlpha` false writes it as opaque (24 bits); the caller passes whether the picture
    /// has transparency.
    public static func encode(_ image: PixelImage, withAlpha: Bool) -> [UInt8]? {
        let (w, h) = (image.width, image.height)
        guard let total = byteCount(width: w, height: h, withAlpha: withAlpha) else { return nil }
        let header = headerBytes(withAlpha: withAlpha)
        let row = rowBytes(width: w, withAlpha: withAlpha)
        var out = [UInt8](repeating: 0, count: total)
        out.withUnsafeMutableBufferPointer { buffer in
            func put16(_ v: Int, _ at: Int) {
                buffer[at] = UInt8(v & 0xFF)
                buffer[at + 1] = UInt8(v >> 8 & 0xFF)
            }
            func put32(_ v: UInt32, _ at: Int) {
                for k in 0..<4 { buffer[at + k] = UInt8(v >> (8 * UInt32(k)) & 0xFF) }
            }
            // BITMAPFILEHEADER.
            buffer[0] = UInt8(ascii: "B")
            buffer[1] = UInt8(ascii: "M")
            put32(UInt32(total), 2)
            put32(UInt32(header), 10)
            // BITMAPINFOHEADER (or V5): positive height = bottom-up rows.
            put32(UInt32(header - 14), 14)
            put32(UInt32(w), 18)
            put32(UInt32(h), 22)
            put16(1, 26)
            put16(withAlpha ? 32 : 24, 28)
            put32(withAlpha ? 3 : 0, 30)  // BI_BITFIELDS : BI_RGB
            put32(UInt32(row * h), 34)
            put32(3780, 38)  // 96 dpi, in pixels per metre
            put32(3780, 42)
            if withAlpha {
                put32(0x00FF_0000, 54)
                put32(0x0000_FF00, 58)
                put32(0x0000_00FF, 62)
                put32(0xFF00_0000, 66)
                put32(0x7352_4742, 70)  // LCS_sRGB ("sRGB")
                put32(4, 122)  // LCS_GM_IMAGES: perceptual
            }
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<h {
                    var o = header + (h - 1 - y) * row
                    let start = y * w
                    if withAlpha {
                        for x in 0..<w {
                            // Straight BGRA: 0xAARRGGBB little-endian.
                            put32(Pixel.unpremultiply(pixels[start + x]), o)
                            o += 4
                        }
                    } else {
                        for x in 0..<w {
                            let p = pixels[start + x]
                            buffer[o] = UInt8(p & 0xFF)
                            buffer[o + 1] = UInt8(p >> 8 & 0xFF)
                            buffer[o + 2] = UInt8(p >> 16 & 0xFF)
                            o += 3
                        }
                    }
                }
            }
        }
        return out
    }

    /// File header and info header: 14 + 40, or 14 + 124 (V5) with alpha.
    static func headerBytes(withAlpha: Bool) -> Int { withAlpha ? 14 + 124 : 14 + 40 }

    /// Bytes per stored row, padded to 4.
    static func rowBytes(width: Int, withAlpha: Bool) -> Int {
        withAlpha ? width * 4 : (width * 3 + 3) / 4 * 4
    }

    /// The BMP of the clipboard's PNG `png` (as SwiftPaint offers it): decoded within
    /// `ImageLimits`, as any PNG, and written by `encode`, with alpha only when the picture has
    /// transparency; nil when it cannot be decoded or is too large for a BMP.
    public static func encode(png: [UInt8]) -> [UInt8]? {
        guard let decoded = try? PNGCodec.decodePicture(png, name: "the clipboard's picture") else { return nil }
        return encode(decoded.image, withAlpha: decoded.hasAlpha && !decoded.image.isOpaque)
    }

}

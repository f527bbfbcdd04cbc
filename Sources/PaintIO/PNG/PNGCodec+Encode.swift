import CSPNG
import Glibc
import PaintCore

extension PNGCodec {
    /// Encodes `image` as PNG bytes.
    ///
    /// With `withAlpha` the file is 8-bit RGBA with straight (unpremultiplied) alpha, as PNG
    /// requires. Without it the file is 8-bit RGB and the premultiplied color channels are
    /// written as they are, which is the image over black: flatten onto the backdrop you want
    /// first (for example with `Pixel.over`) if the image is not opaque. The file declares sRGB
    /// (an sRGB chunk), so color-managed viewers show exactly these values. Rows are converted
    /// and compressed one at a time, in one pass. A `resolution` is declared in a pHYs chunk.
    public static func encode(
        _ image: PixelImage, withAlpha: Bool, resolution: PictureResolution? = nil
    ) throws(ImageFileError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .cannotEncode(path: "", reason: "the image has no pixels")
        }
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw .cannotEncode(path: "", reason: "the image is too large for PNG")
        }
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw .cannotEncode(path: "", reason: "out of memory")
        }
        defer { spng_ctx_free(context) }
        func check(_ status: Int32) throws(ImageFileError) {
            guard status != 0 else { return }
            let text = spng_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw .cannotEncode(path: "", reason: text)
        }
        try check(spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1))
        var header = spng_ihdr()
        header.width = UInt32(image.width)
        header.height = UInt32(image.height)
        header.bit_depth = 8
        header.color_type = UInt8(
            withAlpha ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue : SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
        try check(spng_set_ihdr(context, &header))
        try check(spng_set_srgb(context, 0))  // rendering intent 0: perceptual
        if let resolution {
            let perMetre = resolution.perMetre
            var phys = spng_phys(ppu_x: perMetre.x, ppu_y: perMetre.y, unit_specifier: 1)
            try check(spng_set_phys(context, &phys))
        }
        try check(
            spng_encode_image(
                context, nil, 0, Int32(SPNG_FMT_PNG.rawValue),
                Int32(SPNG_ENCODE_PROGRESSIVE.rawValue | SPNG_ENCODE_FINALIZE.rawValue)))

        let channels = withAlpha ? 4 : 3
        var row = [UInt8](repeating: 0, count: image.width * channels)
        try image.pixels.withUnsafeBufferPointer { (pixels) throws(ImageFileError) in
            try row.withUnsafeMutableBufferPointer { (out) throws(ImageFileError) in
                for y in 0..<image.height {
                    var o = 0
                    for p in pixels[(y * image.width)..<((y + 1) * image.width)] {
                        let q = withAlpha ? Pixel.unpremultiply(p) : p
                        out[o] = UInt8(truncatingIfNeeded: q >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: q >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: q)
                        if withAlpha { out[o + 3] = UInt8(truncatingIfNeeded: q >> 24) }
                        o += channels
                    }
                    let status = spng_encode_row(context, out.baseAddress, out.count)
                    // The last row answers SPNG_EOI: the image is complete and the file finished.
                    if status != 0 && !(status == SPNG_EOI.rawValue && y == image.height - 1) { try check(status) }
                }
            }
        }
        var length = 0
        var status: Int32 = 0
        guard let buffer = spng_get_png_buffer(context, &length, &status) else {
            try check(status == 0 ? SPNG_EINTERNAL.rawValue : status)
            return []
        }
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}

import CPNG
import PaintCore

/// PNG bytes to and from `PixelImage`, through libpng's simplified API only.
///
/// libpng reports errors by `longjmp`, which Swift cannot survive; the `png_image_*` calls set
/// their own jump buffer and turn every error into a zero return plus `image.message`, so they
/// are the only libpng entry points used here. Everything happens in memory: files are read and
/// written by `ImageFile` and `AtomicFile`, never by libpng's stdio calls (its write-to-file
/// call deletes the target when it fails).
///
/// The packed pixel layout (little-endian bytes B, G, R, A) is exactly libpng's
/// `PNG_FORMAT_BGRA`, so on a little-endian host pixels move without a per-byte shuffle.
public enum PNGCodec {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Decodes PNG `bytes` into a premultiplied image.
    ///
    /// `name` is only used in error messages. The size in the header is checked against `limits`
    /// before the pixel buffer is allocated, so a header claiming 100000 x 100000 pixels fails
    /// at once. Any colour type and bit depth libpng reads is converted to 8-bit sRGB BGRA.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default
    ) throws(ImageFileError) -> PixelImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        // Our own signature check gives "not a PNG file" for text, JPEGs and the like; libpng
        // would say the same thing in less friendly words. A short prefix of the signature is a
        // truncated PNG, so it falls through and libpng reports it as cut short.
        let checked = min(bytes.count, signature.count)
        guard bytes[0..<checked].elementsEqual(signature[0..<checked]) else {
            throw .notPNG(path: name)
        }

        var png = newImage()
        // On success the image still owns libpng's read state; on failure libpng has freed it
        // already and this is a no-op (opaque is NULL). Either way nothing leaks.
        defer { png_image_free(&png) }

        // The memory reader keeps a pointer into `bytes` until png_image_finish_read returns,
        // so both calls live inside one withUnsafeBytes.
        let result: Result<PixelImage, ImageFileError> = bytes.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count) != 0 else {
                return .failure(.damaged(path: name, reason: message(of: png)))
            }
            let width = Int(png.width)
            let height = Int(png.height)
            guard limits.allows(width: width, height: height) else {
                return .failure(.tooLarge(path: name, width: width, height: height, limits: limits))
            }
            png.format = UInt32(PNG_FORMAT_BGRA)
            // row_stride is counted in components (one byte each at 8 bits), not pixels.
            // PNG_IMAGE_ROW_STRIDE is a macro Swift cannot import.
            let rowStride = Int32(width * 4)
            var failed = false
            let pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                failed = png_image_finish_read(&png, nil, buffer.baseAddress, rowStride, nil) == 0
                count = failed ? 0 : width * height
            }
            if failed { return .failure(.damaged(path: name, reason: message(of: png))) }
            guard var image = PixelImage(width: width, height: height, pixels: pixels) else {
                return .failure(.damaged(path: name, reason: "pixel count does not match the size"))
            }
            for i in image.pixels.indices {
                image.pixels[i] = Pixel.premultiply(fromLittleEndianBGRA(image.pixels[i]))
            }
            return .success(image)
        }
        return try result.get()
    }

    /// Encodes `image` as PNG bytes.
    ///
    /// With `withAlpha` the file is 8-bit RGBA with straight (unpremultiplied) alpha, as PNG
    /// requires. Without it the file is 8-bit RGB and the premultiplied colour channels are
    /// written as they are, which is the image over black: flatten onto the backdrop you want
    /// first (for example with `Pixel.over`) if the image is not opaque.
    public static func encode(_ image: PixelImage, withAlpha: Bool) throws(ImageFileError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .cannotEncode(path: "", reason: "the image has no pixels")
        }
        // PNG stores sizes as 31-bit values and libpng takes the row stride as a png_int_32.
        guard image.width <= Int(Int32.max) / 4, image.height <= Int(Int32.max) else {
            throw .cannotEncode(path: "", reason: "the image is too large for PNG")
        }
        let format = UInt32(withAlpha ? PNG_FORMAT_BGRA : PNG_FORMAT_BGR)
        let channels = withAlpha ? 4 : 3
        let rowStride = Int32(image.width * channels)

        if withAlpha {
            let straight = image.pixels.map { toLittleEndianBGRA(Pixel.unpremultiply($0)) }
            // withUnsafeBytes only rethrows `any Error`; a Result carries the typed error out.
            return try straight.withUnsafeBytes { raw in
                Result { () throws(ImageFileError) in
                    try write(raw, width: image.width, height: image.height, format: format, rowStride: rowStride)
                }
            }.get()
        } else {
            var bgr = [UInt8](repeating: 0, count: image.width * image.height * 3)
            var o = 0
            for p in image.pixels {
                bgr[o] = UInt8(truncatingIfNeeded: p)
                bgr[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                bgr[o + 2] = UInt8(truncatingIfNeeded: p >> 16)
                o += 3
            }
            // withUnsafeBytes only rethrows `any Error`; a Result carries the typed error out.
            return try bgr.withUnsafeBytes { raw in
                Result { () throws(ImageFileError) in
                    try write(raw, width: image.width, height: image.height, format: format, rowStride: rowStride)
                }
            }.get()
        }
    }

    /// Runs png_image_write_to_memory twice: once without a buffer to learn the size, then into
    /// a buffer of that size. libpng has no "grow as you go" memory writer.
    private static func write(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, format: UInt32, rowStride: Int32
    ) throws(ImageFileError) -> [UInt8] {
        func prepared() -> png_image {
            var png = newImage()
            png.width = UInt32(width)
            png.height = UInt32(height)
            png.format = format
            return png
        }

        var sizing = prepared()
        defer { png_image_free(&sizing) }
        var size = 0
        guard png_image_write_to_memory(&sizing, nil, &size, 0, pixels.baseAddress, rowStride, nil) != 0,
            size > 0
        else {
            throw .cannotEncode(path: "", reason: message(of: sizing))
        }

        var writing = prepared()
        defer { png_image_free(&writing) }
        var written = size
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { buffer in
            png_image_write_to_memory(&writing, buffer.baseAddress, &written, 0, pixels.baseAddress, rowStride, nil)
        }
        // The same input compresses to the same size, so a second-pass overflow means libpng
        // changed its mind; report it rather than return a cut-off file.
        guard ok != 0, written <= size else {
            throw .cannotEncode(
                path: "", reason: cpng_failed(&writing) != 0 ? message(of: writing) : "the encoded size changed")
        }
        out.removeLast(size - written)
        return out
    }

    /// A zeroed png_image with the version libpng checks.
    private static func newImage() -> png_image {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        return png
    }

    /// libpng's error text: `message` is a NUL-terminated `char[64]`, imported as a tuple.
    static func message(of png: png_image) -> String {
        var copy = png.message
        let text = withUnsafeBytes(of: &copy) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng gave no reason" : text
    }

    /// A pixel as libpng wrote it (bytes B, G, R, A in memory) to the packed value.
    @inline(__always)
    private static func fromLittleEndianBGRA(_ stored: UInt32) -> UInt32 { UInt32(littleEndian: stored) }

    /// A packed value to the memory order libpng reads (bytes B, G, R, A).
    @inline(__always)
    private static func toLittleEndianBGRA(_ value: UInt32) -> UInt32 { value.littleEndian }
}

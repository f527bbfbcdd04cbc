import PaintCore

/// Opening picture bytes of any format SwiftPaint reads, chosen by their content.
public enum ImageDecoder {
    /// Decodes `bytes` with the decoder their signature names (PNG, JPEG, WebP, GIF or BMP).
    ///
    /// `name` is only used in error messages. Every decoder checks the picture's size against
    /// `limits` before allocating its pixels and keeps its metadata within
    /// `limits.maxMetadataBytes`; bytes in no known format fail with `.unknownFormat`.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default
    ) throws(ImageFileError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        switch ImageFormat.sniff(bytes) {
        case .png: return try PNGCodec.decodePicture(bytes, name: name, limits: limits)
        case .jpeg: return try JPEGCodec.decode(bytes, name: name, limits: limits)
        case .webp: return try WebPCodec.decode(bytes, name: name, limits: limits)
        case .gif: return try GIFDecoder.decode(bytes, name: name, limits: limits)
        case .bmp: return try BMPDecoder.decode(bytes, name: name, limits: limits)
        case nil:
            // A file cut inside the PNG signature is a PNG cut short, not an unknown format.
            if bytes.count < PNGCodec.signature.count && PNGCodec.signature.starts(with: bytes) {
                return try PNGCodec.decodePicture(bytes, name: name, limits: limits)
            }
            throw .unknownFormat(path: name)
        }
    }

    /// Decodes `bytes` as `decode` does, into the engine's tiles: PNG and JPEG straight from
    /// their rows, 64 at a time (no buffer of the whole picture); WebP, GIF and BMP decoded
    /// whole and then cut, the whole picture's memory given back band by band as it is cut
    /// (`TiledPicture(releasing:)`). The same checks, errors and pixels as `decode`.
    public static func decodeTiles(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default
    ) throws(ImageFileError) -> (picture: TiledPicture, format: ImageFormat, hasAlpha: Bool) {
        switch ImageFormat.sniff(bytes) {
        case .png:
            let (picture, hasAlpha) = try PNGCodec.decodeTiles(bytes, name: name, limits: limits)
            return (picture, .png, hasAlpha)
        case .jpeg:
            return (try JPEGCodec.decodeTiles(bytes, name: name, limits: limits), .jpeg, false)
        default:
            let decoded = try decode(bytes, name: name, limits: limits)
            let (format, hasAlpha) = (decoded.format, decoded.hasAlpha)
            // The decoded picture's pages go back to the system as its bands are cut.
            return (TiledPicture(releasing: (consume decoded).image), format, hasAlpha)
        }
    }
}

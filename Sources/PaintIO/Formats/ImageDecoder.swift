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

    /// Decodes `bytes` as `decode` does, into the engine's tiles: a PNG straight from its rows
    /// (no buffer of the whole picture), any other format decoded and then cut.
    public static func decodeTiles(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default
    ) throws(ImageFileError) -> (picture: TiledPicture, format: ImageFormat, hasAlpha: Bool) {
        if ImageFormat.sniff(bytes) == .png {
            let (picture, hasAlpha) = try PNGCodec.decodeTiles(bytes, name: name, limits: limits)
            return (picture, .png, hasAlpha)
        }
        let decoded = try decode(bytes, name: name, limits: limits)
        return (TiledPicture(decoded.image), decoded.format, decoded.hasAlpha)
    }
}

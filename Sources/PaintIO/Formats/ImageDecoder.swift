import PaintCore

/// Opening picture bytes of any format SwiftPaint reads, chosen by their content.
public enum ImageDecoder {
    /// Decodes `bytes` with the decoder their signature names (PNG, JPEG, WebP, GIF or BMP).
    ///
    /// `name` is only used in error messages. Every decoder checks the picture's size against
    /// `limits` before allocating its pixels and keeps its metadata within
    /// `limits.maxMetadataBytes`; bytes in no known format fail with `.unknownFormat`. Once
    /// `control` is told to stop, the decode ends at its next step (a row; a chunk of a WebP's
    /// data; a row of a progressive JPEG's scan) with `ImageFileError.stopped`.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        switch ImageFormat.sniff(bytes) {
        case .png: return try PNGCodec.decodePicture(bytes, name: name, limits: limits, control: control)
        case .jpeg: return try JPEGCodec.decode(bytes, name: name, limits: limits, control: control)
        case .webp: return try WebPCodec.decode(bytes, name: name, limits: limits, control: control)
        case .gif: return try GIFDecoder.decode(bytes, name: name, limits: limits, control: control)
        case .bmp: return try BMPDecoder.decode(bytes, name: name, limits: limits, control: control)
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
    ) throws(ImageFileError) -> (picture: TiledPicture, format: ImageFormat, hasAlpha: Bool, damage: PictureDamage?) {
        do {
            return try decodeTiles(PictureStream(bytes: bytes, name: name), limits: limits)
        } catch .metadataTooLarge {
            // A PNG with metadata over the limit opens from a copy without it.
            let (picture, hasAlpha, damage) = try PNGCodec.decodeTiles(bytes, name: name, limits: limits)
            return (picture, .png, hasAlpha, damage)
        }
    }

    /// Decodes what `stream` reads into the engine's tiles, reading it once from start to end
    /// and to its end (`PictureStream.drain`: its count and CRC then cover every byte): PNG,
    /// JPEG and an uncompressed BMP through the stream's buffer, never holding the file; GIF
    /// through it too, decoded whole and then cut; WebP (libwebp reads from memory) from its
    /// bytes up to its first picture (`pictureBytes`); a file in no known format is refused after
    /// its first bytes. The same checks, errors and pixels as `decode` of the same bytes, but
    /// a PNG whose metadata is over the limit fails with `.metadataTooLarge` (the caller decodes
    /// its bytes without that metadata), and a read that fails says so (`cannotRead`).
    static func decodeTiles(
        _ stream: PictureStream, limits: ImageLimits
    ) throws(ImageFileError) -> (picture: TiledPicture, format: ImageFormat, hasAlpha: Bool, damage: PictureDamage?) {
        do {
            let decoded = try decodeTilesOnce(stream, limits: limits)
            try stream.drain()
            return decoded
        } catch {
            // A read that failed looks like a file cut short to the decoder.
            if let failure = stream.failure { throw failure }
            throw error
        }
    }

    /// The bytes of the picture `stream` reads, `head` (taken from it already) and what
    /// follows, up to the picture's end (`PictureExtent`; a WebP's RIFF size is then made to say
    /// it): for a decoder that reads from memory (libwebp, a BMP's run-length codes or the PNG
    /// or JPEG it wraps), this is what is held, not what the file or a header claims (the rest
    /// is drained for the CRC through the stream's small buffer).
    static func pictureBytes(_ stream: PictureStream, limits: ImageLimits, after head: [UInt8] = []) -> [UInt8] {
        var extent = PictureExtent(limits: limits, fileSize: stream.size, skipsUnneeded: true)
        var bytes = head
        var end = Int.max
        var looking = true
        while true {
            while looking {
                switch extent.look(at: bytes, atEnd: false) {
                case .end(let at): end = at
                case .unknown: break
                case .whole, .notAPicture: looking = false
                case .skip(let from, let to):
                    // Passed over through the stream's small buffer (its CRC still covers them).
                    let read = bytes.count
                    bytes.removeSubrange(from..<min(to, read))
                    if to > read { stream.skip(to - read) }
                    continue
                }
                if end != .max { looking = false }
                break
            }
            guard bytes.count < end else { break }
            let piece = stream.read(min(PictureStream.chunkSize, end - bytes.count))
            if piece.isEmpty { break }
            bytes += piece
        }
        if bytes.count > end { bytes.removeLast(bytes.count - end) }
        if bytes.count == end && ImageFormat.sniff(bytes) == .webp { PictureExtent.cutWebP(&bytes) }
        return bytes
    }

    private static func decodeTilesOnce(
        _ stream: PictureStream, limits: ImageLimits
    ) throws(ImageFileError) -> (picture: TiledPicture, format: ImageFormat, hasAlpha: Bool, damage: PictureDamage?) {
        let head = stream.peek(32)
        guard !head.isEmpty else { throw .emptyFile(path: stream.name) }
        switch ImageFormat.sniff(head) {
        case .png:
            let (picture, hasAlpha, damage) = try PNGCodec.decodeTiles(stream, limits: limits)
            return (picture, .png, hasAlpha, damage)
        case .jpeg:
            let (picture, damage) = try JPEGCodec.decodeTiles(stream, limits: limits)
            return (picture, .jpeg, false, damage)
        case .bmp:
            let (picture, hasAlpha, damage) = try BMPDecoder.decodeTiles(stream, limits: limits)
            return (picture, .bmp, hasAlpha, damage)
        case .gif:
            let decoded = try GIFDecoder.decode(stream, limits: limits)
            let (hasAlpha, damage) = (decoded.hasAlpha, decoded.damage)
            return (TiledPicture(releasing: (consume decoded).image), .gif, hasAlpha, damage)
        case .webp:
            let decoded = try decode(pictureBytes(stream, limits: limits), name: stream.name, limits: limits)
            let (hasAlpha, damage) = (decoded.hasAlpha, decoded.damage)
            return (TiledPicture(releasing: (consume decoded).image), .webp, hasAlpha, damage)
        case nil:
            // In no known format: refused at once, not after reading the whole file. A file cut
            // inside the PNG signature (a few bytes) is a PNG cut short, as `decode` says.
            guard head.count < PNGCodec.signature.count, PNGCodec.signature.starts(with: head) else {
                throw .unknownFormat(path: stream.name)
            }
            let decoded = try decode(stream.readRest(), name: stream.name, limits: limits)
            let (format, hasAlpha, damage) = (decoded.format, decoded.hasAlpha, decoded.damage)
            // The decoded picture's pages go back to the system as its bands are cut.
            return (TiledPicture(releasing: (consume decoded).image), format, hasAlpha, damage)
        }
    }
}

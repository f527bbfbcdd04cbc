import PaintCore

/// The starting picture a history keeps, with nothing in it but what makes its pixels.
///
/// A history's starting picture is the opened file's own bytes, which may carry what the user
/// never sees: a camera's EXIF (GPS position, serial number), its embedded thumbnail (of the
/// photo before it was cropped), comments, text chunks, even an older history. A file saved with
/// its history goes to someone else, so what it keeps there is reduced to the pixels: the bytes
/// themselves when they are a PNG with only the chunks that make its pixels, else the decoded
/// picture's own PNG encoding (which decodes to exactly the same pixels, or is not used).
public enum CleanBase {
    /// The chunks a clean base may hold: the ones a decoder needs for its pixels (`sRGB` is the
    /// one byte SwiftPaint's own encoding writes).
    static let decodingChunks: Set<[UInt8]> = Set(
        ["IHDR", "PLTE", "tRNS", "sRGB", "IDAT", "IEND"].map { Array($0.utf8) })

    /// `bytes` (a picture file SwiftPaint opens) as a starting picture that decodes to the same
    /// pixels and carries nothing else; nil when they cannot be decoded, or their PNG encoding
    /// would not give back the same pixels.
    public static func of(_ bytes: [UInt8]) -> [UInt8]? {
        if isClean(bytes) { return bytes }
        guard let picture = try? ImageDecoder.decode(bytes, name: "the starting picture").image else { return nil }
        return png(of: picture)
    }

    /// `picture` as PNG bytes that decode to exactly its pixels (checked by decoding them);
    /// nil when they would not.
    public static func png(of picture: PixelImage) -> [UInt8]? {
        guard let png = try? ImageEncoder.encode(picture, options: SaveOptions(format: .png), withAlpha: true),
            let back = try? ImageDecoder.decode(png, name: "the starting picture"), back.image == picture
        else { return nil }
        return png
    }

    /// Whether `bytes` are a whole PNG of decoding chunks only, with nothing after IEND.
    static func isClean(_ bytes: [UInt8]) -> Bool {
        guard case .complete(let chunks) = PNGChunks.walk(bytes), chunks.last?.end == bytes.count else { return false }
        return chunks.allSatisfy { decodingChunks.contains($0.type) }
    }
}

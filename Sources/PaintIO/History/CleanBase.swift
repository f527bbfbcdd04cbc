import PaintCore

/// The starting picture a history keeps, with nothing in it but what makes its pixels.
///
/// A history's starting picture is the opened file's own bytes, which may carry what the user
/// never sees: a camera's EXIF (GPS position, serial number), its embedded thumbnail (of the
/// photo before it was cropped), comments, text chunks, even an older history. A file saved with
/// its history goes to someone else, so what it keeps there is reduced to the pixels: the bytes
/// themselves when they are a PNG with only the chunks that make its pixels, else the decoded
/// picture's own PNG encoding (which decodes to exactly the same pixels, or is not used): a
/// palette PNG when the pixels have at most 256 colours and that is smaller than RGBA, so a
/// palette file's base stays small.
public enum CleanBase {
    /// The chunks a clean base may hold: those of a picture of 8-bit samples with no palette and
    /// no transparent colour, the way SwiftPaint's own encoding writes them. Every bit of such a
    /// file's rows is a sample shown. A palette (`PLTE`) can hold entries no pixel uses, a
    /// `tRNS` entries past the palette or a colour key no pixel has; a 1-, 2- or 4-bit row can
    /// hide bits past its last pixel in its last byte, a 16-bit sample a low byte the 8-bit
    /// picture never shows: such a file is re-encoded from its pixels.
    static let plainChunks: Set<[UInt8]> = Set(["IHDR", "sRGB", "IDAT", "IEND"].map { Array($0.utf8) })

    /// `bytes` (a picture file SwiftPaint opens) as a starting picture that decodes to the same
    /// pixels and carries nothing else; nil when they cannot be decoded, or their PNG encoding
    /// would not give back the same pixels.
    public static func of(_ bytes: [UInt8]) -> [UInt8]? {
        if isPlain(bytes) { return bytes }
        guard let picture = try? ImageDecoder.decode(bytes, name: "the starting picture").image else { return nil }
        return png(of: picture)
    }

    /// A clean base made once, with what it was made from (the count and CRC-32 of the
    /// starting picture's bytes), so a document's next "Save with history" takes it as it is
    /// instead of decoding and encoding the picture again (for a 4K photo opened from a JPEG,
    /// 1.6 s of CPU each time).
    public struct Made: Equatable, Sendable {
        public let sourceCount: Int
        public let sourceCRC: UInt32
        public let bytes: [UInt8]

        /// The clean base of `source`, made now; nil as for `of`.
        public init?(of source: [UInt8]) {
            guard let bytes = CleanBase.of(source) else { return nil }
            self.init(source: source, bytes: bytes)
        }

        init(source: [UInt8], bytes: [UInt8]) {
            sourceCount = source.count
            sourceCRC = Zlib.crc32(source)
            self.bytes = bytes
        }

        /// Whether this was made from `source` (same length, same CRC-32).
        public func isOf(_ source: [UInt8]) -> Bool {
            source.count == sourceCount && Zlib.crc32(source) == sourceCRC
        }
    }

    /// `picture` as PNG bytes that decode to exactly its pixels: the smaller of 8-bit RGBA and,
    /// when it has at most 256 colours, a palette PNG made from its pixels alone
    /// (`PNGCodec.encodeIndexed`; kept on a tie); nil when they would not. A palette mostly
    /// wins, but filtered RGBA can compress a regular pattern of many colours better than
    /// unfiltered indices, and a base is kept in every file saved with history.
    ///
    /// Neither is decoded to see: both hold each pixel's straight 8-bit channels (a palette's
    /// entries are the picture's colours unpremultiplied), which a reader premultiplies again,
    /// so they give back exactly the picture when `ImageEncoder.decodedExactly` does (every
    /// pixel a valid premultiplied one: what painting makes), and no other. That model is
    /// checked against the decoder for every alpha and channel value, RGBA and palette
    /// (`SaveReadBackTests`, `CleanBaseTests`). The decode it replaces cost a 4K picture a
    /// second whole-picture buffer and about 1.3 G instructions, once per document.
    public static func png(of picture: PixelImage) -> [UInt8]? {
        guard ImageEncoder.decodedExactly(picture, options: SaveOptions(format: .png), withAlpha: true) == picture
        else { return nil }
        let indexed = PNGCodec.encodeIndexed(picture)
        let rgba = try? ImageEncoder.encode(picture, options: SaveOptions(format: .png), withAlpha: true)
        if let indexed, let rgba { return indexed.count <= rgba.count ? indexed : rgba }
        return indexed ?? rgba
    }

    /// Whether `bytes` hold nothing but their pixels: a plain PNG (`isPlain`), or a palette PNG
    /// that is exactly the palette encoding of its pixels chosen by `png(of:)`, in which every
    /// bit comes from the pixels: no unused entry, no order or padding bit of the writer's
    /// choosing (a palette PNG whose pixels encode smaller as RGBA is re-encoded so).
    static func isClean(_ bytes: [UInt8]) -> Bool {
        if isPlain(bytes) { return true }
        guard bytes.count > 25, bytes[25] == 3,
            let picture = try? ImageDecoder.decode(bytes, name: "the starting picture").image
        else { return false }
        return png(of: picture) == bytes
    }

    /// Whether `bytes` are a whole PNG of 8-bit samples with no palette (`plainChunks` only),
    /// with nothing after IEND, whose `sRGB` says what SwiftPaint writes, and whose IDAT chunks
    /// hold one zlib stream and nothing after it, inflating to exactly the rows its header
    /// describes (bytes hidden past the stream's end, or past the last row, are not pixels:
    /// such a file is re-encoded).
    static func isPlain(_ bytes: [UInt8]) -> Bool {
        guard case .complete(let chunks) = PNGChunks.walk(bytes), chunks.last?.end == bytes.count,
            chunks.allSatisfy({ plainChunks.contains($0.type) }),
            let header = chunks.first, header.type == Array("IHDR".utf8), header.length == 13,
            bytes[header.dataStart + 8] == 8, bytes[header.dataStart + 9] != 3,
            let expected = rawCount(header: Array(bytes[header.dataStart..<(header.dataStart + 13)]))
        else { return false }
        // The rendering intent is two bits the pixels do not show: only SwiftPaint's own 0.
        for chunk in chunks where chunk.type == Array("sRGB".utf8) {
            guard chunk.length == 1, bytes[chunk.dataStart] == 0 else { return false }
        }
        var stream: [UInt8] = []
        for chunk in chunks where chunk.type == Array("IDAT".utf8) {
            stream += bytes[chunk.dataStart..<(chunk.dataStart + chunk.length)]
        }
        return stream.withUnsafeBytes { Zlib.inflatedCount($0, limit: expected) } == expected
    }

    /// The bytes of filtered rows (a filter byte, then the row) the IHDR `fields` describe,
    /// the seven Adam7 passes for an interlaced picture; nil for a header that is not valid.
    static func rawCount(header fields: [UInt8]) -> Int? {
        func int(_ at: Int) -> Int { fields[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let width = int(0)
        let height = int(4)
        let depth = Int(fields[8])
        let channels: Int
        switch fields[9] {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        guard width > 0, height > 0, [1, 2, 4, 8, 16].contains(depth), fields[12] <= 1 else { return nil }
        let bits = channels * depth
        func rows(_ w: Int, _ h: Int) -> Int { w > 0 && h > 0 ? h * (1 + (w * bits + 7) / 8) : 0 }
        guard fields[12] == 1 else { return rows(width, height) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { sum, pass in
            sum + rows((width - pass.0 + pass.2 - 1) / pass.2, (height - pass.1 + pass.3 - 1) / pass.3)
        }
    }
}

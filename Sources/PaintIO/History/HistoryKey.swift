import PaintCore

/// The name of a picture's entry in the history store: the SHA-256 of its size and pixels as a
/// reader decodes them from the saved file.
///
/// Only the pixels count, not the file's name, folder, format details or metadata, so a renamed or
/// moved file finds its history, and a file another program changed (one pixel is enough) finds
/// nothing and opens as a plain picture.
public struct HistoryKey: Hashable, Sendable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let digest: [UInt8]

    /// The key of `image`: SHA-256 over its width and height (UInt32, little-endian) and then
    /// its premultiplied pixels, each as four little-endian bytes (B, G, R, A).
    public init(of image: PixelImage) {
        var hash = SHA256()
        hash.update(Self.header(width: image.width, height: image.height))
        // On a little-endian host the pixel words are already in the hashed byte order: hash
        // them in place instead of copying the picture.
        if 1.littleEndian == 1 {
            image.pixels.withUnsafeBytes { hash.update($0) }
        } else {
            image.pixels.map { $0.littleEndian }.withUnsafeBytes { hash.update($0) }
        }
        digest = hash.finish()
    }

    /// The key of the picture `packed` holds (the engine's paint, by reference to its tiles),
    /// the same as of that picture as an image, read row by row without copying it whole; nil
    /// when `control` was told to stop. It is looked at between two bands of `bandRows` rows
    /// (a 4K picture takes 0.1 to 0.3 s to hash, a band of 64 rows about 5 ms), so a rebuild
    /// dropped while it hashes ends as soon as one dropped while it replays.
    public init?(of packed: PackedPixels, control: ReplayControl? = nil) {
        var hash = SHA256()
        hash.update(Self.header(width: packed.rect.width, height: packed.rect.height))
        for top in stride(from: packed.rect.y, to: packed.rect.maxY, by: Self.bandRows) {
            if control?.isStopped == true { return nil }
            let rows = top..<min(packed.rect.maxY, top + Self.bandRows)
            packed.forEachRow(in: rows) { row in
                if 1.littleEndian == 1 {
                    hash.update(UnsafeRawBufferPointer(row))
                } else {
                    row.map { $0.littleEndian }.withUnsafeBytes { hash.update($0) }
                }
            }
            control?.noteHashed(rows: rows.count)
        }
        digest = hash.finish()
    }

    /// Rows hashed between two looks at a `ReplayControl`.
    static let bandRows = 64

    /// The key of `engine`'s picture as a save writes it (`flattenedImage`), flattened a band
    /// of rows at a time: no copy of the whole picture.
    public init(flattening engine: StrokeEngine) {
        var hash = SHA256()
        hash.update(Self.header(width: engine.width, height: engine.height))
        for top in stride(from: 0, to: engine.height, by: Self.bandRows) {
            let band = engine.flattenedImage(
                in: IntRect(x: 0, y: top, width: engine.width, height: min(Self.bandRows, engine.height - top)))
            if 1.littleEndian == 1 {
                band.pixels.withUnsafeBytes { hash.update($0) }
            } else {
                band.pixels.map { $0.littleEndian }.withUnsafeBytes { hash.update($0) }
            }
        }
        digest = hash.finish()
    }

    /// Width and height, UInt32 little-endian each.
    static func header(width: Int, height: Int) -> [UInt8] {
        var header: [UInt8] = []
        for value in [UInt32(truncatingIfNeeded: width), UInt32(truncatingIfNeeded: height)] {
            for shift in stride(from: 0, to: 32, by: 8) {
                header.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
            }
        }
        return header
    }

    /// A key from its 64-character lower-case hex form, or nil.
    public init?(hex: String) {
        let chars = Array(hex.utf8)
        guard chars.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for i in stride(from: 0, to: 64, by: 2) {
            guard let hi = Self.nibble(chars[i]), let lo = Self.nibble(chars[i + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
        }
        digest = bytes
    }

    /// A key from its 32 digest bytes, or nil when there are not 32.
    public init?(digest: [UInt8]) {
        guard digest.count == 32 else { return nil }
        self.digest = digest
    }

    /// The digest in lower-case hex: the entry's file name without its extension.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public var description: String { hex }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}

/// What a BMP file's headers say, checked: SwiftPaint reads BMP by hand (no Debian library
/// fits), so every field from the file is validated here before it is used.
struct BMPHeader {
    var width: Int
    var height: Int
    /// Rows are stored top row first (a negative height in the file).
    var topDown: Bool
    var bitsPerPixel: Int
    var compression: Compression
    /// Where the pixel data starts.
    var dataOffset: Int
    /// Palette entries as packed opaque pixels (1, 4 and 8 bits per pixel).
    var palette: [UInt32]
    /// Channel masks for 16 and 32 bits per pixel (alpha 0: none).
    var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)

    enum Compression: Equatable {
        case none, rle8, rle4, bitfields
        /// The pixel data is a whole PNG or JPEG file.
        case embedded
    }

    /// Parses the headers of `bytes`, the file's first bytes (`fileSize` of them in all: by
    /// default `bytes` is the whole file); throws with the reason in words.
    init(_ bytes: [UInt8], name: String, fileSize: Int? = nil) throws(ImageFileError) {
        let reader = LittleEndianFields(bytes: bytes, name: name)
        guard bytes.count >= 26 else { throw .cutShort(path: name, reason: "it ends inside its header") }
        dataOffset = try reader.u32(10)
        let infoSize = try reader.u32(14)
        let core = infoSize == 12
        guard core || [40, 52, 56, 64, 108, 124].contains(infoSize) else {
            throw .damaged(path: name, reason: "its header has an unknown size (\(infoSize) bytes)")
        }
        guard 14 + infoSize <= bytes.count else { throw .cutShort(path: name, reason: "it ends inside its header") }
        let rawHeight: Int
        if core {
            width = try reader.u16(18)
            rawHeight = try reader.u16(20)
            bitsPerPixel = try reader.u16(24)
        } else {
            width = try reader.i32(18)
            rawHeight = try reader.i32(22)
            bitsPerPixel = try reader.u16(28)
        }
        topDown = rawHeight < 0
        height = abs(rawHeight)
        guard width > 0, height > 0 else { throw .damaged(path: name, reason: "its picture has no pixels") }
        let method = core ? 0 : try reader.u32(30)
        // A BMP wrapping a PNG or JPEG may leave the depth 0: that picture says it.
        let wraps = !core && (method == 4 || method == 5)
        guard [1, 4, 8, 16, 24, 32].contains(bitsPerPixel) || (wraps && bitsPerPixel == 0) else {
            throw .damaged(path: name, reason: "\(bitsPerPixel) bits per pixel is not a BMP depth")
        }

        switch (method, bitsPerPixel) {
        case (0, _): compression = .none
        case (1, 8): compression = .rle8
        case (2, 4): compression = .rle4
        case (3, 16), (3, 32), (6, 16), (6, 32): compression = .bitfields
        case (4, _), (5, _): compression = .embedded
        default:
            throw .damaged(path: name, reason: "compression \(method) does not go with \(bitsPerPixel) bits per pixel")
        }
        // OS/2 2.x headers (64 bytes) number their compressions differently: 3 and 4 there are
        // Huffman and RLE24, which nothing writes any more.
        if infoSize == 64 && method >= 3 {
            throw .damaged(path: name, reason: "it uses an OS/2 compression SwiftPaint does not read")
        }

        // Masks: in the header from V2 (52 bytes) on, else right after a 40-byte header.
        masks = bitsPerPixel == 16 ? (0x7C00, 0x03E0, 0x001F, 0) : (0xFF_0000, 0xFF00, 0xFF, 0)
        var paletteStart = 14 + infoSize
        if compression == .bitfields {
            let at = infoSize >= 52 ? 54 : paletteStart
            masks = (try reader.u32x(at), try reader.u32x(at + 4), try reader.u32x(at + 8), 0)
            if infoSize >= 56 || method == 6 { masks.alpha = try reader.u32x(at + 12) }
            if infoSize < 52 { paletteStart += method == 6 ? 16 : 12 }
        } else if infoSize >= 56 && bitsPerPixel == 32 {
            // A V3+ header with BI_RGB still names an alpha mask when the writer meant one.
            masks.alpha = try reader.u32x(66)
        }

        palette = []
        if bitsPerPixel <= 8 && compression != .embedded {
            let declared = core ? 0 : try reader.u32(46)
            let count = declared == 0 ? 1 << bitsPerPixel : min(declared, 1 << bitsPerPixel)
            let entry = core ? 3 : 4
            guard paletteStart + count * entry <= bytes.count else {
                throw .cutShort(path: name, reason: "it ends inside its color table")
            }
            palette = (0..<count).map { i in
                let o = paletteStart + i * entry
                return 0xFF00_0000 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o])
            }
        }
        // Where the header says its pixels start, checked against more than any writer leaves
        // between (an ICC profile at most) before the bytes between are read.
        let tableEnd = paletteStart + palette.count * (core ? 3 : 4)
        guard dataOffset <= tableEnd + Self.mostGapBytes else {
            throw .damaged(
                path: name,
                reason:
                    "its pixels start \(dataOffset - tableEnd) bytes after its header, more than \(Self.mostGapBytes)")
        }
        guard dataOffset < (fileSize ?? bytes.count) else {
            throw .cutShort(path: name, reason: "it ends before its pixels")
        }
    }

    /// The most bytes between the header (and colour table) and the pixels: room for an ICC
    /// profile. A file whose pixels start further on is refused from its header, not read up
    /// to them.
    static let mostGapBytes = 16 << 20

    /// The most bytes the headers take: the file header, the largest info header (124 bytes),
    /// masks after a 40-byte one and a colour table of 256 entries. A header is judged damaged
    /// from no more than these (`PictureExtent.bmpEnd`).
    static let mostBytes = 14 + 124 + 16 + 256 * 4

    /// Bytes per stored row: rows are padded to 4 bytes.
    var rowBytes: Int { (width * bitsPerPixel + 31) / 32 * 4 }
}

/// Little-endian header fields read at their offsets, each bounds-checked.
private struct LittleEndianFields {
    let bytes: [UInt8]
    let name: String

    func u16(_ at: Int) throws(ImageFileError) -> Int {
        guard at >= 0, at + 2 <= bytes.count else { throw .cutShort(path: name, reason: "it ends inside its header") }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    func u32x(_ at: Int) throws(ImageFileError) -> UInt32 {
        UInt32(try u16(at)) | UInt32(try u16(at + 2)) << 16
    }

    func u32(_ at: Int) throws(ImageFileError) -> Int { Int(try u32x(at)) }

    func i32(_ at: Int) throws(ImageFileError) -> Int { Int(Int32(bitPattern: try u32x(at))) }
}

import PaintCore

/// The project's own small PNG chunk reader and writer (DESIGN §6): private chunks are spliced
/// into the PNG bytes here, never through libpng.
///
/// A PNG is an 8-byte signature, then chunks: a big-endian UInt32 data length, a 4-byte type,
/// the data, and a big-endian CRC-32 (zlib's) over type and data.
enum PNGChunks {
    /// The PNG signature.
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    /// The PNG spec's own bound on a chunk's data length (2^31 - 1).
    static let specMaxLength = Int(Int32.max)

    /// One chunk as located inside a PNG's bytes.
    struct Chunk: Equatable {
        /// Offset of the length field (the chunk's first byte).
        var start: Int
        /// The four type bytes.
        var type: [UInt8]
        /// Offset and count of the data.
        var dataStart: Int
        var length: Int
        /// The CRC as stored in the file.
        var storedCRC: UInt32
        /// Offset just past the CRC.
        var end: Int { dataStart + length + 4 }
    }

    /// Where a chunk walk ended.
    enum Walk: Equatable {
        /// Every chunk up to and including IEND.
        case complete([Chunk])
        /// The chunks read before the structure broke, plus the header of the chunk whose
        /// declared length runs past the end (type nil when even the header is cut off).
        case broken([Chunk], badType: [UInt8]?, reason: String)
        /// The bytes do not start with the PNG signature.
        case notPNG
    }

    /// Walks the chunks of `png`. Lengths are checked against the remaining bytes before any
    /// slicing, so no input can make the walk read out of bounds or allocate.
    static func walk(_ png: [UInt8]) -> Walk {
        guard png.count >= signature.count, png[0..<signature.count].elementsEqual(signature) else { return .notPNG }
        var chunks: [Chunk] = []
        var offset = signature.count
        while true {
            let remaining = png.count - offset
            guard remaining >= 8 else {
                return .broken(chunks, badType: nil, reason: "the file is cut short")
            }
            let length = Int(readBigEndian(png, at: offset))
            let type = Array(png[(offset + 4)..<(offset + 8)])
            guard length <= specMaxLength else {
                return .broken(chunks, badType: type, reason: "a chunk declares an impossible length")
            }
            guard length <= remaining - 12 else {
                return .broken(chunks, badType: type, reason: "a chunk runs past the end of the file")
            }
            let chunk = Chunk(
                start: offset, type: type, dataStart: offset + 8, length: length,
                storedCRC: readBigEndian(png, at: offset + 8 + length))
            chunks.append(chunk)
            offset = chunk.end
            if type == Array("IEND".utf8) { return .complete(chunks) }
        }
    }

    /// CRC-32 (zlib) over `type` followed by `data`.
    static func crc(type: [UInt8], data: ArraySlice<UInt8>) -> UInt32 {
        data.withUnsafeBytes { Zlib.crc32($0, continuing: Zlib.crc32(type)) }
    }

    /// Whether the stored CRC of `chunk` in `png` matches its type and data.
    static func crcMatches(_ chunk: Chunk, in png: [UInt8]) -> Bool {
        crc(type: chunk.type, data: png[chunk.dataStart..<(chunk.dataStart + chunk.length)]) == chunk.storedCRC
    }

    /// A whole chunk: length, type, data, CRC over type and data. The caller keeps `data`
    /// within the spec's 2^31 - 1 bytes.
    static func makeChunk(type: [UInt8], data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 12)
        appendBigEndian(UInt32(truncatingIfNeeded: data.count), to: &out)
        out.append(contentsOf: type)
        out.append(contentsOf: data)
        appendBigEndian(crc(type: type, data: data[...]), to: &out)
        return out
    }

    static func readBigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static func appendBigEndian(_ v: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(v >> 24))
        out.append(UInt8(truncatingIfNeeded: v >> 16))
        out.append(UInt8(truncatingIfNeeded: v >> 8))
        out.append(UInt8(truncatingIfNeeded: v))
    }
}

/// Whether a PNG read through a stream holds a chunk of one type, seen from its chunk heads
/// as the file's bytes pass by (`PictureStream.observe`), as `PNGChunks.walk` would find it
/// in the whole file: up to IEND, or to a chunk whose length no PNG may have (that chunk's type
/// still counts).
///
/// A chunk of that type longer than `maxLength` does not count: a history chunk over its limit
/// is skipped, not read, when the file is read for its picture (`PictureExtent`), and is no
/// history to look for.
///
/// A file that does not start with the PNG signature is not walked: read as chunk heads, a
/// BMP's or a tail's zeros would be a 0-byte chunk every 12 bytes (a 300 MB sparse BMP took
/// minutes to open in a debug build, nearly all of it here).
final class PNGChunkSpotter {
    let type: [UInt8]
    let maxLength: Int
    /// Whether a chunk of `type` went by.
    private(set) var found = false
    /// How many bytes of the PNG signature went by.
    private var signed = 0
    /// Bytes to pass over before the next chunk head.
    private var skip = 0
    private var head: [UInt8] = []
    private var done = false

    init(lookingFor type: [UInt8], upTo maxLength: Int = .max) {
        self.type = type
        self.maxLength = maxLength
    }

    func see(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        while i < bytes.count && !done {
            if signed < PNGChunks.signature.count {
                done = bytes[i] != PNGChunks.signature[signed]
                signed += 1
                i += 1
                continue
            }
            if skip > 0 {
                let k = min(skip, bytes.count - i)
                skip -= k
                i += k
                continue
            }
            head.append(bytes[i])
            i += 1
            guard head.count == 8 else { continue }
            let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let chunkType = Array(head[4..<8])
            if chunkType == type && length <= maxLength { found = true }
            done = found || chunkType == Array("IEND".utf8) || length > PNGChunks.specMaxLength
            // Its data and CRC.
            skip = length + 4
            head.removeAll(keepingCapacity: true)
        }
    }
}

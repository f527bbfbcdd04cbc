import PaintCore

/// Stores a `DocumentArchive` inside a PNG, in a private ancillary chunk, so SwiftPaint reopens
/// its own files with full history while every other viewer just sees the picture (DESIGN §3).
///
/// Chunk type `spHS`. Each letter's case is a property bit (PNG spec, 5.4):
/// - `s` lowercase: ancillary. A decoder that does not know the chunk may skip it and still show
///   the image.
/// - `p` lowercase: private. Not a registered public chunk type.
/// - `H` uppercase: the reserved bit is 0, as the spec requires of every chunk type today.
/// - `S` uppercase: unsafe to copy. An editor that changes the critical chunks (the pixels) and
///   does not know `spHS` must drop it rather than copy it into its output, because the history
///   describes the old pixels. (The pixel hash still guards against editors that keep it anyway.)
///
/// Chunk data:
///
///   version             UInt8 (= DocumentArchive.formatVersion), outside the compression so a
///                       future format may change everything after it, compression included
///   uncompressed size   UInt64, little-endian
///   zlib stream         compress2 (level 6) of the archive payload (see DocumentArchive)
///
/// The chunk sits just before IEND, after all IDAT.
public enum HistoryChunk {
    /// The chunk type, `spHS`.
    public static let type: [UInt8] = Array("spHS".utf8)

    /// The largest history chunk data accepted, on reading and writing.
    public static let maxChunkLength = 256 << 20
    /// The largest uncompressed archive accepted.
    public static let maxUncompressedSize = 512 << 20
    /// The largest ratio of uncompressed to compressed size accepted (zlib's own best is
    /// about 1032:1 on a run of one byte; a real operation log is nowhere near).
    public static let maxCompressionRatio = 1000

    /// What a PNG said about its history.
    public enum ExtractResult: Sendable, Equatable {
        /// The PNG carries no history chunk.
        case none
        /// The history, read and checked.
        case archive(DocumentArchive)
        /// There is a history chunk but it cannot be used; the reason is in words.
        case rejected(String)
    }

    /// Why `embed` failed.
    public enum EmbedError: Error, Equatable, Sendable {
        /// The bytes are not a PNG, or their chunk structure is broken.
        case notPNG(String)
        /// The archive does not fit a history chunk.
        case archiveTooLarge(String)
    }

    /// `png` with `archive` in a history chunk just before IEND; any history chunk already in
    /// `png` is removed, and every other chunk is kept as it is. Bytes after IEND are dropped.
    public static func embed(_ archive: DocumentArchive, into png: [UInt8]) throws(EmbedError) -> [UInt8] {
        let chunks: [PNGChunks.Chunk]
        switch PNGChunks.walk(png) {
        case .notPNG: throw .notPNG("the bytes are not a PNG")
        case .broken(_, _, let reason): throw .notPNG(reason)
        case .complete(let all): chunks = all
        }
        guard let payload = archive.payload() else {
            throw .archiveTooLarge("a field of the history does not fit its 32-bit size")
        }
        guard payload.count <= maxUncompressedSize else {
            throw .archiveTooLarge("the history is \(payload.count) bytes, more than \(maxUncompressedSize)")
        }
        guard let compressed = Zlib.compress(payload, level: 6) else {
            throw .archiveTooLarge("zlib could not compress the history")
        }
        var data: [UInt8] = []
        data.reserveCapacity(compressed.count + 9)
        data.append(DocumentArchive.formatVersion)
        var size = UInt64(payload.count)
        for _ in 0..<8 {
            data.append(UInt8(truncatingIfNeeded: size))
            size >>= 8
        }
        data.append(contentsOf: compressed)
        guard data.count <= maxChunkLength, payload.count <= compressed.count * maxCompressionRatio else {
            throw .archiveTooLarge("the compressed history would be refused when read back")
        }

        var out: [UInt8] = []
        out.reserveCapacity(png.count + data.count + 12)
        out.append(contentsOf: PNGChunks.signature)
        for chunk in chunks {
            if chunk.type == type { continue }
            if chunk.type == Array("IEND".utf8) {
                out.append(contentsOf: PNGChunks.makeChunk(type: type, data: data))
            }
            out.append(contentsOf: png[chunk.start..<chunk.end])
        }
        return out
    }

    /// The history stored in `png`, if any. Never traps on any input: every length is checked
    /// before it is used, the CRC is verified, unknown versions are refused, and decompression
    /// is bounded by the declared size (itself bounded).
    public static func extract(from png: [UInt8]) -> ExtractResult {
        var found: [PNGChunks.Chunk] = []
        switch PNGChunks.walk(png) {
        case .notPNG:
            return .none
        case .complete(let chunks):
            found = chunks.filter { $0.type == type }
        case .broken(let chunks, let badType, _):
            found = chunks.filter { $0.type == type }
            // The history chunk itself runs off the end: the file was cut short inside it.
            if found.isEmpty, badType == type {
                return .rejected("the history chunk is cut short (the file is truncated)")
            }
        }
        guard let chunk = found.first else { return .none }
        guard found.count == 1 else { return .rejected("the file holds more than one history chunk") }
        guard chunk.length <= maxChunkLength else {
            return .rejected("the history chunk is too large (\(chunk.length) bytes, the limit is \(maxChunkLength))")
        }
        guard PNGChunks.crcMatches(chunk, in: png) else {
            return .rejected("the history chunk is damaged (checksum mismatch)")
        }
        var input = ByteReader(Array(png[chunk.dataStart..<(chunk.dataStart + chunk.length)]))
        guard let version = input.byte() else { return .rejected("the history chunk is empty") }
        guard version == DocumentArchive.formatVersion else {
            if version > DocumentArchive.formatVersion {
                return .rejected("the history was written by a newer SwiftPaint (format \(version))")
            }
            return .rejected("the history is in an unknown format (\(version))")
        }
        guard let declared = input.uint64() else { return .rejected("the history chunk is cut short") }
        let compressed = input.take(input.remaining) ?? []
        guard declared <= UInt64(maxUncompressedSize) else {
            return .rejected(
                "the history is too large (it declares \(declared) bytes, the limit is \(maxUncompressedSize))")
        }
        guard declared <= UInt64(compressed.count) * UInt64(maxCompressionRatio) else {
            return .rejected(
                "the history is too large for its compressed size (\(declared) bytes from \(compressed.count))")
        }
        let inflated = Zlib.inflate(compressed, expected: Int(declared))
        switch inflated.result {
        case .ok: break
        case .tooLong: return .rejected("the history is too large (it decompresses to more than it declares)")
        case .tooShort: return .rejected("the history chunk is damaged (it decompresses to less than it declares)")
        case .damaged: return .rejected("the history chunk is damaged (the compressed data is invalid)")
        }
        switch DocumentArchive.decodePayload(inflated.bytes ?? []) {
        case .success(let archive): return .archive(archive)
        case .failure(let problem): return .rejected("the history chunk is damaged (\(problem.reason))")
        }
    }
}

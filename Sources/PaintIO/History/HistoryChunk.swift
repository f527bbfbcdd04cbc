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
/// The chunk data is a `SealedArchive`, the same bytes a history store entry carries.
///
/// The chunk sits just before IEND, after all IDAT.
public enum HistoryChunk {
    /// The chunk type, `spHS`.
    public static let type: [UInt8] = Array("spHS".utf8)

    /// The largest history chunk data accepted, on reading and writing.
    public static let maxChunkLength = SealedArchive.maxLength
    /// The largest uncompressed archive accepted.
    public static let maxUncompressedSize = SealedArchive.maxUncompressedSize
    /// The largest ratio of uncompressed to compressed size accepted.
    public static let maxCompressionRatio = SealedArchive.maxCompressionRatio

    /// What a PNG said about its history.
    public enum ExtractResult: Sendable, Equatable {
        /// The PNG carries no history chunk.
        case none
        /// The history, read and checked as far as bytes go (it is still to be replayed and
        /// compared with the picture before it is trusted).
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
        let data: [UInt8]
        do {
            data = try SealedArchive.seal(archive)
        } catch {
            throw .archiveTooLarge(error.reason)
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

    /// Whether `png` has a history chunk at all (its chunks' lengths and types only: no
    /// checksum, no decompression), to tell a picture with a history at once and read it later.
    public static func isPresent(in png: [UInt8]) -> Bool {
        switch PNGChunks.walk(png) {
        case .notPNG: return false
        case .complete(let chunks): return chunks.contains { $0.type == type }
        case .broken(let chunks, let badType, _): return badType == type || chunks.contains { $0.type == type }
        }
    }

    /// The history stored in `png`, if any. Never traps on any input: every length is checked
    /// before it is used, the CRC is verified, unknown versions are refused, decompression
    /// is bounded by the declared size (itself bounded), and a log over its replay budget
    /// (`limits`) is refused while it is decoded.
    public static func extract(from png: [UInt8], limits: ReplayBudget.Limits = .default) -> ExtractResult {
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
        switch SealedArchive.open(Array(png[chunk.dataStart..<(chunk.dataStart + chunk.length)]), limits: limits) {
        case .success(let archive): return .archive(archive)
        case .failure(.refused(let sentence)): return .rejected(sentence)
        case .failure(.damaged(let reason)): return .rejected("the history chunk is damaged (\(reason))")
        }
    }
}

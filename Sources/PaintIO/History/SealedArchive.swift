import PaintCore

/// A `DocumentArchive` compressed and versioned: the bytes the PNG history chunk carries as its
/// data and a history store entry carries as its body. One encoder and one bounded decoder serve
/// both, so an entry read from the store is checked exactly like a chunk read from a stranger's
/// file.
///
/// Layout:
///
///   version             UInt8 (= DocumentArchive.formatVersion), outside the compression so a
///                       future format may change everything after it, compression included
///   uncompressed size   UInt64, little-endian
///   zlib stream         compress2 (level 6) of the archive payload (see DocumentArchive)
enum SealedArchive {
    /// The most sealed bytes accepted, on reading and writing.
    static let maxLength = 256 << 20
    /// The largest uncompressed archive accepted.
    static let maxUncompressedSize = 512 << 20
    /// The largest ratio of uncompressed to compressed size accepted: a little under deflate's
    /// own bound (`DeflateBound`, 1032:1, reached only on a run of one byte), which a real
    /// operation log is nowhere near.
    static let maxCompressionRatio = 1000

    /// The sealed bytes of `archive`; fails when it would be refused on reading.
    static func seal(_ archive: DocumentArchive) throws(DocumentArchive.PayloadProblem) -> [UInt8] {
        guard let payload = archive.payload() else {
            throw DocumentArchive.PayloadProblem("a field of the history does not fit its 32-bit size")
        }
        guard payload.count <= maxUncompressedSize else {
            throw DocumentArchive.PayloadProblem(
                "the history is \(payload.count) bytes, more than \(maxUncompressedSize)")
        }
        guard let compressed = Zlib.compress(payload, level: 6) else {
            throw DocumentArchive.PayloadProblem("zlib could not compress the history")
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
        guard data.count <= maxLength, payload.count <= compressed.count * maxCompressionRatio else {
            throw DocumentArchive.PayloadProblem("the compressed history would be refused when read back")
        }
        return data
    }

    /// What a reader makes of sealed bytes it cannot use.
    enum Refusal: Error, Equatable {
        /// The bytes are damaged or inconsistent; the reason is in words.
        case damaged(String)
        /// The bytes are well-formed as far as they go but cannot be used (too large, an
        /// unknown version); the whole sentence is in words.
        case refused(String)
    }

    /// Opens sealed bytes. Never traps on any input: unknown versions are refused, the declared
    /// size is bounded (absolutely and by the compression ratio) before anything is allocated,
    /// decompression never writes past the declared size, and a log over its replay budget
    /// (`limits`) is refused while it is decoded, before a stroke's points are allocated.
    static func open(_ data: [UInt8], limits: ReplayBudget.Limits = .default) -> Result<DocumentArchive, Refusal> {
        guard data.count <= maxLength else {
            return .failure(.refused("the history is too large (\(data.count) bytes, the limit is \(maxLength))"))
        }
        var input = ByteReader(data)
        guard let version = input.byte() else { return .failure(.damaged("it is empty")) }
        guard version == DocumentArchive.formatVersion else {
            if version > DocumentArchive.formatVersion {
                return .failure(.refused("the history was written by a newer SwiftPaint (format \(version))"))
            }
            return .failure(.refused("the history is in an unknown format (\(version))"))
        }
        guard let declared = input.uint64() else { return .failure(.damaged("it is cut short")) }
        let compressed = input.take(input.remaining) ?? []
        guard declared <= UInt64(maxUncompressedSize) else {
            return .failure(
                .refused(
                    "the history is too large (it declares \(declared) bytes, the limit is \(maxUncompressedSize))"))
        }
        guard declared <= UInt64(compressed.count) * UInt64(maxCompressionRatio) else {
            return .failure(
                .refused(
                    "the history is too large for its compressed size (\(declared) bytes from \(compressed.count))"))
        }
        let inflated = Zlib.inflate(compressed, expected: Int(declared))
        switch inflated.result {
        case .ok: break
        case .tooLong: return .failure(.refused("the history is too large (it decompresses to more than it declares)"))
        case .tooShort: return .failure(.damaged("it decompresses to less than it declares"))
        case .damaged: return .failure(.damaged("the compressed data is invalid"))
        }
        switch DocumentArchive.decodePayload(inflated.bytes ?? [], limits: limits) {
        case .success(let archive): return .success(archive)
        case .failure(let problem) where problem.overrun != nil: return .failure(.refused(problem.reason))
        case .failure(let problem): return .failure(.damaged(problem.reason))
        }
    }
}

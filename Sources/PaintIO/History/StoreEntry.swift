import PaintCore

/// The bytes of one history store entry file.
///
/// An entry is read back as warily as a file from a stranger: a disk error, a crash of another
/// program or a hand edit may have changed it. So it names its own key (an entry copied or
/// renamed onto another key's name is refused), is covered by a CRC, and carries the archive as
/// a `SealedArchive`, opened by the same bounded decoder as the PNG history chunk.
///
/// It also names the picture that was encoded (before a lossy format such as JPEG changed its
/// pixels; for PNG it is the key itself), which is what replaying the archive must give.
///
///   magic        8 bytes  0x89 "SPH" CR LF 0x1A LF (binary, and damaged by any text-mode copy)
///   version      UInt8    (= formatVersion)
///   key          32 bytes the SHA-256 the entry is named by (`HistoryKey` of the file's pixels)
///   picture      32 bytes the `HistoryKey` of the picture that was encoded into the file
///   body length  UInt32   little-endian
///   body         a SealedArchive
///   crc          UInt32   little-endian, zlib's CRC-32 of every byte before it
enum StoreEntry {
    static let magic: [UInt8] = [0x89, 0x53, 0x50, 0x48, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The version of the entry layout written by `encode`.
    static let formatVersion: UInt8 = 1
    /// Bytes before the body.
    static let headerLength = 8 + 1 + 32 + 32 + 4
    /// The largest entry file accepted: the largest sealed archive plus the frame.
    static let maxLength = headerLength + SealedArchive.maxLength + 4

    /// The entry file for `sealed` (a SealedArchive) under `key`, whose replay gives `picture`.
    static func encode(key: HistoryKey, picture: HistoryKey, sealed: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.append(magic)
        out.byte(formatVersion)
        out.append(key.digest)
        out.append(picture.digest)
        out.uint32(UInt32(truncatingIfNeeded: sealed.count))
        out.append(sealed)
        out.uint32(Zlib.crc32(out.bytes))
        return out.bytes
    }

    /// The archive in entry file `bytes`, which must be the entry of `key`. Every length is
    /// checked against the bytes there are before it is used.
    static func decode(_ bytes: [UInt8], key: HistoryKey) -> HistoryStore.Found {
        guard bytes.count >= headerLength + 4, bytes.prefix(magic.count).elementsEqual(magic) else {
            return .rejected("its entry in the history store is not a history entry")
        }
        guard bytes.count <= maxLength else {
            return .rejected("its entry in the history store is too large (\(bytes.count) bytes)")
        }
        let covered = bytes.count - 4
        var stored: UInt32 = 0
        for i in 0..<4 { stored |= UInt32(bytes[covered + i]) << UInt32(8 * i) }
        guard bytes.withUnsafeBytes({ Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0.prefix(covered))) }) == stored
        else {
            return .rejected("its entry in the history store is damaged (checksum mismatch)")
        }
        var input = ByteReader(bytes)
        _ = input.take(magic.count)
        guard let version = input.byte(), version == formatVersion else {
            return .rejected("its entry in the history store was written by another SwiftPaint version")
        }
        guard let digest = input.take(32), digest == key.digest else {
            return .rejected("its entry in the history store belongs to another picture")
        }
        guard let pictureDigest = input.take(32), let picture = HistoryKey(digest: pictureDigest) else {
            return .rejected("its entry in the history store is damaged (cut short)")
        }
        guard let length = input.uint32(), Int(length) == input.remaining - 4, let sealed = input.take(Int(length))
        else {
            return .rejected("its entry in the history store is damaged (wrong length)")
        }
        switch SealedArchive.open(sealed) {
        case .success(let archive): return .entry(archive: archive, picture: picture)
        case .failure(.refused(let sentence)): return .rejected(sentence)
        case .failure(.damaged(let reason)): return .rejected("its entry in the history store is damaged (\(reason))")
        }
    }
}

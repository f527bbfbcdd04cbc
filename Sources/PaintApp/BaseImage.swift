import PaintIO

/// The picture a document's history starts from, as the bytes of a picture file in any format
/// SwiftPaint opens (the opened file's own bytes): what its crash journal starts from and a
/// save keeps with the history.
///
/// Held in memory until the document's crash journal holds them (its header, synced when it is
/// made); from then on only there, read back when a save keeps the history or a journal starts
/// again, so a 4K photo's 5 to 25 MB are not kept for the whole session.
public enum BaseImage: Sendable {
    /// In memory.
    case bytes([UInt8])
    /// In the header of the document's journal (`JournalWriter.releaseBaseImage`).
    case journal(JournalWriter)

    /// The bytes; nil when the journal cannot give them back (closed, or a read error, or
    /// damage its CRC shows): the caller then keeps no history rather than a wrong one.
    public func read() -> [UInt8]? {
        switch self {
        case .bytes(let bytes): return bytes
        case .journal(let writer): return writer.readBaseImage()
        }
    }

    /// Whether the bytes are held in memory.
    public var isInMemory: Bool {
        if case .bytes = self { return true }
        return false
    }
}

import PaintIO

/// The picture a document's history starts from, as the bytes of a picture file in any format
/// SwiftPaint opens (the opened file's own bytes): what its crash journal starts from and a
/// save keeps with the history.
///
/// An opened file's bytes stay in that file (kept open, `PictureFile`) until the document's
/// crash journal holds them (copied into its header and synced when it is made, checked against
/// the CRC the decoder read); other bytes (a saved history's starting picture) are held in
/// memory until then. From then on they are only in the journal, read back when a save keeps
/// the history or a journal starts again, so a 4K photo's 5 to 25 MB are never kept in memory.
public enum BaseImage: Sendable {
    /// In memory.
    case bytes([UInt8])
    /// In the picture file they were decoded from, read back only while it still holds them.
    case file(PictureFile)
    /// In the header of the document's journal (`JournalWriter.releaseBaseImage`).
    case journal(JournalWriter)

    /// The bytes; nil when the journal cannot give them back (closed, or a read error, or
    /// damage its CRC shows) or the file no longer holds them: the caller then keeps no history rather than a wrong one.
    public func read() -> [UInt8]? {
        switch self {
        case .bytes(let bytes): return bytes
        case .file(let file): return file.read()
        case .journal(let writer): return writer.readBaseImage()
        }
    }

    /// Whether the bytes are held in memory.
    public var isInMemory: Bool {
        if case .bytes = self { return true }
        return false
    }
}

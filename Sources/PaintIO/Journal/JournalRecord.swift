import PaintCore

/// One record of a crash journal after its header: a committed change of the picture, or the
/// mark of a save.
///
/// The save marker belongs to the journal, not to the picture: it says which step is on disk
/// and where, so a journal that ends with one holds nothing unsaved. Replay skips it.
public enum JournalRecord: Equatable, Sendable {
    /// A change, replayed onto the picture.
    case operation(Operation)
    /// The document was saved here, to this path, which then held `version` (nil in journals
    /// written before it was kept): a restored drawing is saved over that file without asking
    /// only while it is still that version. A save is written while drawing goes on: the file
    /// holds the picture as it was before the last `drawnDuring` changes (recorded while it was
    /// written), which stay unsaved.
    case saved(path: String, version: FileVersion? = nil, drawnDuring: Int = 0)

    /// The first byte of a save marker. It sits among the operations' tags (which never use
    /// it) because it once was one, so journals written before read the same.
    static let savedTag: UInt8 = 5

    /// The record's bytes: an operation as `Operation.encoded()`; a save as its tag, the path's
    /// UTF-8 length (UInt32 LE) and the path, then the file's version (`FileVersion`'s 40
    /// bytes) when known, then `drawnDuring` (UInt32 LE) when it is not 0 (so a marker of a
    /// save nothing was drawn during reads the same in builds before it was kept).
    public func encoded() -> [UInt8] {
        switch self {
        case .operation(let operation):
            return operation.encoded()
        case .saved(let path, let version, let drawnDuring):
            var out = ByteWriter()
            out.byte(Self.savedTag)
            let utf8 = Array(path.utf8)
            out.uint32(UInt32(utf8.count))
            out.append(utf8)
            version?.encode(into: &out)
            if drawnDuring > 0 { out.uint32(UInt32(clamping: drawnDuring)) }
            return out.bytes
        }
    }

    /// Decodes `encoded()`; nil for anything malformed.
    public init?(decoding bytes: [UInt8]) {
        guard bytes.first == Self.savedTag else {
            guard let operation = Operation(decoding: bytes) else { return nil }
            self = .operation(operation)
            return
        }
        var input = ByteReader(bytes)
        _ = input.byte()
        guard let count = input.uint32(), let path = input.take(Int(count)) else { return nil }
        var version: FileVersion?
        // What follows the path tells itself by its length: a version, a count, or both.
        if input.remaining >= FileVersion.encodedCount {
            guard let read = FileVersion.decode(from: &input) else { return nil }
            version = read
        }
        var drawnDuring = 0
        if !input.isAtEnd {
            guard input.remaining == 4, let count = input.uint32(), count > 0 else { return nil }
            drawnDuring = Int(count)
        }
        self = .saved(path: String(decoding: path, as: UTF8.self), version: version, drawnDuring: drawnDuring)
    }
}

extension [JournalRecord] {
    /// The changes, without the save markers.
    public var operations: [Operation] {
        compactMap {
            if case .operation(let operation) = $0 { return operation }
            return nil
        }
    }

    /// Whether some change follows the last save (or there is a change and no save, or changes
    /// were drawn while the last save was written): work that is in no saved file.
    public var hasUnsavedWork: Bool {
        guard let last else { return false }
        if case .saved(_, _, let drawnDuring) = last { return drawnDuring > 0 }
        return true
    }
}

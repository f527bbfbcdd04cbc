import PaintCore

/// A `PictureDamage` in a journal's header (`JournalHeader.sourceDamage`): the mark of a picture
/// read from a damaged source that the journal does not hold (a Paste as New Picture of a cut
/// PNG), so a restored drawing is still saved as a copy (`untitled (recovered).png`).
///
///   kind          UInt8: 0 damaged, 1 cut short
///   path          UInt32 byte count + UTF-8: the source as the message names it
///   reason        UInt32 byte count + UTF-8
///   rowsRead      UInt32
///   height        UInt32 (rowsRead at most height)
///   bits          UInt8: bit 0 inOrder, bit 1 swapsAxes, bit 2 mirrorsX, bit 3 mirrorsY
extension PictureDamage {
    /// The most UTF-8 bytes of the path and of the reason read back: a message's words.
    static let mostTextBytes = 4096

    /// Writes the damage as above.
    func encode(into out: inout ByteWriter) {
        let (cut, path, reason): (Bool, String, String)
        switch error {
        case .cutShort(let p, let r): (cut, path, reason) = (true, p, r)
        case .damaged(let p, let r): (cut, path, reason) = (false, p, r)
        default: (cut, path, reason) = (false, error.path, error.reason)
        }
        out.byte(cut ? 1 : 0)
        out.string(Self.clipped(path))
        out.string(Self.clipped(reason))
        out.uint32(UInt32(clamping: rowsRead))
        out.uint32(UInt32(clamping: height))
        let turn = orientation
        out.byte(
            (inOrder ? 1 : 0) | (turn.swapsAxes ? 2 : 0) | (turn.mirrorsX ? 4 : 0) | (turn.mirrorsY ? 8 : 0))
    }

    /// `text` cut to `mostTextBytes` at a character's end.
    private static func clipped(_ text: String) -> String {
        var text = text
        while text.utf8.count > mostTextBytes { text.removeLast() }
        return text
    }

    /// Reads what `encode` wrote; nil when it is cut short or holds values no damage has.
    static func decode(from input: inout ByteReader) -> PictureDamage? {
        guard let kind = input.byte(), kind <= 1, let path = input.string(maxBytes: mostTextBytes),
            let reason = input.string(maxBytes: mostTextBytes), let rows = input.uint32(), let height = input.uint32(),
            rows <= height, let bits = input.byte(), bits & ~15 == 0
        else { return nil }
        return PictureDamage(
            error: kind == 1 ? .cutShort(path: path, reason: reason) : .damaged(path: path, reason: reason),
            rowsRead: Int(rows), height: Int(height), inOrder: bits & 1 != 0,
            orientation: Orientation(swapsAxes: bits & 2 != 0, mirrorsX: bits & 4 != 0, mirrorsY: bits & 8 != 0))
    }
}

import PaintCore

/// Where a picture ends in its file, and the CRC-32 of the file's bytes up to there, found as
/// the file's chunks pass by on their way to a streamed decoder (`PictureStream.observe`): what
/// the window's opening keeps of a file (`PictureFile`), so junk after a PNG's IEND, a JPEG's
/// EOI, a GIF's first image or a BMP's rows is neither read back for a history nor copied into
/// a crash journal, nor held when a save keeps the history.
///
/// The walk is `PictureExtent`'s, as `ImageFile.readPicture` reads a file; only the bytes it has
/// not passed yet are held (the file's first bytes, and a chunk: `PictureExtent.dropPassed`).
/// A file whose walk would skip something (metadata past the limit, a history chunk over its
/// own) is `trimmed`: its bytes up to the picture's end are not the ones to keep, and the
/// caller reads those as `readPicture` does. A WebP is not walked (its picture is decoded
/// from memory, from the bytes `readPicture` gives).
final class PictureEnd {
    private var extent: PictureExtent
    /// The bytes the walk may still look at: the file's first `head`, then from its place on.
    private var held: [UInt8] = []
    /// How many bytes were dropped from `held` (the walk's offsets count without them).
    private var dropped = 0
    /// How many bytes went by.
    private var seen = 0
    private var looking = true
    /// Where the picture ends in the file, once known.
    private(set) var end: Int?
    /// CRC-32 of the bytes up to `end`, once the chunk holding it went by.
    private var endCRC: UInt32?
    /// The walk would skip bytes before the picture's end (see the type's comment).
    private(set) var trimmed = false
    private var isWebP = false

    /// The file's first bytes, kept for the walk's header reads (a GIF's screen size, a
    /// format's signature).
    static let head = 64

    init(limits: ImageLimits, fileSize: Int) {
        extent = PictureExtent(limits: limits, fileSize: fileSize, skipsUnneeded: true)
    }

    /// Takes the next `chunk` of the file; `crcBefore` is the CRC-32 of the file's bytes before
    /// it (`PictureStream.crcBefore`). The picture's CRC goes on from there over the chunk it
    /// ends in, and only that one: the stream CRCs the file's bytes, not a second pass here.
    func see(_ chunk: UnsafeRawBufferPointer, crcBefore: UInt32) {
        let before = seen
        if looking {
            held.append(contentsOf: chunk)
            walk(before: before)
        }
        // The end is never in bytes already passed (`walk`).
        if let end, endCRC == nil, end <= before + chunk.count {
            endCRC = Zlib.crc32(UnsafeRawBufferPointer(rebasing: chunk[0..<(end - before)]), continuing: crcBefore)
        }
        seen += chunk.count
    }

    /// What of a file to keep as the bytes its picture was decoded from.
    enum Kept: Equatable {
        /// Its first `count` bytes, whose CRC-32 is `crc`: the picture's, to its end.
        case prefix(count: Int, crc: UInt32)
        /// The bytes `ImageFile.readPicture` gives: a WebP, or a file whose walk skips
        /// something before the picture's end (`trimmed`).
        case picture
        /// The whole file: where the picture ends is not known (a file the walk leaves to the
        /// decoder, a picture said to end past the file's end).
        case whole
    }

    /// What to keep of the file once all its `total` bytes went by.
    func kept(ofFile total: Int) -> Kept {
        if trimmed || isWebP { return .picture }
        guard let end, end <= total, seen == total, let endCRC else { return .whole }
        return .prefix(count: end, crc: endCRC)
    }

    private func walk(before: Int) {
        while looking {
            if held.count >= 12 && ImageFormat.sniff(held) == .webp {
                isWebP = true
                looking = false
                break
            }
            switch extent.look(at: held, atEnd: false) {
            case .end(let at):
                looking = false
                // An end in bytes already passed (and CRC'd) is not taken: the whole file is kept.
                if dropped + at >= before { end = dropped + at }
            case .whole, .notAPicture:
                looking = false
            case .skip:
                looking = false
                trimmed = true
            case .unknown:
                let n = extent.dropPassed(after: Self.head, of: held.count)
                if n > 0 {
                    held.removeSubrange(Self.head..<(Self.head + n))
                    dropped += n
                }
                return
            }
        }
        held = []
    }
}

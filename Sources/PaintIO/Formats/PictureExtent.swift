import PaintCore

/// How far into a picture file the part SwiftPaint decodes goes, told from the file's first
/// bytes as they are read (`ImageFile.readPicture`, the window's opening of a WebP): reading
/// stops there, so what follows the picture (junk appended, a sparse 900 MB tail, an
/// animation's later frames) is never read into memory, and a file in no known format is
/// refused after its first bytes instead of after all of them.
///
/// A PNG ends with its IEND chunk (the chunks' lengths lead there; one whose IHDR is over the
/// limits after that chunk, one whose `IDAT` chunks claim more than its size can need,
/// `mostPNGBytes`, after that chunk's header); a JPEG at its EOI marker
/// (segments by their lengths, then the compressed data to the next marker); a GIF after its
/// first image's data (only the first frame is shown); a BMP after its rows (run-length codes
/// up to their end-of-picture code); a WebP after its first picture's chunk (`VP8 `, `VP8L` or
/// the first `ANMF` frame), where its RIFF header is then made to end (`cutWebP`), or after the
/// header of a chunk claiming more than its picture's size can need (`overclaim`). A picture
/// whose header claims more than `limits` allow ends right after that header, which its
/// decoder then refuses as too large before anything is allocated for it. Whatever is not
/// understood is read whole (to `ImageFile.maxFileBytes`) and left to the decoder to judge.
struct PictureExtent {
    /// What the bytes read so far tell.
    enum Answer: Equatable {
        /// The picture ends at this byte (perhaps past those read so far: read up to it).
        case end(Int)
        /// Not yet known: read more.
        case unknown
        /// Read the whole file.
        case whole
        /// No picture format starts so.
        case notAPicture
        /// The bytes from `from` up to `to` (perhaps past those read so far) are not wanted:
        /// drop those read, pass over the rest in the file without reading them into memory,
        /// and look again. Offsets given after a skip count only the bytes kept. Given only when
        /// `skipsUnneeded`.
        case skip(from: Int, to: Int)
    }

    /// The sizes a picture may have: one claiming more ends at its header.
    let limits: ImageLimits
    /// The file's size (a BMP's header is checked against it).
    let fileSize: Int

    /// Where the walk goes on from (a PNG or WebP chunk, a JPEG marker or compressed byte, a
    /// GIF block or sub-block, a BMP run-length code): each look goes on from there, so a file
    /// of many small pieces costs one pass.
    var at = -1
    /// JPEG: inside the compressed data after a start of scan.
    var inScan = false
    /// JPEG: its frame is over the limits (it ends after the next scan's header).
    var overLimits = false
    /// GIF: inside a chain of sub-blocks; of the first image when `inImage`.
    var inSubBlocks = false
    var inImage = false
    /// BMP: the run-length codes' kind (8 or 4 bits), once the header was read.
    var runLength = 0
    /// BMP: where the PNG or JPEG it wraps starts (-1: none), and whether its signature was
    /// read (the walk then goes on as in such a file, from `at`).
    var wrapped = -1
    var inWrapped = false
    /// WebP: the canvas its VP8X chunk gives (0 x 0 before one), which an alpha chunk is for.
    var canvas = (width: 0, height: 0)
    /// WebP or PNG: a picture chunk (PNG: its `IDAT` chunks so far) claiming more bytes than
    /// its picture's size can need, and that size: it ends right after that chunk's header, and
    /// its decoder refuses it (`webpEnd`, `pngEnd`).
    var overclaim: (bytes: Int, width: Int, height: Int)?
    /// WebP: a chunk of a fixed size (`ANIM`) claiming far more than that, and its claim: it
    /// ends right after that chunk's header, and its decoder refuses it.
    var overlong: (type: String, bytes: Int)?
    /// Whether what the decoder does not need before the picture's end is skipped (`.skip`)
    /// rather than walked over and read: set by a reader that reads the file as it looks, so a
    /// metadata chunk claiming 900 MB is passed over, not read up to its claim. A WebP's chunks
    /// the decoder does not need (`EXIF`, `XMP `, an `ICCP` over `limits.maxMetadataBytes`,
    /// any other kind); a PNG's ancillary chunks, a JPEG's APPn and COM segments and a GIF's
    /// extensions but its graphic control, each once those kept add up to more than
    /// `limits.maxMetadataBytes` (the decoders keep no more than that), a PNG's history
    /// chunk (`spHS`) once over its own limit (`HistoryChunk.maxChunkLength`).
    var skipsUnneeded = false
    /// WebP: how many bytes were skipped so far (the RIFF size counts them, offsets do not).
    var skipped = 0
    /// PNG, JPEG, GIF: how many bytes of metadata were kept so far (`skipsUnneeded`): those the
    /// picture's decode reads, and the others (`keepMetadata`).
    var pictureMetadataKept = 0
    var metadataKept = 0
    /// GIF: inside the sub-blocks of an extension that is metadata (not a graphic control).
    var inMetadata = false
    /// PNG: the size its header gives, and how many bytes its `IDAT` chunks claimed so far.
    var pngSize = (width: 0, height: 0)
    var pngData = 0

    init(limits: ImageLimits = .default, fileSize: Int = Int.max, skipsUnneeded: Bool = false) {
        self.limits = limits
        self.fileSize = fileSize
        self.skipsUnneeded = skipsUnneeded
    }

    /// Looks at `bytes`, the file's first bytes (all of it when `atEnd`).
    mutating func look(at bytes: [UInt8], atEnd: Bool) -> Answer {
        guard let format = ImageFormat.sniff(bytes) else {
            // A signature takes up to 12 bytes and BMP's test 26; a file cut inside the PNG
            // signature is a PNG cut short, which its decoder says.
            if !atEnd && bytes.count < 26 { return .unknown }
            if bytes.count < PNGCodec.signature.count && PNGCodec.signature.starts(with: bytes) { return .whole }
            return .notAPicture
        }
        let answer: Answer
        switch format {
        case .png: answer = pngEnd(bytes)
        case .webp: answer = webpEnd(bytes)
        case .jpeg: answer = jpegEnd(bytes)
        case .gif: answer = gifEnd(bytes)
        case .bmp: answer = bmpEnd(bytes, atEnd: atEnd)
        }
        // Cut off where the file ends: the decoder says it is cut short.
        return answer == .unknown && atEnd ? .whole : answer
    }

    mutating func pngEnd(_ bytes: [UInt8]) -> Answer {
        if at < 0 { at = 8 }
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            // Over PNG's own limit: the decoder says the file is damaged, from this header.
            guard length <= Int(Int32.max) else { return .end(at + 8) }
            let next = at + 12 + length
            // An ancillary chunk (a lowercase first letter) the decoder would not keep.
            if skipsUnneeded && bytes[at + 4] & 0x20 != 0 {
                let type = bytes[(at + 4)..<(at + 8)]
                if type.elementsEqual(HistoryChunk.type) {
                    if length > HistoryChunk.maxChunkLength { return .skip(from: at, to: next) }
                } else if !keepMetadata(length, forPicture: PNGChunks.colorChunks.contains { type.elementsEqual($0) }) {
                    return .skip(from: at, to: next)
                }
            }
            if bytes[(at + 4)..<(at + 8)].elementsEqual("IEND".utf8) { return .end(next) }
            // A header claiming more than the limits: its decoder refuses it from the header alone.
            if bytes[(at + 4)..<(at + 8)].elementsEqual("IHDR".utf8) && length >= 8 {
                guard at + 16 <= bytes.count else { return .unknown }
                let width = bytes[(at + 8)..<(at + 12)].reduce(0) { $0 << 8 | Int($1) }
                let height = bytes[(at + 12)..<(at + 16)].reduce(0) { $0 << 8 | Int($1) }
                if !limits.allows(width: width, height: height) { return .end(next) }
                pngSize = (width, height)
            }
            // Picture data claiming more than its picture can need: refused after its header.
            if bytes[(at + 4)..<(at + 8)].elementsEqual("IDAT".utf8) {
                pngData += length
                if pngData > Self.mostPNGBytes(pngSize.width, pngSize.height) {
                    overclaim = (pngData, pngSize.width, pngSize.height)
                    return .end(at + 8)
                }
            }
            at = next
        }
        return .unknown
    }

    /// For a reader that holds only what the walk still needs (`PictureEnd`): how many of the
    /// `count` bytes looked at, from `head` on, the walk has passed and will not look at again
    /// (the first `head` bytes, which a header is read from, are kept). The caller drops them;
    /// offsets the walk gives after that count without them, as after a `.skip`. None while the
    /// walk still goes back to an earlier offset (a BMP's wrapped picture).
    mutating func dropPassed(after head: Int, of count: Int) -> Int {
        guard wrapped < 0, at > head else { return 0 }
        let n = min(at, count) - head
        guard n > 0 else { return 0 }
        at -= n
        // A WebP's RIFF size counts them.
        skipped += n
        return n
    }

    /// Whether `length` bytes of metadata are kept (`skipsUnneeded`), counting them. What the
    /// decode reads for the picture (`forPicture`: a PNG's profile, gamma and transparency, a
    /// JPEG's EXIF orientation, ICC profile and colour segments) has a budget of its own, so
    /// megabytes of text or comments before it never make it be skipped.
    mutating func keepMetadata(_ length: Int, forPicture: Bool) -> Bool {
        if forPicture {
            guard pictureMetadataKept + length <= limits.maxMetadataBytes else { return false }
            pictureMetadataKept += length
        } else {
            guard metadataKept + length <= limits.maxMetadataBytes else { return false }
            metadataKept += length
        }
        return true
    }

    /// The most bytes a PNG's `IDAT` chunks may hold for a picture of `width` x `height`: 16
    /// a pixel (twice its rows at 16-bit RGBA, which deflate never grows by more than a few
    /// bytes in 16 KB), 8 a row and 1 MiB more.
    static func mostPNGBytes(_ width: Int, _ height: Int) -> Int { 16 * width * height + 8 * height + (1 << 20) }

    /// The error for picture data claiming more than its picture can need (`overclaim`), for
    /// a decoder given the bytes up to that claim's header.
    func overclaimError(name: String) -> ImageFileError? {
        guard let claim = overclaim else { return nil }
        return .damaged(
            path: name,
            reason: "its picture data claims \(claim.bytes) bytes, more than a \(claim.width) x \(claim.height)"
                + " picture can need")
    }

    /// A little-endian 32-bit number at `i`.
    static func le32(_ bytes: [UInt8], _ i: Int) -> Int {
        Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
    }
}

/// How far into a picture file its picture goes, told from the file's first bytes as they are
/// read (`ImageFile.readPicture`): reading stops there, so what follows the picture (junk
/// appended, a sparse 900 MB tail) is never read into memory, and a file in no known format is
/// refused after its first bytes instead of after all of them.
///
/// A PNG ends with its IEND chunk (the chunks' lengths lead there), a WebP where its RIFF header
/// says. JPEG, GIF and BMP are read whole: their decoders stop at the picture's end by
/// themselves, and a file's bytes are still bounded by `ImageFile.maxFileBytes`.
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
    }

    /// Where the next PNG chunk starts, once the signature was seen: each look goes on from
    /// there, so a file of many small chunks costs one pass.
    private var chunk = 8

    /// Looks at `bytes`, the file's first bytes (all of it when `atEnd`).
    mutating func look(at bytes: [UInt8], atEnd: Bool) -> Answer {
        guard let format = ImageFormat.sniff(bytes) else {
            // A signature takes up to 12 bytes and BMP's test 26; a file cut inside the PNG
            // signature is a PNG cut short, which its decoder says.
            if !atEnd && bytes.count < 26 { return .unknown }
            if bytes.count < PNGCodec.signature.count && PNGCodec.signature.starts(with: bytes) { return .whole }
            return .notAPicture
        }
        switch format {
        case .png: return pngEnd(bytes)
        case .webp:
            let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
            return .end(8 + size)
        case .jpeg, .gif, .bmp: return .whole
        }
    }

    private mutating func pngEnd(_ bytes: [UInt8]) -> Answer {
        while chunk + 8 <= bytes.count {
            let length = bytes[chunk..<(chunk + 4)].reduce(0) { $0 << 8 | Int($1) }
            // Over PNG's own limit: the decoder says the file is damaged.
            guard length <= Int(Int32.max) else { return .whole }
            let next = chunk + 12 + length
            if bytes[(chunk + 4)..<(chunk + 8)].elementsEqual("IEND".utf8) { return .end(next) }
            chunk = next
        }
        return .unknown
    }
}

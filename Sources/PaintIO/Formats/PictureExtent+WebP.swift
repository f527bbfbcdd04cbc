extension PictureExtent {
    /// A WebP's end: after its first picture's chunk (`VP8 `, `VP8L` or the first `ANMF`
    /// frame), passing over the chunks before it (`VP8X`, `ICCP`, `ANIM`, `ALPH`); within its
    /// RIFF size. A picture chunk, or an alpha chunk, claiming more bytes than its picture's
    /// width and height can need (`mostWebPBytes`) ends right after its header and is noted
    /// (`overclaim`): a 100 x 100 picture whose chunk claims 900 MB is refused after a few
    /// bytes, not read up to the claim.
    ///
    /// With `skipsUnneeded`, a chunk the decoder does not need (`EXIF`, `XMP `, an `ICCP` over
    /// the metadata limit, which the decoder ignores, a kind it does not know) is skipped
    /// (`.skip`), its claim bounded by the RIFF size and the file. A `VP8X` or `ANIM` chunk
    /// (10 and 6 bytes in the format) claiming more than `mostFixedChunkBytes` ends right after
    /// its header (`overlong`).
    mutating func webpEnd(_ bytes: [UInt8]) -> Answer {
        let riffEnd = 8 + Self.le32(bytes, 4) - skipped
        if at < 0 { at = 12 }
        while at + 8 <= bytes.count && at < riffEnd {
            let size = Self.le32(bytes, at + 4)
            // Chunks are padded to an even length.
            let next = at + 8 + size + (size & 1)
            let type = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let data = at + 8
            switch type {
            case "VP8X":
                if size > Self.mostFixedChunkBytes {
                    overlong = (type, size)
                    return .end(min(data, riffEnd))
                }
                guard data + 10 <= bytes.count else { return .unknown }
                canvas = (Self.le24(bytes, data + 4) + 1, Self.le24(bytes, data + 7) + 1)
            case "ALPH":
                // Alpha belongs to a canvas: without one the file is damaged, which libwebp says.
                guard canvas.width > 0 else { return .end(min(data, riffEnd)) }
                if size > Self.mostWebPBytes(canvas.width, canvas.height) {
                    overclaim = (size, canvas.width, canvas.height)
                    return .end(min(data, riffEnd))
                }
            case "VP8 ", "VP8L", "ANMF":
                // Enough of the chunk's data for its header (an ANMF frame's is the longest).
                let header = min(16, size)
                guard data + header <= bytes.count else { return .unknown }
                guard let (width, height) = Self.webpPictureSize(type, bytes[data..<(data + header)]) else {
                    // Not a picture's header: libwebp says what is wrong with it.
                    return .end(min(next, data + header, riffEnd))
                }
                if size > Self.mostWebPBytes(width, height) {
                    overclaim = (size, width, height)
                    return .end(min(data + header, riffEnd))
                }
                return .end(min(next, riffEnd))
            case "ANIM":
                if size > Self.mostFixedChunkBytes {
                    overlong = (type, size)
                    return .end(min(data, riffEnd))
                }
            case "ICCP" where size <= limits.maxMetadataBytes: break
            default:
                // Kept by a reader of bytes already in memory: libwebp passes over them.
                guard skipsUnneeded else { break }
                let to = min(next, riffEnd)
                skipped += to - at
                // The walk goes on from here, in the bytes kept.
                return .skip(from: at, to: to)
            }
            at = next
        }
        return at >= riffEnd ? .end(riffEnd) : .unknown
    }

    /// The most bytes a WebP chunk may hold for a picture of `width` x `height`: 64 a pixel and
    /// 1 MiB more. No encoder comes near: a lossless pixel takes at most four prefix codes of
    /// 15 bits, a lossy 16 x 16 macroblock some kilobytes at worst, and a tiny picture's code
    /// tables fit in far less than 1 MiB.
    static func mostWebPBytes(_ width: Int, _ height: Int) -> Int { 64 * width * height + (1 << 20) }

    /// The most bytes a `VP8X` or `ANIM` chunk may claim: the format gives them 10 and 6 bytes
    /// (libwebp refuses another `VP8X` size and passes over an `ANIM`'s extra bytes, which no
    /// writer adds).
    static let mostFixedChunkBytes = 1 << 12

    /// The width and height a picture chunk's header gives (`VP8 `: a key frame's start code
    /// and 14-bit sizes; `VP8L`: its signature byte and 14-bit sizes less one; `ANMF`: the
    /// frame's 24-bit sizes less one), or nil when `header` is not one.
    static func webpPictureSize(_ type: String, _ header: ArraySlice<UInt8>) -> (Int, Int)? {
        let h = Array(header)
        switch type {
        case "VP8 ":
            guard h.count >= 10, h[0] & 1 == 0, h[3] == 0x9D, h[4] == 0x01, h[5] == 0x2A else { return nil }
            return ((Int(h[6]) | Int(h[7]) << 8) & 0x3FFF, (Int(h[8]) | Int(h[9]) << 8) & 0x3FFF)
        case "VP8L":
            guard h.count >= 5, h[0] == 0x2F else { return nil }
            let bits = le32(h, 1)
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "ANMF":
            guard h.count >= 16 else { return nil }
            return (le24(h, 6) + 1, le24(h, 9) + 1)
        default: return nil
        }
    }

    /// A little-endian 24-bit number at `i`.
    static func le24(_ bytes: [UInt8], _ i: Int) -> Int {
        Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16
    }

    /// `bytes`, a WebP read up to its first picture's end (`look`), made to end there: its RIFF
    /// size says so, else libwebp takes it for a file cut short. Nothing else changes, and the
    /// first picture decodes as in the whole file.
    static func cutWebP(_ bytes: inout [UInt8]) {
        guard bytes.count >= 12, bytes.count < 8 + le32(bytes, 4) else { return }
        let size = bytes.count - 8
        for i in 0..<4 { bytes[4 + i] = UInt8(truncatingIfNeeded: size >> (8 * i)) }
    }
}

extension PictureExtent {
    /// A GIF's end as SwiftPaint reads it: after its first image's data (only the first frame
    /// is shown), or its trailer if no image comes first. Extensions and the image's data are
    /// chains of sub-blocks, each led by its length. A screen or first image over the limits
    /// ends after that image's descriptor, where the decoder refuses it.
    mutating func gifEnd(_ bytes: [UInt8]) -> Answer {
        func le16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        if at < 0 {
            guard bytes.count >= 13 else { return .unknown }
            at = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        }
        while at < bytes.count {
            if inSubBlocks {
                let size = Int(bytes[at])
                // Metadata past what is kept: the sub-blocks from here, up to the chain's end
                // or past what was read, are skipped (the chain stays whole, only shorter).
                if skipsUnneeded && inMetadata && size > 0 && metadataKept + size > limits.maxMetadataBytes {
                    var to = at
                    while to < bytes.count && bytes[to] != 0 { to += 1 + Int(bytes[to]) }
                    return .skip(from: at, to: to)
                }
                if inMetadata { metadataKept += size }
                at += 1 + size
                if size == 0 {
                    inSubBlocks = false
                    inMetadata = false
                    if inImage { return .end(at) }
                }
                continue
            }
            switch bytes[at] {
            case 0x21:  // extension: its label, then sub-blocks
                guard at + 2 <= bytes.count else { return .unknown }
                // Only a graphic control (transparency, for the first image) is used.
                inMetadata = bytes[at + 1] != 0xF9
                at += 2
                inSubBlocks = true
            case 0x2C:  // image descriptor
                guard at + 10 <= bytes.count else { return .unknown }
                let flags = bytes[at + 9]
                let over =
                    !limits.allows(width: le16(6), height: le16(8))
                    || !limits.allows(width: le16(at + 5), height: le16(at + 7))
                // The descriptor, its own colour table, the LZW code size.
                at += 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0) + 1
                if over { return .end(at) }
                inSubBlocks = true
                inImage = true
            case 0x3B:
                return .end(at + 1)
            default:
                // Neither: giflib refuses the file there.
                return .end(at + 1)
            }
        }
        return .unknown
    }
}

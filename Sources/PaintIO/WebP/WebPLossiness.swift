extension WebPCodec {
    /// Whether the WebP whose first bytes are `head` stores its picture lossy (its first image
    /// chunk is `VP8 `, alone, after VP8X/ICCP/ALPH, or inside an animation's first ANMF frame)
    /// rather than lossless (`VP8L`); nil when `head` ends before an image chunk or is no WebP.
    /// Saving such a picture again lossless would keep only its compression noise, larger.
    public static func isLossy(head: [UInt8]) -> Bool? {
        guard head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8)
        else { return nil }
        var offset = 12
        while offset + 8 <= head.count {
            let kind = String(decoding: head[offset..<offset + 4], as: UTF8.self)
            let size =
                Int(head[offset + 4]) | Int(head[offset + 5]) << 8 | Int(head[offset + 6]) << 16
                | Int(head[offset + 7]) << 24
            switch kind {
            case "VP8 ": return true
            case "VP8L": return false
            // A frame's own chunks follow its 16 bytes of position, size and timing.
            case "ANMF": offset += 8 + 16
            default: offset += 8 + size + (size & 1)
            }
        }
        return nil
    }
}

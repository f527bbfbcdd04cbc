/// A WebP file with a chunk before its picture claiming hundreds of megabytes, the file really
/// that long (sparse: the claimed bytes are a hole of zeros taking no disk): what a reader that
/// believed the claim would read into memory.
public enum HugeChunkWebP {
    /// Writes `webp` (an extended WebP: RIFF header, then `VP8X`) to `path` with a chunk of
    /// `type` claiming `claim` bytes put right after its `VP8X` chunk (or in place of its
    /// first chunk of that type, `VP8X` or `ANIM`, when it has one), its RIFF size counting
    /// it. Returns the file's size, or nil when `webp` has no `VP8X` chunk or writing failed.
    public static func write(_ webp: [UInt8], type: String, claim: Int, to path: String) -> Int? {
        func le32(_ at: Int) -> Int {
            Int(webp[at]) | Int(webp[at + 1]) << 8 | Int(webp[at + 2]) << 16 | Int(webp[at + 3]) << 24
        }
        func bytes(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        guard webp.count > 30, webp[12..<16].elementsEqual("VP8X".utf8) else { return nil }
        // Where the chunk goes, and where what follows it starts in `webp`.
        var at = 12
        var found: Int?
        while at + 8 <= webp.count {
            let size = le32(at + 4)
            if webp[at..<(at + 4)].elementsEqual(type.utf8) {
                found = at + 8 + size + (size & 1)
                break
            }
            at += 8 + size + (size & 1)
        }
        if found == nil { at = 30 }
        let after = found ?? 30
        // A fixed-size chunk keeps its own bytes at its start.
        let kept = after > at ? Array(webp[(at + 8)..<min(after, webp.count)]) : []
        let padded = claim + (claim & 1)
        let total = at + 8 + padded + (webp.count - after)
        var head = Array(webp[0..<at]) + Array(type.utf8) + bytes(claim) + kept
        head.replaceSubrange(4..<8, with: bytes(total - 8))
        let wrote = SparseFile.write([(0, head), (at + 8 + padded, Array(webp[after...]))], to: path)
        return wrote ? total : nil
    }
}

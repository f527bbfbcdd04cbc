/// The quality a JPEG was written at, on libjpeg's scale of 1 to 100, as its quantization
/// tables tell: what a save of the picture opened from it keeps, as GIMP's export and
/// ImageMagick do, rather than writing a camera's quality-97 photo again at 90.
///
/// libjpeg (and every encoder on its scale: GIMP, ImageMagick, browsers, SwiftPaint) writes
/// its standard tables scaled for the quality; the quality is the one whose scaled tables come
/// nearest the file's, by the sums of their entries, as GIMP's `jpeg_detect_quality` compares
/// them. A file written with tables of its own (some cameras) gets the nearest quality on the
/// scale.
public enum JPEGQuality {
    /// libjpeg's standard luminance table (Annex K of the JPEG standard); only its sum is used.
    static let luminance = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    /// libjpeg's standard chrominance table.
    static let chrominance =
        [
            17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
            47, 66, 99, 99, 99, 99, 99, 99,
        ] + Array(repeating: 99, count: 32)

    /// The sum of `table`'s entries as libjpeg scales them for `quality` (each at least 1 and
    /// at most 255, for baseline JPEG).
    static func scaledSum(_ table: [Int], quality: Int) -> Int {
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return table.reduce(0) { $0 + min(max(($1 * scale + 50) / 100, 1), 255) }
    }

    /// The quality of the JPEG whose file starts with `head` (its header up to the first scan
    /// must be in it); nil when it holds no luminance table (table 0) before its first scan.
    public static func estimate(head: [UInt8]) -> Int? {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        // Sums of tables 0 (luminance) and 1 (chrominance), the later of two with one id.
        var sums: [Int: Int] = [:]
        for segment in JPEGSegments(head) where segment.marker == 0xDB {
            var at = segment.body.startIndex
            while at < segment.body.endIndex {
                let id = Int(segment.body[at] & 0x0F)
                let wide = segment.body[at] >> 4 != 0
                let count = wide ? 128 : 64
                guard segment.body.endIndex - (at + 1) >= count else { break }
                var sum = 0
                for i in 0..<64 {
                    let p = at + 1 + (wide ? 2 * i : i)
                    sum += wide ? Int(segment.body[p]) << 8 | Int(segment.body[p + 1]) : Int(segment.body[p])
                }
                sums[id] = sum
                at += 1 + count
            }
        }
        guard let luma = sums[0] else { return nil }
        let chroma = sums[1]
        var best = (quality: 100, distance: Int.max)
        // From the top, so a tie goes to the higher quality: a save never loses more.
        for quality in stride(from: 100, through: 1, by: -1) {
            var distance = abs(luma - scaledSum(luminance, quality: quality))
            if let chroma { distance += abs(chroma - scaledSum(chrominance, quality: quality)) }
            if distance < best.distance { best = (quality, distance) }
        }
        return best.quality
    }
}

/// How finely a JPEG stores its color against its brightness: the luma's sampling factors over
/// the two chroma components' 1 × 1, as its frame header (SOF) says. 4:4:4 keeps every pixel's
/// color, 4:2:2 halves it across, 4:2:0 both ways (every camera and phone writes 4:2:0 or
/// 4:2:2). A save of a picture opened from a JPEG writes its file's own sampling, as GIMP's
/// "use quality settings from original image" keeps it: 4:4:4 for a camera's 4:2:0 photo made
/// a 4K file a third larger for color the photo never held.
public struct JPEGSampling: Equatable, Sendable {
    /// The luma's horizontal factor: how many luma samples across each chroma sample spans.
    public let horizontal: Int
    /// The luma's vertical factor.
    public let vertical: Int

    /// Every pixel's color (4:4:4).
    public static let full = JPEGSampling(checked: (1, 1))
    /// The color halved both ways (4:2:0), libjpeg's default.
    public static let halved = JPEGSampling(checked: (2, 2))

    /// Factors libjpeg encodes: 1 to 4 each, and at most 10 blocks in a unit (the luma's
    /// `horizontal * vertical` and one for each chroma component).
    public init?(horizontal: Int, vertical: Int) {
        guard (1...4).contains(horizontal), (1...4).contains(vertical), horizontal * vertical + 2 <= 10 else {
            return nil
        }
        self.init(checked: (horizontal, vertical))
    }

    /// Factors known to be valid.
    private init(checked factors: (Int, Int)) {
        (horizontal, vertical) = factors
    }

    /// The usual name: "4:4:4", "4:2:2", "4:2:0", "4:4:0", "4:1:1", else "2x2,1x1,1x1" as
    /// cjpeg's `-sample` writes factors.
    public var name: String {
        switch (horizontal, vertical) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        default: return "\(horizontal)x\(vertical),1x1,1x1"
        }
    }

    /// The sampling of the JPEG whose file starts with `head` (its header up to the first scan
    /// must be in it, as for `JPEGQuality.estimate`): nil for a gray or CMYK file, for one
    /// whose chroma is not 1 × 1 (a sampling SwiftPaint would not write the same), and when
    /// the header holds no whole frame header.
    public static func read(head: [UInt8]) -> JPEGSampling? {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        for segment in JPEGSegments(head) where isFrameHeader(segment.marker) {
            // Precision, height, width, the component count, then 3 bytes a component: its id,
            // its factors (horizontal in the high half), its table.
            let body = segment.body
            guard segment.isWhole, body.count >= 6, body[body.startIndex + 5] == 3,
                body.count >= 6 + 9
            else { return nil }
            let factors = (0..<3).map { body[body.startIndex + 6 + 3 * $0 + 1] }
            guard factors[1] == 0x11, factors[2] == 0x11 else { return nil }
            return JPEGSampling(horizontal: Int(factors[0] >> 4), vertical: Int(factors[0] & 0x0F))
        }
        return nil
    }

    /// Whether `marker` starts a frame: SOF0-3, 5-7, 9-11, 13-15 (0xC4 is DHT, 0xC8 JPG, 0xCC DAC).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}

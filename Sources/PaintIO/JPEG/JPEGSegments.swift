/// The marker segments of a JPEG's header, from just after its SOI to its first scan (SOS) or
/// its end (EOI): the one walk both `JPEGMetadata` (EXIF orientation, ICC profile) and
/// `PictureResolution` (the JFIF density) read the header by. Each segment's length comes from
/// its own header (at most 64 KB), so the walk is bounded by the bytes it is given, and a body is
/// a slice of them, never a copy.
///
/// A segment whose length runs past the bytes' end is given as far as they go (`isWhole`
/// false) and ends the walk; so do a length under 2 and a byte that is no marker where one is
/// due.
struct JPEGSegments: Sequence, IteratorProtocol {
    /// One segment: its marker and its body (the bytes after its length).
    struct Segment {
        let marker: UInt8
        /// The length its header says: its body's and its own two bytes.
        let length: Int
        /// The body, or as much of it as the bytes hold when it is not whole.
        let body: ArraySlice<UInt8>
        /// Whether the bytes hold the whole body its length says.
        let isWhole: Bool
    }

    /// What a marker's second byte makes of it, for a walk of the header (libjpeg reads them so).
    enum Kind {
        /// 0xFF again: a fill byte before the marker.
        case fill
        /// A marker with no length (TEM, RST0-7).
        case standalone
        /// SOS or EOI: the header is over.
        case endOfHeader
        /// Any other: a length of two bytes (counting themselves), then the body.
        case segment

        init(_ marker: UInt8) {
            switch marker {
            case 0xFF: self = .fill
            case 0x01, 0xD0...0xD7: self = .standalone
            case 0xDA, 0xD9: self = .endOfHeader
            default: self = .segment
            }
        }
    }

    private let bytes: [UInt8]
    /// Where the next marker is due; nil once the walk ended.
    private var at: Int?

    /// The segments of the JPEG `bytes` (its SOI first, not checked here).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        at = 2
    }

    mutating func next() -> Segment? {
        while let i = at, i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            switch Kind(marker) {
            case .fill:
                at = i + 1
            case .standalone:
                at = i + 2
            case .endOfHeader:
                at = nil
            case .segment:
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                guard length >= 2 else {
                    at = nil
                    return nil
                }
                let end = i + 2 + length
                let isWhole = end <= bytes.count
                at = isWhole ? end : nil
                return Segment(
                    marker: marker, length: length, body: bytes[(i + 4)..<Swift.min(end, bytes.count)], isWhole: isWhole
                )
            }
        }
        at = nil
        return nil
    }
}

import PaintCore

/// What SwiftPaint reads from a JPEG's marker segments itself: the EXIF orientation (APP1) and
/// the ICC profile (APP2, possibly split over several segments).
///
/// Only the segments before the first scan are walked (`JPEGSegments`, the walk the file's
/// resolution is read by too), header by header (each says its own length, at most 64 KB), so
/// the work is bounded by the file's size and nothing is kept but the profile, which may not
/// exceed the metadata limit.
struct JPEGMetadata {
    /// How the stored pixels must be turned to stand upright (EXIF orientation).
    var orientation = Orientation.identity
    /// The ICC profile, when the file has a complete one within the limit.
    var iccProfile: [UInt8]?

    init(_ bytes: [UInt8], maxProfileBytes: Int) {
        var chunks: [Int: ArraySlice<UInt8>] = [:]
        var declaredCount = 0
        var profileBytes = 0
        var tooBig = false
        for segment in JPEGSegments(bytes) {
            // One the bytes end inside is not read (nor is anything after it).
            guard segment.isWhole else { break }
            let body = segment.body
            if segment.marker == 0xE1, orientation == .identity, let value = Self.exifOrientation(body) {
                orientation = Orientation(exif: value)
            } else if segment.marker == 0xE2, body.starts(with: Self.iccSignature), body.count >= 14 {
                let sequence = Int(body[body.startIndex + 12])
                let count = Int(body[body.startIndex + 13])
                let data = body.dropFirst(14)
                profileBytes += data.count
                tooBig = tooBig || profileBytes > maxProfileBytes
                if !tooBig && sequence >= 1 && chunks[sequence] == nil {
                    chunks[sequence] = data
                    declaredCount = count
                }
            }
        }
        // A profile is used only when every one of its parts is there.
        if !tooBig, declaredCount > 0, (1...declaredCount).allSatisfy({ chunks[$0] != nil }) {
            iccProfile = (1...declaredCount).flatMap { chunks[$0] ?? [] }
        }
    }

    static let iccSignature = Array("ICC_PROFILE".utf8) + [0]
    static let exifSignature = Array("Exif".utf8) + [0, 0]

    /// The most bytes of a segment's body that `reads` and `isColorSegment` look at.
    static let signatureBytes = iccSignature.count

    /// Whether a segment of `marker` whose body starts with `body` (its first `signatureBytes`,
    /// or all of a shorter one) is one this type reads: EXIF (APP1) or an ICC profile's part (APP2).
    static func reads(_ marker: UInt8, _ body: ArraySlice<UInt8>) -> Bool {
        (marker == 0xE1 && body.starts(with: exifSignature)) || (marker == 0xE2 && body.starts(with: iccSignature))
    }

    /// Whether such a segment is one libjpeg reads for the picture's colours: JFIF (APP0) or
    /// Adobe's (APP14: whether four channels are CMYK or YCCK).
    static func isColorSegment(_ marker: UInt8, _ body: ArraySlice<UInt8>) -> Bool {
        (marker == 0xE0 && body.starts(with: Array("JFIF".utf8) + [0]))
            || (marker == 0xEE && body.starts(with: Array("Adobe".utf8)))
    }

    /// The Orientation tag (0x0112) of IFD0 in an APP1 "Exif\0\0" segment, if it holds 1...8.
    static func exifOrientation(_ body: ArraySlice<UInt8>) -> Int? {
        let exif = Array(body)
        guard exif.count >= 14, exif[0..<6].elementsEqual(Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(exif[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true  // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(little ? at + 2 : at), let low = u16(little ? at : at + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        // Each entry is 12 bytes; the count is bounded by what the segment holds.
        for n in 0..<min(entries, (tiff.count - ifd) / 12) {
            let entry = ifd + 2 + n * 12
            guard u16(entry) == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
            return value
        }
        return nil
    }
}

extension Orientation {
    /// The orientation EXIF's Orientation tag names (1...8): 1 as stored, 2 mirrored left to
    /// right, 3 turned 180°, 4 mirrored top to bottom, 5 transposed, 6 turned right (the camera
    /// was held on its side, turned left), 7 transversed, 8 turned left; anything else as stored.
    init(exif value: Int) {
        switch value {
        case 2: self = .flipHorizontal
        case 3: self = .rotate180
        case 4: self = .flipVertical
        case 5: self = .transpose
        case 6: self = .rotateRight
        case 7: self = .transverse
        case 8: self = .rotateLeft
        default: self = .identity
        }
    }
}

/// The segments of a JPEG's header (everything before its first scan) that `JPEGMetadata`
/// reads (EXIF in APP1, the ICC profile in APP2), kept as the file's chunks pass by on their way
/// to libjpeg (`PictureStream.observe`), so it reads them from memory while the file is never
/// held whole. Every other segment is passed over, not kept: a comment or another program's
/// APPn of megabytes before them takes none of `limit`, which bounds only the segments kept
/// (beyond it one is not kept: the metadata is what those within it hold).
final class JPEGHeaderCapture {
    /// The file's SOI marker, then each segment kept, whole: what `JPEGMetadata` walks.
    private(set) var prefix: [UInt8] = [0xFF, 0xD8]
    private let limit: Int
    /// The head of the segment being read (marker, length, the start of its body).
    private var head: [UInt8] = []
    /// Bytes to pass over (the SOI first; a segment not kept), and to keep (a segment kept).
    private var skipping = 2
    private var keeping = 0
    private var done = false

    init(limit: Int) { self.limit = limit }

    func see(_ chunk: UnsafeRawBufferPointer) {
        var i = 0
        while !done && i < chunk.count {
            if skipping > 0 || keeping > 0 {
                let k = min(skipping + keeping, chunk.count - i)
                if keeping > 0 { prefix.append(contentsOf: chunk[i..<(i + k)]) }
                if skipping > 0 { skipping -= k } else { keeping -= k }
                i += k
                continue
            }
            head.append(chunk[i])
            i += 1
            segmentHead()
        }
    }

    /// Looks at `head` once it grew by a byte: the steps of `JPEGSegments`, the walk
    /// `JPEGMetadata` reads the kept segments by, which ends where this one stops.
    private func segmentHead() {
        guard head[0] == 0xFF else {
            done = true
            return
        }
        guard head.count >= 2 else { return }
        let marker = head[1]
        switch JPEGSegments.Kind(marker) {
        case .fill:
            head.removeFirst()
            return
        case .standalone:
            head.removeAll()
            return
        case .endOfHeader:
            done = true
            return
        case .segment: break
        }
        guard head.count >= 4 else { return }
        let length = Int(head[2]) << 8 | Int(head[3])
        guard length >= 2 else {
            done = true
            return
        }
        // Enough of the body to tell what it is.
        guard head.count >= 4 + min(length - 2, JPEGMetadata.signatureBytes) else { return }
        let rest = 2 + length - head.count
        if JPEGMetadata.reads(marker, head[4...]) && prefix.count + 2 + length <= limit {
            prefix += head
            keeping = rest
        } else {
            skipping = rest
        }
        head.removeAll()
    }
}

import PaintCore

/// What SwiftPaint reads from a JPEG's marker segments itself: the EXIF orientation (APP1) and
/// the ICC profile (APP2, possibly split over several segments).
///
/// Only the segments before the first scan are walked, header by header (each says its own
/// length, at most 64 KB), so the work is bounded by the file's size and nothing is kept but
/// the profile, which may not exceed the metadata limit.
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
        var i = 2  // after SOI
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF {  // fill byte
                i += 1
                continue
            }
            // Markers without a length: TEM, RST0-7; SOS and EOI end the header.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { break }
            let body = bytes[(i + 4)..<(i + 2 + length)]
            if marker == 0xE1, orientation == .identity, let value = Self.exifOrientation(body) {
                orientation = Orientation(exif: value)
            } else if marker == 0xE2, body.starts(with: Self.iccSignature), body.count >= 14 {
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
            i += 2 + length
        }
        // A profile is used only when every one of its parts is there.
        if !tooBig, declaredCount > 0, (1...declaredCount).allSatisfy({ chunks[$0] != nil }) {
            iccProfile = (1...declaredCount).flatMap { chunks[$0] ?? [] }
        }
    }

    static let iccSignature = Array("ICC_PROFILE".utf8) + [0]

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

/// A JPEG's header segments (everything before its first scan) kept as the file's chunks pass
/// by on their way to libjpeg (`PictureStream.observe`), so `JPEGMetadata` reads them from
/// memory while the file is never held whole: the walk stops at the first scan (or at
/// `limit` bytes, beyond which a header is not kept: its metadata is what the first `limit`
/// bytes hold).
final class JPEGHeaderCapture {
    /// The file's first bytes: every header segment, and at most one chunk beyond them.
    private(set) var prefix: [UInt8] = []
    private let limit: Int
    /// Where the next segment starts in `prefix`, after SOI.
    private var next = 2
    private var done = false

    init(limit: Int) { self.limit = limit }

    func see(_ chunk: UnsafeRawBufferPointer) {
        guard !done else { return }
        prefix.append(contentsOf: chunk.prefix(limit - prefix.count))
        if prefix.count >= limit { done = true }
        // The same steps as `JPEGMetadata`'s walk: it ends where that one stops.
        while !done, next + 4 <= prefix.count {
            guard prefix[next] == 0xFF else {
                done = true
                break
            }
            let marker = prefix[next + 1]
            if marker == 0xFF {
                next += 1
            } else if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                next += 2
            } else if marker == 0xDA || marker == 0xD9 {
                done = true
            } else {
                let length = Int(prefix[next + 2]) << 8 | Int(prefix[next + 3])
                if length < 2 { done = true } else { next += 2 + length }
            }
        }
    }
}

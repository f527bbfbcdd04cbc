import Glibc

extension PictureExtent {
    /// A JPEG's end: its EOI marker, found by passing over each segment by its length and over
    /// each scan's compressed data to the next marker (a 0xFF there is followed by 0 or a
    /// restart marker). A frame over the limits ends after the next scan's header, which is as
    /// far as libjpeg reads before SwiftPaint's size check refuses it. Junk where a marker
    /// belongs is read whole: libjpeg passes over it with a warning.
    mutating func jpegEnd(_ bytes: [UInt8]) -> Answer {
        if at < 0 { at = 2 }
        while at < bytes.count {
            if inScan {
                guard let mark = Self.firstFF(in: bytes, from: at) else {
                    at = bytes.count
                    return .unknown
                }
                at = mark
                guard at + 1 < bytes.count else { return .unknown }
                let next = bytes[at + 1]
                if next == 0 || (0xD0...0xD7).contains(next) {
                    at += 2
                } else if next == 0xFF {
                    at += 1
                } else {
                    inScan = false
                }
                continue
            }
            guard at + 1 < bytes.count else { return .unknown }
            // Not a marker where one belongs: the decoder says what is wrong.
            guard bytes[at] == 0xFF else { return .whole }
            let marker = bytes[at + 1]
            switch marker {
            case 0xFF:
                at += 1  // fill byte
            case 0xD9:
                return .end(at + 2)
            case 0x01, 0xD0...0xD7:
                at += 2
            default:
                guard at + 4 <= bytes.count else { return .unknown }
                let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard length >= 2 else { return .whole }
                // An APPn or COM segment past what the decoder keeps of metadata (EXIF, ICC and
                // the colour segments have a budget of their own: no file needs 8 MB of them).
                if skipsUnneeded && ((0xE0...0xEF).contains(marker) || marker == 0xFE) {
                    // Enough of the body to tell whether the decode reads it.
                    let signature = at + 4 + min(length - 2, JPEGMetadata.signatureBytes)
                    guard signature <= bytes.count else { return .unknown }
                    let body = bytes[(at + 4)..<signature]
                    let forPicture = JPEGMetadata.reads(marker, body) || JPEGMetadata.isColorSegment(marker, body)
                    if !keepMetadata(length, forPicture: forPicture) { return .skip(from: at, to: at + 2 + length) }
                }
                if Self.isFrameStart(marker) {
                    guard at + 9 <= bytes.count else { return .unknown }
                    let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                    let width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                    if !limits.allows(width: width, height: height) { overLimits = true }
                }
                at += 2 + length
                if marker == 0xDA {
                    if overLimits { return .end(at) }
                    inScan = true
                }
            }
        }
        return .unknown
    }

    /// Where the first 0xFF in `bytes` from `from` on is, nil when there is none: the scan's
    /// compressed data is most of a JPEG, and memchr passes over it many bytes at a time.
    static func firstFF(in bytes: [UInt8], from: Int) -> Int? {
        guard from < bytes.count else { return nil }
        return bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base + from, 0xFF, raw.count - from) else {
                return nil
            }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Whether `marker` starts a frame (SOF0–SOF15 but DHT, JPG and DAC): it holds the size.
    static func isFrameStart(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }
}

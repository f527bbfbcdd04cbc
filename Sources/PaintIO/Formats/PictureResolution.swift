/// How many pixels a picture file says go to an inch: its print size, which a word processor
/// uses to place it (a PNG's pHYs chunk, a JPEG's JFIF density, a BMP's pixels per metre). The
/// window keeps it from the opened file and writes it into the saved PNG or JPEG, as GIMP and
/// Paint.NET do, so a 300 dpi scan edited here still goes into a document at its size.
public struct PictureResolution: Equatable, Sendable {
    /// Pixels per inch across and down.
    public let x: Double
    public let y: Double

    /// A resolution of `x` by `y` pixels per inch; nil outside 1 to 100,000 (no file means it).
    public init?(x: Double, y: Double) {
        guard x.isFinite, y.isFinite, (1...100_000).contains(x), (1...100_000).contains(y) else { return nil }
        self.x = x
        self.y = y
    }

    /// The resolution the file starting with `head` declares (the first `headBytes` of it are
    /// enough: these come before the pixels); nil when it declares none, only an aspect ratio,
    /// or the format has no place for one.
    public init?(fileHead head: [UInt8]) {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard let found = Self.png(head) else { return nil }
            self = found
        } else if head.starts(with: [0xFF, 0xD8]) {
            guard let found = Self.jpeg(head) else { return nil }
            self = found
        } else if head.starts(with: Array("BM".utf8)) {
            guard let found = Self.bmp(head) else { return nil }
            self = found
        } else {
            return nil
        }
    }

    /// How much of a file's start `init(fileHead:)` looks at.
    public static let headBytes = 1 << 16

    static let inchesPerMetre = 1 / 0.0254

    /// Pixels per metre, as a PNG's pHYs chunk stores them.
    var perMetre: (x: UInt32, y: UInt32) {
        (UInt32((x * Self.inchesPerMetre).rounded()), UInt32((y * Self.inchesPerMetre).rounded()))
    }

    /// Whole pixels per inch, as a JPEG's JFIF density stores them.
    var perInch: (x: UInt16, y: UInt16) {
        (UInt16(min(65535, x.rounded())), UInt16(min(65535, y.rounded())))
    }

    private static func u32(_ b: [UInt8], _ at: Int, little: Bool = false) -> UInt32 {
        let bytes = (0..<4).map { UInt32(b[at + $0]) }
        return little
            ? bytes[0] | bytes[1] << 8 | bytes[2] << 16 | bytes[3] << 24
            : bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
    }

    /// A pHYs chunk in metres, among the chunks before the first IDAT.
    private static func png(_ b: [UInt8]) -> PictureResolution? {
        var at = 8
        while at + 8 <= b.count {
            let length = Int(u32(b, at))
            let type = Array(b[(at + 4)..<(at + 8)])
            if type == Array("IDAT".utf8) || length > b.count { return nil }
            if type == Array("pHYs".utf8) {
                guard length == 9, at + 17 <= b.count, b[at + 16] == 1 else { return nil }
                return PictureResolution(
                    x: Double(u32(b, at + 8)) / inchesPerMetre, y: Double(u32(b, at + 12)) / inchesPerMetre)
            }
            at += 12 + length
        }
        return nil
    }

    /// The JFIF segment's density, in dots per inch (1) or per centimetre (2), read before the
    /// frame header (`JPEGSegments`, the walk the file's metadata is read by too). A segment the
    /// head ends inside is read as far as it goes: a long JFIF segment can run past the 64 KB.
    private static func jpeg(_ b: [UInt8]) -> PictureResolution? {
        for segment in JPEGSegments(b) {
            let marker = segment.marker
            // SOF0-15 (not DHT, C4, nor DAC, CC): the frame header; a JFIF segment comes before it.
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xCC { return nil }
            let body = segment.body
            let at = body.startIndex
            guard marker == 0xE0, segment.length >= 16, body.count >= 12,
                body.prefix(5).elementsEqual(Array("JFIF".utf8) + [0])
            else { continue }
            let unit = body[at + 7]
            let dx = Double(Int(body[at + 8]) << 8 | Int(body[at + 9]))
            let dy = Double(Int(body[at + 10]) << 8 | Int(body[at + 11]))
            switch unit {
            case 1: return PictureResolution(x: dx, y: dy)
            case 2: return PictureResolution(x: dx * 2.54, y: dy * 2.54)
            default: return nil
            }
        }
        return nil
    }

    /// The info header's pixels per metre (a header of 40 bytes or more).
    private static func bmp(_ b: [UInt8]) -> PictureResolution? {
        guard b.count >= 46, u32(b, 14, little: true) >= 40 else { return nil }
        let x = Int32(bitPattern: u32(b, 38, little: true))
        let y = Int32(bitPattern: u32(b, 42, little: true))
        return PictureResolution(x: Double(x) / inchesPerMetre, y: Double(y) / inchesPerMetre)
    }
}

/// The first `PictureResolution.headBytes` of a file as its chunks pass by on their way to the
/// decoder (`PictureStream.observe`): where its resolution, and a WebP's lossiness, are read from.
final class FileHeadCapture {
    private(set) var head: [UInt8] = []

    func see(_ chunk: UnsafeRawBufferPointer) {
        let room = PictureResolution.headBytes - head.count
        guard room > 0 else { return }
        head.append(contentsOf: chunk.prefix(room))
    }
}

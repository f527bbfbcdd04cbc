import Glibc
import PaintCore

/// What a picture file says about itself in its first bytes: its format and the size it opens
/// at (a JPEG's EXIF orientation applied), read without decoding anything, for the file dialog's
/// list.
///
/// The work is bounded whatever the file: at most `maxReads` small reads of at most
/// `maxReadBytes` each, wherever they fall. PNG, GIF, BMP and WebP say their size in the first
/// 30 bytes; a JPEG's size is in its frame header, after segments that each say their length, so
/// they are skipped by reading only their four-byte headers (a 5 MB ICC profile costs one read).
public struct PictureHeader: Sendable, Equatable {
    /// The format, by the file's signature (not its name).
    public var format: ImageFormat
    /// The size the picture opens at.
    public var width: Int
    public var height: Int

    /// Makes a header.
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads at most this many times from one file.
    static let maxReads = 96
    /// Reads at most this many bytes at once (one EXIF segment's worth).
    static let maxReadBytes = 64 * 1024

    /// The header of the picture file at `path`; nil for a file that cannot be read or whose
    /// first bytes are not a picture SwiftPaint opens (or say no size).
    public static func read(path: String) -> PictureHeader? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        // A FIFO or a device could block or never end: ordinary files only.
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var reader = BoundedReader(fd: fd)
        return parse(&reader)
    }

    /// The header of a picture held in memory (tests, and files read already).
    public static func parse(_ bytes: [UInt8]) -> PictureHeader? {
        var reader = BoundedReader(bytes: bytes)
        return parse(&reader)
    }

    static func parse(_ reader: inout BoundedReader) -> PictureHeader? {
        guard let start = reader.bytes(at: 0, count: 32), let format = ImageFormat.sniff(start) else { return nil }
        let size: (Int, Int)?
        switch format {
        case .png: size = png(start)
        case .gif: size = gif(start)
        case .bmp: size = bmp(start)
        case .webp: size = webp(start)
        case .jpeg: size = jpeg(&reader)
        }
        guard let (width, height) = size, width > 0, height > 0 else { return nil }
        return PictureHeader(format: format, width: width, height: height)
    }

    private static func u16be(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) << 8 | Int(b[at + 1]) }
    private static func u16le(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    private static func u24le(_ b: [UInt8], _ at: Int) -> Int { u16le(b, at) | Int(b[at + 2]) << 16 }
    private static func u32be(_ b: [UInt8], _ at: Int) -> Int { u16be(b, at) << 16 | u16be(b, at + 2) }
    private static func u32le(_ b: [UInt8], _ at: Int) -> Int { u16le(b, at) | u16le(b, at + 2) << 16 }

    /// IHDR is the first chunk: its width and height follow the signature and chunk header.
    private static func png(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, b[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        return (u32be(b, 16), u32be(b, 20))
    }

    /// The logical screen, which the first frame is drawn onto.
    private static func gif(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 10 else { return nil }
        return (u16le(b, 6), u16le(b, 8))
    }

    /// BITMAPCOREHEADER (12 bytes: 16-bit sizes) or any later info header (signed 32-bit; a
    /// negative height means the rows are stored top down).
    private static func bmp(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 26 else { return nil }
        if u32le(b, 14) == 12 { return (u16le(b, 18), u16le(b, 20)) }
        let height = Int(Int32(bitPattern: UInt32(u32le(b, 22))))
        return (Int(Int32(bitPattern: UInt32(u32le(b, 18)))), abs(height))
    }

    /// The first chunk: VP8X (extended: 24-bit sizes less one), VP8L (lossless: 14-bit sizes
    /// less one after its signature byte) or VP8 (lossy: 14-bit sizes after the key frame's
    /// start code).
    private static func webp(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30 else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X":
            return (u24le(b, 24) + 1, u24le(b, 27) + 1)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = u32le(b, 21)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (u16le(b, 26) & 0x3FFF, u16le(b, 28) & 0x3FFF)
        default:
            return nil
        }
    }

    /// Walks the marker segments up to the frame header (SOF0…SOF15 but DHT, JPG and DAC),
    /// noting an EXIF orientation on the way: a picture taken on its side opens turned.
    private static func jpeg(_ reader: inout BoundedReader) -> (Int, Int)? {
        var offset = 2
        var orientation = Orientation.identity
        while let head = reader.bytes(at: offset, count: 4), head.count == 4 {
            guard head[0] == 0xFF else { return nil }
            let marker = head[1]
            if marker == 0xFF {  // a fill byte before the marker
                offset += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length
                offset += 2
                continue
            }
            // A scan or the end before any frame header: nothing to say.
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = u16be(head, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let frame = reader.bytes(at: offset + 4, count: 5), frame.count == 5 else { return nil }
                return orientation.size(width: u16be(frame, 3), height: u16be(frame, 1))
            }
            if marker == 0xE1, orientation == .identity,
                let body = reader.bytes(at: offset + 4, count: length - 2),
                let value = JPEGMetadata.exifOrientation(body[...])
            {
                orientation = Orientation(exif: value)
            }
            offset += 2 + length
        }
        return nil
    }
}

/// Reads from a file at offsets, at most `PictureHeader.maxReads` times and never more than
/// `PictureHeader.maxReadBytes` at once; or from bytes in memory with the same limits.
struct BoundedReader {
    private let fd: Int32
    private let memory: [UInt8]?
    private var reads = 0

    init(fd: Int32) {
        self.fd = fd
        memory = nil
    }

    init(bytes: [UInt8]) {
        fd = -1
        memory = bytes
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file); nil past the budget or
    /// on an error.
    mutating func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard reads < PictureHeader.maxReads, offset >= 0, count > 0, count <= PictureHeader.maxReadBytes else {
            return nil
        }
        reads += 1
        if let memory {
            guard offset < memory.count else { return [] }
            return Array(memory[offset..<min(memory.count, offset + count)])
        }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled))
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[..<filled])
    }
}

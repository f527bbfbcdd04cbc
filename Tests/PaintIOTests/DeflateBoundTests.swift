import PaintCore
import Testing

@testable import PaintIO

/// PNG and BMP hold a file to one bound, deflate's (`DeflateBound`): a file claiming more than
/// 1032 bytes of picture for each byte it has is refused before the picture is set aside.
@Suite struct DeflateBoundTests {
    /// The bound is deflate's own: zlib at its best, on 32 MB of one byte, comes within 1 %
    /// of it and does not pass it.
    @Test func zlibComesCloseToTheBoundAndNeverPassesIt() throws {
        let run = [UInt8](repeating: 0, count: 32 << 20)
        let packed = try #require(Zlib.compress(run, level: 9))
        let ratio = Double(run.count) / Double(packed.count)
        #expect(ratio <= Double(DeflateBound.mostBytesPerByte) && ratio > 1020, "\(ratio)")
    }

    /// A PNG chunk: length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(Zlib.crc32(body)))
    }

    static func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }

    /// An 8-bit gray PNG `bound - 1` pixels wide (a row and its filter byte are `bound` bytes,
    /// so a row a byte is the bound), `rows` rows claimed, holding ten rows' data, padded with
    /// a private chunk to `size` bytes.
    static func png(claiming rows: Int, size: Int) throws -> [UInt8] {
        let width = DeflateBound.mostBytesPerByte - 1
        let ihdr = be32(width) + be32(rows) + [8, 0, 0, 0, 0]
        let data = try #require(Zlib.compress([UInt8](repeating: 0, count: 10 * (width + 1)), level: 9))
        let head = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", data)
        let padding = size - head.count - 12 - 12
        try #require(padding >= 0)
        return head + chunk("prVt", [UInt8](repeating: 7, count: padding)) + chunk("IEND", [])
    }

    /// A 24-bit BMP whose row is `bound` bytes (344 pixels), `rows` rows claimed, two held.
    static func bmp(claiming rows: Int) -> [UInt8] {
        let rowBytes = DeflateBound.mostBytesPerByte
        let held = [UInt8](repeating: 0x40, count: 2 * rowBytes)
        return Array("BM".utf8) + le32(54 + rows * rowBytes) + le32(0) + le32(54) + le32(40) + le32(rowBytes / 3)
            + le32(rows) + [1, 0, 24, 0] + le32(0) + le32(rows * rowBytes) + le32(2835) + le32(2835) + le32(0)
            + le32(0) + held
    }

    /// Whether decoding `bytes` is refused as too few bytes for the picture claimed.
    static func refusedAsTooFew(_ bytes: [UInt8], rows: Int) -> Bool {
        do {
            _ = try ImageDecoder.decode(bytes, name: "d")
            return false
        } catch {
            let width = bytes[0] == 0x89 ? DeflateBound.mostBytesPerByte - 1 : DeflateBound.mostBytesPerByte / 3
            return error
                == .cutShort(path: "d", reason: ImageFileError.tooFewBytes(bytes.count, width: width, height: rows))
        }
    }

    /// A file exactly at the bound passes the check (and opens with the rows it holds, or is
    /// found cut short for another reason); one row more, a byte past it, is refused as too few
    /// bytes: the same for PNG and BMP.
    @Test func pngAndBMPRefuseAFileOneByteFewerThanTheBound() throws {
        let size = 2_000
        #expect(!Self.refusedAsTooFew(try Self.png(claiming: size, size: size), rows: size))
        #expect(Self.refusedAsTooFew(try Self.png(claiming: size + 1, size: size), rows: size + 1))
        let held = Self.bmp(claiming: 1).count
        #expect(!Self.refusedAsTooFew(Self.bmp(claiming: held), rows: held))
        #expect(Self.refusedAsTooFew(Self.bmp(claiming: held + 1), rows: held + 1))
    }
}

import PaintCore
import Testing

@testable import PaintIO

/// The quality a JPEG was written at, read back from its quantization tables: every quality
/// libjpeg writes (SwiftPaint, GIMP, ImageMagick) comes back as itself; a header with no table,
/// or a table cut short, gives none; a 16-bit table and the tables of one segment are read.
@Suite struct JPEGQualityTests {
    @Test func everyQualityLibjpegWritesComesBackAsItself() throws {
        let picture = JPEGChromaTests.annotated()
        for quality in 1...100 {
            let jpeg = try JPEGCodec.encode(picture, quality: quality)
            #expect(JPEGQuality.estimate(head: jpeg) == quality)
            // Only the header is needed: it is read from the file's first bytes.
            let sos = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
            #expect(JPEGQuality.estimate(head: Array(jpeg[..<sos])) == quality)
        }
    }

    @Test func aHeaderWithoutItsLuminanceTableGivesNone() throws {
        let jpeg = try JPEGCodec.encode(JPEGChromaTests.annotated(), quality: 75)
        let dqt = try #require(jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDB })
        #expect(JPEGQuality.estimate(head: Array(jpeg[..<dqt])) == nil, "no table yet")
        #expect(JPEGQuality.estimate(head: Array(jpeg[..<(dqt + 40)])) == nil, "the table cut short")
        #expect(JPEGQuality.estimate(head: [0x89, 0x50, 0x4E, 0x47]) == nil, "not a JPEG")
        #expect(JPEGQuality.estimate(head: []) == nil)
    }

    /// Two tables in one segment, the first 16-bit (as libjpeg writes a table with an entry
    /// over 255); each entry counts at its value.
    @Test func tablesInOneSegmentAnd16BitEntriesAreRead() {
        func table(_ quality: Int, _ standard: [Int]) -> [Int] {
            let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
            return standard.map { min(max(($0 * scale + 50) / 100, 1), 255) }
        }
        let luma = table(40, JPEGQuality.luminance)
        let chroma = table(40, JPEGQuality.chrominance)
        var body: [UInt8] = [0x10] + luma.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        body += [0x01] + chroma.map(UInt8.init)
        let head = JPEGSegmentsTests.soi + JPEGSegmentsTests.segment(0xDB, body) + JPEGSegmentsTests.sos
        #expect(JPEGQuality.estimate(head: head) == 40)
    }
}

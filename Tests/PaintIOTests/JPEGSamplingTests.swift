import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A JPEG's color sampling read from its frame header (`JPEGSampling.read`), and written back
/// as libjpeg-turbo's cjpeg writes it: what a save of a picture opened from a camera's 4:2:0
/// photo keeps, instead of writing it 4:4:4 and a third larger.
@Suite struct JPEGSamplingTests {
    /// A photo-like picture (`JPEGQualityTests`' grain), large enough for the sampling to tell.
    static let photo: PixelImage = {
        var image = PixelImage(width: 160, height: 96)
        for y in 0..<96 {
            for x in 0..<160 {
                let grain = (x &* 7_919 ^ y &* 104_729) % 23
                image[x, y] = Pixel.pack(r: UInt8(x + grain), g: UInt8(y * 2 + grain), b: UInt8((x + y) / 2), a: 255)
            }
        }
        return image
    }()

    @Test func theSamplingIsReadFromTheFrameHeader() throws {
        #expect(JPEGSampling.read(head: try JPEGCodec.encode(Self.photo, quality: 95)) == .full)
        #expect(JPEGSampling.read(head: try JPEGCodec.encode(Self.photo, quality: 80)) == .halved)
        let wide = try #require(JPEGSampling(horizontal: 2, vertical: 1))
        let written = try JPEGCodec.encode(Self.photo, quality: 97, sampling: wide)
        #expect(JPEGSampling.read(head: written) == wide)
        #expect(wide.name == "4:2:2" && JPEGSampling.halved.name == "4:2:0" && JPEGSampling.full.name == "4:4:4")
        // Its header alone, as the window keeps it from the open.
        let sos = try #require((0..<written.count - 1).first { written[$0] == 0xFF && written[$0 + 1] == 0xDA })
        #expect(JPEGSampling.read(head: Array(written[..<sos])) == wide)
    }

    /// A file SwiftPaint would not write the same gives none: gray (one component), chroma not
    /// 1 x 1, factors libjpeg refuses, a frame header cut short, no JPEG at all.
    @Test func aSamplingNotWrittenSoIsNone() {
        // SOI, then a baseline frame header of 8 x 8 pixels with the components given.
        func head(_ components: [UInt8], length: Int? = nil) -> [UInt8] {
            let body: [UInt8] = [8, 0, 8, 0, 8, UInt8(components.count)] + components.flatMap { [1, $0, 0] }
            let l = length ?? body.count + 2
            return [0xFF, 0xD8, 0xFF, 0xC0, UInt8(l >> 8), UInt8(l & 0xFF)] + body
        }
        #expect(JPEGSampling.read(head: head([0x22, 0x11, 0x11])) == .halved)
        #expect(JPEGSampling.read(head: head([0x11])) == nil)
        #expect(JPEGSampling.read(head: head([0x22, 0x11, 0x11, 0x22])) == nil)
        #expect(JPEGSampling.read(head: head([0x22, 0x21, 0x11])) == nil)
        #expect(JPEGSampling.read(head: head([0x44, 0x11, 0x11])) == nil, "18 blocks a unit")
        #expect(JPEGSampling.read(head: head([0x02, 0x11, 0x11])) == nil, "a factor of 0")
        #expect(JPEGSampling.read(head: head([0x22, 0x11, 0x11], length: 40)) == nil)
        #expect(JPEGSampling.read(head: Array(head([0x22, 0x11, 0x11]).prefix(12))) == nil)
        #expect(JPEGSampling.read(head: [0x89, 0x50, 0x4E, 0x47]) == nil)
    }

    /// Written with a file's sampling, a JPEG is byte for byte what libjpeg-turbo's cjpeg writes
    /// for the same pixels (`-quality Q -sample HxV -optimize`): the chroma 1 x 1, nothing else
    /// changed from a default encoding.
    @Test(arguments: [(97, "2x2"), (97, "2x1"), (60, "1x1"), (92, "1x2")])
    func writtenAsCjpegWritesIt(quality: Int, sample: String) throws {
        let factors = sample.split(separator: "x").compactMap { Int($0) }
        let sampling = try #require(JPEGSampling(horizontal: factors[0], vertical: factors[1]))
        let ours = try JPEGCodec.encode(Self.photo, quality: quality, sampling: sampling)
        let theirs = try Reference.cjpeg(Self.photo, quality: quality, sample: sample)
        #expect(ours.count == theirs.count)
        #expect(ours == theirs)
        #expect(JPEGQuality.estimate(head: ours) == quality)
    }
}

import PaintCore
import Testing

@testable import PaintIO

/// The color resolution of the JPEGs SwiftPaint writes: full (4:4:4) from quality 90 up, as
/// GIMP's default export writes it, so an annotation in red on a screenshot stays sharp; halved
/// both ways (4:2:0) below 90, for a smaller file.
@Suite struct JPEGChromaTests {
    /// White, with a red line 2 px thick across it and a blue one 1 px thick down it.
    static func annotated() -> PixelImage {
        var image = PixelImage(width: 96, height: 64)
        for y in 0..<64 {
            for x in 0..<96 {
                let red = y == 31 || y == 32
                let blue = x == 47
                image[x, y] =
                    red
                    ? Pixel.pack(r: 230, g: 0, b: 0, a: 255)
                    : blue ? Pixel.pack(r: 0, g: 0, b: 230, a: 255) : Pixel.pack(r: 255, g: 255, b: 255, a: 255)
            }
        }
        return image
    }

    /// The sampling factors of each component in the file's start-of-frame segment (0x11 is
    /// full resolution, 0x22 the luma of 4:2:0).
    static func samplingFactors(_ jpeg: [UInt8]) throws -> [UInt8] {
        var at = 2
        while at + 4 <= jpeg.count {
            let marker = jpeg[at + 1]
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            if marker == 0xC0 || marker == 0xC2 {
                let components = Int(jpeg[at + 9])
                return (0..<components).map { jpeg[at + 11 + 3 * $0] }
            }
            at += 2 + length
        }
        Issue.record("no start-of-frame segment")
        return []
    }

    /// The largest difference in any channel between the picture and its JPEG read back.
    static func largestError(_ image: PixelImage, _ jpeg: [UInt8]) throws -> Int {
        let back = try JPEGCodec.decode(jpeg, name: "annotated.jpg").image
        var largest = 0
        for (a, b) in zip(image.pixels, back.pixels) {
            let (p, q) = (Pixel.unpack(a), Pixel.unpack(b))
            largest = max(largest, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
        }
        return largest
    }

    /// At the default quality, 90, and above, every component has every pixel, and the red and
    /// blue lines come back close: at most 26 levels off at 90, the ringing JPEG leaves at any
    /// sharp edge (with the color halved, as before, they came back fringed, 169 levels off).
    @Test(arguments: [90, 100])
    func highQualityKeepsTheColorAtFullResolution(quality: Int) throws {
        let image = Self.annotated()
        let jpeg = try JPEGCodec.encode(image, quality: quality)
        #expect(try Self.samplingFactors(jpeg) == [0x11, 0x11, 0x11])
        let error = try Self.largestError(image, jpeg)
        #expect(error <= 40, "largest error \(error)")
    }

    /// Below 90 the color is halved both ways: a smaller file, as a lower quality is chosen for.
    @Test func lowerQualityHalvesTheColor() throws {
        let image = Self.annotated()
        let jpeg = try JPEGCodec.encode(image, quality: 89)
        #expect(try Self.samplingFactors(jpeg) == [0x22, 0x11, 0x11])
        #expect(jpeg.count < (try JPEGCodec.encode(image, quality: 90)).count)
    }
}

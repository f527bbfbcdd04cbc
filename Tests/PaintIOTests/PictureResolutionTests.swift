import Foundation
import PaintCore
import Testing

@testable import PaintIO

/// The print resolution a file declares (its dots per inch), read from a PNG's pHYs chunk, a
/// JPEG's JFIF density and a BMP's header, and written into the PNGs and JPEGs SwiftPaint saves.
@Suite struct PictureResolutionTests {
    static let picture = PixelImage(width: 40, height: 30, fill: 0xFF20_60A0)

    @Test func pngAndJPEGDeclareTheResolutionTheyAreGiven() throws {
        let dpi300 = try #require(PictureResolution(x: 300, y: 300))
        let png = try PNGCodec.encode(Self.picture, withAlpha: false, resolution: dpi300)
        let readPNG = try #require(PictureResolution(fileHead: png))
        // pHYs counts pixels per metre: 11811, which is 299.9994 per inch.
        #expect(abs(readPNG.x - 300) < 0.01 && abs(readPNG.y - 300) < 0.01)
        #expect(try ImageDecoder.decode(png, name: "a.png").image == Self.picture)
        let uneven = try #require(PictureResolution(x: 72, y: 144))
        let jpeg = try JPEGCodec.encode(Self.picture, quality: 90, resolution: uneven)
        #expect(PictureResolution(fileHead: jpeg) == uneven)
        #expect(try ImageDecoder.decode(jpeg, name: "a.jpg").image.width == 40)
        // A PNG's 299.9994 is written to a JPEG as 300.
        let again = try JPEGCodec.encode(Self.picture, quality: 90, resolution: readPNG)
        #expect(PictureResolution(fileHead: again) == dpi300)
    }

    /// `swiftpaint --export` keeps it too, as the window's save does.
    @Test func exportKeepsIt() throws {
        let dir = NSTemporaryDirectory() + "resolution-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dpi300 = try #require(PictureResolution(x: 300, y: 300))
        try ImageFile.save(
            Self.picture, to: dir + "/scan.jpg", options: SaveOptions(format: .jpeg, resolution: dpi300),
            withAlpha: false)
        try ImageFile.export(from: dir + "/scan.jpg", to: dir + "/scan.png")
        let png = try #require(FileManager.default.contents(atPath: dir + "/scan.png"))
        let read = try #require(PictureResolution(fileHead: Array(png)))
        #expect(abs(read.x - 300) < 0.01 && abs(read.y - 300) < 0.01)
    }

    /// With none given, none is declared: a JPEG's JFIF then says only its aspect ratio.
    @Test func noneGivenNoneDeclared() throws {
        #expect(PictureResolution(fileHead: try PNGCodec.encode(Self.picture, withAlpha: false)) == nil)
        #expect(PictureResolution(fileHead: try JPEGCodec.encode(Self.picture, quality: 90)) == nil)
        #expect(PictureResolution(fileHead: try WebPCodec.encode(Self.picture, quality: nil, withAlpha: false)) == nil)
        #expect(PictureResolution(fileHead: []) == nil)
        #expect(PictureResolution(fileHead: [0xFF, 0xD8, 0xFF]) == nil)
    }

    /// A JFIF density in dots per centimetre, and a BMP's pixels per metre.
    @Test func centimetresAndMetres() throws {
        var jpeg = try JPEGCodec.encode(Self.picture, quality: 90, resolution: PictureResolution(x: 100, y: 100))
        // SOI, then APP0: FF E0, length, "JFIF\0", version, then the unit and the densities.
        #expect(Array(jpeg[6..<11]) == Array("JFIF".utf8) + [0])
        jpeg[13] = 2
        jpeg[14...17] = [0, 118, 0, 118]
        let perCentimetre = try #require(PictureResolution(fileHead: jpeg))
        #expect(abs(perCentimetre.x - 299.72) < 0.01)
        var bmp = [UInt8](repeating: 0, count: 54)
        bmp[0...1] = [0x42, 0x4D]
        bmp[14] = 40
        // 3780 pixels per metre (0x0EC4) across, 7559 (0x1D87) down: 96 and 192 per inch.
        bmp[38...39] = [0xC4, 0x0E]
        bmp[42...43] = [0x87, 0x1D]
        let fromBMP = try #require(PictureResolution(fileHead: bmp))
        #expect(abs(fromBMP.x - 96) < 0.02 && abs(fromBMP.y - 192) < 0.02)
    }
}

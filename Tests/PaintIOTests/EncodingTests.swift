import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Saving in every format SwiftPaint writes, checked by decoding the files with Pillow.
@Suite struct EncodingTests {
    /// A smooth picture (JPEG's kind of content) with a transparent-to-opaque ramp on the right.
    static func smooth(width: Int = 96, height: Int = 64, alpha: Bool = false) -> PixelImage {
        var image = PixelImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let a = alpha && x >= width / 2 ? UInt8((x - width / 2) * 255 / (width / 2 - 1)) : 255
                let straight = Pixel.pack(
                    r: UInt8(x * 255 / (width - 1)), g: UInt8(y * 255 / (height - 1)), b: 128, a: a)
                image[x, y] = Pixel.premultiply(straight)
            }
        }
        return image
    }

    static func alphas(_ rgba: [UInt8]) -> [UInt8] {
        stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] }
    }

    /// The left half of a 96 x 64 picture's RGBA bytes.
    static func leftHalf(_ rgba: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<64 { out += rgba[(y * 96 * 4)..<((y * 96 + 48) * 4)] }
        return out
    }

    func saveAll(_ image: PixelImage, _ cases: [(String, SaveOptions, Bool)]) throws -> [String: Reference.Decoded] {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        var paths: [String] = []
        for (name, options, alpha) in cases {
            let path = folder.file(name)
            try ImageFile.save(image, to: path, options: options, withAlpha: alpha)
            paths.append(path)
        }
        let decoded = try Reference.pillow(paths)
        return Dictionary(
            uniqueKeysWithValues: zip(cases.map(\.0), paths.map { decoded[$0] }).compactMap { k, v in v.map { (k, $0) }
            })
    }

    @Test func jpegIsWrittenAtTheAskedQuality() throws {
        let image = Self.smooth()
        let files = try saveAll(
            image,
            [
                ("q90.jpg", SaveOptions(format: .jpeg), false),
                ("q50.jpg", SaveOptions(format: .jpeg, quality: 50), false),
            ])
        let q90 = try #require(files["q90.jpg"])
        let q50 = try #require(files["q50.jpg"])
        #expect(q90.format == "JPEG" && q90.mode == "RGB" && q90.width == 96 && q90.height == 64)
        let original = Reference.straightRGBA(image)
        #expect(Reference.psnr(q90.rgba, original) > 40, "quality 90: \(Reference.psnr(q90.rgba, original)) dB")
        #expect(Reference.psnr(q50.rgba, original) < Reference.psnr(q90.rgba, original))
        let sizes = try [90, 50].map { try JPEGCodec.encode(image, quality: $0).count }
        #expect(sizes[1] < sizes[0], "quality 50 should be smaller: \(sizes)")
        #expect(SaveOptions.defaultQuality == 90)
    }

    @Test func jpegFlattensTransparencyOntoWhite() throws {
        var image = Self.smooth()
        // Two 16 x 16 blocks (one JPEG macroblock each): fully transparent, and half black.
        for y in 0..<16 {
            for x in 0..<16 {
                image[x, y] = 0
                image[x + 16, y] = Pixel.premultiply(Pixel.pack(r: 0, g: 0, b: 0, a: 128))
            }
        }
        let decoded = try #require(
            try saveAll(image, [("t.jpg", SaveOptions(format: .jpeg, quality: 100), true)])["t.jpg"])
        #expect(decoded.mode == "RGB")
        let clear = Array(decoded.rgba[(8 * 96 + 8) * 4..<((8 * 96 + 8) * 4 + 3)])
        let gray = Array(decoded.rgba[(8 * 96 + 24) * 4..<((8 * 96 + 24) * 4 + 3)])
        #expect(clear.allSatisfy { $0 >= 253 }, "transparent became white: \(clear)")
        #expect(gray.allSatisfy { abs(Int($0) - 127) <= 2 }, "half black over white is mid gray: \(gray)")
    }

    @Test func webpIsLosslessByDefaultAndKeepsAlpha() throws {
        let image = Self.smooth(alpha: true)
        let files = try saveAll(
            image,
            [
                ("lossless.webp", SaveOptions(format: .webp), true),
                ("lossy.webp", SaveOptions(format: .webp, quality: 80, lossless: false), true),
                ("opaque.webp", SaveOptions(format: .webp), false),
            ])
        let lossless = try #require(files["lossless.webp"])
        #expect(lossless.format == "WEBP" && lossless.mode == "RGBA")
        let straight = Reference.straightRGBA(image)
        #expect(Reference.differingPixels(lossless.rgba, straight) == 0, "lossless WebP must hold exactly the pixels")
        let lossy = try #require(files["lossy.webp"])
        #expect(lossy.format == "WEBP" && lossy.mode == "RGBA")
        // Lossy WebP keeps alpha losslessly; the colors of the opaque left half come back close.
        #expect(Self.alphas(lossy.rgba) == Self.alphas(straight), "the alpha plane is lossless")
        #expect(Reference.psnr(Self.leftHalf(lossy.rgba), Self.leftHalf(straight)) > 30)
        let opaque = try #require(files["opaque.webp"])
        #expect(opaque.mode == "RGB", "a picture saved without alpha has none")
        let flat = Reference.straightRGBA(ImageEncoder.flattened(image, onto: Color.white.pixel))
        #expect(Reference.differingPixels(opaque.rgba, flat) == 0)
    }

    @Test func whatEachFormatCanDo() {
        #expect(ImageFormat.allCases.filter(\.canSave) == [.png, .jpeg, .webp])
        #expect(ImageFormat.allCases.filter(\.keepsTransparency) == [.png, .webp, .gif, .bmp])
        #expect(ImageFormat.allCases.filter(\.keepsHistory) == [.png])
    }

    @Test func theFormatToSaveFollowsTheExtension() throws {
        #expect(try SaveOptions.forSaving(to: "/a/b.PNG").format == .png)
        #expect(try SaveOptions.forSaving(to: "/a/b.jpeg").format == .jpeg)
        #expect(try SaveOptions.forSaving(to: "x.JPG") == SaveOptions(format: .jpeg, quality: 90))
        #expect(try SaveOptions.forSaving(to: "x.webp") == SaveOptions(format: .webp, lossless: true))
        #expect(
            try SaveOptions.forSaving(to: "x.webp", quality: 70)
                == SaveOptions(format: .webp, quality: 70, lossless: false))
        #expect(throws: ImageFileError.cannotSave(path: "x.gif", format: "GIF")) {
            try SaveOptions.forSaving(to: "x.gif")
        }
        #expect(throws: ImageFileError.unknownExtension(path: "x.xyz", ext: "xyz")) {
            try SaveOptions.forSaving(to: "x.xyz")
        }
        #expect(
            ImageFileError.unknownExtension(path: "x.xyz", ext: "xyz").message
                == "Cannot save “x.xyz”: “.xyz” is not a picture format SwiftPaint writes (.png, .jpg, .webp)")
        #expect(ImageFormat.naming(of: "/home/me/drawing1") == .none)
        #expect(ImageFormat.naming(of: "/home/me.v2/drawing1") == .none)
        #expect(ImageFormat.naming(of: "/home/me/.hidden") == .none)
        #expect(ImageFormat.naming(of: "/home/me/trailing.") == .none)
        #expect(ImageFormat.naming(of: "/home/me/a.tar.Bmp") == .known(.bmp))
        #expect(ImageFormat.naming(of: "/home/me/a.tiff") == .unknown("tiff"))
    }

    @Test func signaturesNameTheFormat() {
        func bytes(_ s: String, _ extra: Int = 30) -> [UInt8] { Array(s.utf8) + [UInt8](repeating: 0, count: extra) }
        #expect(ImageFormat.sniff(PNGCodec.signature + [0, 0]) == .png)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff(bytes("RIFF\0\0\0\0WEBPVP8 ")) == .webp)
        #expect(ImageFormat.sniff(bytes("RIFF\0\0\0\0WAVEfmt ")) == nil)
        #expect(ImageFormat.sniff(bytes("GIF89a")) == .gif)
        #expect(ImageFormat.sniff(bytes("GIF87a")) == .gif)
        #expect(ImageFormat.sniff(bytes("BM")) == .bmp)
        #expect(ImageFormat.sniff(bytes("BM", 3)) == nil)
        #expect(ImageFormat.sniff(bytes("hello")) == nil)
    }

    @Test func exportConvertsAsTheWindowWould() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let image = Self.smooth(alpha: true)
        let input = folder.file("in.png")
        try ImageFile.save(image, to: input, withAlpha: true)
        try ImageFile.export(from: input, to: folder.file("out.webp"))
        try ImageFile.export(from: input, to: folder.file("out.jpg"), quality: 95)
        let decoded = try Reference.pillow([folder.file("out.webp"), folder.file("out.jpg")])
        let webp = try #require(decoded[folder.file("out.webp")])
        #expect(Reference.differingPixels(webp.rgba, Reference.straightRGBA(image)) == 0)
        let jpeg = try #require(decoded[folder.file("out.jpg")])
        #expect(jpeg.format == "JPEG")
        let white = Reference.straightRGBA(ImageEncoder.flattened(image, onto: Color.white.pixel))
        #expect(Reference.psnr(jpeg.rgba, white) > 38)
        // A bad target fails before anything is read or written.
        #expect(throws: ImageFileError.cannotSave(path: folder.file("o.bmp"), format: "BMP")) {
            try ImageFile.export(from: folder.file("missing.png"), to: folder.file("o.bmp"))
        }
        #expect(folder.entries() == ["in.png", "out.jpg", "out.webp"])
    }

    /// The clipboard's BMP: opaque as 24 bits, with transparency as 32-bit V5 bitfields; both
    /// read back exactly by SwiftPaint's decoder and by Pillow; a picture past the limit is
    /// not written.
    @Test func bmpForTheClipboardIsReadBackExactly() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let opaque = Self.smooth(width: 34, height: 7)  // 102 bytes a row: padded to 104
        let clear = Self.smooth(width: 34, height: 7, alpha: true)
        var paths: [String] = []
        for (name, image, alpha) in [("opaque.bmp", opaque, false), ("alpha.bmp", clear, true)] {
            let bytes = try #require(BMPEncoder.encode(image, withAlpha: alpha))
            #expect(bytes.count == (alpha ? 14 + 124 + 34 * 4 * 7 : 14 + 40 + 104 * 7), "\(name)")
            #expect(bytes.count == BMPEncoder.byteCount(width: 34, height: 7, withAlpha: alpha))
            let decoded = try ImageDecoder.decode(bytes, name: name)
            #expect(decoded.hasAlpha == alpha, "\(name)")
            // Straight 8-bit pixels: premultiplied ones come back as they were made.
            #expect(decoded.image == image, "\(name)")
            let path = folder.file(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let pillow = try Reference.pillow(paths)
        #expect(pillow[paths[0]]?.mode == "RGB" && pillow[paths[0]]?.rgba == Reference.straightRGBA(opaque))
        #expect(pillow[paths[1]]?.mode == "RGBA" && pillow[paths[1]]?.rgba == Reference.straightRGBA(clear))
        #expect(BMPEncoder.byteCount(width: 8192, height: 8192, withAlpha: false) != nil)
        #expect(BMPEncoder.byteCount(width: 8193, height: 8192, withAlpha: true) == nil, "past 256 MiB")
        #expect(BMPEncoder.byteCount(width: Int.max / 2, height: 4, withAlpha: true) == nil)
    }
}

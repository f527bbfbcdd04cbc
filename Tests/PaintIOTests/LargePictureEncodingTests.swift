import CWebP
import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A picture larger than a 2560 x 1440 screen is written with libwebp's fastest method
/// (`WebPCodec.effort`) and read in place when opaque: the files still hold exactly the pixels
/// (lossless WebP, and PNG beside it) or come close (lossy), read back with Pillow.
@Suite struct LargePictureEncodingTests {
    /// 2600 x 1440, just over the threshold: smooth color, a little noise, and (with `alpha`)
    /// a transparent-to-opaque ramp across the right half.
    static func picture(alpha: Bool) -> PixelImage {
        let (width, height) = (2600, 1440)
        var image = PixelImage(width: width, height: height)
        var state: UInt32 = 7
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = UInt8(truncatingIfNeeded: state >> 29)
                    let a = alpha && x >= width / 2 ? UInt8((x - width / 2) * 255 / (width / 2 - 1)) : 255
                    let straight = Pixel.pack(
                        r: UInt8(x * 200 / width) &+ noise, g: UInt8(y * 200 / height) &+ noise, b: 90 &+ noise * 3,
                        a: a)
                    pixels[y * width + x] = Pixel.premultiply(straight)
                }
            }
        }
        return image
    }

    /// Straight RGBA bytes, as Pillow gives them (`Reference.straightRGBA`, in one buffer).
    static func straight(_ image: PixelImage) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.pixels.count * 4)
        out.withUnsafeMutableBufferPointer { bytes in
            for (i, p) in image.pixels.enumerated() {
                let (r, g, b, a) = Pixel.unpack(Pixel.unpremultiply(p))
                (bytes[i * 4], bytes[i * 4 + 1], bytes[i * 4 + 2], bytes[i * 4 + 3]) = (r, g, b, a)
            }
        }
        return out
    }

    @Test func aLargePictureTakesTheFastestMethodAndASmallOneLibwebpsDefault() {
        #expect(WebPCodec.effort(pixels: 2560 * 1440) == (4, 70))
        #expect(WebPCodec.effort(pixels: 1920 * 1080) == (4, 70))
        #expect(WebPCodec.effort(pixels: 2600 * 1440) == (0, 50))
        #expect(WebPCodec.effort(pixels: 4000 * 3000) == (0, 50))
    }

    /// A small picture's WebP is byte for byte what libwebp's one-call encoders write (as every
    /// save wrote before the method depended on the size).
    @Test func aSmallPicturesWebPIsLibwebpsOneCallEncoders() throws {
        let image = EncodingTests.smooth()
        var opaque = image.pixels
        let stride = Int32(image.width * 4)
        func oneCall(lossy: Bool) -> [UInt8] {
            var output: UnsafeMutablePointer<UInt8>?
            let size = opaque.withUnsafeMutableBytes { raw -> Int in
                let bgra = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return lossy
                    ? WebPEncodeBGRA(bgra, Int32(image.width), Int32(image.height), stride, 80, &output)
                    : WebPEncodeLosslessBGRA(bgra, Int32(image.width), Int32(image.height), stride, &output)
            }
            defer { WebPFree(output) }
            return output.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        }
        for i in opaque.indices { opaque[i] |= 0xFF00_0000 }
        #expect(try WebPCodec.encode(image, quality: nil, withAlpha: false) == oneCall(lossy: false))
        #expect(try WebPCodec.encode(image, quality: 80, withAlpha: false) == oneCall(lossy: true))
    }

    @Test func aLargePictureIsWrittenExactlyLosslessAndCloseLossy() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let clear = Self.picture(alpha: true)
        let opaque = Self.picture(alpha: false)
        let cases: [(String, PixelImage, SaveOptions, Bool)] = [
            ("alpha.webp", clear, SaveOptions(format: .webp), true),
            ("opaque.webp", opaque, SaveOptions(format: .webp), false),
            ("lossy.webp", opaque, SaveOptions(format: .webp, quality: 90, lossless: false), false),
            ("alpha.png", clear, SaveOptions(format: .png), true),
            ("opaque.png", opaque, SaveOptions(format: .png), false),
        ]
        var paths: [String] = []
        for (name, image, options, alpha) in cases {
            paths.append(folder.file(name))
            try ImageFile.save(image, to: folder.file(name), options: options, withAlpha: alpha)
        }
        let decoded = try Reference.pillow(paths)
        let (clearBytes, opaqueBytes) = (Self.straight(clear), Self.straight(opaque))
        for ((name, _, options, alpha), path) in zip(cases, paths) {
            let file = try #require(decoded[path], "\(name)")
            #expect(file.width == 2600 && file.height == 1440 && file.mode == (alpha ? "RGBA" : "RGB"), "\(name)")
            let expected = alpha ? clearBytes : opaqueBytes
            if options.format == .webp && !options.lossless {
                let psnr = Reference.psnr(file.rgba, expected)
                #expect(psnr > 30, "\(name): \(psnr) dB")
            } else {
                #expect(Reference.differingPixels(file.rgba, expected) == 0, "\(name) holds exactly the pixels")
            }
        }
    }
}

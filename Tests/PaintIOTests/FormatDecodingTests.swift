import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// JPEG, WebP, GIF and BMP files written by Pillow or by hand (Tests/Fixtures/formats.py), opened
/// by SwiftPaint and compared with the reference decoder's pixels.
@Suite struct FormatDecodingTests {
    struct Entry {
        var name: String
        var file: String
        var width: Int
        var height: Int
        var alpha: Bool
        var tolerance: Int
    }

    static let fixtures: (folder: String, entries: [Entry]) = {
        do {
            let (folder, list) = try Reference.fixtures("formats.py")
            return (
                folder,
                list.map { item in
                    Entry(
                        name: item["name"] as? String ?? "", file: item["file"] as? String ?? "",
                        width: item["width"] as? Int ?? 0, height: item["height"] as? Int ?? 0,
                        alpha: item["alpha"] as? Bool ?? false, tolerance: item["tolerance"] as? Int ?? 0)
                }
            )
        } catch {
            Issue.record("the fixtures could not be made: \(error)")
            return ("", [])
        }
    }()

    static func check(_ prefix: String, format: ImageFormat) throws {
        let entries = fixtures.entries.filter { $0.name.hasPrefix(prefix) }
        #expect(!entries.isEmpty)
        for entry in entries {
            let bytes = Support.get(fixtures.folder + "/" + entry.file) ?? []
            // By content: the name is given without its extension, so it cannot help.
            let decoded = try ImageDecoder.decode(bytes, name: entry.name)
            #expect(decoded.format == format, "\(entry.name)")
            #expect(decoded.hasAlpha == entry.alpha, "\(entry.name): hasAlpha")
            #expect(
                decoded.image.width == entry.width && decoded.image.height == entry.height,
                "\(entry.name): \(decoded.image.width) x \(decoded.image.height)")
            let want = Reference.premultiplied(Support.get(fixtures.folder + "/" + entry.name + ".rgba") ?? [])
            let worst = zip(decoded.image.pixels, want).map { PNGConformanceTests.channelDistance($0, $1) }.max() ?? 0
            #expect(
                decoded.image.pixels.count == want.count && worst <= entry.tolerance, "\(entry.name): off by \(worst)")
        }
    }

    @Test func jpegOpensAsLibjpegTurboDecodesItUprightAndInSRGB() throws {
        try Self.check("jpeg-", format: .jpeg)
        // Orientations 5 to 8 stand the 61 x 37 picture on its side.
        #expect(Self.fixtures.entries.filter { $0.name.hasPrefix("jpeg-orientation-") && $0.width == 37 }.count == 4)
    }

    @Test func webpOpensWithAlphaAndTheFirstFrameOfAnAnimation() throws {
        try Self.check("webp-", format: .webp)
    }

    @Test func gifOpensAsItsFirstFrameOnTheLogicalScreen() throws {
        try Self.check("gif-", format: .gif)
    }

    @Test func bmpOpensInEveryDepthAndLayout() throws {
        try Self.check("bmp-", format: .bmp)
        #expect(Self.fixtures.entries.filter { $0.name.hasPrefix("bmp-") }.count == 15)
    }

    @Test func theDecoderGoesByContentNotByName() throws {
        let jpeg = try #require(Self.fixtures.entries.first { $0.name == "jpeg-baseline" })
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let disguised = folder.file("photo.png")
        Support.put(Support.get(Self.fixtures.folder + "/" + jpeg.file) ?? [], disguised)
        let opened = try ImageFile.open(path: disguised)
        #expect(opened.picture.format == .jpeg)
        #expect(opened.picture.image.width == jpeg.width)
    }
}

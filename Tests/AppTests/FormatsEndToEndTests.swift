import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing

/// Pictures of every format through the real window: opened (JPEG, WebP, BMP, GIF, an RGBA PNG)
/// and shown as the decoder reads them, transparency over the checkerboard; saved as .png,
/// .webp and .jpg; the files' formats, pixels and alpha checked.
@Suite(.serialized) struct FormatsEndToEndTests: CanvasChecks {
    /// Formats do not depend on how pixels reach the server: one configuration.
    static var config: ServerConfig { .standard }

    /// `picture` as the window shows it: over the 8-pixel checkerboard where it is not opaque.
    static func shown(_ picture: PixelImage) -> PixelImage {
        var out = picture
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let checker: UInt32 = ((x >> 3) ^ (y >> 3)) & 1 == 0 ? 0xFFFF_FFFF : 0xFFCC_CCCC
                out[x, y] = Pixel.over(picture[x, y], backdrop: checker)
            }
        }
        return out
    }

    /// Opens `file` in the window, checks the screen, saves it as `target` (answering the JPEG
    /// quality question with the default) after `edit`, and returns the picture as the window
    /// had it when it saved.
    func openAndSave(
        _ file: String, as target: String, edit: (PaintWindow) throws -> Void = { _ in }
    ) throws -> DecodedImage {
        let picture = try ImageFile.open(path: file).picture
        let (w, h) = (picture.image.width, picture.image.height)
        let paint = try PaintWindow(Self.config, arguments: [file], imageWidth: w, imageHeight: h)
        defer { paint.stop() }
        let name = (file as NSString).lastPathComponent
        #expect(paint.title == "\(name) — SwiftPaint", "\(paint.title ?? "nil")")
        expectCanvas(paint, equals: Self.shown(picture.image), "\(name) on screen")
        try edit(paint)
        try paint.key("s", modifiers: [.control, .shift])
        try paint.waitForFileDialog("the Save as dialog")
        try paint.key("a", modifiers: [.control])
        try paint.client.typeText(target)
        try paint.key("Return")
        // For a JPEG or WebP the quality question follows (the prompt again, yellow): Enter
        // takes the offered 90 (WebP: 100, lossless). The program reads keys in order, so the
        // second Enter answers it.
        if target.hasSuffix(".jpg") || target.hasSuffix(".webp") { try paint.key("Return") }
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "\((target as NSString).lastPathComponent) — SwiftPaint" }
                != nil, "saved: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        return picture
    }

    @Test func everyFormatOpensAndSavesWithItsPixelsAndAlpha() throws {
        let fixtures = try Reference.fixtures("formats.py")
        defer { try? FileManager.default.removeItem(atPath: fixtures.folder) }
        let dir = try scratchFolder()
        func fixture(_ name: String) -> String { fixtures.folder + "/" + name }

        // An RGBA PNG: a red half, a transparent half, a band of 50 % blue. The eraser clears a
        // line of it in the window; saved as WebP (lossless by default), alpha and all.
        var rgba = PixelImage(width: 64, height: 40)
        for y in 0..<40 {
            for x in 0..<64 {
                rgba[x, y] =
                    y >= 32 ? Pixel.premultiply(Pixel.pack(r: 0, g: 0, b: 255, a: 128)) : x < 32 ? 0xFFDC_1E14 : 0
            }
        }
        let png = dir.file("logo.png")
        try ImageFile.save(rgba, to: png, withAlpha: true)
        _ = try openAndSave(png, as: dir.file("logo.webp")) { paint in
            try paint.key("e")
            try paint.drag(image: line(from: (2, 10), to: (60, 10)))
            try paint.waitForModified(true)
        }
        let webp = try ImageFile.open(path: dir.file("logo.webp")).picture
        #expect(webp.format == .webp && webp.hasAlpha)
        var erased = rgba
        for x in 0..<64 { for y in 6..<15 { erased[x, y] = webp.image[x, y] } }
        #expect(webp.image == erased, "the WebP holds the picture exactly outside the erased line")
        #expect(webp.image[20, 10] == 0, "the eraser made the red transparent")

        // JPEG → PNG: the decoder's pixels exactly, opaque.
        let jpeg = try openAndSave(fixture("jpeg-baseline.jpg"), as: dir.file("photo.png"))
        let fromJPEG = try ImageFile.open(path: dir.file("photo.png")).picture
        #expect(fromJPEG.format == .png && !fromJPEG.hasAlpha && fromJPEG.image == jpeg.image)

        // GIF with a transparent color → PNG with alpha.
        let gif = try openAndSave(fixture("gif-transparent.gif"), as: dir.file("anim.png"))
        let fromGIF = try ImageFile.open(path: dir.file("anim.png")).picture
        #expect(gif.hasAlpha && fromGIF.hasAlpha && fromGIF.image == gif.image)

        // WebP with alpha → JPEG: flattened onto white, no alpha, at quality 90.
        let lossless = try openAndSave(fixture("webp-lossless-rgba.webp"), as: dir.file("shot.jpg"))
        let decoded = try Reference.pillow([dir.file("shot.jpg")])[dir.file("shot.jpg")]
        #expect(decoded?.format == "JPEG" && decoded?.mode == "RGB")
        let flattened = ImageEncoder.flattened(lossless.image, onto: Color.white.pixel)
        #expect(Reference.psnr(decoded?.rgba ?? [], Reference.straightRGBA(flattened)) > 25)
        // Exactly the picture flattened onto white at quality 90 (libjpeg is deterministic).
        let written = [UInt8](FileManager.default.contents(atPath: dir.file("shot.jpg")) ?? Data())
        #expect(written == (try JPEGCodec.encode(flattened, quality: 90)))

        // BMP → WebP: opaque, exact.
        let bmp = try openAndSave(fixture("bmp-24.bmp"), as: dir.file("old.webp"))
        let fromBMP = try ImageFile.open(path: dir.file("old.webp")).picture
        #expect(!fromBMP.hasAlpha && fromBMP.image == bmp.image)
    }
}

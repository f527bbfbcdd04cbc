import CX11
import Foundation
import PaintCore
import PaintIO
import Testing
import XDriver

/// What other programs put on the clipboard besides a PNG: a JPEG, BMP, WebP or GIF offered
/// alone, a file copied in a file manager (`text/uri-list`, `x-special/gnome-copied-files`),
/// each pasted with Ctrl+V as its picture (xclip, which offers the one target it is given);
/// and the picture copied handed to a clipboard manager when the window closes.
@Suite("Clipboard formats end to end", .serialized)
struct ClipboardFormatsTests: CanvasChecks {
    typealias E = ClipboardEndToEndTests
    static let size = E.size

    /// Two colors side by side, 90 x 60: every format keeps them (JPEG nearly).
    static let sticker: PixelImage = {
        var image = PixelImage(width: 90, height: 60, fill: Color(r: 200, g: 40, b: 160).pixel)
        for y in 0..<60 {
            for x in 45..<90 { image[x, y] = Color(r: 30, g: 160, b: 90).pixel }
        }
        return image
    }()

    /// Writes the sticker as `format` (BMP and GIF by Pillow: SwiftPaint writes neither).
    static func write(_ format: String, to path: String) throws {
        switch format {
        case "jpeg": _ = try ImageFile.save(sticker, to: path, options: SaveOptions(format: .jpeg), withAlpha: false)
        case "webp": _ = try ImageFile.save(sticker, to: path, options: SaveOptions(format: .webp), withAlpha: false)
        default:
            let png = path + ".png"
            try ImageFile.save(sticker, to: png, withAlpha: false)
            let python = try ChildProcess.run(
                Reference.python,
                [
                    "-c", "import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2], sys.argv[3])",
                    png, path, format.uppercased(),
                ])
            #expect(python.succeeded, "Pillow could not write the \(format): \(python.stderrText)")
        }
    }

    /// Ctrl+V (and Enter to put it down) until the canvas shows `sticker` at the corner.
    func pasteUntilShown(_ paint: PaintWindow, _ sticker: PixelImage, _ what: String) {
        var expected = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)
        for y in 0..<sticker.height {
            for x in 0..<sticker.width { expected[x, y] = sticker[x, y] }
        }
        var last: ScreenCapture?
        let pasted = Wait.until(poll: .milliseconds(200)) {
            try? paint.key("v", modifiers: [.control])
            try? paint.key("Return")
            guard let shot = try? paint.captureCanvas() else { return false }
            last = shot
            return differences(screen: shot, file: expected, limit: 1).isEmpty
        }
        let diff = last.map { differences(screen: $0, file: expected) } ?? ["no capture"]
        #expect(pasted, "\(what) never showed:\n\(diff.joined(separator: "\n"))\n\(paint.app.outputSummary)")
    }

    @Test(
        "Ctrl+V: a JPEG, BMP, WebP or GIF offered alone pastes as its picture",
        arguments: [("jpeg", "image/jpeg"), ("bmp", "image/bmp"), ("webp", "image/webp"), ("gif", "image/gif")])
    func pictureFormats(format: String, target: String) throws {
        let dir = try scratchFolder()
        let file = dir.file("sticker.\(format)")
        try Self.write(format, to: file)
        // The picture as SwiftPaint decodes the file: exact for all but JPEG, whose pixels are
        // also checked to be near the sticker's.
        let decoded = try ImageFile.load(path: file)
        #expect(decoded.width == 90 && decoded.height == 60)
        if format != "jpeg" { #expect(decoded == Self.sticker, "\(format) keeps the colors exactly") }
        let near = Pixel.unpack(decoded[10, 30])
        #expect(abs(Int(near.r) - 200) < 8 && abs(Int(near.g) - 40) < 8 && abs(Int(near.b) - 160) < 8)
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"],
            imageWidth: Self.size.w, imageHeight: Self.size.h)
        defer { paint.stop() }
        let owner = try E().xclip(paint, ["-selection", "clipboard", "-t", target, "-i", file], background: true)
        defer { owner.child.killAndReap() }
        pasteUntilShown(paint, decoded, "the \(format) from the clipboard")
        try paint.key("Return")
        try paint.waitForModified(true)
    }

    /// The sticker in other colors: each format an owner offers holds a different picture, so
    /// the one pasted says which format was taken.
    static func sticker(_ left: Color, _ right: Color) -> PixelImage {
        var image = PixelImage(width: 90, height: 60, fill: left.pixel)
        for y in 0..<60 {
            for x in 45..<90 { image[x, y] = right.pixel }
        }
        return image
    }

    /// Ctrl+V once, serving `owner` until the canvas shows `sticker` at the corner.
    func pasteServed(_ paint: PaintWindow, _ owner: FormatsClipboardOwner, _ sticker: PixelImage, _ what: String) throws
    {
        var expected = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)
        for y in 0..<sticker.height {
            for x in 0..<sticker.width { expected[x, y] = sticker[x, y] }
        }
        try pasteServed(paint, serve: { owner.serve() }, until: expected, what)
    }

    /// An owner offering a picture in several formats (as GTK programs do: every format they
    /// can write, converted on request): Ctrl+V takes the PNG whatever the order of its
    /// TARGETS (lossless, alpha); without a PNG the BMP (lossless) before the JPEG (lossy),
    /// as GIMP's paste ranks them. Each format holds a different picture, so the screen shows
    /// which was taken, and the owner records what it was asked for.
    @Test("Ctrl+V: of JPEG, BMP and PNG offered the PNG is taken; of JPEG and BMP the BMP", arguments: [true, false])
    func preferenceAmongOfferedFormats(shm: Bool) throws {
        let (red, green, blue, gold) = (
            Color(r: 200, g: 30, b: 40), Color(r: 30, g: 170, b: 60), Color(r: 40, g: 60, b: 210),
            Color(r: 230, g: 180, b: 20)
        )
        let pngPicture = Self.sticker(red, green)
        let bmpPicture = Self.sticker(blue, gold)
        let jpegPicture = Self.sticker(gold, red)
        let png = try PNGCodec.encode(pngPicture, withAlpha: false)
        let bmp = try #require(BMPEncoder.encode(bmpPicture, withAlpha: false))
        let jpeg = try JPEGCodec.encode(jpegPicture, quality: 95)
        let paint = try PaintWindow(
            ServerConfig(depth: 24, shm: shm), arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"],
            imageWidth: Self.size.w, imageHeight: Self.size.h)
        defer { paint.stop() }
        let display = paint.session.server.displayName
        do {
            let owner = try FormatsClipboardOwner(
                displayName: display,
                offering: [("image/jpeg", jpeg), ("image/bmp", bmp), ("image/png", png)])
            try pasteServed(paint, owner, pngPicture, "the PNG of three formats")
            #expect(owner.asked == ["TARGETS", "image/png"], "\(owner.asked)")
        }
        try paint.key("Return")
        let owner = try FormatsClipboardOwner(
            displayName: display, offering: [("image/jpeg", jpeg), ("image/bmp", bmp)])
        try pasteServed(paint, owner, bmpPicture, "the BMP of JPEG and BMP")
        #expect(owner.asked == ["TARGETS", "image/bmp"], "\(owner.asked)")
    }

    /// Ctrl+C offers the picture as image/bmp too (LibreOffice and Wine programs ask for it):
    /// made when asked, the picture's exact pixels as Pillow reads them.
    @Test("Ctrl+C: another program reads the picture as image/bmp, its exact pixels")
    func copyOffersBMP() throws {
        let dir = try scratchFolder()
        let file = dir.file("sticker.png")
        try ImageFile.save(Self.sticker, to: file, withAlpha: false)
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "90x60", file], imageWidth: 90, imageHeight: 60)
        defer { paint.stop() }
        expectCanvas(paint, equals: Self.sticker, "the opened sticker")
        try paint.key("c", modifiers: [.control])
        var offered = ""
        let owned = Wait.until(poll: .milliseconds(50)) {
            guard let targets = try? E().xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]),
                targets.status == .exited(0)
            else { return false }
            offered = String(decoding: targets.output, as: UTF8.self)
            return offered.contains("image/png")
        }
        #expect(owned, "the program never took the clipboard: \(paint.app.outputSummary)")
        let lines = offered.split(separator: "\n").map(String.init)
        #expect(
            ["image/png", "image/bmp", "image/x-bmp", "image/x-MS-bmp"].allSatisfy(lines.contains),
            "targets: \(offered)")
        let read = try E().xclip(paint, ["-selection", "clipboard", "-t", "image/bmp", "-o"])
        #expect(read.status == .exited(0), "xclip: \(String(describing: read.status))")
        let bmp = dir.file("read.bmp")
        try Data(read.output).write(to: URL(fileURLWithPath: bmp))
        #expect(read.output.prefix(2).elementsEqual("BM".utf8) && read.output.count == 14 + 40 + 272 * 60)
        let pillow = try Reference.pillow([bmp])[bmp]
        #expect(pillow?.format == "BMP" && pillow?.mode == "RGB", "\(String(describing: pillow?.format))")
        #expect(pillow?.rgba == Reference.straightRGBA(Self.sticker), "Pillow reads the sticker's exact pixels")
        #expect((try? ImageFile.load(path: bmp)) == Self.sticker, "and so does SwiftPaint")
    }

    @Test(
        "Ctrl+V: a picture file copied in a file manager pastes its picture",
        arguments: ["text/uri-list", "x-special/gnome-copied-files"])
    func copiedFile(target: String) throws {
        let dir = try scratchFolder()
        // A name a URI must escape.
        let file = dir.file("my sticker %.png")
        try ImageFile.save(Self.sticker, to: file, withAlpha: false)
        let escaped = file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file
        let list = dir.file("list")
        let text =
            target == "text/uri-list" ? "# copied\r\nfile://\(escaped)\r\n" : "copy\nfile://\(escaped)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: list))
        let paint = try PaintWindow(
            ServerConfig(depth: 24, shm: false), arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"],
            imageWidth: Self.size.w, imageHeight: Self.size.h)
        defer { paint.stop() }
        let owner = try E().xclip(paint, ["-selection", "clipboard", "-t", target, "-i", list], background: true)
        defer { owner.child.killAndReap() }
        pasteUntilShown(paint, Self.sticker, "the copied file's picture")
    }

    @Test("Ctrl+C then closing the window: a clipboard manager is handed the picture (SAVE_TARGETS)")
    func handedToAClipboardManager() throws {
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "90x60"], imageWidth: 90, imageHeight: 60)
        defer { paint.stop() }
        let manager = try FakeClipboardManager(displayName: paint.session.server.displayName)
        // A stroke, so the picture handed over is not just white.
        try paint.drag(image: [(10, 10), (40, 30), (70, 40)])
        try paint.waitForModified(true)
        try paint.key("c", modifiers: [.control])
        #expect(manager.waitForClipboardOwner())
        // The picture as copied, read the way any program reads it, before the window closes.
        let copied = try E().xclip(paint, ["-selection", "clipboard", "-t", "image/png", "-o"]).output
        #expect(!copied.isEmpty)
        try manager.closeDiscarding(paint)
        #expect(manager.saved == copied, "the manager holds the PNG copied")
        #expect(manager.targetsAsked == ["image/png"], "\(manager.targetsAsked)")
        #expect(manager.offered.contains("image/png") && manager.offered.contains("MULTIPLE"), "\(manager.offered)")
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Pictures in and out of the window: transparency kept end to end, the format chosen by the
/// name, `.png` added to a bare name, a question for an extension SwiftPaint does not write, the
/// JPEG quality asked and remembered, and what a format loses said once.
@Suite struct FormatsTests {
    typealias T = SessionTests
    static let red = Pixel.pack(r: 220, g: 30, b: 20, a: 255)

    /// 40 x 30: the left half opaque red, the right half fully transparent, a band of 50 % blue.
    static func transparentPicture() -> PixelImage {
        var image = PixelImage(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                image[x, y] = x < 20 ? red : 0
                if y >= 24 { image[x, y] = Pixel.premultiply(Pixel.pack(r: 0, g: 0, b: 255, a: 128)) }
            }
        }
        return image
    }

    /// A session showing the picture at `path` as the program opens it.
    static func opened(_ path: String) throws -> Session {
        let s = T.makeSession()
        let loaded = try DocumentLoader.load(path, options: CommandLineOptions())
        s.install(loaded.document, message: loaded.message, journal: nil)
        return s
    }

    /// A red 32 x 24 JPEG written at `file`, then opened.
    static func openedRedJPEG(_ file: String) throws -> Session {
        try ImageFile.save(
            PixelImage(width: 32, height: 24, fill: Self.red), to: file, options: SaveOptions(format: .jpeg),
            withAlpha: false)
        return try Self.opened(file)
    }

    /// Replaces the open prompt's text with `text` and presses Enter.
    static func answerPrompt(_ s: Session, _ text: String) {
        for _ in 0..<200 { s.handle(.key(.backspace, modifiers: [])) }
        for c in text { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
    }

    static func saveAs(_ s: Session, _ name: String) {
        T.key(s, "s", [.control, .shift])
        T.typeInDialog(s, name)
    }

    @Test func aPictureWithAlphaOpensOverTransparencyPaintsExactlyErasesAndSavesWithAlpha() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/logo.png"
        let picture = Self.transparentPicture()
        try ImageFile.save(picture, to: file, withAlpha: true)

        let s = try Self.opened(file)
        #expect(s.engine.background == .transparent)
        #expect(s.engine.flattenedImage() == picture, "opened exactly, alpha kept")
        // The transparent half shows the checkerboard, not white.
        let view = Array(s.engine.viewPixels)
        #expect(view[5 * 40 + 30] != Color.white.pixel && view[5 * 40 + 30] >> 24 == 255)
        #expect(view[5 * 40 + 30] != view[5 * 40 + 38], "two checker cells differ")

        // Black at 50 %: over the opaque red the 127/128 rule, over transparency half black.
        T.key(s, "5")
        T.drag(s, [(2, 10), (37, 10)])
        let painted = s.engine.flattenedImage()
        let onRed = Pixel.unpack(painted[10, 10])
        #expect(onRed.a == 255 && (onRed.r == 110 || onRed.r == 111), "\(onRed)")
        let onClear = Pixel.unpack(painted[30, 10])
        #expect(onClear.r == 0 && onClear.g == 0 && onClear.b == 0 && (onClear.a == 127 || onClear.a == 128))

        // The eraser at 100 % makes it transparent again.
        T.key(s, "0")
        T.key(s, "e")
        T.drag(s, [(2, 4), (37, 4)])
        let erased = s.engine.flattenedImage()
        #expect(erased[10, 4] == 0 && erased[30, 4] == 0)

        T.key(s, "s", .control)
        #expect(s.message.hasPrefix("Saved to"), "\(s.message)")
        let reopened = try ImageFile.open(path: file).picture
        #expect(reopened.hasAlpha && reopened.format == .png)
        #expect(reopened.image == s.engine.flattenedImage(), "saved with its alpha, exactly")
    }

    @Test func aPictureWithoutAlphaStaysOpaque() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.jpg"
        let s = try Self.openedRedJPEG(file)
        #expect(s.engine.background == .color(.white))
        #expect(s.document.format == .jpeg)
        T.key(s, "e")
        T.drag(s, [(2, 10), (30, 10)])
        #expect(s.engine.flattenedImage().isOpaque, "the eraser shows the white background")
        #expect(s.engine.flattenedImage()[10, 10] == Color.white.pixel)
    }

    @Test func aNameWithoutExtensionIsSavedAsPNG() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession()
        T.drag(s, [(20, 20), (60, 40)])
        Self.saveAs(s, dir + "/drawing1")
        #expect(s.path == dir + "/drawing1.png")
        #expect(FileManager.default.fileExists(atPath: dir + "/drawing1.png"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/drawing1"))
        #expect(try ImageFile.open(path: dir + "/drawing1.png").picture.format == .png)
    }

    @Test func anUnknownExtensionAsksAndTheJPEGQualityIsAskedAndRemembered() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession()
        T.drag(s, [(20, 20), (60, 40)])
        Self.saveAs(s, dir + "/pic.xyz")
        #expect(s.mode == .chooseFormat(dir + "/pic.xyz", then: nil))
        #expect(s.mode.answers == [.png, .jpeg, .webp, .cancel])
        T.key(s, "j")
        guard case .qualityPrompt(let field, let target, nil) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(field.text == "90" && target == dir + "/pic.xyz.jpg")
        Self.answerPrompt(s, "75")
        #expect(s.mode == .normal && s.message.hasPrefix("Saved to"), "\(s.message)")
        let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/pic.xyz.jpg") ?? Data())
        #expect(ImageFormat.sniff(bytes) == .jpeg)
        #expect(s.settings.jpegQuality == 75)
        // The next JPEG offers 75; a wrong number keeps the question open.
        Self.saveAs(s, dir + "/other.jpeg")
        guard case .qualityPrompt(let next, _, _) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(next.text == "75")
        Self.answerPrompt(s, "250")
        #expect(s.message == "The quality is a whole number from 1 to 100")
        guard case .qualityPrompt = s.mode else {
            Issue.record("the question closed: \(s.mode)")
            return
        }
        s.handle(.key(.escape, modifiers: []))
        #expect(s.message == "Save cancelled" && !FileManager.default.fileExists(atPath: dir + "/other.jpeg"))
    }

    /// Saving as WebP asks a quality as JPEG does (it was always lossless: a photo came out
    /// five times the size of its JPEG, with no way to choose): 100, offered first, keeps every
    /// pixel; a lower number writes a lossy WebP, remembered for the next one. The number
    /// offered is selected, so typing replaces it (typing 75 after the 90 shown made 9075);
    /// a message from before no longer hides the prompt's keys.
    @Test func saveAsWebPAsksTheQualityAndTypingReplacesTheNumberOffered() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession(width: 160, height: 120)
        // A photo: smooth gradients a lossy encoder writes smaller than a lossless one.
        var photo = PixelImage(width: 160, height: 120)
        for y in 0..<120 {
            for x in 0..<160 {
                // With grain, as a photo has: no predictor guesses it.
                let grain = (x &* 7_919 ^ y &* 104_729) % 23
                photo[x, y] =
                    Color(r: UInt8(x * 200 / 159 + grain), g: UInt8(y * 200 / 119 + grain), b: UInt8((x + y) / 2)).pixel
            }
        }
        s.pasteNow(png: try PNGCodec.encode(photo, withAlpha: false))
        s.handle(.key(.enter, modifiers: []))
        s.setMessage("Nothing to undo")
        Self.saveAs(s, dir + "/shot.webp")
        guard case .qualityPrompt(let field, let target, nil) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(field.text == "100" && field.selection == 0..<3 && target == dir + "/shot.webp")
        #expect(s.message.isEmpty, "the older message is gone: \(s.message)")
        let strip = s.renderStatus(measure: FixedWidthMeasurer())
        #expect(strip.texts.contains { $0.text.hasPrefix("WebP quality for “shot.webp” (1–100, 100 lossless):") })
        #expect(strip.texts.contains { $0.text.hasPrefix("Enter: save") }, "the keys are shown")
        for c in "60" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.mode == .normal && s.message.hasPrefix("Saved to"), "\(s.message)")
        #expect(s.settings.webpQuality == 60 && s.settings.jpegQuality == 90)
        let lossy = try ImageFile.open(path: dir + "/shot.webp").picture
        #expect(lossy.format == .webp && lossy.image != s.engine.flattenedImage(), "lossy at 60")
        // The next WebP offers 60; 100 writes every pixel as it is.
        Self.saveAs(s, dir + "/exact.webp")
        guard case .qualityPrompt(let next, _, _) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(next.text == "60")
        for c in "100" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(try ImageFile.open(path: dir + "/exact.webp").picture.image == s.engine.flattenedImage())
        let sizes = try [dir + "/shot.webp", dir + "/exact.webp"].map {
            try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0
        }
        #expect(sizes[0] < sizes[1], "\(sizes)")
        // Ctrl+S on the WebP it now is asks nothing.
        T.drag(s, [(5, 5), (50, 50)])
        T.key(s, "s", .control)
        #expect(s.mode == .normal && s.message == "Saved to \(dir)/exact.webp", "\(s.message)")
        // JPEG too: the 90 offered is replaced by what is typed.
        Self.saveAs(s, dir + "/shot.jpg")
        for c in "75" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.settings.jpegQuality == 75 && s.message.hasPrefix("Saved to"), "\(s.message)")
    }

    /// Opens a JPEG, Ctrl+Shift+S, and types `typed` over the stem the dialog selected, as a
    /// person does (not over the whole name); returns the session with the dialog still up.
    static func typedOverTheStem(_ typed: String, in dir: String) throws -> Session {
        let file = dir + "/photo.jpg"
        let s = try Self.openedRedJPEG(file)
        T.drag(s, [(2, 10), (30, 10)])
        T.key(s, "s", [.control, .shift])
        #expect(s.fileDialog?.field.text == "photo.jpg" && s.fileDialog?.field.selection == 0..<5)
        for c in typed { s.handle(.key(.character(c), modifiers: [])) }
        return s
    }

    @Test func anExtensionTypedOverTheStemIsTheFormatSavedUnderExactlyThatName() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func bytes(_ name: String) -> [UInt8] {
            [UInt8](FileManager.default.contents(atPath: dir + "/" + name) ?? Data())
        }

        // WebP: the name and the dialog's format follow what was typed, and WebP's question is asked.
        let s = try Self.typedOverTheStem("annot.webp", in: dir)
        #expect(s.fileDialog?.field.text == "annot.webp" && s.fileDialog?.format == .webp)
        s.handle(.key(.enter, modifiers: []))
        guard case .qualityPrompt(_, let target, nil) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(target == dir + "/annot.webp")
        #expect(
            s.renderStatus(measure: FixedWidthMeasurer()).texts.contains {
                $0.text.hasPrefix("WebP quality for “annot.webp”")
            })
        Self.answerPrompt(s, "80")
        #expect(s.mode == .normal && s.path == dir + "/annot.webp", "\(s.message)")
        #expect(ImageFormat.sniff(bytes("annot.webp")) == .webp)
        #expect(!FileManager.default.fileExists(atPath: dir + "/annot.webp.jpg"))

        // PNG: saved at once (no question), as a PNG.
        let p = try Self.typedOverTheStem("plain.png", in: dir)
        p.handle(.key(.enter, modifiers: []))
        #expect(p.mode == .normal && p.path == dir + "/plain.png", "\(p.message)")
        #expect(
            ImageFormat.sniff(bytes("plain.png")) == .png
                && !FileManager.default.fileExists(atPath: dir + "/plain.png.jpg"))

        // No extension typed: the one kept is the format (JPEG, its quality asked).
        let j = try Self.typedOverTheStem("annot2", in: dir)
        #expect(j.fileDialog?.field.text == "annot2.jpg" && j.fileDialog?.format == .jpeg)
        j.handle(.key(.enter, modifiers: []))
        Self.answerPrompt(j, "85")
        #expect(ImageFormat.sniff(bytes("annot2.jpg")) == .jpeg)

        // A format SwiftPaint only opens: the question which format to write, as a whole name.
        let g = try Self.typedOverTheStem("anim.gif", in: dir)
        #expect(g.fileDialog?.field.text == "anim.gif")
        g.handle(.key(.enter, modifiers: []))
        #expect(g.mode == .chooseFormat(dir + "/anim.gif", then: nil))

        // An extension nobody knows is part of the name: the format shown is written, its
        // extension after it (typing the whole name `pic.xyz` asks which format instead).
        let x = try Self.typedOverTheStem("annot.xyz", in: dir)
        #expect(x.fileDialog?.field.text == "annot.xyz.jpg" && x.fileDialog?.format == .jpeg)
    }

    @Test func aFormatSwiftPaintOnlyOpensAsksAndTakesTheChosenExtension() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession()
        T.drag(s, [(20, 20), (60, 40)])
        Self.saveAs(s, dir + "/pic.gif")
        #expect(s.mode == .chooseFormat(dir + "/pic.gif", then: nil))
        T.key(s, "w")
        // The WebP quality question offers 100: lossless.
        s.handle(.key(.enter, modifiers: []))
        #expect(s.path == dir + "/pic.webp")
        #expect(try ImageFile.open(path: dir + "/pic.webp").picture.image == s.engine.flattenedImage(), "lossless")
        Self.saveAs(s, dir + "/again.bmp")
        s.handle(.key(.escape, modifiers: []))
        #expect(s.mode == .normal && !FileManager.default.fileExists(atPath: dir + "/again.png"))
    }

    @Test func savingWhereSomethingIsLostSaysSoOnce() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/logo.png"
        try ImageFile.save(Self.transparentPicture(), to: file, withAlpha: true)
        let s = try Self.opened(file)
        T.drag(s, [(2, 10), (37, 10)])
        Self.saveAs(s, dir + "/logo.jpg")
        Self.answerPrompt(s, "90")
        // The editing history is kept on this computer whatever the format (HistoryStore), so only
        // the transparency is lost.
        #expect(
            s.message == "Saved to \(dir)/logo.jpg; a JPEG file keeps no transparency (flattened onto white)",
            "\(s.message)")
        let jpeg = try ImageFile.open(path: dir + "/logo.jpg").picture
        #expect(jpeg.format == .jpeg && !jpeg.hasAlpha)
        // Ctrl+S on the JPEG it now is: no question, and the loss is not told again.
        T.drag(s, [(2, 20), (37, 20)])
        T.key(s, "s", .control)
        #expect(s.mode == .normal)
        #expect(s.message == "Saved to \(dir)/logo.jpg", "\(s.message)")
        // WebP keeps transparency: nothing is lost (100 offered: lossless).
        Self.saveAs(s, dir + "/logo.webp")
        s.handle(.key(.enter, modifiers: []))
        #expect(s.message == "Saved to \(dir)/logo.webp", "\(s.message)")
    }

    @Test func ctrlSOnAnOpenedJPEGWritesJPEGWithoutAsking() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A JPEG without an extension: saved back as the JPEG it is, under its own name.
        let file = dir + "/scan"
        let s = try Self.openedRedJPEG(file)
        T.drag(s, [(2, 10), (30, 10)])
        T.key(s, "s", .control)
        #expect(s.mode == .normal && s.message.hasPrefix("Saved to"), "\(s.mode) \(s.message)")
        let bytes = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        #expect(ImageFormat.sniff(bytes) == .jpeg)
    }

    @Test func aDocumentStartedFromAJPEGReplaysFromItsBytes() throws {
        let jpeg = try ImageEncoder.encode(
            PixelImage(width: 16, height: 16, fill: Self.red), options: SaveOptions(format: .jpeg), withAlpha: false)
        let document = try Document.replaying(
            [.operation(.clear)],
            from: HistoryReplay.Start(width: 16, height: 16, background: .color(.white), baseImage: jpeg), path: nil,
            memoryCap: 1 << 20)
        #expect(document.history.cursor == 1)
        document.history.undo(engine: document.engine)
        #expect(document.engine.flattenedImage() == (try ImageDecoder.decode(jpeg, name: "j").image))
    }
}

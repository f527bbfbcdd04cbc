import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// The WebP question offers lossy 90 for a picture opened from a lossy file (a JPEG, a lossy
/// WebP), lossless 100 for anything else; a quality the user types, or sets in settings.conf,
/// is offered from then on.
@Suite struct WebPQualityOfferTests {
    typealias T = SessionTests

    /// A photo-like 96 x 64 picture: gradients with grain.
    static let photo: PixelImage = {
        var image = PixelImage(width: 96, height: 64)
        for y in 0..<64 {
            for x in 0..<96 {
                let grain = (x &* 7_919 ^ y &* 104_729) % 23
                image[x, y] = Color(r: UInt8(x * 2 + grain), g: UInt8(y * 3 + grain), b: UInt8(x + y)).pixel
            }
        }
        return image
    }()

    /// A session showing `file` as Open shows it (read as the window reads it when `tiles`).
    static func opened(_ file: String, tiles: Bool) throws -> Session {
        let s = T.makeSession(width: 10, height: 10)
        let loaded = try DocumentLoader.load(file, options: CommandLineOptions(), historyInBackground: tiles)
        s.install(loaded.document, message: "", journal: nil, anotherPicture: true)
        return s
    }

    /// Save as `name` in `dir`, Enter on the quality offered: what was offered, and the saved
    /// file's first image chunk ("VP8 " lossy, "VP8L" lossless).
    static func saveAsWebP(_ s: Session, _ dir: String, _ name: String) throws -> (offered: String, chunk: String) {
        FormatsTests.saveAs(s, dir + "/" + name)
        guard case .qualityPrompt(let field, _, _) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return ("", "")
        }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.mode == .normal && s.message.hasPrefix("Saved to"), "\(s.message)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
        return (field.text, String(decoding: bytes[12..<16], as: UTF8.self))
    }

    @Test func aJPEGsPictureIsOfferedLossy90AndAPNGsLossless() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try JPEGCodec.encode(Self.photo, quality: 85)
        #expect(FileManager.default.createFile(atPath: dir + "/photo.jpg", contents: Data(jpeg)))
        let png = try PNGCodec.encode(Self.photo, withAlpha: false)
        #expect(FileManager.default.createFile(atPath: dir + "/shot.png", contents: Data(png)))

        let s = try Self.opened(dir + "/photo.jpg", tiles: true)
        FormatsTests.saveAs(s, dir + "/probe.webp")
        let label = s.renderStatus(measure: FixedWidthMeasurer()).texts.map(\.text).joined()
        #expect(label.contains("lossy 90 for a picture from a JPEG"), "\(label)")
        s.handle(.key(.escape, modifiers: []))
        let fromJPEG = try Self.saveAsWebP(s, dir, "photo.webp")
        #expect(fromJPEG.offered == "90" && fromJPEG.chunk == "VP8 ", "\(fromJPEG)")
        // Accepting the offer is not a choice: a PNG opened next is offered lossless.
        #expect(s.settings.webpQuality == 100)
        let p = try Self.opened(dir + "/shot.png", tiles: true)
        let fromPNG = try Self.saveAsWebP(p, dir, "shot.webp")
        #expect(fromPNG.offered == "100" && fromPNG.chunk == "VP8L", "\(fromPNG)")
        // A lossy WebP opened (either way) is offered lossy too; a lossless one lossless.
        for tiles in [false, true] {
            let lossy = try Self.saveAsWebP(
                try Self.opened(dir + "/photo.webp", tiles: tiles), dir, "again\(tiles).webp")
            #expect(lossy.offered == "90" && lossy.chunk == "VP8 ", "\(lossy)")
            let exact = try Self.saveAsWebP(
                try Self.opened(dir + "/shot.webp", tiles: tiles), dir, "exact\(tiles).webp")
            #expect(exact.offered == "100" && exact.chunk == "VP8L", "\(exact)")
        }
    }

    @Test func aQualityTypedInThisWindowIsOfferedFromThenOn() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try JPEGCodec.encode(Self.photo, quality: 85)
        #expect(FileManager.default.createFile(atPath: dir + "/photo.jpg", contents: Data(jpeg)))
        let s = try Self.opened(dir + "/photo.jpg", tiles: false)
        FormatsTests.saveAs(s, dir + "/first.webp")
        for c in "100" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        let first = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/first.webp")))
        #expect(String(decoding: first[12..<16], as: UTF8.self) == "VP8L")
        // The next question offers the 100 chosen.
        let next = try Self.saveAsWebP(s, dir, "second.webp")
        #expect(next.offered == "100" && next.chunk == "VP8L", "\(next)")
    }

    /// A `webp-quality` in settings.conf other than the default 100 was the user's (typed in
    /// an earlier run, or set by hand) and is offered for a JPEG's picture too; the 100 every
    /// run writes back is not a choice, so a JPEG's picture stays lossy 90 from one run to the next.
    @Test func aWebPQualityFromTheSettingsFileIsOfferedForAJPEGsPictureButNotTheDefault() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try JPEGCodec.encode(Self.photo, quality: 85)
        #expect(FileManager.default.createFile(atPath: dir + "/photo.jpg", contents: Data(jpeg)))
        func offered(settings text: String, _ name: String) throws -> (offered: String, chunk: String) {
            let (stored, problems) = StoredSettings.read(SettingsFile.parse(text))
            #expect(problems.isEmpty, "\(problems)")
            let s = try Self.opened(dir + "/photo.jpg", tiles: true)
            s.restore(stored)
            return try Self.saveAsWebP(s, dir, name)
        }
        let byHand = try offered(settings: "webp-quality = 75\n", "by-hand.webp")
        #expect(byHand.offered == "75" && byHand.chunk == "VP8 ", "\(byHand)")
        let chosenLossless = try offered(settings: "webp-quality = 99\n", "near-lossless.webp")
        #expect(chosenLossless.offered == "99", "\(chosenLossless)")
        let writtenBack = try offered(settings: "webp-quality = 100\n", "default.webp")
        #expect(writtenBack.offered == "90" && writtenBack.chunk == "VP8 ", "\(writtenBack)")
        // What a run that chose nothing writes is read by the next as no choice.
        let untouched = T.makeSession(width: 10, height: 10)
        let again = try offered(settings: untouched.stored.file.text(header: []), "next-run.webp")
        #expect(again.offered == "90" && again.chunk == "VP8 ", "\(again)")
        // 75 typed in one run (for a PNG's picture) is written, and offered for a JPEG's in the next.
        let png = try PNGCodec.encode(Self.photo, withAlpha: false)
        #expect(FileManager.default.createFile(atPath: dir + "/shot.png", contents: Data(png)))
        let first = try Self.opened(dir + "/shot.png", tiles: false)
        FormatsTests.saveAs(first, dir + "/shot.webp")
        for c in "75" { first.handle(.key(.character(c), modifiers: [])) }
        first.handle(.key(.enter, modifiers: []))
        #expect(first.settings.webpQuality == 75)
        let next = try offered(settings: first.stored.file.text(header: []), "typed-before.webp")
        #expect(next.offered == "75" && next.chunk == "VP8 ", "\(next)")
    }

    /// `swiftpaint --export OUT.webp IN` writes what Save As writes for IN's picture when its
    /// offer is taken (a window that has chosen no WebP quality): lossy 90 from a JPEG or a
    /// lossy WebP, lossless from a PNG or a lossless WebP, byte for byte. A `--quality` is a
    /// quality typed into the question: 100 is lossless, 70 lossy at 70. Before, --export wrote
    /// a JPEG's picture lossless (840 KB where Save As wrote 163 KB) and `--quality 100` lossy.
    @Test func exportWritesWhatSaveAsWritesForThePicture() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files: [(String, [UInt8])] = [
            ("photo.jpg", try JPEGCodec.encode(Self.photo, quality: 85)),
            ("lossy.webp", try WebPCodec.encode(Self.photo, quality: 75, withAlpha: false)),
            ("exact.webp", try WebPCodec.encode(Self.photo, quality: nil, withAlpha: false)),
            ("shot.png", try PNGCodec.encode(Self.photo, withAlpha: false)),
        ]
        for (name, bytes) in files {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes)))
        }
        func read(_ name: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
        }
        // (input, --quality or the window's offer taken, the first image chunk expected).
        let cases: [(String, Int?, String)] = [
            ("photo.jpg", nil, "VP8 "), ("lossy.webp", nil, "VP8 "), ("exact.webp", nil, "VP8L"),
            ("shot.png", nil, "VP8L"), ("photo.jpg", 100, "VP8L"), ("shot.png", 70, "VP8 "),
        ]
        for (index, (input, quality, chunk)) in cases.enumerated() {
            let what = "\(input) --quality \(quality.map(String.init) ?? "none")"
            let exported = "exported\(index).webp"
            try ImageFile.export(from: dir + "/" + input, to: dir + "/" + exported, quality: quality)
            let s = try Self.opened(dir + "/" + input, tiles: true)
            let saved = "saved\(index).webp"
            FormatsTests.saveAs(s, dir + "/" + saved)
            if let quality {
                for _ in 0..<4 { s.handle(.key(.backspace, modifiers: [])) }
                for c in String(quality) { s.handle(.key(.character(c), modifiers: [])) }
            }
            s.handle(.key(.enter, modifiers: []))
            #expect(s.message.hasPrefix("Saved to"), "\(what): \(s.message)")
            let window = try read(saved)
            let export = try read(exported)
            #expect(String(decoding: export[12..<16], as: UTF8.self) == chunk, "\(what)")
            let same = export == window
            #expect(same, "\(what): --export wrote \(export.count) bytes, Save As \(window.count)")
        }
    }

    @Test func aWebPsFirstImageChunkSaysLossyOrNot() throws {
        let lossy = try WebPCodec.encode(Self.photo, quality: 90, withAlpha: false)
        let lossless = try WebPCodec.encode(Self.photo, quality: nil, withAlpha: false)
        let alpha = try WebPCodec.encode(Self.photo, quality: 90, withAlpha: true)
        #expect(WebPCodec.isLossy(head: lossy) == true && WebPCodec.isLossy(head: lossless) == false)
        #expect(WebPCodec.isLossy(head: alpha) == true)
        #expect(WebPCodec.isLossy(head: Array(lossy.prefix(10))) == nil)
        #expect(WebPCodec.isLossy(head: Array("not a picture at all, not at all".utf8)) == nil)
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A picture opened from a JPEG is saved again at its file's quality when that is higher than
/// the one set (90 by default), as GIMP's export and ImageMagick keep it: Ctrl+S on a camera's
/// quality-97 photo no longer writes it again at 90. Accepting the offer chooses nothing; a
/// quality typed is the user's, for this picture and the next.
@Suite struct JPEGQualityKeptTests {
    typealias T = SessionTests

    /// The quality of the JPEG at `path`, as its tables tell.
    static func quality(_ path: String) -> Int? {
        JPEGQuality.estimate(head: [UInt8](FileManager.default.contents(atPath: path) ?? Data()))
    }

    /// `file` written as a JPEG at `quality` (the photo of WebPQualityOfferTests), then opened.
    static func opened(_ file: String, quality: Int) throws -> Session {
        let jpeg = try JPEGCodec.encode(WebPQualityOfferTests.photo, quality: quality)
        #expect(FileManager.default.createFile(atPath: file, contents: Data(jpeg)))
        return try WebPQualityOfferTests.opened(file, tiles: true)
    }

    @Test func ctrlSKeepsAHigherQualityOfTheFile() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/camera.jpg"
        let s = try Self.opened(file, quality: 97)
        T.drag(s, [(10, 10), (60, 40)])
        T.key(s, "s", .control)
        #expect(s.mode == .normal && s.message.hasPrefix("Saved to"), "\(s.message)")
        #expect(Self.quality(file) == 97, "written at the file's own quality, not 90")
        #expect(s.settings.jpegQuality == 90, "the setting is left as it was")
        // A lower one is saved at the quality set, as before (no larger file than asked for).
        let low = dir + "/low.jpg"
        let t = try Self.opened(low, quality: 60)
        T.drag(t, [(10, 10), (60, 40)])
        T.key(t, "s", .control)
        #expect(Self.quality(low) == 90)
    }

    @Test func saveAsOffersTheFilesQualityAndATypedOneIsTheUsers() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try Self.opened(dir + "/camera.jpg", quality: 95)
        FormatsTests.saveAs(s, dir + "/copy.jpg")
        guard case .qualityPrompt(let field, _, _) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(field.text == "95")
        s.handle(.key(.enter, modifiers: []))
        #expect(Self.quality(dir + "/copy.jpg") == 95)
        #expect(s.settings.jpegQuality == 90, "accepting the file's quality is no choice")
        // Typed lower: written so, then kept at Ctrl+S, and offered for the next picture.
        FormatsTests.saveAs(s, dir + "/small.jpg")
        FormatsTests.answerPrompt(s, "70")
        #expect(Self.quality(dir + "/small.jpg") == 70)
        T.drag(s, [(10, 10), (60, 40)])
        T.key(s, "s", .control)
        #expect(Self.quality(dir + "/small.jpg") == 70, "the quality typed, not the first file's")
        #expect(s.settings.jpegQuality == 70)
    }
}

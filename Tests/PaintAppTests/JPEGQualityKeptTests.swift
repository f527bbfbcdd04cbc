import Foundation
import PaintCore
import PaintIO
import PaintText
import TestSupport
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

    /// The color sampling of the JPEG at `path`, as its frame header tells.
    static func sampling(_ path: String) -> JPEGSampling? {
        JPEGSampling.read(head: [UInt8](FileManager.default.contents(atPath: path) ?? Data()))
    }

    /// `file` written as a JPEG at `quality` (the photo of WebPQualityOfferTests; its color
    /// `sampling`, by the quality without one), then opened.
    static func opened(_ file: String, quality: Int, sampling: JPEGSampling? = nil) throws -> Session {
        let jpeg = try JPEGCodec.encode(WebPQualityOfferTests.photo, quality: quality, sampling: sampling)
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

    /// A camera's photo (quality 97, color 4:2:0) drawn on and saved with Ctrl+S keeps its
    /// 4:2:0: the file is what libjpeg-turbo's `cjpeg -quality 97 -sample 2x2` writes for the
    /// picture, byte for byte, and smaller than the 4:4:4 it was written as before.
    @Test func ctrlSKeepsTheFilesColorSampling() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/camera.jpg"
        let s = try Self.opened(file, quality: 97, sampling: .halved)
        T.drag(s, [(10, 10), (60, 40)])
        T.key(s, "s", .control)
        #expect(s.mode == .normal && s.message.hasPrefix("Saved to"), "\(s.message)")
        #expect(Self.quality(file) == 97)
        #expect(Self.sampling(file) == .halved, "the file's 4:2:0, not 4:4:4")
        let saved = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        let picture = s.engine.flattenedImage()
        #expect(saved == (try Reference.cjpeg(picture, quality: 97, sample: "2x2")))
        #expect(saved.count < (try JPEGCodec.encode(picture, quality: 97, sampling: .full)).count)
        // A 4:2:2 file at a quality below the one set: saved at 90, its 4:2:2 kept (its color
        // is halved across already; 4:4:4 would store the interpolation).
        let wide = try #require(JPEGSampling(horizontal: 2, vertical: 1))
        let low = dir + "/low.jpg"
        let t = try Self.opened(low, quality: 60, sampling: wide)
        T.drag(t, [(10, 10), (60, 40)])
        T.key(t, "s", .control)
        #expect(Self.quality(low) == 90 && Self.sampling(low) == wide)
        // A scanner's 4:4:4 at 80 stays 4:4:4 (by the quality alone it would be halved).
        let scan = dir + "/scan.jpg"
        let u = try Self.opened(scan, quality: 80, sampling: .full)
        T.drag(u, [(10, 10), (60, 40)])
        T.key(u, "s", .control)
        #expect(Self.quality(scan) == 90 && Self.sampling(scan) == .full)
    }

    /// Save As to JPEG offers the file's sampling with its quality and, accepted, writes it; a
    /// quality typed is the user's, and the color follows it (4:4:4 from 90 up, 4:2:0 below),
    /// for that save and every later Ctrl+S.
    @Test func saveAsOffersTheFilesSamplingAndATypedQualityChoosesTheColor() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = try Self.opened(dir + "/camera.jpg", quality: 95, sampling: .halved)
        FormatsTests.saveAs(s, dir + "/copy.jpg")
        guard case .qualityPrompt(let field, _, _) = s.mode else {
            Issue.record("no quality question: \(s.mode)")
            return
        }
        #expect(field.text == "95")
        let measure = StatusMessageFitTests.DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let tail = s.qualityPromptTail(measure).tail
        let label = (tail.runs.map(\.text) + tail.cut.map(\.whole)).joined()
        #expect(label.contains("4:2:0"), "the question says the color kept: \(label)")
        s.handle(.key(.enter, modifiers: []))
        #expect(Self.quality(dir + "/copy.jpg") == 95 && Self.sampling(dir + "/copy.jpg") == .halved)
        FormatsTests.saveAs(s, dir + "/fine.jpg")
        FormatsTests.answerPrompt(s, "98")
        #expect(Self.quality(dir + "/fine.jpg") == 98 && Self.sampling(dir + "/fine.jpg") == .full)
        T.drag(s, [(10, 10), (60, 40)])
        T.key(s, "s", .control)
        #expect(Self.sampling(dir + "/fine.jpg") == .full, "the quality typed chose the color, not the file")
    }
}

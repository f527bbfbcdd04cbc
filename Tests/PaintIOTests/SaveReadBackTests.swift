import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A save with a history names it by the pixels a reader decodes from the file. Where the format
/// keeps pixels exactly (PNG, lossless WebP) they are worked out without decoding the file
/// (`ImageEncoder.decodedExactly`); these tests hold that to what the decoders really read back.
@Suite struct SaveReadBackTests {
    /// Every alpha (down) with every channel value (across), in all three channels: valid
    /// premultiplied pixels (each channel at most its alpha) and ones that are not, which a file
    /// does not give back as they were (a channel over its alpha comes back at most the alpha; a
    /// transparent one comes back 0).
    static let everyAlphaAndChannel: PixelImage = {
        var image = PixelImage(width: 256, height: 256)
        for a in 0..<256 {
            for c in 0..<256 {
                image.pixels[a * 256 + c] =
                    UInt32(a) << 24 | UInt32(c) << 16 | UInt32(255 - c) << 8 | UInt32(c * 7 % 256)
            }
        }
        return image
    }()

    static let lossless: [(name: String, options: SaveOptions)] = [
        ("PNG", SaveOptions(format: .png)), ("lossless WebP", SaveOptions(format: .webp, quality: 100, lossless: true)),
    ]

    @Test func theLosslessFormatsReadBackExactlyWhatIsWorkedOutWithoutADecode() throws {
        let picture = Self.everyAlphaAndChannel
        for (name, options) in Self.lossless {
            for withAlpha in [true, false] {
                let bytes = try ImageEncoder.encode(picture, options: options, withAlpha: withAlpha)
                let read = try ImageDecoder.decode(bytes, name: "x").image
                let worked = try #require(ImageEncoder.decodedExactly(picture, options: options, withAlpha: withAlpha))
                // (Compared first: a failure prints the two pictures' 65,536 pixels otherwise.)
                let readBackExactly = worked == read
                #expect(readBackExactly, "\(name), alpha \(withAlpha)")
                // The picture is not what the file holds: a shortcut taking it as the file's
                // pixels would be caught here.
                #expect((worked == picture) == false, "\(name), alpha \(withAlpha)")
            }
        }
        // A picture of valid premultiplied pixels is read back as it is, not copied.
        let valid = Support.opaqueImage(width: 31, height: 17)
        for (_, options) in Self.lossless {
            #expect(ImageEncoder.decodedExactly(valid, options: options, withAlpha: true) == valid)
            #expect(ImageEncoder.decodedExactly(valid, options: options, withAlpha: false) == valid)
        }
    }

    @Test func theLossyFormatsAreLeftToADecode() {
        let picture = Support.opaqueImage(width: 31, height: 17)
        for options in [SaveOptions(format: .jpeg), SaveOptions(format: .webp, quality: 90, lossless: false)] {
            #expect(ImageEncoder.decodedExactly(picture, options: options, withAlpha: false) == nil)
        }
    }

    /// The history of a picture whose file does not hold it exactly is kept under the key of the
    /// pixels the file gives back, which is where reopening looks, and its pixel hash is theirs:
    /// a history named by the picture in memory would never be found, or be refused as not
    /// replaying to the file.
    @Test func aHistoryIsKeptUnderThePixelsTheFileGivesBack() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let picture = Self.everyAlphaAndChannel
        for (name, options) in Self.lossless {
            for withAlpha in [true, false] {
                let store = HistoryStore(folder: folder.file("h-\(name)-\(withAlpha)"))
                let history = SavedHistory(
                    archive: try HistoryChunkTests.archive(strokes: 5, image: picture), store: store, portable: false)
                let file = folder.file("a-\(withAlpha).\(options.format == .png ? "png" : "webp")")
                let outcome = try ImageFile.save(
                    picture, to: file, options: options, withAlpha: withAlpha, history: history)
                #expect(outcome.problem == nil, "\(name): \(outcome.problem ?? "")")
                let reread = try ImageFile.load(path: file)
                guard case .entry(let archive, let named) = store.find(HistoryKey(of: reread)) else {
                    Issue.record("\(name), alpha \(withAlpha): no entry under the file's pixels")
                    continue
                }
                #expect(archive.matches(reread), "\(name), alpha \(withAlpha)")
                #expect(named == HistoryKey(of: picture), "\(name), alpha \(withAlpha)")
                #expect(store.find(HistoryKey(of: picture)) == .none, "\(name), alpha \(withAlpha)")
            }
        }
    }
}

import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Every kind of PNG the specification allows, written by the reference suite
/// (Tests/Fixtures/png_suite.py, which Pillow checks), opened by SwiftPaint and saved again.
@Suite struct PNGConformanceTests {
    struct Entry {
        var name: String
        var width = 0
        var height = 0
        var alpha = false
        var tolerance = 0
        var refuse: String?
    }

    /// The suite, generated once into a temporary folder.
    static let suite: (folder: String, entries: [Entry]) = {
        do {
            let (folder, list) = try Reference.fixtures("png_suite.py")
            return (
                folder,
                list.map { item in
                    Entry(
                        name: item["name"] as? String ?? "", width: item["width"] as? Int ?? 0,
                        height: item["height"] as? Int ?? 0, alpha: item["alpha"] as? Bool ?? false,
                        tolerance: item["tolerance"] as? Int ?? 0, refuse: item["refuse"] as? String)
                }
            )
        } catch {
            Issue.record("the PNG suite could not be made: \(error)")
            return ("", [])
        }
    }()

    static func bytes(_ name: String) -> [UInt8] {
        Support.get(suite.folder + "/" + name + ".png") ?? []
    }

    static func expected(_ name: String) -> [UInt8] {
        Support.get(suite.folder + "/" + name + ".rgba") ?? []
    }

    @Test func theSuiteCoversEveryKind() {
        let names = Self.suite.entries.map(\.name)
        // 2 interlace modes x 3 sizes x 26 kinds, 16 color-managed files, 15 corrupt ones.
        #expect(names.count == 2 * 3 * 26 + 16 + 15)
        for kind in [
            "gray1-", "gray2-", "gray4-", "gray16-", "pal1-trns", "pal4-", "graya16-", "rgb16-trns", "rgba16-adam7",
        ] {
            #expect(names.contains { $0.hasPrefix(kind) }, "no \(kind) file")
        }
    }

    @Test func everyValidFileOpensWithTheReferencePixels() throws {
        var wrong: [String] = []
        for entry in Self.suite.entries where entry.refuse == nil {
            let decoded = try PNGCodec.decodePicture(Self.bytes(entry.name), name: entry.name)
            let want = Reference.premultiplied(Self.expected(entry.name))
            let got = decoded.image.pixels
            #expect(decoded.image.width == entry.width && decoded.image.height == entry.height, "\(entry.name)")
            #expect(decoded.hasAlpha == entry.alpha, "\(entry.name): hasAlpha")
            let worst = zip(got, want).map { Self.channelDistance($0, $1) }.max() ?? 0
            if got.count != want.count || worst > entry.tolerance {
                wrong.append("\(entry.name) (off by up to \(worst))")
            }
        }
        #expect(wrong.isEmpty, "wrong pixels: \(wrong)")
        #expect(Self.suite.entries.count > 100)
    }

    @Test func savingEveryValidFileGivesPillowTheSamePixels() throws {
        let out = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { out.remove() }
        var saved: [(Entry, String, PixelImage)] = []
        for entry in Self.suite.entries where entry.refuse == nil {
            let decoded = try PNGCodec.decodePicture(Self.bytes(entry.name), name: entry.name)
            let path = out.file(entry.name + ".png")
            try ImageFile.save(decoded.image, to: path, withAlpha: decoded.hasAlpha)
            saved.append((entry, path, decoded.image))
        }
        let pillow = try Reference.pillow(saved.map(\.1))
        var wrong: [String] = []
        for (entry, path, image) in saved {
            guard let reference = pillow[path] else {
                wrong.append(entry.name)
                continue
            }
            // What the file must hold: the opened pixels, straight (alpha kept exactly where the
            // file had it; an opaque picture is saved as RGB).
            #expect(reference.mode == (entry.alpha ? "RGBA" : "RGB"), "\(entry.name): saved as \(reference.mode)")
            if reference.rgba != Reference.straightRGBA(image) { wrong.append(entry.name) }
        }
        #expect(wrong.isEmpty, "saved pixels differ: \(wrong)")
    }

    /// Each is refused with the reason, or (broken after its first row) opens with the rows
    /// read before, its damage said in the same words.
    @Test func corruptVariantsAreRefusedOrKeepTheirFirstRowsWithTheReason() {
        let corrupt = Self.suite.entries.filter { $0.refuse != nil }
        #expect(corrupt.count == 15)
        var opened = 0
        for entry in corrupt {
            let fault = PictureFault.decoding { () throws(ImageFileError) in
                try PNGCodec.decodePicture(Self.bytes(entry.name), name: "x.png")
            }
            if case .damaged = fault { opened += 1 }
            #expect(fault != .whole, "\(entry.name)")
            let message = fault.message ?? ""
            #expect(
                message.hasPrefix("Cannot open “x.png”: the file is \(entry.refuse ?? "")"), "\(entry.name): \(message)"
            )
        }
        // Two break in their image data after the first row; the rest before any.
        #expect(opened == 2)
    }

    /// The largest difference between two packed pixels' channels.
    static func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
        var worst = 0
        for shift in stride(from: UInt32(0), to: 32, by: 8) {
            let x = Int((a >> shift) & 0xFF)
            let y = Int((b >> shift) & 0xFF)
            worst = max(worst, abs(x - y))
        }
        return worst
    }
}

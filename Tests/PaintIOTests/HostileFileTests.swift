import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Files built to make a decoder allocate, inflate or loop far beyond what they hold
/// (Tests/Fixtures/hostile.py): each is refused with the reason (a real picture cut in half
/// opens with the rows before the cut, its damage said with those words). The peak memory of opening them
/// is measured in a child process by AppTests' HostileFileMemoryTests.
@Suite struct HostileFileTests {
    static let fixtures: (folder: String, entries: [(file: String, words: String)]) = {
        do {
            let (folder, list) = try Reference.fixtures("hostile.py")
            return (folder, list.map { ($0["file"] as? String ?? "", $0["words"] as? String ?? "") })
        } catch {
            Issue.record("the hostile files could not be made: \(error)")
            return ("", [])
        }
    }()

    @Test func everyHostileFileIsRefusedWithItsReasonOrOpensWithoutItsMetadata() {
        #expect(Self.fixtures.entries.count == 23)
        for (file, words) in Self.fixtures.entries {
            let bytes = Support.get(Self.fixtures.folder + "/" + file) ?? []
            if words.isEmpty {
                // Oversized metadata is skipped: the 1 x 1 picture under it opens.
                let opened = Result { () throws(ImageFileError) in try ImageDecoder.decode(bytes, name: file) }
                #expect((try? opened.get())?.image.width == 1, "\(file): \(opened)")
                continue
            }
            let fault = PictureFault.decoding { () throws(ImageFileError) in try ImageDecoder.decode(bytes, name: file)
            }
            #expect(fault.message?.contains(words) == true, "\(file): \(fault)")
            // Only the real pictures cut in half open (what was read); the files claiming far
            // more than they hold stay refused.
            if case .damaged(let damage, let image) = fault {
                #expect(file.hasPrefix("cut-half"), "\(file): \(fault)")
                #expect(image.height == damage.height, "\(file): \(fault)")
                // The top rows, or (progressive) the coarser picture its first scans give.
                #expect(damage.inOrder ? damage.rowsRead > 0 && damage.rowsRead < damage.height : damage.rowsRead == 0)
            } else {
                #expect(!file.hasPrefix("cut-half"), "\(file): \(fault)")
            }
        }
    }

    /// Found by trust2's fuzzing (83aac56 with seed 0x1DCAFE): a JPEG whose ICC profile is an
    /// RGB matrix profile with a damaged header, its rendering intent 0xd83da90b. lcms2 2.14 read
    /// its table of four intents at that index and the program died of SIGSEGV; the intent is
    /// now one of ICC's four or perceptual, and the picture opens.
    @Test func aProfileWhoseRenderingIntentIsNoIntentOpensThePicture() throws {
        let bytes = Support.get(Reference.fixtures + "/damaged-icc-intent.jpg") ?? []
        #expect(bytes.count == 2079)
        let header = try #require(JPEGMetadata(bytes, maxProfileBytes: 100_000).iccProfile)
        #expect(header[64..<68].elementsEqual([0xD8, 0x3D, 0xA9, 0x0B]))
        let opened = try ImageDecoder.decode(bytes, name: "damaged-icc-intent.jpg")
        #expect(opened.image.width > 0 && opened.image.height > 0)
    }

    @Test func theChunkOf2GBIsRefusedFromAFileOf105Bytes() throws {
        let bytes = Support.get(Self.fixtures.folder + "/chunk-2g-tEXt.png") ?? []
        #expect(bytes.count == 105)
        #expect(Array(bytes[33..<41]) == [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8))
        #expect(throws: ImageFileError.cutShort(path: "t.png", reason: "it ends before the picture does")) {
            try PNGCodec.decode(bytes, name: "t.png")
        }
    }

    @Test func metadataBeyondTheLimitIsSkippedAndThePictureOpens() throws {
        // 1 MB of zTXt: read under the default 8 MB, skipped under a 512 KB limit, where the
        // picture still opens; a color profile over the limit is ignored (the picture shows as
        // sRGB).
        let image = Support.opaqueImage(width: 8, height: 8)
        let png = try PNGCodec.encode(image, withAlpha: false)
        let text = Support.chunk(
            "zTXt", Array("Comment".utf8) + [0, 0] + (Zlib.compress([UInt8](repeating: 65, count: 1 << 20)) ?? []))
        let withText = Array(png[..<33]) + text + Array(png[33...])
        #expect(try PNGCodec.decode(withText, name: "t.png") == image)
        let small = ImageLimits(maxSide: 100, maxPixels: 10_000, maxMetadataBytes: 512 << 10)
        #expect(try PNGCodec.decode(withText, name: "t.png", limits: small) == image)
        // The conformance suite's linear-light profile padded to 64 KB: used under the default
        // limit, ignored under a 16 KB one (the picture then shows as sRGB, as without it).
        let profiled = Support.get(PNGConformanceTests.suite.folder + "/iccp-linear-padded-rgb8.png") ?? []
        let plain = PNGChunks.essentials(of: profiled, keepingProfile: false)
        let small16 = ImageLimits(maxSide: 100, maxPixels: 10_000, maxMetadataBytes: 16 << 10)
        let asSRGB = try PNGCodec.decode(plain, name: "p.png")
        #expect(try PNGCodec.decode(profiled, name: "p.png") != asSRGB, "the profile converts the colors")
        #expect(try PNGCodec.decode(profiled, name: "p.png", limits: small16) == asSRGB, "too large: ignored")
    }

    @Test func aJPEGICCProfileBeyondTheLimitIsIgnoredNotKept() throws {
        // Two APP2 ICC segments of 60 KB: over a 100 KB limit the profile is dropped.
        let segment = { (n: UInt8) -> [UInt8] in
            let body = JPEGMetadata.iccSignature + [n, 2] + [UInt8](repeating: 0, count: 60_000)
            return [0xFF, 0xE2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        let bytes: [UInt8] = [0xFF, 0xD8] + segment(1) + segment(2) + [0xFF, 0xDA, 0, 2]
        #expect(JPEGMetadata(bytes, maxProfileBytes: 200_000).iccProfile?.count == 120_000)
        #expect(JPEGMetadata(bytes, maxProfileBytes: 100_000).iccProfile == nil)
    }
}

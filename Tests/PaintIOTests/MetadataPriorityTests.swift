import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// The metadata a decode reads for the picture (a PNG's ICC profile, a JPEG's EXIF orientation
/// and ICC profile) has a budget of its own (`PictureExtent.keepMetadata`, `JPEGHeaderCapture`):
/// megabytes of text or comments before it, which take the whole metadata limit, no longer make
/// the picture open unturned or in the wrong colours. Each path is checked: `load` (--export),
/// `open` (--forget) and the window's opening.
@Suite struct MetadataPriorityTests {
    /// `path` opens, by every path, as `shown`.
    static func expectOpens(_ path: String, as shown: PixelImage, _ label: String) throws {
        #expect(try ImageFile.load(path: path) == shown, "\(label): load")
        #expect(try ImageFile.open(path: path).picture.image == shown, "\(label): open")
        #expect(try ImageFile.openTiles(path: path).picture.image == shown, "\(label): the window")
    }

    /// A PNG with an ICC profile (gamma 1.8, Adobe RGB primaries) and a text chunk of nearly
    /// 8 MB before it: the profile is still used.
    @Test func aPNGsProfileIsUsedAfterATextChunkOfEightMegabytes() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-priority")
        defer { folder.remove() }
        let png = PNGConformanceTests.bytes("iccp-adobe18-rgb16")
        let managed = try ImageDecoder.decode(png, name: "png").image
        // The profile matters: without it the pixels differ.
        let unmanaged = try ImageDecoder.decode(PNGChunks.essentials(of: png, keepingProfile: false), name: "png")
        #expect(unmanaged.image != managed)
        let text = Array("Comment".utf8) + [0] + [UInt8](repeating: 0x41, count: (8 << 20) - 100)
        let file = Array(png[0..<33]) + PNGChunks.makeChunk(type: Array("tEXt".utf8), data: text) + Array(png[33...])
        let path = folder.file("text-then-profile.png")
        Support.put(file, path)
        try Self.expectOpens(path, as: managed, "PNG")
    }

    /// `jpeg` with 160 comment segments of 64 KB (10 MB) after its start, before its APPn.
    static func jpegAfterComments(_ jpeg: [UInt8], to path: String) {
        var pieces = [(at: 0, bytes: Array(jpeg[0..<2]))]
        for i in 0..<160 { pieces.append((2 + i * 65537, [0xFF, 0xFE, 0xFF, 0xFF])) }
        pieces.append((2 + 160 * 65537, Array(jpeg[2...])))
        #expect(SparseFile.write(pieces, to: path))
    }

    /// A JPEG with EXIF orientation 6 and one with an ICC profile, each after 10 MB of
    /// comments: turned upright, and in the profile's colours.
    @Test func aJPEGsOrientationAndProfileAreUsedAfterTenMegabytesOfComments() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-priority")
        defer { folder.remove() }
        let turned = try PictureExtentMetadataTests.fixture("jpeg-orientation-6")
        let upright = try ImageDecoder.decode(turned, name: "jpeg").image
        #expect(upright.width == 37 && upright.height == 61)
        let turnedPath = folder.file("comments-then-exif.jpg")
        Self.jpegAfterComments(turned, to: turnedPath)
        try Self.expectOpens(turnedPath, as: upright, "JPEG orientation")

        let profiled = try PictureExtentMetadataTests.fixture("jpeg-icc-adobe18")
        let managed = try ImageDecoder.decode(profiled, name: "jpeg").image
        // The profile matters: the same file with its APP2 segments renamed APP3 shows other pixels.
        var renamed = profiled
        for i in 0..<(renamed.count - 16) where renamed[i] == 0xFF && renamed[i + 1] == 0xE2 { renamed[i + 1] = 0xE3 }
        #expect(try ImageDecoder.decode(renamed, name: "jpeg").image != managed)
        let profiledPath = folder.file("comments-then-profile.jpg")
        Self.jpegAfterComments(profiled, to: profiledPath)
        try Self.expectOpens(profiledPath, as: managed, "JPEG profile")
    }
}

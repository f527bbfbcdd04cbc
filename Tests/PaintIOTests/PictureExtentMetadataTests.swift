import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// What a picture file carries besides its picture, before the picture's end, is not read up to
/// what its headers claim (`PictureExtent.skipsUnneeded`): a PNG's ancillary chunks, a JPEG's
/// APPn and COM segments and a GIF's extensions past 8 MB in all are skipped (seeked past), a
/// BMP whose pixels start far past its header is refused from that header, and a damaged header
/// ends the read there. Each file is hundreds of megabytes long (sparse), or tens where every
/// few hundred bytes must be written.
@Suite struct PictureExtentMetadataTests {
    static let claim = 300 << 20
    /// What a reader may hold of such a file: the metadata kept, the picture, a piece read past.
    static let most = ImageLimits.default.maxMetadataBytes + 2 * PictureStream.chunkSize

    /// The bytes of the formats.py fixture `name`.
    static func fixture(_ name: String) throws -> [UInt8] {
        let fixtures = FormatDecodingTests.fixtures
        let entry = try #require(fixtures.entries.first { $0.name == name })
        return try #require(Support.get(fixtures.folder + "/" + entry.file))
    }

    static func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    /// `png` with a chunk of `type` claiming `length` bytes after its IHDR (the claimed bytes a
    /// hole of zeros, its CRC too), `copies` times over; returns the file's size.
    static func pngWithChunk(_ png: [UInt8], _ type: String, length: Int, copies: Int = 1, to path: String) -> Int {
        var pieces = [(at: 0, bytes: Array(png[0..<33]))]
        var at = 33
        for _ in 0..<copies {
            pieces.append((at, be32(length) + Array(type.utf8)))
            at += 12 + length
        }
        pieces.append((at, Array(png[33...])))
        #expect(SparseFile.write(pieces, to: path))
        return at + png.count - 33
    }

    /// Reads `path` as `load`, `open` (--forget) and the window's opening do: each holds no more
    /// than `most` bytes and shows `shown`.
    static func expectOpensHolding(_ path: String, most: Int, shows shown: PixelImage, _ label: String) throws {
        let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
        #expect(read.count <= most, "\(label): \(read.count) bytes read")
        #expect(try ImageFile.load(path: path) == shown, "\(label)")
        #expect(try ImageFile.open(path: path).picture.image == shown, "\(label)")
        let opened = try ImageFile.openTiles(path: path)
        #expect(opened.picture.image == shown, "\(label): the window shows other pixels")
        // Held in memory when its metadata was over the limit (else left in the file).
        if case .memory(let bytes) = opened.bytes {
            #expect(bytes.count <= most, "\(label): the window holds \(bytes.count) bytes")
        }
        // The file as it is on disk, whole, for "changed on disk".
        let size = try #require(FileVersion.Stat(path: path)?.size)
        #expect(opened.version?.stat.size == size, "\(label): the window's file version")
    }

    /// A PNG whose text, profile, EXIF or unknown chunk before its pixels claims 300 MB, and one
    /// with 40 chunks of 1 MB: the picture opens, the chunks past 8 MB passed over.
    @Test func aPNGsAncillaryChunksPastTheMetadataLimitAreSkippedNotRead() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-meta")
        defer { folder.remove() }
        let picture = Support.opaqueImage()
        let png = try PNGCodec.encode(picture, withAlpha: false)
        for type in ["tEXt", "zTXt", "iCCP", "eXIf", "abCd", "spHS"] {
            let path = folder.file("\(type).png")
            #expect(Self.pngWithChunk(png, type, length: Self.claim, to: path) > Self.claim)
            try Self.expectOpensHolding(path, most: png.count, shows: picture, type)
            #expect(try !ImageFile.openTiles(path: path).carriesHistory, "\(type)")
        }
        let many = folder.file("many.png")
        #expect(Self.pngWithChunk(png, "tEXt", length: 1 << 20, copies: 40, to: many) > 40 << 20)
        try Self.expectOpensHolding(many, most: Self.most, shows: picture, "40 text chunks")
    }

    /// A JPEG with 40 MB of APP5 segments after its start, and a GIF with a 40 MB comment before
    /// its image: each opens, having held no more than 8 MB of them.
    @Test func aJPEGsSegmentsAndAGIFsExtensionsPastTheMetadataLimitAreSkippedNotRead() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-meta")
        defer { folder.remove() }
        let jpeg = try JPEGCodec.encode(Support.opaqueImage(), quality: 90)
        let segments = 40 << 20 / 65537
        var pieces = [(at: 0, bytes: Array(jpeg[0..<2]))]
        for i in 0..<segments { pieces.append((2 + i * 65537, [0xFF, 0xE5, 0xFF, 0xFF])) }
        pieces.append((2 + segments * 65537, Array(jpeg[2...])))
        let jpegPath = folder.file("app.jpg")
        #expect(SparseFile.write(pieces, to: jpegPath))
        try Self.expectOpensHolding(
            jpegPath, most: Self.most + jpeg.count, shows: try ImageDecoder.decode(jpeg, name: "jpeg").image, "JPEG")

        let gif = try Self.fixture("gif-plain")
        let header = 13 + (gif[10] & 0x80 != 0 ? 3 << (Int(gif[10] & 7) + 1) : 0)
        let subBlocks = 40 << 20 / 256
        var comment = Array(gif[0..<header]) + [0x21, 0xFE]
        comment.reserveCapacity(comment.count + subBlocks * 256 + gif.count)
        for _ in 0..<subBlocks { comment += [255] + [UInt8](repeating: 0x41, count: 255) }
        comment += [0] + Array(gif[header...])
        let gifPath = folder.file("comment.gif")
        Support.put(comment, gifPath)
        try Self.expectOpensHolding(
            gifPath, most: Self.most + gif.count, shows: try ImageDecoder.decode(gif, name: "gif").image, "GIF")
    }

    /// A BMP whose pixels start 300 MB past its header is refused from its header, with the
    /// reason; a BMP, PNG or GIF damaged in its header or where a block belongs, with 300 MB
    /// after, is refused having read a few kilobytes.
    @Test func aDamagedOrFarReachingHeaderIsReadNoFurther() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-meta")
        defer { folder.remove() }
        var far = PictureExtentFormatsTests.bmp(width: 1, height: 1)
        for (i, byte) in [UInt8](Self.be32(Self.claim).reversed()).enumerated() { far[10 + i] = byte }
        let farPath = folder.file("far.bmp")
        #expect(SparseFile.write([(0, far)], size: Self.claim + 4, to: farPath))
        let gap = "its pixels start \(Self.claim - 54) bytes after its header"
        PictureExtentFormatsTests.expectRefused(farPath, saying: gap, "BMP far")
        #expect(try ImageFile.readPicture(farPath, limit: ImageFile.maxFileBytes).count <= PictureStream.chunkSize)

        var depth = PictureExtentFormatsTests.bmp(width: 1, height: 1)
        depth[28] = 7
        var length = try PNGCodec.encode(Support.opaqueImage(), withAlpha: false)
        length.replaceSubrange(33..<37, with: [0x80, 0, 0, 0])
        var block = try Self.fixture("gif-plain")
        let header = 13 + (block[10] & 0x80 != 0 ? 3 << (Int(block[10] & 7) + 1) : 0)
        block[header] = 0x77
        for (name, bytes) in [("depth.bmp", depth), ("length.png", length), ("block.gif", block)] {
            let path = folder.file(name)
            #expect(SparseFile.write([(0, bytes)], size: Self.claim, to: path))
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= PictureStream.chunkSize, "\(name): \(read.count) bytes read")
            #expect(throws: ImageFileError.self, "\(name)") { try ImageFile.load(path: path) }
        }
    }

    /// A PNG whose picture data (`IDAT`) claims 300 MB, in a file that long: refused after that
    /// chunk's header with the reason, having read a few kilobytes (before: read up to the claim).
    @Test func aPNGWhosePictureDataClaimsMoreThanItCanNeedIsRefusedAfterItsHeader() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-meta")
        defer { folder.remove() }
        let png = try PNGCodec.encode(Support.opaqueImage(), withAlpha: false)
        guard case .complete(let chunks) = PNGChunks.walk(png),
            let data = chunks.first(where: { $0.type == Array("IDAT".utf8) })
        else {
            Issue.record("the PNG does not walk")
            return
        }
        var claiming = Array(png[0..<(data.start + 8)])
        claiming.replaceSubrange(data.start..<(data.start + 4), with: Self.be32(Self.claim))
        let path = folder.file("data.png")
        #expect(SparseFile.write([(0, claiming + Array(png[data.dataStart..<data.end]))], size: Self.claim, to: path))
        let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
        #expect(read.count <= data.start + 8, "\(read.count) bytes read")
        let reason = "its picture data claims \(Self.claim) bytes, more than a 97 x 61 picture can need"
        #expect(throws: ImageFileError.damaged(path: path, reason: reason)) { try ImageFile.load(path: path) }
        #expect(throws: ImageFileError.damaged(path: "p", reason: reason)) { try ImageDecoder.decode(read, name: "p") }
        // The true file opens as before.
        #expect(try ImageDecoder.decode(png, name: "png").image == Support.opaqueImage())
    }

    /// A BMP whose header is damaged ends at the same place however many of its bytes were read
    /// when it was judged (after the most its headers can take: `BMPHeader.mostBytes`), so the
    /// window's opening keeps the bytes `readPicture` reads, which are refused with the reason.
    @Test func aDamagedBMPHeaderEndsAtTheSamePlaceHoweverMuchOfItWasRead() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-meta")
        defer { folder.remove() }
        var depth = PictureExtentFormatsTests.bmp(width: 1, height: 1)
        depth[28] = 7
        let file = depth + [UInt8](repeating: 0x5A, count: 200_000)
        let ends = [54, 100, 5_000, PictureStream.chunkSize, file.count].map { count in
            var extent = PictureExtent(fileSize: file.count)
            return extent.look(at: Array(file.prefix(count)), atEnd: count == file.count)
        }
        #expect(ends.allSatisfy { $0 == .end(BMPHeader.mostBytes) }, "\(ends)")

        let path = folder.file("depth.bmp")
        Support.put(file, path)
        let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
        #expect(read == Array(file.prefix(BMPHeader.mostBytes)))
        let end = PictureEnd(limits: .default, fileSize: file.count)
        var crc: UInt32 = 0
        for start in stride(from: 0, to: file.count, by: PictureStream.chunkSize) {
            file[start..<min(file.count, start + PictureStream.chunkSize)].withUnsafeBytes {
                end.see($0, crcBefore: crc)
                crc = Zlib.crc32($0, continuing: crc)
            }
        }
        #expect(end.kept(ofFile: file.count) == .prefix(count: read.count, crc: Zlib.crc32(read)))
        let reason = "7 bits per pixel is not a BMP depth"
        #expect(throws: ImageFileError.damaged(path: "p", reason: reason)) { try ImageDecoder.decode(read, name: "p") }
        #expect(throws: ImageFileError.damaged(path: path, reason: reason)) { try ImageFile.load(path: path) }
    }
}

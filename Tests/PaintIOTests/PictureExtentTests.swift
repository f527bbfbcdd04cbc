import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A picture file is read up to its picture's end and no further (`PictureExtent`), and a file
/// in no known format is refused after its first bytes: junk after a picture, or a sparse tail
/// of hundreds of megabytes, is never read into memory (a Ctrl-drop, a background picture, a
/// thumbnail, --export, the window's opening of a WebP or of no picture at all).
@Suite struct PictureExtentTests {
    /// `head` followed by zeros up to `size` bytes (a sparse file: no disk taken).
    static func sparse(_ folder: TemporaryDirectory, _ name: String, _ head: [UInt8], size: Int) -> String {
        let path = folder.file(name)
        Support.put(head, path)
        #expect(truncate(path, off_t(size)) == 0)
        return path
    }

    @Test func aPictureIsReadUpToItsEndAndJunkNotAtAll() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let picture = Support.opaqueImage()
        let png = try PNGCodec.encode(picture, withAlpha: false)
        let webp = try WebPCodec.encode(picture, quality: nil, withAlpha: false)
        let jpeg = try JPEGCodec.encode(picture, quality: 90)
        let size = 300 << 20
        // Up to the PNG's IEND and the WebP's RIFF size: not one byte of the tail.
        #expect(try ImageFile.readPicture(Self.sparse(folder, "p.png", png, size: size), limit: 1 << 30) == png)
        #expect(try ImageFile.readPicture(Self.sparse(folder, "p.webp", webp, size: size), limit: 1 << 30) == webp)
        #expect(try ImageFile.load(path: folder.file("p.png")) == picture)
        #expect(try ImageFile.load(path: folder.file("p.webp")) == picture)
        // A JPEG up to its EOI marker.
        let shortJPEG = Self.sparse(folder, "p.jpg", jpeg + [1, 2, 3], size: size)
        #expect(try ImageFile.readPicture(shortJPEG, limit: 1 << 30) == jpeg)
        // No picture: refused as such (a file of a few bytes too); a file cut inside the PNG
        // signature is a PNG cut short.
        let junk = Self.sparse(folder, "junk.png", Array("not a picture".utf8), size: size)
        #expect(throws: ImageFileError.unknownFormat(path: junk)) { try ImageFile.readPicture(junk, limit: 1 << 30) }
        let tiny = Self.sparse(folder, "tiny.png", Array("hi".utf8), size: 2)
        #expect(throws: ImageFileError.unknownFormat(path: tiny)) { try ImageFile.load(path: tiny) }
        let cut = Self.sparse(folder, "cut.png", Array(png.prefix(5)), size: 5)
        do {
            _ = try ImageFile.load(path: cut)
            Issue.record("a PNG cut inside its signature opened")
        } catch {
            if case .cutShort = error {} else { Issue.record("\(error)") }
        }
    }

    /// The window's opening reads a file in no known format no further than its first chunk,
    /// and a WebP no further than its RIFF size, before the rest is drained for the CRC.
    @Test func theWindowsOpeningRefusesJunkAfterItsFirstChunk() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let junk = Self.sparse(folder, "junk.png", Array("not a picture".utf8), size: 300 << 20)
        let (fd, size) = try ImageFile.openForReading(junk, limit: ImageFile.maxFileBytes)
        defer { close(fd) }
        let stream = PictureStream(fd: fd, name: junk, size: size, limit: ImageFile.maxFileBytes)
        #expect(throws: ImageFileError.unknownFormat(path: junk)) {
            try ImageDecoder.decodeTiles(stream, limits: .default)
        }
        #expect(stream.count <= PictureStream.chunkSize, "\(stream.count) bytes read")
        #expect(throws: ImageFileError.unknownFormat(path: junk)) { try ImageFile.openTiles(path: junk) }
        // A WebP with a tail opens with the whole decode's pixels, the bytes kept its own (up to
        // its RIFF size, `PictureTailTests`), the file's version the whole file's.
        let webp = try WebPCodec.encode(Support.opaqueImage(), quality: nil, withAlpha: false)
        let tail = Self.sparse(folder, "p.webp", webp, size: webp.count + 100_000)
        let opened = try ImageFile.openTiles(path: tail)
        #expect(opened.picture.image == Support.opaqueImage() && opened.bytes.count == webp.count)
        #expect(opened.version?.stat.size == webp.count + 100_000)
    }
}

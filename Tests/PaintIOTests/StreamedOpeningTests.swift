import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// The window opens a picture as it reads the file (`ImageFile.openTiles` through a
/// `PictureStream`): the same pixels and the same refusals as a decode of the whole file, and
/// the bytes left in the file (`PictureFile`) are exactly those decoded, or nothing once the
/// file holds others. A journal copies them from the file only when they still check out.
@Suite struct StreamedOpeningTests {
    /// Writes `bytes` to `name` in `folder`; its path.
    static func file(_ folder: TemporaryDirectory, _ name: String, _ bytes: [UInt8]) -> String {
        let path = folder.file(name)
        Support.put(bytes, path)
        return path
    }

    /// `path` opened as the window opens it, with the same pixels, format and transparency as
    /// the whole file decoded, and the bytes it was decoded from, up to the picture's end as
    /// `readPicture` finds it, left in the file (a WebP's read into memory: `PictureEnd`).
    @discardableResult
    static func opensAsWhole(_ path: String, _ label: String) throws -> ImageFile.OpenedTiles {
        let bytes = try #require(Support.get(path))
        let whole = try ImageDecoder.decode(bytes, name: path)
        let opened = try ImageFile.openTiles(path: path)
        #expect(opened.format == whole.format && opened.hasAlpha == whole.hasAlpha, "\(label)")
        // Compared first, so a failure does not print every pixel.
        let same = opened.picture.image == whole.image
        #expect(same, "\(label): pixels differ from the whole decode")
        let picture = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
        #expect(bytes.starts(with: picture) || whole.format == .webp, "\(label)")
        #expect(opened.version?.crc == Zlib.crc32(bytes), "\(label)")
        guard case .file(let file) = opened.bytes else {
            if case .memory(let kept) = opened.bytes, whole.format == .webp {
                let held = kept == picture
                #expect(held, "\(label): \(kept.count) bytes held")
            } else {
                Issue.record("\(label): the bytes were read into memory")
            }
            return opened
        }
        #expect(file.count == picture.count && file.crc == Zlib.crc32(picture), "\(label)")
        let read = file.read()
        let readBack = read == picture
        #expect(readBack, "\(label): \(read?.count ?? -1) bytes read back")
        return opened
    }

    /// A 200 x 150 picture of many bands and columns (its last ones partial), every pixel its own.
    static let picture = Support.opaqueImage(width: 200, height: 150)

    /// A BMP of `picture`, by hand: 24 bits per pixel, bottom-up (or top-down), with a gap of
    /// `gap` bytes between the headers and the pixels.
    static func bmp(topDown: Bool = false, gap: Int = 0) -> [UInt8] {
        let (width, height) = (picture.width, picture.height)
        let rowBytes = (width * 3 + 3) / 4 * 4
        let offset = 54 + gap
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        var out = Array("BM".utf8) + le32(offset + rowBytes * height) + le32(0) + le32(offset)
        out += le32(40) + le32(width) + le32(topDown ? -height : height) + [1, 0, 24, 0] + le32(0)
        out += le32(rowBytes * height) + le32(2835) + le32(2835) + le32(0) + le32(0)
        out += [UInt8](repeating: 0x5A, count: gap)
        for stored in 0..<height {
            let y = topDown ? stored : height - 1 - stored
            for x in 0..<width {
                let p = picture[x, y]
                out += [UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF)]
            }
            out += [UInt8](repeating: 0, count: rowBytes - width * 3)
        }
        return out
    }

    @Test func everyFormatOpensFromTheFileWithTheWholeDecodesPixels() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-stream")
        defer { folder.remove() }
        // Pillow's files of every kind (JPEG in all eight orientations, CMYK, gray, progressive;
        // WebP, GIF, BMP).
        for entry in FormatDecodingTests.fixtures.entries {
            let path = FormatDecodingTests.fixtures.folder + "/" + entry.file
            try Self.opensAsWhole(path, entry.name)
        }
        try ImageFile.save(Self.picture, to: folder.file("p.png"), withAlpha: false)
        try Self.opensAsWhole(folder.file("p.png"), "png")
        let jpeg = try JPEGCodec.encode(Self.picture, quality: 90)
        try Self.opensAsWhole(Self.file(folder, "p.jpg", TileDecodingTests.withOrientation(jpeg, 6)), "jpeg turned")
        for (name, bytes) in [
            ("bottom-up.bmp", Self.bmp()), ("top-down.bmp", Self.bmp(topDown: true)),
            // The first rows among the bytes read for the headers, and pixels far after them.
            ("gap.bmp", Self.bmp(gap: 300)), ("far.bmp", Self.bmp(gap: 5000)),
        ] {
            let opened = try Self.opensAsWhole(Self.file(folder, name, bytes), name)
            let same = opened.picture.image == Self.picture
            #expect(same, "\(name)")
        }
    }

    /// A JPEG whose EXIF orientation comes after 120 KB of other header segments: the header
    /// spans several of the stream's chunks, and the picture still opens turned as it asks.
    @Test func aJPEGHeaderLongerThanAChunkKeepsItsOrientation() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-stream")
        defer { folder.remove() }
        let plain = try JPEGCodec.encode(Self.picture, quality: 90)
        let turned = TileDecodingTests.withOrientation(plain, 8)
        // Two APP13 segments of 60,000 bytes each, right after SOI, before the EXIF one.
        let filler = [0xFF, 0xED, UInt8(60_002 >> 8), UInt8(60_002 & 0xFF)] + [UInt8](repeating: 0x20, count: 60_000)
        let jpeg = Array(turned[..<2]) + filler + filler + Array(turned[2...])
        #expect(jpeg.count > 2 * PictureStream.chunkSize)
        let opened = try Self.opensAsWhole(Self.file(folder, "long.jpg", jpeg), "long header")
        let stored = try JPEGCodec.decode(plain, name: "plain.jpg").image
        let upright = opened.picture.image == stored.oriented(.rotateLeft)
        #expect(upright, "not turned as its EXIF orientation asks")
    }

    /// A file more than a few chunks long whose last bytes are past what the decoder reads
    /// (after a JPEG's end, after a PNG's IEND): the bytes kept are the picture's, not those
    /// (`PictureTailTests`); the file's version is the whole file's.
    @Test func bytesAfterThePictureAreNotKept() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-stream")
        defer { folder.remove() }
        let trailer = [UInt8]((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let jpeg = try JPEGCodec.encode(Self.picture, quality: 90)
        let jpegOpened = try Self.opensAsWhole(Self.file(folder, "t.jpg", jpeg + trailer), "jpeg with a trailer")
        #expect(jpegOpened.bytes.count == jpeg.count)
        let png = try PNGCodec.encode(Self.picture, withAlpha: true)
        let pngOpened = try Self.opensAsWhole(Self.file(folder, "t.png", png + trailer), "png with a trailer")
        #expect(pngOpened.bytes.count == png.count)
    }

    /// Cut anywhere, a file is refused by the window's opening, or opened with the rows read,
    /// with the words and pixels a decode of the whole file gives.
    @Test func aFileCutShortIsRefusedOrKeepsTheSameRowsWithTheSameWords() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-stream")
        defer { folder.remove() }
        let files: [(String, [UInt8])] = [
            ("png", try PNGCodec.encode(Self.picture, withAlpha: false)),
            ("jpg", try JPEGCodec.encode(Self.picture, quality: 90)),
            ("bmp", Self.bmp()),
        ]
        for (ext, bytes) in files {
            for cut in [0, 1, 5, 20, 40, 60, 200, bytes.count / 3, bytes.count / 2, bytes.count - 30] {
                let path = Self.file(folder, "cut-\(cut).\(ext)", Array(bytes.prefix(cut)))
                let whole = PictureFault.decoding { () throws(ImageFileError) in try ImageFile.open(path: path).picture
                }
                let streamed = PictureFault.tiles { () throws(ImageFileError) in
                    let opened = try ImageFile.openTiles(path: path)
                    return (opened.picture, opened.damage)
                }
                #expect(whole != .whole, "\(ext) cut at \(cut) opened whole")
                #expect(streamed == whole, "\(ext) cut at \(cut): \(whole), streamed \(streamed)")
            }
        }
    }

    /// `picture` saved as a PNG at `path` and opened as the window opens it: the bytes left in
    /// the file, and the file's bytes.
    static func openedPNG(_ path: String) throws -> (file: PictureFile, bytes: [UInt8]) {
        try ImageFile.save(picture, to: path, withAlpha: false)
        let bytes = try #require(Support.get(path))
        guard case .file(let file) = try ImageFile.openTiles(path: path).bytes else {
            throw ImageFileError.damaged(path: path, reason: "its bytes were read into memory")
        }
        return (file, bytes)
    }

    @Test func theBytesLeftInTheFileAreGoneOnceItIsWrittenOverAndKeptWhenItIsReplaced() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-stream")
        defer { folder.remove() }
        let path = folder.file("p.png")
        let (file, bytes) = try Self.openedPNG(path)
        // Another program's save: a new file renamed over the name. The bytes opened are still
        // those of the file as it was opened.
        try ImageFile.save(Support.opaqueImage(width: 30, height: 20), to: path, withAlpha: false)
        #expect(file.read() == bytes)

        let other = folder.file("q.png")
        let inPlace = try Self.openedPNG(other).file
        // Written over in place, one byte changed: nothing is given back.
        var changed = bytes
        changed[bytes.count / 2] ^= 1
        let fd = open(other, O_WRONLY)
        #expect(changed.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
        close(fd)
        #expect(inPlace.read() == nil && inPlace.isKnownChanged)
        // Once found changed, never trusted again, even with the same bytes back in place.
        let again = open(other, O_WRONLY)
        #expect(bytes.withUnsafeBytes { pwrite(again, $0.baseAddress, $0.count, 0) } == bytes.count)
        close(again)
        #expect(inPlace.read() == nil)
        // Cut short in place: nothing either.
        let cut = try Self.openedPNG(folder.file("r.png")).file
        #expect(truncate(folder.file("r.png"), off_t(bytes.count - 1)) == 0)
        #expect(cut.read() == nil)
    }

    @Test func aJournalCopiesTheOpenedFileOrNothingWhenItChanged() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-stream")
        defer { folder.remove() }
        let path = folder.file("p.png")
        let (file, bytes) = try Self.openedPNG(path)
        let journals = folder.file("journal")
        let header = JournalHeader(documentPath: path, width: 200, height: 150, background: .color(.white))
        let writer = try JournalWriter.create(in: journals, header: header, baseFile: file)
        writer.append(.fill(StrokeStyle(color: Color(r: 255, g: 0, b: 0)), at: Point(x: 3, y: 3), tolerance: 0))
        #expect(writer.flush())
        // The journal holds exactly the file's bytes, read back and CRC-checked by the reader.
        let read = try JournalReader.read(path: writer.path)
        #expect(read.header.baseImage == bytes)
        #expect(read.header.documentPath == path && read.operations.count == 1)
        #expect(writer.readBaseImage() == bytes)
        writer.discard()

        // Written over in place between the decode and the copy: no journal, nothing left.
        let fd = open(path, O_WRONLY)
        var flipped = bytes[bytes.count - 20] ^ 0x40
        #expect(pwrite(fd, &flipped, 1, off_t(bytes.count - 20)) == 1)
        close(fd)
        #expect(throws: JournalError.baseChanged(path: path)) {
            _ = try JournalWriter.create(in: journals, header: header, baseFile: file)
        }
        #expect((try FileManager.default.contentsOfDirectory(atPath: journals)).isEmpty)
    }
}

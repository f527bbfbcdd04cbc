import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Every format is read up to the part of it SwiftPaint decodes and no further
/// (`PictureExtent`): a JPEG to its EOI, a GIF to its first image's end, a BMP to its rows' or
/// run-length codes' end, a WebP to its first picture even when its RIFF header claims more;
/// a header claiming more pixels than the limits is refused after it.
@Suite struct PictureExtentFormatsTests {
    @Test func everyFormatsFileIsReadUpToItsPictureAndGivesItsPixels() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let fixtures = FormatDecodingTests.fixtures
        #expect(fixtures.entries.count > 30)
        for entry in fixtures.entries {
            let bytes = try #require(Support.get(fixtures.folder + "/" + entry.file), "\(entry.name)")
            // The file with 1 MB of zeros after it.
            let path = PictureExtentTests.sparse(folder, entry.file, bytes, size: bytes.count + (1 << 20))
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= bytes.count, "\(entry.name): \(read.count - bytes.count) bytes of the tail read")
            let whole = try ImageDecoder.decode(bytes, name: entry.name)
            let shown = try ImageDecoder.decode(read, name: entry.name)
            #expect(shown.image == whole.image && shown.hasAlpha == whole.hasAlpha, "\(entry.name): other pixels")
            // Only an animation's later frames (and a GIF's trailer byte) are left unread.
            if !entry.name.contains("animated") && !entry.file.hasSuffix(".gif") {
                #expect(read == bytes, "\(entry.name): \(read.count) of \(bytes.count) bytes")
            }
            // Opening for --forget and outside the window: the same bytes.
            let opened = try ImageFile.open(path: path)
            #expect(opened.bytes == read && opened.picture.image == whole.image, "\(entry.name)")
        }
    }

    /// A small picture's header made to claim 40,000 x 40,000 pixels, in a 300 MB file.
    @Test func aHeaderClaimingMoreThanTheLimitsIsRefusedRightAfterIt() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let side: [UInt8] = [0x9C, 0x40]  // 40,000 big-endian
        var jpeg = try JPEGCodec.encode(Support.opaqueImage(), quality: 90)
        let sof = try #require((2..<(jpeg.count - 9)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: side + side)
        let bmp = Self.bmp(width: 40_000, height: 40_000)
        var gif = Array("GIF89a".utf8) + [0x40, 0x9C, 0x40, 0x9C, 0, 0, 0]
        gif += [0x2C, 0, 0, 0, 0, 0x40, 0x9C, 0x40, 0x9C, 0, 2, 2, 0x4C, 0x01, 0]
        var png = try PNGCodec.encode(Support.opaqueImage(), withAlpha: false)
        png.replaceSubrange(16..<24, with: [0, 0] + side + [0, 0] + side)  // IHDR's width and height
        // A BMP whose own header says 1 x 1, wrapping a JPEG or PNG that claims 40,000 x 40,000.
        let wrappedJPEG = Self.bmp(width: 1, height: 1, compression: 4, rows: jpeg)
        let wrappedPNG = Self.bmp(width: 1, height: 1, compression: 5, rows: png)
        for (name, head) in [
            ("big.jpg", jpeg), ("big.bmp", bmp), ("big.gif", gif), ("big.png", png), ("big-jpeg.bmp", wrappedJPEG),
            ("big-png.bmp", wrappedPNG),
        ] {
            let path = PictureExtentTests.sparse(folder, name, head, size: 300 << 20)
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= head.count, "\(name): \(read.count) bytes read")
            do {
                _ = try ImageFile.load(path: path)
                Issue.record("\(name) opened")
            } catch {
                guard case .tooLarge(_, 40_000, 40_000, _) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
            }
        }
    }

    /// A BMP header (40 bytes, 24 bits a pixel, uncompressed unless `compression` says: 4 and 5
    /// wrap a JPEG or PNG) and `rows` of pixel data.
    static func bmp(width: Int, height: Int, compression: Int = 0, rows: [UInt8] = [0, 0, 0, 0]) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return Array("BM".utf8) + le(54 + rows.count, 4) + le(0, 4) + le(54, 4)
            + le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(compression, 4)
            + le(rows.count, 4)
            + le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4) + rows
    }

    /// A BMP wrapping a JPEG or PNG, with 1 MB after it: the window's opening (the BMP's
    /// headers read, then the rest up to the wrapped picture's end) holds that picture's bytes
    /// only, and shows what the wrapped picture shows. 1 MB (16 of the stream's pieces) tells
    /// a read to the picture's end from a read of the file as surely as the 300 MB this test
    /// had did, and the opening, which reads on to the file's end for its CRC, then takes a
    /// second of a debug build instead of two minutes or more.
    @Test func aBMPWrappingAPictureIsReadToThatPicturesEndByTheWindowToo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let fixtures = FormatDecodingTests.fixtures
        for name in ["bmp-png", "bmp-jpeg"] {
            let entry = try #require(fixtures.entries.first { $0.name == name })
            let bytes = try #require(Support.get(fixtures.folder + "/" + entry.file))
            let shown = try ImageDecoder.decode(bytes, name: name)
            let path = PictureExtentTests.sparse(
                folder, entry.file, bytes, size: bytes.count + 16 * PictureStream.chunkSize)
            let (fd, fileSize) = try ImageFile.openForReading(path, limit: ImageFile.maxFileBytes)
            defer { close(fd) }
            let stream = PictureStream(fd: fd, name: path, size: fileSize, limit: ImageFile.maxFileBytes)
            let head = stream.read(BMPDecoder.headBytes)
            #expect(ImageDecoder.pictureBytes(stream, limits: .default, after: head) == bytes, "\(name)")
            // The stream's buffer and one piece read while the end was not yet known.
            #expect(stream.count <= bytes.count + 2 * PictureStream.chunkSize, "\(name): \(stream.count) bytes read")
            // The BMP decoder of the window's opening reads as far, no further (before the
            // opening drains the rest for the file's CRC).
            let (dfd, _) = try ImageFile.openForReading(path, limit: ImageFile.maxFileBytes)
            defer { close(dfd) }
            let decoding = PictureStream(fd: dfd, name: path, size: fileSize, limit: ImageFile.maxFileBytes)
            let decoded = try BMPDecoder.decodeTiles(decoding, limits: .default)
            #expect(decoded.picture.image == shown.image && decoded.hasAlpha == shown.hasAlpha, "\(name)")
            #expect(
                decoding.count <= bytes.count + 2 * PictureStream.chunkSize, "\(name): \(decoding.count) bytes decoded")
            let opened = try ImageFile.openTiles(path: path)
            #expect(opened.picture.image == shown.image && opened.hasAlpha == shown.hasAlpha, "\(name)")
        }
    }

    /// A WebP whose RIFF header claims 300 MB, in a file that long: its first picture is read
    /// (the animation's first frame), by `load` and by the window's opening, and nothing more.
    @Test func aWebPClaimingAHugeFileIsReadToItsFirstPicture() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let still = try WebPCodec.encode(Support.opaqueImage(), quality: nil, withAlpha: false)
        let fixtures = FormatDecodingTests.fixtures
        let animatedEntry = try #require(fixtures.entries.first { $0.name == "webp-animated" })
        let animated = try #require(Support.get(fixtures.folder + "/" + animatedEntry.file))
        let size = 300 << 20
        for (name, webp) in [("still.webp", still), ("animated.webp", animated)] {
            var claiming = webp
            for i in 0..<4 { claiming[4 + i] = UInt8(truncatingIfNeeded: (size - 8) >> (8 * i)) }
            let path = PictureExtentTests.sparse(folder, name, claiming, size: size)
            let shown = try ImageDecoder.decode(webp, name: name).image
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= webp.count, "\(name): \(read.count) bytes read")
            #expect(try ImageFile.load(path: path) == shown, "\(name)")
            // The window's opening: the first picture's bytes from the stream, then the CRC of
            // the rest through its small buffer.
            let (fd, fileSize) = try ImageFile.openForReading(path, limit: ImageFile.maxFileBytes)
            defer { close(fd) }
            let stream = PictureStream(fd: fd, name: path, size: fileSize, limit: ImageFile.maxFileBytes)
            let picture = ImageDecoder.pictureBytes(stream, limits: .default)
            #expect(picture.count <= webp.count && stream.count <= webp.count + PictureStream.chunkSize, "\(name)")
            #expect(try ImageFile.openTiles(path: path).picture.image == shown, "\(name)")
        }
    }

    /// Each kind of WebP (lossless, lossy, lossy with an alpha chunk, an animation's frame)
    /// whose picture or alpha chunk claims 300 MB, in a file that long: refused after that
    /// chunk's header with the reason, by `load` and by the window's opening alike, having read a
    /// few kilobytes. The same files with their true sizes open as before.
    @Test func aWebPChunkClaimingMoreThanItsPictureCanNeedIsRefusedAfterItsHeader() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let fixtures = FormatDecodingTests.fixtures
        let size = 300 << 20
        for (name, chunk) in [
            ("webp-lossless-rgba", "VP8L"), ("webp-lossy-rgb", "VP8 "), ("webp-lossy-rgba", "ALPH"),
            ("webp-lossy-rgba", "VP8 "), ("webp-animated", "ANMF"),
        ] {
            let entry = try #require(fixtures.entries.first { $0.name == name })
            let webp = try #require(Support.get(fixtures.folder + "/" + entry.file))
            let label = "\(name) \(chunk)"
            let at = try #require(Self.chunk(chunk, in: webp), "\(label)")
            #expect(PictureExtent.le32(webp, at + 4) < PictureExtent.mostWebPBytes(entry.width, entry.height))
            var claiming = webp
            for (offset, value) in [(4, size - 8), (at + 4, size - at - 8)] {
                for i in 0..<4 { claiming[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
            }
            let path = PictureExtentTests.sparse(folder, "\(name).webp", claiming, size: size)
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= at + 24, "\(label): \(read.count) bytes read")
            let reason = "picture data claims \(size - at - 8) bytes, more than a"
            Self.expectRefused(path, saying: reason, label)
            Support.put(webp, folder.file("true.webp"))
            #expect(try ImageFile.load(path: folder.file("true.webp")).width == entry.width)
        }
    }

    /// A WebP whose `EXIF`, `XMP `, `ICCP` (over the metadata limit) or unknown chunk before
    /// its picture claims 300 MB, in a file that long: that chunk is passed over, not read (the
    /// rest of the file, a few kilobytes, is), and the picture opens as it does without it, by
    /// `load`, `open` (--forget) and the window's opening alike. A `VP8X` or `ANIM` chunk
    /// claiming so (10 and 6 bytes in the format) is refused after its header with the reason.
    @Test func aWebPChunkBeforeItsPictureClaimingHundredsOfMegabytesIsPassedOverNotRead() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-extent")
        defer { folder.remove() }
        let fixtures = FormatDecodingTests.fixtures
        let claim = 300 << 20
        func fixture(_ name: String) throws -> [UInt8] {
            let entry = try #require(fixtures.entries.first { $0.name == name })
            return try #require(Support.get(fixtures.folder + "/" + entry.file))
        }
        for (name, type) in [
            ("webp-lossy-rgba", "EXIF"), ("webp-lossy-rgba", "XMP "), ("webp-lossy-rgba", "ICCP"),
            ("webp-lossy-rgba", "ZZZZ"), ("webp-animated", "EXIF"), ("webp-animated", "ICCP"),
        ] {
            let webp = try fixture(name)
            let label = "\(name) \(type)"
            let path = folder.file("\(name)-\(type.prefix(3)).webp")
            let size = try #require(HugeChunkWebP.write(webp, type: type, claim: claim, to: path), "\(label)")
            let shown = try ImageDecoder.decode(webp, name: name).image
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= webp.count, "\(label): \(read.count) bytes read")
            #expect(try ImageDecoder.decode(read, name: label).image == shown, "\(label)")
            #expect(try ImageFile.load(path: path) == shown, "\(label)")
            #expect(try ImageFile.open(path: path).picture.image == shown, "\(label)")
            // The window's opening: the picture's bytes held, the chunk passed over through the
            // stream's small buffer, then the CRC of the whole file; the bytes kept the picture's
            // as `readPicture` gives them, not the file's hundreds of megabytes.
            let (fd, fileSize) = try ImageFile.openForReading(path, limit: ImageFile.maxFileBytes)
            defer { close(fd) }
            let stream = PictureStream(fd: fd, name: path, size: fileSize, limit: ImageFile.maxFileBytes)
            let picture = ImageDecoder.pictureBytes(stream, limits: .default)
            #expect(picture.count <= webp.count, "\(label): \(picture.count) bytes held")
            let opened = try ImageFile.openTiles(path: path)
            #expect(opened.picture.image == shown && opened.bytes.count == read.count, "\(label)")
            #expect(opened.version?.stat.size == size, "\(label)")
        }
        for (name, type) in [("webp-lossy-rgba", "VP8X"), ("webp-animated", "ANIM")] {
            let label = "\(name) \(type)"
            let path = folder.file("\(name)-\(type).webp")
            _ = try #require(HugeChunkWebP.write(try fixture(name), type: type, claim: claim, to: path), "\(label)")
            let read = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(read.count <= 100, "\(label): \(read.count) bytes read")
            let reason = "its \(type) chunk claims \(claim) bytes, where the format gives it \(type == "VP8X" ? 10 : 6)"
            Self.expectRefused(path, saying: reason, label)
        }
    }

    /// Checks that the file at `path` is refused with a message holding `reason`, by `load` and
    /// by the window's opening alike.
    static func expectRefused(_ path: String, saying reason: String, _ label: String) {
        for (how, open) in [
            ("load", { () throws(ImageFileError) in _ = try ImageFile.load(path: path) }),
            ("window", { () throws(ImageFileError) in _ = try ImageFile.openTiles(path: path) }),
        ] {
            do {
                try open()
                Issue.record("\(label): \(how) opened it")
            } catch {
                #expect(error.message.contains(reason), "\(label): \(how): \(error.message)")
            }
        }
    }

    /// Where the first chunk of `type` starts in a WebP.
    static func chunk(_ type: String, in webp: [UInt8]) -> Int? {
        var at = 12
        while at + 8 <= webp.count {
            if webp[at..<(at + 4)].elementsEqual(type.utf8) { return at }
            let size = PictureExtent.le32(webp, at + 4)
            // An animation's frame holds its picture's chunks after its 16-byte header.
            at = webp[at..<(at + 4)].elementsEqual("ANMF".utf8) && type != "ANMF" ? at + 24 : at + 8 + size + (size & 1)
        }
        return nil
    }

    /// Mutated files of every format, read in pieces of random sizes: the walk never reads out
    /// of bounds or traps, the end it gives is never before the file's start, and decoding what
    /// it keeps fails with a reason or gives a picture, never a crash.
    @Test func mutatedFilesOfEveryFormatNeverCrashTheWalkOrTheDecoder() throws {
        let fixtures = FormatDecodingTests.fixtures
        let files = fixtures.entries.compactMap { Support.get(fixtures.folder + "/" + $0.file) }
        #expect(files.count == fixtures.entries.count)
        let seed = FuzzRun.seed(0xE87E_27)
        var rng = SplitMix(seed: seed)
        var outcomes: [String: Int] = [:]
        for _ in 0..<FuzzRun.rounds(1200) {
            let file = files[Int(rng.next() % UInt64(files.count))]
            let bytes = FuzzRun.mutate(
                file, &rng,
                cases: [
                    .flipBit, .cut, .insertRandom(below: 30), .field(FuzzRun.hostileFieldValues), .removeRun(upTo: 40),
                ])
            // Read as `readPicture` does, in pieces, a WebP's unneeded chunks skipped: `kept` is
            // what it holds, `read` how far into the file it went.
            var extent = PictureExtent(limits: .default, fileSize: bytes.count, skipsUnneeded: true)
            var kept: [UInt8] = []
            var read = 0
            var answer = PictureExtent.Answer.unknown
            while read < bytes.count, answer == .unknown || answer == .whole {
                let n = min(bytes.count - read, 1 + Int(rng.next() % 4096))
                kept += bytes[read..<(read + n)]
                read += n
                answer = extent.look(at: kept, atEnd: read == bytes.count)
                while case .skip(let from, let to) = answer {
                    #expect(from >= 12 && from < to && from + 8 <= kept.count, "skip \(from)..<\(to) of \(kept.count)")
                    guard from >= 0 && from < to && from <= kept.count else { break }
                    let held = kept.count
                    kept.removeSubrange(from..<min(to, held))
                    if to > held { read = min(bytes.count, read + to - held) }
                    outcomes["skip", default: 0] += 1
                    answer = extent.look(at: kept, atEnd: read == bytes.count)
                }
            }
            switch answer {
            case .end(let at):
                #expect(at >= 0)
                // The rest of the picture, up to its end.
                if at > kept.count {
                    let more = min(bytes.count - read, at - kept.count)
                    kept += bytes[read..<(read + more)]
                }
                if at < kept.count { kept.removeLast(kept.count - at) }
                if kept.count == at { PictureExtent.cutWebP(&kept) }
                outcomes["end", default: 0] += 1
            case .notAPicture: outcomes["not a picture", default: 0] += 1
            case .whole, .unknown: outcomes["whole", default: 0] += 1
            case .skip: Issue.record("a skip was left unanswered")
            }
            if (try? ImageDecoder.decode(kept, name: "fuzz")) != nil {
                outcomes["decoded", default: 0] += 1
            } else {
                outcomes["refused", default: 0] += 1
            }
        }
        print("extent fuzz, seed \(seed), \(FuzzRun.rounds(1200)) files: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["end", default: 0] > 300 && outcomes["decoded", default: 0] > 100)
    }
}

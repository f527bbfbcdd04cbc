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
        for (name, head) in [("big.jpg", jpeg), ("big.bmp", bmp), ("big.gif", gif)] {
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

    /// A BMP header (40 bytes, 24 bits a pixel, uncompressed) and `rows` of pixel data.
    static func bmp(width: Int, height: Int, rows: [UInt8] = [0, 0, 0, 0]) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return Array("BM".utf8) + le(54 + rows.count, 4) + le(0, 4) + le(54, 4)
            + le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(rows.count, 4)
            + le(2835, 4) + le(2835, 4) + le(0, 4) + le(0, 4) + rows
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
            let picture = ImageDecoder.webpPicture(stream, limits: .default)
            #expect(picture.count <= webp.count && stream.count <= webp.count + PictureStream.chunkSize, "\(name)")
            #expect(try ImageFile.openTiles(path: path).picture.image == shown, "\(name)")
        }
    }

    /// Mutated files of every format, read in pieces of random sizes: the walk never reads out
    /// of bounds or traps, the end it gives is never before the file's start, and decoding what
    /// it keeps fails with a reason or gives a picture, never a crash.
    @Test func mutatedFilesOfEveryFormatNeverCrashTheWalkOrTheDecoder() throws {
        let fixtures = FormatDecodingTests.fixtures
        let files = fixtures.entries.compactMap { Support.get(fixtures.folder + "/" + $0.file) }
        #expect(files.count == fixtures.entries.count)
        var rng = SplitMix(seed: 0xE87E_27)
        var outcomes: [String: Int] = [:]
        for _ in 0..<1200 {
            var bytes = files[Int(rng.next() % UInt64(files.count))]
            for _ in 0..<(1 + Int(rng.next() % 4)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 5 {
                case 0: bytes[at] ^= UInt8(1 << (rng.next() % 8))
                case 1: bytes.removeLast(bytes.count - at)
                case 2:
                    bytes.insert(
                        contentsOf: (0..<Int(rng.next() % 30)).map { _ in UInt8(truncatingIfNeeded: rng.next()) },
                        at: at)
                case 3:
                    // A length or size field made huge, zero or negative.
                    let values: [UInt32] = [0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0, 1, 0xFFFF]
                    let v = values[Int(rng.next() % UInt64(values.count))]
                    for i in 0..<4 where at + i < bytes.count {
                        bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * i))
                    }
                default: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % 40)))
                }
            }
            var extent = PictureExtent(limits: .default, fileSize: bytes.count)
            var read = 0
            var answer = PictureExtent.Answer.unknown
            while read < bytes.count, answer == .unknown || answer == .whole {
                read = min(bytes.count, read + 1 + Int(rng.next() % 4096))
                answer = extent.look(at: Array(bytes[..<read]), atEnd: read == bytes.count)
            }
            var kept = bytes
            switch answer {
            case .end(let at):
                #expect(at >= 0)
                if at < kept.count { kept.removeLast(kept.count - at) }
                if kept.count == at { PictureExtent.cutWebP(&kept) }
                outcomes["end", default: 0] += 1
            case .notAPicture: outcomes["not a picture", default: 0] += 1
            case .whole, .unknown: outcomes["whole", default: 0] += 1
            }
            if (try? ImageDecoder.decode(kept, name: "fuzz")) != nil {
                outcomes["decoded", default: 0] += 1
            } else {
                outcomes["refused", default: 0] += 1
            }
        }
        print("extent fuzz: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["end", default: 0] > 300 && outcomes["decoded", default: 0] > 100)
    }
}

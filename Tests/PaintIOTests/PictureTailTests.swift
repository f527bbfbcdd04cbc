import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// What follows a picture in its file (junk after a PNG's IEND, a JPEG's EOI, a GIF's first
/// image, a BMP's rows, a WebP's RIFF size) is not kept by the window's opening (`PictureEnd`):
/// the bytes left in the file are the picture's, so reading them back for a history, copying
/// them into a crash journal and a save that keeps the history hold no junk. Each file has a
/// sparse tail of 200 MB (20 MB for the formats but PNG: each open drains it for the CRC).
@Suite struct PictureTailTests {
    static let tail = 200 << 20

    /// `picture` followed by `tail` bytes of zeros.
    static func withTail(
        _ folder: TemporaryDirectory, _ name: String, _ picture: [UInt8], tail: Int = tail
    ) -> String {
        let path = folder.file(name)
        #expect(SparseFile.write([(0, picture)], size: picture.count + tail, to: path))
        return path
    }

    /// The pictures of every format, as files hold them.
    static func pictures() throws -> [(name: String, bytes: [UInt8])] {
        let picture = Support.opaqueImage()
        return [
            ("p.png", try PNGCodec.encode(picture, withAlpha: false)),
            ("p.jpg", try JPEGCodec.encode(picture, quality: 90)),
            ("p.gif", try PictureExtentMetadataTests.fixture("gif-plain")),
            ("p.bmp", PictureExtentFormatsTests.bmp(width: 1, height: 1)),
            ("p.webp", try WebPCodec.encode(picture, quality: nil, withAlpha: false)),
        ]
    }

    @Test func theWindowsOpeningKeepsThePicturesBytesAndNotWhatFollows() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-tail")
        defer { folder.remove() }
        for (name, bytes) in try Self.pictures() {
            let tail = name == "p.png" ? Self.tail : Self.tail / 10
            let path = Self.withTail(folder, name, bytes, tail: tail)
            let opened = try ImageFile.openTiles(path: path)
            #expect(opened.picture.image == (try ImageDecoder.decode(bytes, name: name).image), "\(name)")
            // "Changed on disk" still compares the whole file.
            #expect(opened.version?.stat.size == bytes.count + tail, "\(name)")
            // What the format defines (a GIF's first image, without the trailer after it), as
            // `--export` reads it.
            let picture = try ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
            #expect(picture.count <= bytes.count && bytes.starts(with: picture), "\(name)")
            switch opened.bytes {
            case .file(let file):
                #expect(name != "p.webp", "a WebP's bytes are read into memory")
                #expect(file.count == picture.count, "\(name): \(file.count) bytes kept")
                // Compared aside: a failing #expect would print 200 MB.
                let read = file.read()
                let same = read == picture
                #expect(same, "\(name): \(read?.count ?? -1) bytes read back")
            case .memory(let kept):
                #expect(name == "p.webp", "\(name) held in memory")
                let same = kept == picture
                #expect(same, "\(name): \(kept.count) bytes held")
            }
        }
    }

    /// A PNG carrying its history, with junk after it: the history chunk is the picture's (it
    /// comes before IEND) and is kept; the junk is not.
    @Test func aHistoryChunkIsKeptAndTheJunkAfterItNot() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-tail")
        defer { folder.remove() }
        let png = try PNGCodec.encode(Support.opaqueImage(), withAlpha: false)
        let chunk = PNGChunks.makeChunk(type: HistoryChunk.type, data: Array(repeating: 7, count: 5000))
        let carrying = Array(png.dropLast(12)) + chunk + Array(png.suffix(12))
        let path = Self.withTail(folder, "h.png", carrying)
        let opened = try ImageFile.openTiles(path: path)
        #expect(opened.carriesHistory)
        guard case .file(let file) = opened.bytes else {
            Issue.record("the bytes were read into memory")
            return
        }
        #expect(file.count == carrying.count, "\(file.count) bytes kept")
        let read = file.read() ?? []
        let same = read == carrying
        #expect(same && HistoryChunk.isPresent(in: read), "\(read.count) bytes read back")
    }

    /// A crash journal started from such a file holds the picture, not the junk: the whole
    /// journal is a few kilobytes, gives back the picture's bytes, and an interim journal left by
    /// a crash during the copy is restored from the file (longer than the picture) as before.
    @Test func aJournalHoldsThePictureAndNotWhatFollows() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-tail")
        defer { folder.remove() }
        let png = try PNGCodec.encode(Support.opaqueImage(), withAlpha: false)
        let path = Self.withTail(folder, "p.png", png)
        guard case .file(let file) = try ImageFile.openTiles(path: path).bytes else {
            Issue.record("the bytes were read into memory")
            return
        }
        let header = JournalHeader(documentPath: path, width: 97, height: 61, background: .color(.white))
        let writer = try JournalWriter.start(
            in: folder.file("journal"), header: header, baseFile: file, initial: [.operation(JournalInterimTests.fill)])
        #expect(writer.flush())
        let size = try #require(FileVersion.Stat(path: writer.path)?.size)
        #expect(size < png.count + 4096, "the journal takes \(size) bytes")
        let read = try JournalReader.read(path: writer.path)
        let base = read.header.baseImage ?? []
        let same = base == png
        #expect(read.header.baseReference == nil && same, "\(base.count) bytes in the journal")
        let again = writer.readBaseImage() ?? []
        let sameAgain = again == png
        #expect(sameAgain, "\(again.count) bytes read back")
        writer.discard()

        let interim = try JournalInterimTests.crashedInterim(
            in: folder.file("crashed"), file: file, header: header, initial: [.operation(JournalInterimTests.fill)])
        let restored = try JournalReader.read(path: interim)
        let restoredBase = restored.header.baseImage ?? []
        let sameRestored = restoredBase == png
        #expect(sameRestored, "\(restoredBase.count) bytes restored")
        #expect(restored.records == [.operation(JournalInterimTests.fill)])
    }
}

extension PictureTailTests {
    /// Mutated files of every format, some with junk after them, given to `PictureEnd` and to
    /// `JPEGHeaderCapture` in pieces of random sizes: neither traps; a prefix `PictureEnd` keeps
    /// of a file that opens is exactly what `readPicture` reads of it, with its CRC; the segments the capture
    /// keeps give the same EXIF orientation and ICC profile as the whole file's header.
    @Test func mutatedFilesKeepWhatReadPictureReads() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-tail")
        defer { folder.remove() }
        let fixtures = FormatDecodingTests.fixtures
        let files = fixtures.entries.compactMap { Support.get(fixtures.folder + "/" + $0.file) }
        #expect(files.count == fixtures.entries.count)
        let seed = FuzzRun.seed(0x7A11_5EED)
        var rng = SplitMix(seed: seed)
        var outcomes: [String: Int] = [:]
        let path = folder.file("fuzz")
        for _ in 0..<FuzzRun.rounds(400) {
            let file = files[Int(rng.next() % UInt64(files.count))]
            var bytes = FuzzRun.mutate(
                file, &rng, cases: [.flipBit, .cut, .insertRandom(below: 30), .removeRun(upTo: 40)], times: 0...3)
            if rng.next() % 2 == 0 { bytes += (0..<Int(rng.next() % 5000)).map { _ in UInt8(rng.next() & 0xFF) } }
            let end = PictureEnd(limits: .default, fileSize: bytes.count)
            let capture = JPEGHeaderCapture(limit: ImageLimits.default.maxMetadataBytes + (1 << 20))
            var at = 0
            var crc: UInt32 = 0
            while at < bytes.count {
                let n = min(bytes.count - at, 1 + Int(rng.next() % 70_000))
                bytes[at..<(at + n)].withUnsafeBytes {
                    end.see($0, crcBefore: crc)
                    capture.see($0)
                    crc = Zlib.crc32($0, continuing: crc)
                }
                at += n
            }
            if ImageFormat.sniff(bytes) == .jpeg {
                let whole = JPEGMetadata(bytes, maxProfileBytes: ImageLimits.default.maxMetadataBytes)
                let kept = JPEGMetadata(capture.prefix, maxProfileBytes: ImageLimits.default.maxMetadataBytes)
                #expect(whole.orientation == kept.orientation && whole.iccProfile == kept.iccProfile, "seed \(seed)")
            }
            switch end.kept(ofFile: bytes.count) {
            case .prefix(let count, let crc):
                outcomes["prefix", default: 0] += 1
                Support.put(bytes, path)
                let read = try? ImageFile.readPicture(path, limit: ImageFile.maxFileBytes)
                // Only a file that opens is compared: what is kept of one refused is never read
                // back.
                guard let read, (try? ImageDecoder.decode(read, name: "fuzz")) != nil else { continue }
                outcomes["opened", default: 0] += 1
                let prefix = Array(bytes.prefix(count))
                #expect(
                    read == prefix && crc == Zlib.crc32(prefix),
                    "seed \(seed): \(count) of \(bytes.count) kept, \(read.count) read")
            case .picture: outcomes["picture", default: 0] += 1
            case .whole: outcomes["whole", default: 0] += 1
            }
        }
        print("picture end fuzz, seed \(seed), \(FuzzRun.rounds(400)) files: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["opened", default: 0] > 50)
    }
}

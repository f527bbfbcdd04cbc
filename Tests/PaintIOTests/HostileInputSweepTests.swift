import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// Every reader of bytes from disk or the clipboard, given thousands of cut and bit-flipped
/// variants of good input (fixed seeds; `FuzzRun` for more): the picture decoders (PNG, JPEG,
/// WebP, GIF, BMP, from memory and into tiles, and the header peek the paste's status bar
/// uses), the recent-files list, a clipboard's `text/uri-list` and the history store's entry
/// header. None crashes; a picture opened is within `ImageLimits` and its damage within its
/// height. The journal, the saved history and the decoders' extents have their own loops
/// (`JournalFuzzTests`, `HistoryChunkTests`, `PictureExtentFormatsTests`, `PictureTailTests`).
@Suite struct HostileInputSweepTests {
    /// `valid` changed one to four times: cut, a bit flipped, random bytes put in, a run taken
    /// out, a 32-bit field made huge, zero or negative.
    static func mutated(_ valid: [UInt8], _ rng: inout SplitMix) -> [UInt8] {
        FuzzRun.mutate(
            valid, &rng,
            cases: [
                .flipBit, .flipBit, .cut, .insertRandom(below: 30), .field(FuzzRun.hostileFieldValues),
                .removeRun(upTo: 40),
            ])
    }

    @Test func everyPictureDecoderSurvivesCutAndFlippedFiles() throws {
        let limits = ImageLimits.default
        var outcomes: [String: Int] = [:]
        var slowest = (seconds: 0.0, what: "")
        for (index, (name, valid)) in try PartialDecodingTests.files().enumerated() {
            let seed = FuzzRun.seed(0x5EE9_0000 + UInt64(index))
            var rng = SplitMix(seed: seed)
            for round in 0..<FuzzRun.rounds(60) {
                let bytes = Self.mutated(valid, &rng)
                let label = "\(name), seed \(seed), round \(round)"
                let start = Date()
                let fault = PictureFault.decoding { () throws(ImageFileError) in
                    try ImageDecoder.decode(bytes, name: "d")
                }
                let tiled = PictureFault.tiles { () throws(ImageFileError) in
                    let opened = try ImageDecoder.decodeTiles(bytes, name: "d")
                    return (opened.picture, opened.damage)
                }
                _ = PictureHeader.parse(bytes)
                let seconds = Date().timeIntervalSince(start)
                if seconds > slowest.seconds { slowest = (seconds, label) }
                for result in [fault, tiled] {
                    switch result {
                    case .whole: outcomes["\(name) whole", default: 0] += 1
                    case .refused: outcomes["\(name) refused", default: 0] += 1
                    case .damaged(let damage, let image):
                        outcomes["\(name) damaged", default: 0] += 1
                        #expect(limits.allows(width: image.width, height: image.height), "\(label)")
                        #expect(damage.rowsRead >= 0 && damage.rowsRead <= damage.height, "\(label): \(damage)")
                        #expect(
                            damage.height == (damage.orientation.swapsAxes ? image.width : image.height),
                            "\(label): \(damage)")
                    }
                }
            }
        }
        print("picture decoders' sweep: \(outcomes.sorted { $0.key < $1.key }); slowest \(slowest)")
    }

    @Test func theRecentListSurvivesCutAndFlippedFiles() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-sweep")
        defer { folder.remove() }
        let list = RecentFiles(path: folder.file("recent"))
        for i in 0..<RecentFiles.capacity { _ = list.add("/home/ana/Pictures/photo %\(i)\n.png") }
        let valid = try #require(Support.get(folder.file("recent")))
        var rng = SplitMix(seed: FuzzRun.seed(0x5EE9_1000))
        var problems = 0
        for _ in 0..<FuzzRun.rounds(800) {
            Support.put(Self.mutated(valid, &rng), folder.file("recent"))
            let (paths, problem) = list.load()
            #expect(paths.count <= RecentFiles.capacity && paths.allSatisfy { $0.hasPrefix("/") })
            if problem != nil { problems += 1 }
        }
        #expect(problems > 50)
    }

    @Test func aClipboardsURIListSurvivesCutAndFlippedLists() {
        let valid = Array(
            "# copied\r\nfile:///home/ana/My%20Pictures/a%25.png\r\nfile://localhost/b.png\r\nhttp://x/c\r\n".utf8)
        var rng = SplitMix(seed: FuzzRun.seed(0x5EE9_2000))
        for _ in 0..<FuzzRun.rounds(800) {
            let bytes = Self.mutated(valid, &rng)
            let text = FileURI.text(ofURIList: bytes, cut: rng.next() % 2 == 0)
            let (paths, _) = FileURI.paths(inURIList: text)
            #expect(paths.allSatisfy { $0.hasPrefix("/") && !$0.utf8.contains(0) })
            _ = FileURI.namesNotUTF8(inURIList: text)
        }
    }

    /// The entry's checksum covers it, so a flipped bit is refused before anything is read; the
    /// checksum made right again reaches the reader behind it, which checks every length.
    @Test func aHistoryStoreEntrySurvivesCutAndFlippedBytes() throws {
        let key = try #require(HistoryKey(digest: Array(repeating: 7, count: 32)))
        let picture = try #require(HistoryKey(digest: Array(repeating: 9, count: 32)))
        let sealed = (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let valid = StoreEntry.encode(key: key, picture: picture, sealed: sealed)
        var rng = SplitMix(seed: FuzzRun.seed(0x5EE9_3000))
        for round in 0..<FuzzRun.rounds(800) {
            var bytes = Self.mutated(valid, &rng)
            if round % 2 == 1 && bytes.count >= 4 {
                let crc = Zlib.crc32(Array(bytes[..<(bytes.count - 4)]))
                for i in 0..<4 { bytes[bytes.count - 4 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
            }
            if case .entry(let archive, _) = StoreEntry.decode(bytes, key: key) {
                #expect(archive.operations.count < 10_000)
            }
        }
    }
}

import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

@Suite struct HistoryKeyTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesTheStandardTestVectors() {
        // FIPS 180-4 examples and the NIST long-message vector.
        #expect(
            Self.hex(SHA256.digest([]))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Self.hex(SHA256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Self.hex(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// SHA-256 is libcrypto's linked into the program, not the shared libcrypto.so.3: loading
    /// that at every start took 1.45 MB of resident memory (relocated and touched) for three
    /// functions. Once a digest is made, no libcrypto.so is mapped into this process, which is
    /// linked as the program is.
    @Test func sha256IsLinkedInNotTheSharedLibcrypto() throws {
        #expect(
            Self.hex(SHA256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Read to its end: the file says it is empty (procfs), so a read of its size reads nothing.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let lines = maps.split(separator: "\n")
        #expect(lines.contains { $0.contains(".xctest") }, "the test binary's own lines are there")
        let shared = lines.first { $0.contains("libcrypto.so") }
        #expect(shared == nil)
    }

    @Test func sha256AgreesWithCoreutilsAcrossBlockBoundaries() throws {
        // Lengths around the 55/56/64-byte padding boundaries, fed in uneven pieces.
        var noise = Support.Noise(state: 9)
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4099] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: noise.next()) }
            var hash = SHA256()
            var rest = bytes[...]
            var piece = 1
            while !rest.isEmpty {
                hash.update(Array(rest.prefix(piece)))
                rest = rest.dropFirst(piece)
                piece = piece * 3 % 71 + 1
            }
            let incremental = Self.hex(hash.finish())
            #expect(incremental == Self.hex(SHA256.digest(bytes)), "length \(length)")
            // The system's sha256sum is the independent oracle.
            Support.put(bytes, folder.file("m"))
            let output = try ChildProcess.run("/usr/bin/sha256sum", [folder.file("m")]).stdoutText
            #expect(output.hasPrefix(incremental + " "), "length \(length): \(output)")
        }
    }

    @Test func theKeyFollowsThePixelsAndTheSizeOnly() {
        let image = Support.opaqueImage(width: 6, height: 4)
        let key = HistoryKey(of: image)
        #expect(HistoryKey(of: image) == key)
        #expect(key.hex.count == 64)
        #expect(HistoryKey(hex: key.hex) == key)
        #expect(HistoryKey(digest: key.digest) == key)

        // One channel of one pixel, by one step: another key.
        var changed = image
        changed.pixels[13] ^= 1
        #expect(HistoryKey(of: changed) != key)
        // The same pixel values laid out as 4 x 6: another key.
        let transposed = PixelImage(width: 4, height: 6, pixels: image.pixels)!
        #expect(HistoryKey(of: transposed) != key)
        // The key is the digest of exactly the documented bytes.
        var bytes: [UInt8] = [6, 0, 0, 0, 4, 0, 0, 0]
        for p in image.pixels {
            bytes += [UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF), UInt8(p >> 24)]
        }
        #expect(key.digest == SHA256.digest(bytes))
    }

    @Test func hexThatIsNotAKeyIsRefused() {
        #expect(HistoryKey(hex: "") == nil)
        #expect(HistoryKey(hex: String(repeating: "a", count: 63)) == nil)
        #expect(HistoryKey(hex: String(repeating: "A", count: 64)) == nil)
        #expect(HistoryKey(hex: String(repeating: "g", count: 64)) == nil)
        #expect(HistoryKey(hex: String(repeating: "0", count: 64)) != nil)
        #expect(HistoryKey(digest: [1, 2, 3]) == nil)
    }

    /// The window hashes an opened picture from the engine's tiles, row by row: the key must be
    /// the one of the same picture as an image, tiles shared or not, packed or not, on a canvas
    /// that is no multiple of the tile size.
    @Test func theKeyOfTheEnginesTilesIsTheKeyOfThePicture() {
        var noise = Support.Noise(state: 4)
        var image = PixelImage(width: 197, height: 131)
        // Noise in the left part (tiles of their own), one value elsewhere (shared tiles).
        for y in 0..<image.height {
            for x in 0..<image.width {
                image.pixels[y * image.width + x] = x < 70 ? UInt32(truncatingIfNeeded: noise.next()) : 0xFF10_2030
            }
        }
        let engine = StrokeEngine(image: image, background: .color(.white))
        _ = engine.begin(
            StrokeStyle(color: Color(r: 200, g: 30, b: 60), opacity: 0.7, width: 9), at: Point(x: 90, y: 10))
        _ = engine.move(to: Point(x: 180, y: 120))
        _ = engine.end()
        let painted = engine.paintImage()
        #expect(painted != image, "the stroke changed the paint")
        let snapshot = engine.paintSnapshot()
        #expect(HistoryKey(of: snapshot) == HistoryKey(of: painted))
        #expect(HistoryKey(of: snapshot.packed()) == HistoryKey(of: painted))
        #expect(snapshot.image() == painted)
        #expect(HistoryKey(of: snapshot) != HistoryKey(of: image))
    }

    /// The key of an engine's picture as saved, flattened band by band (131 rows: 64 + 64 +
    /// 3), is the key of its flattened image, over a background colour and over none.
    @Test func theKeyFlattenedBandByBandIsTheKeyOfTheFlattenedImage() {
        for background in [Background.transparent, .color(Color(r: 30, g: 60, b: 90))] {
            let engine = StrokeEngine(width: 197, height: 131, background: background)
            _ = engine.begin(
                StrokeStyle(color: Color(r: 200, g: 30, b: 60), opacity: 0.7, width: 9), at: Point(x: 5, y: 10))
            _ = engine.move(to: Point(x: 190, y: 125))
            _ = engine.end()
            #expect(HistoryKey(flattening: engine) == HistoryKey(of: engine.flattenedImage()))
            #expect(
                HistoryKey(flattening: engine) != HistoryKey(of: StrokeEngine(width: 197, height: 131).flattenedImage())
            )
        }
    }

    /// Hashed band by band with a control: the same key, every row counted once (131 rows: two
    /// bands of 64 and one of 3); a control told to stop gives no key and hashes nothing.
    @Test func aKeyHashedWithAControlIsTheSameAndStopsWhenTold() {
        var noise = Support.Noise(state: 5)
        var image = PixelImage(width: 197, height: 131)
        for i in image.pixels.indices { image.pixels[i] = UInt32(truncatingIfNeeded: noise.next()) }
        let snapshot = StrokeEngine(image: image).paintSnapshot()
        let control = ReplayControl()
        #expect(HistoryKey(of: snapshot, control: control) == HistoryKey(of: image))
        #expect(control.rowsHashed == 131)
        let stopped = ReplayControl()
        stopped.stop()
        #expect(HistoryKey(of: snapshot, control: stopped) == nil && stopped.rowsHashed == 0)
    }

    /// A store written by the SwiftPaint before libcrypto's SHA-256 (commit 0ea9ccf, whose
    /// SHA-256 was written in Swift) is still found: `Tests/Fixtures/kept-history-0ea9ccf.png`,
    /// an 80 x 60 drawing of two strokes saved twice with Ctrl+S by that build, and its entry in
    /// `Tests/Fixtures/history-store-0ea9ccf/`, named by that build's key of the file's pixels.
    @Test func aStoreWrittenByTheSwiftSHA256IsStillFound() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("history"))
        try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true)
        let old = Reference.fixtures + "/history-store-0ea9ccf"
        for name in try FileManager.default.contentsOfDirectory(atPath: old) {
            try FileManager.default.copyItem(atPath: old + "/" + name, toPath: store.folder + "/" + name)
        }
        let picture = try ImageFile.load(path: Reference.fixtures + "/kept-history-0ea9ccf.png")
        let key = HistoryKey(of: picture)
        #expect(key.hex == "d316ad7d66aa224a7ea033392ce59ac1f37744b43b122330bbcc861fd731e656")
        guard case .entry(let archive, let named) = store.find(key) else {
            Issue.record("not found: \(store.find(key))")
            return
        }
        #expect(named == key && archive.operations.count == 2)
        let replayed = try HistoryReplay.replay(HistoryReplay.Start(archive), archive.operations)
        #expect(replayed.engine.flattenedImage() == picture, "the history replays to the file")
    }
}

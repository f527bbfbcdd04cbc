import CPNG
import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

@Suite struct HistoryChunkTests {
    // MARK: Helpers

    struct Rand {
        var noise: Support.Noise
        init(seed: UInt64) { noise = Support.Noise(state: seed) }
        mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(noise.next()) % range.count }
        mutating func double(_ lo: Double, _ hi: Double) -> Double {
            lo + (hi - lo) * Double(noise.next()) / Double(UInt32.max)
        }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: noise.next()) }
    }

    /// `strokes` random strokes with clears, undos, redos and save markers mixed in.
    static func operations(strokes: Int, seed: UInt64) -> [PaintCore.Operation] {
        var rng = Rand(seed: seed)
        var ops: [PaintCore.Operation] = []
        for i in 0..<strokes {
            let style = StrokeStyle(
                tool: rng.int(0..<5) == 0 ? .eraser : .brush,
                color: Color(r: rng.byte(), g: rng.byte(), b: rng.byte()),
                opacity: rng.double(0.1, 1), width: rng.double(1, 40))
            var points: [Point] = []
            var x = rng.double(0, 800)
            var y = rng.double(0, 600)
            for _ in 0..<rng.int(1..<40) {
                x += rng.double(-8, 8)
                y += rng.double(-8, 8)
                points.append(Point(x: x, y: y))
            }
            ops.append(.stroke(style, points: points))
            switch i % 37 {
            case 5: ops.append(.undo)
            case 6: ops.append(.redo)
            case 20: ops.append(.clear)
            case 30: ops.append(.clearRect(IntRect(x: i, y: 3, width: 20, height: 10)))
            default: break
            }
        }
        return ops
    }

    static func archive(strokes: Int, image: PixelImage, base: Bool = true) throws -> DocumentArchive {
        DocumentArchive(
            width: image.width, height: image.height, background: .color(Color(r: 250, g: 240, b: 230)),
            baseImage: base ? try PNGCodec.encode(Support.opaqueImage(width: 8, height: 5), withAlpha: true) : nil,
            operations: operations(strokes: strokes, seed: 7), pixelHash: DocumentArchive.hash(image))
    }

    /// The PNG with `data` as its (only) spHS chunk, just before IEND, with a correct CRC.
    static func withRawChunk(_ png: [UInt8], _ data: [UInt8], type: String = "spHS") -> [UInt8] {
        guard case .complete(let chunks) = PNGChunks.walk(png) else { return png }
        var out = PNGChunks.signature
        for c in chunks where c.type != HistoryChunk.type {
            if c.type == Array("IEND".utf8) { out += Support.chunk(type, data) }
            out += png[c.start..<c.end]
        }
        return out
    }

    /// History chunk data: version, declared size, then `body` as the compressed stream.
    static func chunkData(version: UInt8 = 1, declared: UInt64, body: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        w.byte(version)
        w.uint64(declared)
        w.append(body)
        return w.bytes
    }

    static func spHSChunks(_ png: [UInt8]) -> [PNGChunks.Chunk] {
        guard case .complete(let chunks) = PNGChunks.walk(png) else { return [] }
        return chunks.filter { $0.type == HistoryChunk.type }
    }

    static func isRejected(_ r: HistoryChunk.ExtractResult, containing text: String) -> Bool {
        if case .rejected(let reason) = r { return reason.contains(text) }
        return false
    }

    // MARK: Round trip

    @Test func roundTripKeepsTheArchiveAndThePicture() throws {
        let image = Support.opaqueImage(width: 97, height: 61)
        let png = try PNGCodec.encode(image, withAlpha: true)
        let archive = try Self.archive(strokes: 300, image: image)
        #expect(archive.operations.count > 300)
        let embedded = try HistoryChunk.embed(archive, into: png)
        #expect(HistoryChunk.extract(from: embedded) == .archive(archive))

        // Other viewers see the same picture.
        #expect(try PNGCodec.decode(embedded, name: "e.png") == image)
        #expect(Support.straightBGRA(embedded) == Support.straightBGRA(png))
        if case .archive(let back) = HistoryChunk.extract(from: embedded) {
            #expect(back.matches(image))
            var other = image
            other.pixels[0] ^= 1
            #expect(!back.matches(other))
            // The same check on the engine's tiles of the picture, read a row at a time.
            #expect(back.matches(StrokeEngine(image: image).paintSnapshot()))
            #expect(!back.matches(StrokeEngine(image: other).paintSnapshot()))
            #expect(!back.matches(StrokeEngine(width: 97, height: 60).paintSnapshot()))
        }

        // A blank canvas with a transparent background and no operations round-trips too.
        let blank = DocumentArchive(width: 3, height: 2, background: .transparent, operations: [], pixelHash: 0)
        #expect(HistoryChunk.extract(from: try HistoryChunk.embed(blank, into: png)) == .archive(blank))
    }

    @Test func chunkSitsBeforeIENDAfterIDATAndIsNamedSpHS() throws {
        let image = Support.opaqueImage(width: 20, height: 10)
        let png = try PNGCodec.encode(image, withAlpha: false)
        let embedded = try HistoryChunk.embed(try Self.archive(strokes: 10, image: image), into: png)
        guard case .complete(let chunks) = PNGChunks.walk(embedded) else {
            Issue.record("embedded PNG does not walk")
            return
        }
        let types = chunks.map { String(decoding: $0.type, as: UTF8.self) }
        #expect(types.last == "IEND")
        #expect(types[types.count - 2] == "spHS")
        let lastIDAT = try #require(types.lastIndex(of: "IDAT"))
        #expect(lastIDAT < types.count - 2)
        let c = chunks[chunks.count - 2]
        #expect(Array(embedded[(c.start + 4)..<(c.start + 8)]) == [0x73, 0x70, 0x48, 0x53])
        // Property bits: ancillary (bit 5 of byte 0 set), private (byte 1), reserved clear
        // (byte 2), unsafe to copy (byte 3 bit 5 clear).
        #expect(c.type[0] & 0x20 != 0 && c.type[1] & 0x20 != 0 && c.type[2] & 0x20 == 0 && c.type[3] & 0x20 == 0)
        #expect(PNGChunks.crcMatches(c, in: embedded))
        // Everything other than the new chunk is byte-for-byte the original.
        #expect(Array(embedded[..<c.start]) + Array(embedded[c.end...]) == png)
    }

    @Test func reEmbeddingReplacesTheChunk() throws {
        let image = Support.opaqueImage(width: 20, height: 10)
        let png = try PNGCodec.encode(image, withAlpha: true)
        let first = try HistoryChunk.embed(try Self.archive(strokes: 5, image: image), into: png)
        let second = try Self.archive(strokes: 12, image: image)
        let again = try HistoryChunk.embed(second, into: first)
        #expect(Self.spHSChunks(again).count == 1)
        #expect(HistoryChunk.extract(from: again) == .archive(second))
        #expect(again == (try HistoryChunk.embed(second, into: png)))
    }

    @Test func embedRefusesWhatIsNotAPNG() throws {
        let archive = DocumentArchive(width: 1, height: 1, background: .transparent, operations: [], pixelHash: 0)
        #expect(throws: HistoryChunk.EmbedError.self) { try HistoryChunk.embed(archive, into: Array("hello".utf8)) }
        let png = try PNGCodec.encode(Support.opaqueImage(width: 4, height: 4), withAlpha: true)
        #expect(throws: HistoryChunk.EmbedError.self) { try HistoryChunk.embed(archive, into: Array(png.dropLast(3))) }
    }

    @Test func pngWithoutTheChunkHasNoHistory() throws {
        let png = try PNGCodec.encode(Support.opaqueImage(width: 9, height: 9), withAlpha: true)
        #expect(HistoryChunk.extract(from: png) == .none)
        #expect(HistoryChunk.extract(from: []) == .none)
        #expect(HistoryChunk.extract(from: Array("not a png at all".utf8)) == .none)
        // A chunk with a similar name is not ours.
        #expect(HistoryChunk.extract(from: Self.withRawChunk(png, [1, 2, 3], type: "spHs")) == .none)
    }

    // MARK: Damage

    @Test func flippedByteInTheChunkIsAChecksumMismatch() throws {
        let image = Support.opaqueImage(width: 20, height: 10)
        let embedded = try HistoryChunk.embed(
            try Self.archive(strokes: 30, image: image), into: try PNGCodec.encode(image, withAlpha: true))
        let c = try #require(Self.spHSChunks(embedded).first)
        for position in [c.dataStart, c.dataStart + c.length / 2, c.dataStart + c.length - 1] {
            var bad = embedded
            bad[position] ^= 0x10
            let result = HistoryChunk.extract(from: bad)
            #expect(Self.isRejected(result, containing: "checksum mismatch"), "\(result)")
            // The picture is still readable.
            #expect(try PNGCodec.decode(bad, name: "bad.png") == image)
        }
        // A file cut off inside the chunk.
        let cut = Array(embedded[..<(c.dataStart + 10)])
        #expect(Self.isRejected(HistoryChunk.extract(from: cut), containing: "cut short"))
    }

    @Test func validCRCWithGarbageDataIsRejected() throws {
        let png = try PNGCodec.encode(Support.opaqueImage(width: 9, height: 9), withAlpha: true)
        var rng = Rand(seed: 3)
        let garbage = (0..<500).map { _ in rng.byte() }
        // Pure garbage, garbage after a plausible header, a valid zlib stream of a garbage
        // payload, an empty chunk, and a valid archive followed by trailing bytes.
        let compressedGarbage = try #require(Zlib.compress(garbage))
        let archive = DocumentArchive(width: 1, height: 1, background: .transparent, operations: [.clear], pixelHash: 9)
        let payload = try #require(archive.payload())
        let cases: [[UInt8]] = [
            garbage,
            Self.chunkData(declared: 1000, body: garbage),
            Self.chunkData(declared: UInt64(garbage.count), body: compressedGarbage),
            [],
            Self.chunkData(
                declared: UInt64(payload.count + 3), body: try #require(Zlib.compress(payload + [1, 2, 3]))),
            Self.chunkData(declared: UInt64(payload.count), body: try #require(Zlib.compress(payload)) + [0]),
            Self.chunkData(declared: UInt64(payload.count + 1), body: try #require(Zlib.compress(payload))),
        ]
        for data in cases {
            let result = HistoryChunk.extract(from: Self.withRawChunk(png, data))
            guard case .rejected(let reason) = result else {
                Issue.record("accepted garbage: \(result)")
                continue
            }
            #expect(!reason.isEmpty)
        }
        // The same framing with the real payload is accepted (the cases above differ only in data).
        let good = Self.chunkData(declared: UInt64(payload.count), body: try #require(Zlib.compress(payload)))
        #expect(HistoryChunk.extract(from: Self.withRawChunk(png, good)) == .archive(archive))
    }

    @Test func newerVersionIsRefusedInWords() throws {
        let image = Support.opaqueImage(width: 9, height: 9)
        let embedded = try HistoryChunk.embed(
            try Self.archive(strokes: 3, image: image), into: try PNGCodec.encode(image, withAlpha: true))
        let c = try #require(Self.spHSChunks(embedded).first)
        var data = Array(embedded[c.dataStart..<(c.dataStart + c.length)])
        data[0] = 99
        let result = HistoryChunk.extract(from: Self.withRawChunk(embedded, data))
        #expect(result == .rejected("the history was written by a newer SwiftPaint (format 99)"))
        data[0] = 0
        #expect(Self.isRejected(HistoryChunk.extract(from: Self.withRawChunk(embedded, data)), containing: "(0)"))
    }

    @Test func hugeDeclaredSizeIsRefusedWithoutAllocating() throws {
        let png = try PNGCodec.encode(Support.opaqueImage(width: 9, height: 9), withAlpha: true)
        let body = try #require(Zlib.compress([UInt8](repeating: 0, count: 100)))
        let huge = HistoryChunk.extract(from: Self.withRawChunk(png, Self.chunkData(declared: 4 << 30, body: body)))
        #expect(Self.isRejected(huge, containing: "too large"), "\(huge)")
        let maxed = HistoryChunk.extract(from: Self.withRawChunk(png, Self.chunkData(declared: .max, body: body)))
        #expect(Self.isRejected(maxed, containing: "too large"), "\(maxed)")
        // Under the absolute bound but far beyond what the compressed bytes could hold.
        let ratio = HistoryChunk.extract(from: Self.withRawChunk(png, Self.chunkData(declared: 100 << 20, body: body)))
        #expect(Self.isRejected(ratio, containing: "too large"), "\(ratio)")
    }

    @Test func zlibBombIsRefused() throws {
        let png = try PNGCodec.encode(Support.opaqueImage(width: 9, height: 9), withAlpha: true)
        let zeros = [UInt8](repeating: 0, count: 50_000_000)
        let bomb = try #require(Zlib.compress(zeros, level: 9))
        #expect(bomb.count < 100_000)
        for declared: UInt64 in [1000, 20_000_000] {
            let result = HistoryChunk.extract(
                from: Self.withRawChunk(png, Self.chunkData(declared: declared, body: bomb)))
            #expect(Self.isRejected(result, containing: "more than it declares"), "\(result)")
        }
        // Declared honestly, 50 MB from about 50 KB is beyond the ratio bound.
        let honest = HistoryChunk.extract(
            from: Self.withRawChunk(png, Self.chunkData(declared: UInt64(zeros.count), body: bomb)))
        #expect(Self.isRejected(honest, containing: "too large"), "\(honest)")
    }

    @Test func operationCountBeyondTheBytesIsRefused() throws {
        let png = try PNGCodec.encode(Support.opaqueImage(width: 9, height: 9), withAlpha: true)
        let archive = DocumentArchive(width: 4, height: 4, background: .transparent, operations: [.clear], pixelHash: 1)
        var payload = try #require(archive.payload())
        // The count is the UInt32 just before the one operation (4-byte length + 1 tag byte).
        let countAt = payload.count - 9
        #expect(payload[countAt] == 1)
        payload.replaceSubrange(countAt..<(countAt + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let data = Self.chunkData(declared: UInt64(payload.count), body: try #require(Zlib.compress(payload)))
        let result = HistoryChunk.extract(from: Self.withRawChunk(png, data))
        #expect(Self.isRejected(result, containing: "more operations than it holds"), "\(result)")
    }

    // MARK: Fuzz

    @Test func seededMutationFuzzNeverCrashes() throws {
        let image = Support.opaqueImage(width: 24, height: 16)
        let png = try PNGCodec.encode(image, withAlpha: true)
        let archive = DocumentArchive(
            width: 24, height: 16, background: .color(.white), baseImage: nil,
            operations: Self.operations(strokes: 12, seed: 11), pixelHash: DocumentArchive.hash(image))
        let valid = try HistoryChunk.embed(archive, into: png)
        let payload = try #require(archive.payload())
        guard case .complete(let chunks) = PNGChunks.walk(valid) else {
            Issue.record("valid PNG does not walk")
            return
        }
        let lengthFields = chunks.map(\.start)
        let hugeValues: [UInt32] = [0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0x1000_0000, UInt32(valid.count), 0]

        let seed = FuzzRun.seed(0x5EED)
        var rng = Rand(seed: seed)
        let iterations = FuzzRun.rounds(3000)
        var none = 0
        var accepted = 0
        var rejected = 0
        var decoded = 0
        var decodeFailed = 0
        var reasons: [String: Int] = [:]
        let start = ContinuousClock.now

        func mutate(_ bytes: inout [UInt8], allowLengthFields: Bool) {
            guard !bytes.isEmpty else { return }
            switch rng.int(0..<6) {
            case 0:  // flip a byte
                bytes[rng.int(0..<bytes.count)] ^= UInt8(rng.int(1..<256))
            case 1:  // truncate
                bytes.removeLast(bytes.count - rng.int(0..<bytes.count))
            case 2:  // duplicate a range somewhere
                let a = rng.int(0..<bytes.count)
                let b = min(bytes.count, a + rng.int(1..<64))
                bytes.insert(contentsOf: bytes[a..<b], at: rng.int(0..<(bytes.count + 1)))
            case 3:  // overwrite a chunk length with a huge value
                let at =
                    allowLengthFields
                    ? lengthFields[rng.int(0..<lengthFields.count)] : rng.int(0..<bytes.count)
                let v = hugeValues[rng.int(0..<hugeValues.count)]
                for i in 0..<4 where at + i < bytes.count {
                    bytes[at + i] = UInt8(truncatingIfNeeded: v >> (24 - 8 * i))
                }
            case 4:  // overwrite four bytes anywhere with a huge little-endian value
                let at = rng.int(0..<bytes.count)
                let v = hugeValues[rng.int(0..<hugeValues.count)]
                for i in 0..<4 where at + i < bytes.count { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) }
            default:  // delete a range
                let a = rng.int(0..<bytes.count)
                bytes.removeSubrange(a..<min(bytes.count, a + rng.int(1..<32)))
            }
        }

        for iteration in 0..<iterations {
            var bytes: [UInt8]
            switch iteration % 3 {
            case 0, 1:
                // Mutate the file anywhere; every other time, re-seal the history chunk's CRC so
                // the damage reaches the decompressor and decoder instead of stopping at the CRC.
                bytes = valid
                for _ in 0..<rng.int(1..<9) { mutate(&bytes, allowLengthFields: true) }
                if iteration % 3 == 1, case .complete(let cs) = PNGChunks.walk(bytes),
                    let c = cs.first(where: { $0.type == HistoryChunk.type })
                {
                    let crc = PNGChunks.crc(type: c.type, data: bytes[c.dataStart..<(c.dataStart + c.length)])
                    var be: [UInt8] = []
                    PNGChunks.appendBigEndian(crc, to: &be)
                    bytes.replaceSubrange((c.end - 4)..<c.end, with: be)
                }
            default:
                // Mutate the uncompressed payload and seal it properly, to reach the archive decoder.
                var p = payload
                for _ in 0..<rng.int(1..<9) { mutate(&p, allowLengthFields: false) }
                let body = Zlib.compress(p) ?? []
                bytes = Self.withRawChunk(valid, Self.chunkData(declared: UInt64(p.count), body: body))
            }

            switch HistoryChunk.extract(from: bytes) {
            case .none: none += 1
            case .archive: accepted += 1
            case .rejected(let reason):
                rejected += 1
                reasons[String(reason.prefix { $0 != "(" }), default: 0] += 1
            }
            if (try? PNGCodec.decode(bytes, name: "fuzz.png")) != nil { decoded += 1 } else { decodeFailed += 1 }
        }
        let elapsed = ContinuousClock.now - start
        print(
            "fuzz, seed \(seed): \(iterations) iterations in \(elapsed): none \(none), archive \(accepted), rejected \(rejected); "
                + "PNG decoded \(decoded), failed \(decodeFailed)")
        for (reason, count) in reasons.sorted(by: { $0.value > $1.value }) { print("  \(count)  \(reason)") }
        #expect(none + accepted + rejected == iterations)
        #expect(decoded + decodeFailed == iterations)
        #expect(rejected > 0 && accepted > 0 && none > 0)
        #expect(decoded > 0 && decodeFailed > 0)
    }

    // MARK: A realistic log

    /// One line of the benchmark stroke log.
    struct BenchStroke: Decodable {
        let tool: String
        let width: Double
        let color: String
        let opacity: Double
        let points: [[Double]]
    }

    /// The 400 strokes of `shared/bench/strokes-4k.jsonl` beside the project, or, where that
    /// folder is not checked out, 400 strokes of the same kind made up here.
    static func benchmarkLog() throws -> (ops: [PaintCore.Operation], source: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/bench/strokes-4k.jsonl").path
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            var ops: [PaintCore.Operation] = []
            for line in text.split(separator: "\n").dropFirst() {
                let s = try JSONDecoder().decode(BenchStroke.self, from: Data(line.utf8))
                let style = StrokeStyle(
                    tool: s.tool == "eraser" ? .eraser : .brush, color: Color(hex: s.color) ?? .black,
                    opacity: s.opacity, width: s.width)
                ops.append(
                    .stroke(style, points: s.points.compactMap { $0.count == 2 ? Point(x: $0[0], y: $0[1]) : nil }))
            }
            return (ops, path)
        }
        var rng = SplitMix(seed: 400)
        let ops = (0..<400).map { _ -> PaintCore.Operation in
            var p = Point(x: rng.unit() * 3840, y: rng.unit() * 2160)
            let points = (0..<(1 + Int(rng.next() % 270))).map { _ -> Point in
                p = Point(
                    x: ((p.x + (rng.unit() - 0.5) * 12) * 10).rounded() / 10,
                    y: ((p.y + (rng.unit() - 0.5) * 12) * 10).rounded() / 10)
                return p
            }
            let color = Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255))
            return .stroke(StrokeStyle(color: color, width: Double(1 + rng.next() % 128)), points: points)
        }
        return (ops, "a made-up log (\(path) is not there)")
    }

    /// The chunk for a long realistic log: it round-trips, and its size is printed (the figure
    /// in BENCHMARKS.md): with the log's 0.1-pixel samples, and with the samples on pixel
    /// centres, as pointer input always is.
    @Test func benchmarkLogChunkSize() throws {
        let (ops, source) = try Self.benchmarkLog()
        #expect(ops.count == 400)
        let snapped = ops.map { op -> PaintCore.Operation in
            guard case .stroke(let style, let points, _) = op else { return op }
            return .stroke(
                style, points: points.map { Point(x: $0.x.rounded(.down) + 0.5, y: $0.y.rounded(.down) + 0.5) })
        }
        var sizes: [Int] = []
        for (name, log) in [("0.1-pixel samples", ops), ("pixel-centre samples", snapped)] {
            let archive = DocumentArchive(
                width: 3840, height: 2160, background: .color(.white), operations: log, pixelHash: 0x1234_5678_9ABC_DEF0
            )
            let png = try PNGCodec.encode(Support.opaqueImage(width: 16, height: 16), withAlpha: false)
            let embedded = try HistoryChunk.embed(archive, into: png)
            let c = try #require(Self.spHSChunks(embedded).first)
            let raw = try #require(archive.payload()).count
            #expect(HistoryChunk.extract(from: embedded) == .archive(archive))
            let samples = log.reduce(0) { n, op in
                if case .stroke(_, let points, _) = op { return n + points.count }
                return n
            }
            sizes.append(c.length)
            print(
                "history chunk, \(name), \(source): \(log.count) strokes, \(samples) samples; payload \(raw) bytes;"
                    + " chunk data \(c.length) bytes (\(c.length + 12) with framing)"
            )
        }
        #expect(sizes[1] * 3 < sizes[0], "pointer samples pack to under a third: \(sizes)")
    }
}

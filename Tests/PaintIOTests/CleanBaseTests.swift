import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// The starting picture a file saved with its history carries: its pixels and nothing else.
@Suite struct CleanBaseTests {
    static func holds(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func aCleanPNGIsKeptAsItIsAndAnythingElseBecomesThePicturesOwnPNG() throws {
        let picture = Support.opaqueImage(width: 31, height: 17)
        let png = try PNGCodec.encode(picture, withAlpha: true)
        #expect(CleanBase.of(png) == png, "SwiftPaint's own PNG is already clean")
        // A text chunk, bytes after IEND, a JPEG with a comment segment.
        let withText = HistoryChunkTests.withRawChunk(png, Array("Comment\0SECRET-TEXT".utf8), type: "tEXt")
        let trailing = png + Array("SECRET-TAIL".utf8)
        var jpeg = try JPEGCodec.encode(picture, quality: 90)
        jpeg.insert(contentsOf: [0xFF, 0xFE, 0, 15] + Array("SECRET-COMMENT".utf8).dropLast(1), at: 2)
        for (bytes, secret) in [(withText, "SECRET-TEXT"), (trailing, "SECRET-TAIL"), (jpeg, "SECRET-COMMEN")] {
            #expect(Self.holds(bytes, secret), "the source holds its secret")
            let clean = try #require(CleanBase.of(bytes))
            #expect(!Self.holds(clean, secret), "\(secret) kept")
            #expect(CleanBase.isClean(clean))
            let shown = try ImageDecoder.decode(bytes, name: "source").image
            #expect(try ImageDecoder.decode(clean, name: "clean").image == shown, "\(secret): other pixels")
        }
        #expect(CleanBase.of(Array("not a picture".utf8)) == nil)
    }

    /// `png` with `secret` after the zlib stream inside its last IDAT chunk, or (`ownChunk`) in
    /// an IDAT chunk of its own after the others, compressed like pixels.
    static func hiding(_ secret: String, in png: [UInt8], ownChunk: Bool) -> [UInt8] {
        guard case .complete(let chunks) = PNGChunks.walk(png) else { return png }
        let idat = Array("IDAT".utf8)
        let last = chunks.lastIndex { $0.type == idat }
        var out = PNGChunks.signature
        for (i, c) in chunks.enumerated() {
            if i == last && !ownChunk {
                let data = Array(png[c.dataStart..<(c.dataStart + c.length)]) + Array(secret.utf8)
                out += PNGChunks.makeChunk(type: idat, data: data)
                continue
            }
            out += png[c.start..<c.end]
            if i == last { out += PNGChunks.makeChunk(type: idat, data: Zlib.compress(Array(secret.utf8)) ?? []) }
        }
        return out
    }

    @Test func bytesHiddenInsideIDATPastTheCompressedPixelsMakeAPNGNotClean() throws {
        // Every kind of PNG (bit depth, colour type, interlaced or not) of the conformance
        // suite that has decoding chunks only is clean: the rows its header describes are
        // counted right.
        // (Those with a palette, a transparent colour or samples of other than 8 bits are
        // never clean: `hiddenBitsAndPaletteEntries…` below.)
        var kinds = 0
        for entry in PNGConformanceTests.suite.entries where entry.refuse == nil {
            let png = PNGConformanceTests.bytes(entry.name)
            guard case .complete(let chunks) = PNGChunks.walk(png),
                chunks.allSatisfy({ CleanBase.plainChunks.contains($0.type) }), png[24] == 8, png[25] != 3
            else { continue }
            #expect(CleanBase.isClean(png), "\(entry.name)")
            kinds += 1
            // With bytes past the pixels' stream, in its IDAT or in one more, it is not.
            for own in [false, true] {
                let hidden = Self.hiding("SECRET-IDAT", in: png, ownChunk: own)
                #expect(!CleanBase.isClean(hidden), "\(entry.name), own chunk \(own): counted as clean")
            }
        }
        #expect(kinds >= 8, "the suite's clean files: \(kinds)")

        // What becomes of one: the picture's own PNG, or nothing when it cannot be decoded.
        let picture = Support.opaqueImage(width: 31, height: 17)
        let png = try PNGCodec.encode(picture, withAlpha: true)
        for own in [false, true] {
            let hidden = Self.hiding("SECRET-IDAT", in: png, ownChunk: own)
            guard let clean = CleanBase.of(hidden) else { continue }
            #expect(clean != hidden && !Self.holds(clean, "SECRET-IDAT") && CleanBase.isClean(clean))
            #expect(try ImageDecoder.decode(clean, name: "clean").image == picture)
        }
    }

    @Test func aDocumentsCleanBaseIsMadeOnceAndTakenAsItIsByItsNextSave() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let picture = Support.opaqueImage(width: 31, height: 17)
        var jpeg = try JPEGCodec.encode(picture, quality: 90)
        jpeg.insert(contentsOf: [0xFF, 0xFE, 0, 15] + Array("SECRET-COMMENT".utf8).dropLast(1), at: 2)
        var archive = try HistoryChunkTests.archive(strokes: 3, image: picture)
        archive.baseImage = jpeg
        let drawn = Support.opaqueImage(width: 31, height: 17)
        // The first save makes it and says so.
        let first = try ImageFile.save(
            drawn, to: folder.file("a.png"), withAlpha: false,
            history: SavedHistory(archive: archive, store: nil, portable: true))
        let made = try #require(first.cleanBase)
        #expect(made.isOf(jpeg) && CleanBase.isClean(made.bytes) && !Self.holds(made.bytes, "SECRET-COMMEN"))
        // The next save takes what it is given for the same starting picture, as it is (a
        // stand-in here, which only a save that did not make its own would carry)...
        let standIn = try PNGCodec.encode(picture, withAlpha: false)
        #expect(standIn != made.bytes)
        var next = SavedHistory(archive: archive, store: nil, portable: true)
        next.cleanBase = CleanBase.Made(source: jpeg, bytes: standIn)
        _ = try ImageFile.save(drawn, to: folder.file("b.png"), withAlpha: false, history: next)
        let carried = HistoryChunk.extract(from: try #require(Support.get(folder.file("b.png"))))
        guard case .archive(let inB) = carried else {
            Issue.record("no history in b.png: \(carried)")
            return
        }
        #expect(inB.baseImage == standIn)
        // ...and makes its own for another starting picture.
        archive.baseImage = try JPEGCodec.encode(Support.opaqueImage(width: 31, height: 17), quality: 80)
        next.archive = archive
        let other = try ImageFile.save(drawn, to: folder.file("c.png"), withAlpha: false, history: next)
        #expect(other.cleanBase?.isOf(archive.baseImage ?? []) == true && other.cleanBase?.bytes != standIn)
    }

    @Test func aPortableSaveCarriesTheCleanStartAndTheStoreKeepsItsOwn() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = HistoryStore(folder: folder.file("h"))
        let picture = Support.opaqueImage(width: 31, height: 17)
        var start = try JPEGCodec.encode(Support.opaqueImage(width: 8, height: 5), quality: 90)
        start.insert(contentsOf: [0xFF, 0xFE, 0, 8] + Array("SECRET".utf8), at: 2)
        var archive = try HistoryChunkTests.archive(strokes: 5, image: picture)
        archive.baseImage = start
        let history = SavedHistory(archive: archive, store: store, portable: true)
        let outcome = try ImageFile.save(picture, to: folder.file("a.png"), withAlpha: false, history: history)
        #expect(outcome.carried && outcome.problem == nil, "\(outcome)")
        let bytes = try #require(Support.get(folder.file("a.png")))
        guard case .archive(let carried) = HistoryChunk.extract(from: bytes), let base = carried.baseImage else {
            Issue.record("no history in the file")
            return
        }
        #expect(!Self.holds(base, "SECRET") && CleanBase.isClean(base))
        #expect(
            try ImageDecoder.decode(base, name: "").image == ImageDecoder.decode(start, name: "").image)
        // This computer's store is not given to anyone: it keeps the opened file's bytes.
        guard case .entry(let kept, _) = store.find(HistoryKey(of: picture)) else {
            Issue.record("nothing in the store")
            return
        }
        #expect(kept.baseImage == start)
    }
}

/// Bits a PNG's pixels do not show: past each row's last pixel, in palette entries no pixel
/// uses, in a 16-bit sample's low byte.
@Suite struct CleanBaseHiddenBitsTests {
    /// A PNG of `rows` (each a filter byte 0, then the packed samples) with `extra` chunks
    /// between its header and its pixels.
    static func png(
        width: Int, height: Int, depth: UInt8, colorType: UInt8, extra: [(String, [UInt8])] = [], rows: [UInt8]
    ) -> [UInt8] {
        func be(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        var out = PNGChunks.signature
        out += PNGChunks.makeChunk(
            type: Array("IHDR".utf8), data: be(width) + be(height) + [depth, colorType, 0, 0, 0])
        for (type, data) in extra { out += PNGChunks.makeChunk(type: Array(type.utf8), data: data) }
        out += PNGChunks.makeChunk(type: Array("IDAT".utf8), data: Zlib.compress(rows) ?? [])
        out += PNGChunks.makeChunk(type: Array("IEND".utf8), data: [])
        return out
    }

    /// Pairs of files that show the same pixels, the second hiding a secret where the first
    /// has zeros: the clean base of the second is the pixels' own PNG, the same as the first's
    /// pixels give, and holds nothing of the secret.
    static let pairs: [(what: String, plain: [UInt8], hiding: [UInt8])] = {
        let secret = Array("SECRET".utf8)
        // 1-bit gray, 3 pixels a row: 5 bits past the last pixel of each row's byte.
        let oneBit = png(
            width: 3, height: 6, depth: 1, colorType: 0,
            rows: Array(repeating: [0, 0b1010_0000], count: 6).flatMap { $0 })
        let oneBitHiding = png(
            width: 3, height: 6, depth: 1, colorType: 0, rows: secret.flatMap { [0, 0b1010_0000 | ($0 & 0x1F)] })
        // 4-bit palette, 1 pixel a row: the low nibble of each row's byte.
        let palette: [UInt8] = [0, 0, 0, 255, 255, 255]
        let fourBit = png(
            width: 1, height: 6, depth: 4, colorType: 3, extra: [("PLTE", palette)],
            rows: Array(repeating: [0, 0x10], count: 6).flatMap { $0 })
        let fourBitHiding = png(
            width: 1, height: 6, depth: 4, colorType: 3, extra: [("PLTE", palette)],
            rows: secret.flatMap { [0, 0x10 | ($0 & 0x0F)] })
        // 8-bit palette using entries 0 and 1: entries 2 and 3 unused, tRNS past the palette.
        let used: [UInt8] = [0, 0, 1, 0, 1, 0, 1, 0, 0, 1]
        let unused = png(
            width: 4, height: 2, depth: 8, colorType: 3, extra: [("PLTE", palette + [0, 0, 0, 0, 0, 0])], rows: used)
        let unusedHiding = png(
            width: 4, height: 2, depth: 8, colorType: 3, extra: [("PLTE", palette + secret)], rows: used)
        let trns = png(
            width: 4, height: 2, depth: 8, colorType: 3,
            extra: [("PLTE", palette + [0, 0, 0, 0, 0, 0]), ("tRNS", [255, 255])],
            rows: used)
        let trnsHiding = png(
            width: 4, height: 2, depth: 8, colorType: 3,
            extra: [("PLTE", palette + [0, 0, 0, 0, 0, 0]), ("tRNS", [255, 255] + secret.prefix(2))], rows: used)
        // RGB with a suggested palette no decoder uses, or a colour key no pixel has.
        let rgb: [UInt8] = [0, 10, 20, 30, 40, 50, 60]
        let plainRGB = png(width: 2, height: 1, depth: 8, colorType: 2, rows: rgb)
        let suggested = png(width: 2, height: 1, depth: 8, colorType: 2, extra: [("PLTE", secret)], rows: rgb)
        let keyed = png(width: 2, height: 1, depth: 8, colorType: 2, extra: [("tRNS", secret)], rows: rgb)
        // 16-bit gray: the low bytes the 8-bit picture does not show.
        let high: [UInt8] = [0, 0x80, 0, 0x40, 0, 0x20, 0]
        let sixteen = png(width: 3, height: 1, depth: 16, colorType: 0, rows: high)
        let sixteenHiding = png(
            width: 3, height: 1, depth: 16, colorType: 0, rows: [0, 0x80, secret[0], 0x40, secret[1], 0x20, secret[2]])
        // The rendering intent's two bits.
        let intent = png(width: 2, height: 1, depth: 8, colorType: 2, extra: [("sRGB", [3])], rows: rgb)
        return [
            ("1-bit row padding", oneBit, oneBitHiding), ("4-bit row padding", fourBit, fourBitHiding),
            ("unused palette entries", unused, unusedHiding), ("tRNS past the used entries", trns, trnsHiding),
            ("suggested palette", plainRGB, suggested), ("unmatched colour key", plainRGB, keyed),
            ("16-bit low bytes", sixteen, sixteenHiding), ("sRGB intent", plainRGB, intent),
        ]
    }()

    @Test func hiddenBitsAndPaletteEntriesAreNotCarriedIntoTheCleanBase() throws {
        for pair in Self.pairs {
            let shown = try ImageDecoder.decode(pair.plain, name: "plain").image
            #expect(
                try ImageDecoder.decode(pair.hiding, name: "hiding").image == shown,
                "\(pair.what): the two files must show the same pixels")
            #expect(!CleanBase.isClean(pair.hiding), "\(pair.what): counted as clean")
            let clean = try #require(CleanBase.of(pair.hiding), "\(pair.what)")
            let plainPixels = try ImageDecoder.decode(pair.plain, name: "plain").image
            #expect(
                clean == CleanBase.png(of: shown) && clean == CleanBase.png(of: plainPixels),
                "\(pair.what): the hidden bits reach the clean base")
            #expect(CleanBase.isClean(clean) && !CleanBaseTests.holds(clean, "SEC"), "\(pair.what)")
            #expect(try ImageDecoder.decode(clean, name: "clean").image == shown, "\(pair.what): other pixels")
        }
    }

    @Test func everyPaletteLowOrHighDepthFileOfTheSuiteBecomesItsPixelsOwnPNG() throws {
        var kinds = 0
        for entry in PNGConformanceTests.suite.entries where entry.refuse == nil {
            let png = PNGConformanceTests.bytes(entry.name)
            guard png.count > 25, png[24] != 8 || png[25] == 3 else { continue }
            #expect(!CleanBase.isClean(png), "\(entry.name)")
            let clean = try #require(CleanBase.of(png), "\(entry.name)")
            #expect(CleanBase.isClean(clean), "\(entry.name)")
            #expect(
                try ImageDecoder.decode(clean, name: "clean").image == ImageDecoder.decode(png, name: "png").image,
                "\(entry.name)")
            kinds += 1
        }
        #expect(kinds >= 50, "palette, 1/2/4/16-bit files of the suite: \(kinds)")
    }

    /// A picture of `colors` colours (those past 200 half transparent), `width` x `height`, in
    /// bands and blocks, as a palette PNG whose palette lists them from the `shift`th on (an
    /// order of the writer's choosing) with `unused` entries after them.
    static func palettePNG(colors: Int, width: Int = 320, height: Int = 200, shift: Int = 0, unused: Int = 0)
        -> (png: [UInt8], picture: PixelImage)
    {
        func color(_ i: Int) -> [UInt8] { [UInt8(i * 37 % 256), UInt8(i * 91 % 256), UInt8(255 - i)] }
        let order = (0..<colors).map { ($0 + shift) % colors }
        let place = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var rows: [UInt8] = []
        for y in 0..<height {
            rows.append(0)
            for x in 0..<width { rows.append(UInt8(place[(x / 5 + y / 5 * 64) % colors] ?? 0)) }
        }
        let palette = order.flatMap(color) + Array(repeating: 0, count: 3 * unused)
        let alphas = order.map { UInt8($0 >= 200 ? 128 : 255) }
        let png = png(
            width: width, height: height, depth: 8, colorType: 3, extra: [("PLTE", palette), ("tRNS", alphas)],
            rows: rows)
        return (png, (try? ImageDecoder.decode(png, name: "palette").image) ?? PixelImage(width: 1, height: 1))
    }

    /// A palette file's starting picture stays a palette PNG, made from its pixels alone: the
    /// same bytes whatever order the file's palette had or however many unused entries, up to
    /// 16 colours less than half the RGBA encoding it was before; when the RGBA encoding is
    /// smaller (256 colours in a regular pattern: 1,748 B as a palette, 1,461 B as RGBA) it is
    /// that, never larger than either; with 257 colours it is RGBA as before.
    @Test func aPaletteFilesCleanBaseIsAPalettePNGOfItsPixelsAlone() throws {
        for colors in [2, 3, 16, 17, 256] {
            let (file, picture) = Self.palettePNG(colors: colors)
            let clean = try #require(CleanBase.of(file), "\(colors)")
            let rgba = try PNGCodec.encode(picture, withAlpha: true)
            let indexed = try #require(PNGCodec.encodeIndexed(picture), "\(colors)")
            print(
                "palette clean base, \(colors) colours 320 x 200: file \(file.count) B, as RGBA \(rgba.count) B,"
                    + " as a palette \(indexed.count) B, now \(clean.count) B")
            #expect(clean == (indexed.count <= rgba.count ? indexed : rgba), "\(colors): not the smaller encoding")
            #expect(clean.count <= rgba.count && clean.count <= indexed.count, "\(colors): \(clean.count) B")
            if clean == indexed {
                let depth = colors <= 2 ? 1 : colors <= 4 ? 2 : colors <= 16 ? 4 : 8
                #expect(
                    clean[25] == 3 && Int(clean[24]) == depth, "\(colors) colours: \(clean[24])-bit, type \(clean[25])")
            } else {
                #expect(clean[25] == 6 && clean[24] == 8, "\(colors) colours: \(clean[24])-bit, type \(clean[25])")
                // The palette encoding of these pixels is not what a clean base of them is.
                #expect(!CleanBase.isClean(indexed), "\(colors): a larger palette PNG passed as clean")
            }
            #expect(try ImageDecoder.decode(clean, name: "clean").image == picture, "\(colors): other pixels")
            #expect(CleanBase.isClean(clean) && CleanBase.of(clean) == clean, "\(colors): its own clean base")
            let others =
                [Self.palettePNG(colors: colors, shift: 5).png]
                + (colors > 253 ? [] : [Self.palettePNG(colors: colors, unused: 3).png])
            for other in others {
                #expect(CleanBase.of(other) == clean, "\(colors): the palette's order or padding reaches the base")
            }
            // Up to 16 colours take 4 bits a pixel or fewer.
            #expect(
                colors > 17 || clean.count * 2 < rgba.count, "\(colors): \(clean.count) B against RGBA \(rgba.count) B")
        }
        var many = Self.palettePNG(colors: 256).picture
        many[0, 0] = 0xFF01_0203
        let clean = try #require(CleanBase.of(PNGCodec.encode(many, withAlpha: true) + [0]))
        let back = try ImageDecoder.decode(clean, name: "clean").image
        #expect(clean[25] == 6 && back == many)
    }

    /// A photo-like picture of 256 colours (a dithered gradient, as a GIF of a photo holds) and
    /// one of 16 colours in noise: each starting picture is the smaller of its palette and RGBA
    /// encodings.
    @Test func aPhotoLikePicturesCleanBaseIsTheSmallerEncoding() throws {
        for levels in [(8, 8, 4), (4, 2, 2)] {
            var picture = PixelImage(width: 320, height: 200)
            var seed: UInt32 = 0x2468_ACE1
            for y in 0..<200 {
                for x in 0..<320 {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(seed >> 24) - 128
                    func level(_ value: Int, _ count: Int) -> UInt32 {
                        UInt32(max(0, min(count - 1, (value + noise / 2) * count / 256)) * 255 / (count - 1))
                    }
                    let r = level(x * 255 / 319, levels.0)
                    let g = level(y * 255 / 199, levels.1)
                    let b = level((x + y) * 255 / 518, levels.2)
                    picture[x, y] = 0xFF00_0000 | r << 16 | g << 8 | b
                }
            }
            let colors = levels.0 * levels.1 * levels.2
            let clean = try #require(CleanBase.png(of: picture), "\(colors)")
            let rgba = try PNGCodec.encode(picture, withAlpha: true)
            let indexed = try #require(PNGCodec.encodeIndexed(picture), "\(colors)")
            print(
                "photo-like clean base, \(colors) colours 320 x 200: as RGBA \(rgba.count) B,"
                    + " as a palette \(indexed.count) B, now \(clean.count) B")
            #expect(clean == (indexed.count <= rgba.count ? indexed : rgba), "\(colors): not the smaller encoding")
            #expect(try ImageDecoder.decode(clean, name: "clean").image == picture, "\(colors): other pixels")
            #expect(CleanBase.isClean(clean), "\(colors)")
        }
    }

    /// `png(of:)` does not decode what it made to check it: what it returns decodes to exactly
    /// the picture, as a palette or as RGBA, for every alpha with every channel value, and it
    /// returns nothing for a picture no file gives back (a channel over its alpha), as when it
    /// decoded to see. The palette encoding is read back as `ImageEncoder.decodedExactly`
    /// says, valid pixels or not, as RGBA is (`SaveReadBackTests`).
    @Test func theOwnPNGDecodesToThePictureWithoutBeingDecodedToSee() throws {
        let every = SaveReadBackTests.everyAlphaAndChannel
        let png = SaveOptions(format: .png)
        var validRows: [UInt32] = []
        for a in 0..<256 {
            // Alpha a with every channel value: a picture of 256 colours, a palette of its own.
            let row = try #require(
                PixelImage(width: 256, height: 1, pixels: Array(every.pixels[(a * 256)..<(a * 256 + 256)])))
            let indexed = try #require(PNGCodec.encodeIndexed(row))
            let read = try ImageDecoder.decode(indexed, name: "palette").image
            #expect(read == ImageEncoder.decodedExactly(row, options: png, withAlpha: true), "alpha \(a)")
            #expect((CleanBase.png(of: row) == nil) == (a < 255), "alpha \(a): channels over it")
            // The same colours scaled under their alpha: valid, given back exactly.
            let valid = try #require(
                PixelImage(
                    width: 256, height: 1,
                    pixels: row.pixels.map { p in
                        let scale = { (c: UInt32) in c * UInt32(a) / 255 }
                        return UInt32(a) << 24 | scale(p >> 16 & 0xFF) << 16 | scale(p >> 8 & 0xFF) << 8
                            | scale(p & 0xFF)
                    }))
            let own = try #require(CleanBase.png(of: valid), "alpha \(a)")
            #expect(try ImageDecoder.decode(own, name: "own").image == valid, "alpha \(a)")
            validRows += valid.pixels
        }
        // All of them together: more than 256 colours, RGBA.
        let all = try #require(PixelImage(width: 256, height: 256, pixels: validRows))
        let own = try #require(CleanBase.png(of: all))
        #expect(own[25] == 6, "RGBA")
        #expect(try ImageDecoder.decode(own, name: "own").image == all)
    }
}

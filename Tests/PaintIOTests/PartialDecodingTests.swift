import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A file cut short or damaged part-way opens with what could be read (`PictureDamage`): the
/// rows decoded before the fault, exactly as the whole file's decode gives them, the rest
/// transparent (a picture with alpha) or white; the same from memory and in tiles. A file whose
/// header is read but gives no row is refused as before.
@Suite struct PartialDecodingTests {
    /// Files SwiftPaint's encoders do not write (Tests/Fixtures/damaged.py): an interlaced PNG,
    /// GIFs plain and interlaced, a progressive JPEG.
    static let fixtures: (folder: String, files: [String]) = {
        do {
            let (folder, list) = try Reference.fixtures("damaged.py")
            return (folder, list.map { $0["file"] as? String ?? "" })
        } catch {
            Issue.record("the damaged pictures could not be made: \(error)")
            return ("", [])
        }
    }()

    /// 96 x 80 noise, opaque and with every alpha.
    static func pictures() -> (opaque: PixelImage, translucent: PixelImage) {
        let opaque = Support.opaqueImage(width: 96, height: 80)
        var translucent = opaque
        for y in 0..<80 {
            for x in 0..<96 {
                translucent[x, y] = Pixel.premultiply(opaque[x, y] & 0x00FF_FFFF | UInt32((x * 3 + y) % 256) << 24)
            }
        }
        return (opaque, translucent)
    }

    /// Every kind of file cut and damaged here: name and bytes.
    static func files() throws -> [(name: String, bytes: [UInt8])] {
        let (opaque, translucent) = pictures()
        var files: [(name: String, bytes: [UInt8])] = [
            ("opaque.png", try PNGCodec.encode(opaque, withAlpha: false)),
            ("alpha.png", try PNGCodec.encode(translucent, withAlpha: true)),
            ("baseline.jpg", try JPEGCodec.encode(opaque, quality: 90)),
            ("lossless.webp", try WebPCodec.encode(translucent, quality: nil, withAlpha: true)),
            ("lossy.webp", try WebPCodec.encode(opaque, quality: 80, withAlpha: false)),
            ("lossy-alpha.webp", try WebPCodec.encode(translucent, quality: 80, withAlpha: true)),
        ]
        for file in fixtures.files { files.append((file, Support.get(fixtures.folder + "/" + file) ?? [])) }
        files += try bmpFiles()
        #expect(files.count == 15 && files.allSatisfy { $0.bytes.count > 1000 })
        return files
    }

    /// BMPs of every way SwiftPaint reads rows: 24 bits bottom-up (streamed into tiles) and
    /// top-down, 32 bits with alpha (read whole), 8-bit palette with run-length codes (bottom-up
    /// and top-down).
    static func bmpFiles() throws -> [(name: String, bytes: [UInt8])] {
        let (opaque, translucent) = pictures()
        let bottomUp = try #require(BMPEncoder.encode(opaque, withAlpha: false))
        return [
            ("bottom-up.bmp", bottomUp), ("top-down.bmp", topDown(bottomUp)),
            ("alpha.bmp", try #require(BMPEncoder.encode(translucent, withAlpha: true))),
            ("rle8.bmp", rle8(topDown: false)), ("rle8-top-down.bmp", rle8(topDown: true)),
        ]
    }

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }

    /// A 24-bit bottom-up BMP's rows stored top row first, as its negative height says.
    static func topDown(_ bmp: [UInt8]) -> [UInt8] {
        func field(_ at: Int) -> Int {
            var v: UInt32 = 0
            for k in (0..<4).reversed() { v = v << 8 | UInt32(bmp[at + k]) }
            return Int(Int32(bitPattern: v))
        }
        let (offset, width, height) = (field(10), field(18), field(22))
        let rowBytes = (width * 24 + 31) / 32 * 4
        var out = Array(bmp[..<offset])
        out.replaceSubrange(22..<26, with: le32(-height))
        for stored in (0..<height).reversed() {
            out += bmp[(offset + stored * rowBytes)..<(offset + (stored + 1) * rowBytes)]
        }
        return out
    }

    /// A 96 x 80 RLE8 BMP of 16 colors in slanted stripes: each row runs of one index, then an
    /// end of line; an end of bitmap after the last.
    static func rle8(topDown: Bool) -> [UInt8] {
        let (width, height) = (96, 80)
        var palette: [UInt8] = []
        for i in 0..<16 { palette += [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 9), 0] }
        var data: [UInt8] = []
        for stored in 0..<height {
            let y = topDown ? stored : height - 1 - stored
            let indices = (0..<width).map { x in UInt8((x / 7 + y * 3 / 5) % 16) }
            var x = 0
            while x < width {
                var n = 1
                while x + n < width && indices[x + n] == indices[x] { n += 1 }
                data += [UInt8(n), indices[x]]
                x += n
            }
            data += [0, 0]
        }
        data += [0, 1]
        let offset = 14 + 40 + palette.count
        var file: [UInt8] = Array("BM".utf8)
        for field in [offset + data.count, 0, offset, 40, width, topDown ? -height : height] { file += le32(field) }
        file += [1, 0, 8, 0]
        for field in [1, data.count, 2835, 2835, 16, 0] { file += le32(field) }
        return file + palette + data
    }

    /// What opening `bytes` gives, the same from memory and in tiles.
    static func open(_ bytes: [UInt8], _ label: String) -> PictureFault {
        let fault = PictureFault.decoding { () throws(ImageFileError) in try ImageDecoder.decode(bytes, name: "d") }
        let tiled = PictureFault.tiles { () throws(ImageFileError) in
            let opened = try ImageDecoder.decodeTiles(bytes, name: "d")
            return (opened.picture, opened.damage)
        }
        #expect(tiled == fault, "\(label): \(fault), tiled \(tiled)")
        return fault
    }

    /// Checks what a damaged copy of a file opened as against the whole file's picture: its
    /// size, the rows it says it read (at most `trusted` of them, for a file changed rather than
    /// cut) as the whole file's, and every pixel it did not read the fill (an interlaced one's
    /// pixels the whole file's or the fill). Returns the rows it says it read (0 refused).
    @discardableResult
    static func check(_ fault: PictureFault, whole: DecodedImage, trusted: Int? = nil, _ label: String) -> Int {
        let (width, height) = (whole.image.width, whole.image.height)
        // Run-length codes leave what they do not reach transparent, a cut file's rest too.
        let fill = whole.hasAlpha || label.contains("rle") ? 0 : Color.white.pixel
        func row(_ image: PixelImage, _ y: Int) -> [UInt32] { (0..<width).map { image[$0, y] } }
        switch fault {
        case .whole:
            return height
        case .refused(let error):
            switch error {
            case .cutShort, .damaged: break
            default: Issue.record("\(label): refused with \(error)")
            }
            return 0
        case .damaged(let damage, let image):
            #expect(image.width == width && image.height == height && damage.height == height, "\(label): \(fault)")
            #expect(damage.rowsRead >= 0 && damage.rowsRead <= height, "\(label): \(fault)")
            // The rows read as the picture shows them (a bottom-up BMP's at its bottom).
            var trustedPart = damage
            trustedPart.rowsRead = min(trusted ?? .max, damage.rowsRead)
            trustedPart.inOrder = true
            let exact = trustedPart.part(width: width, height: height) ?? .empty
            for y in exact.y..<exact.maxY where row(image, y) != row(whole.image, y) {
                Issue.record("\(label): row \(y) of \(damage.rowsRead) read differs from the whole file's")
                break
            }
            if damage.inOrder {
                #expect(damage.rowsRead > 0, "\(label): \(fault)")
                let read = damage.part(width: width, height: height) ?? .empty
                for y in 0..<height
                where !(read.y..<read.maxY).contains(y)
                    && row(image, y) != Array(repeating: fill, count: width)
                {
                    Issue.record("\(label): row \(y), not read, is not the fill")
                    break
                }
            } else if whole.format != .jpeg && trusted == nil {
                // Interlaced: each pixel is the whole file's or, from a pass not read, the fill.
                let wrong = zip(image.pixels, whole.image.pixels).filter { $0 != $1 && $0 != fill }.count
                #expect(wrong == 0, "\(label): \(wrong) pixels neither read nor the fill")
            }
            return damage.rowsRead
        }
    }

    @Test func everyFormatCutAtEverySixteenthKeepsTheRowsBeforeTheCut() throws {
        for (name, bytes) in try Self.files() {
            let whole = try ImageDecoder.decode(bytes, name: "d")
            #expect(whole.damage == nil, "\(name)")
            var read: [Int] = []
            var opened = 0
            for k in 1..<16 {
                let cut = Array(bytes[..<(bytes.count * k / 16)])
                let fault = Self.open(cut, "\(name) cut at \(k)/16")
                #expect(fault != .whole, "\(name) cut at \(k)/16 opened whole")
                if case .damaged = fault { opened += 1 }
                read.append(Self.check(fault, whole: whole, "\(name) cut at \(k)/16"))
            }
            // The further the cut, the more rows (of a file read in order); most cuts open.
            if !name.contains("interlaced") && !name.contains("adam7") && !name.contains("progressive") {
                #expect(read == read.sorted(), "\(name): rows read \(read)")
                #expect(read.last ?? 0 >= whole.image.height / 2, "\(name): rows read \(read)")
            }
            // libspng reads a PNG's picture data 8 KB at a time: what a cut leaves of those
            // (a third of these small files) is lost.
            #expect(opened >= 8, "\(name): \(opened) of 15 cuts opened, rows read \(read)")
        }
    }

    @Test func aByteChangedInTheMiddleNeverCrashesAndKeepsOnlyTrueRows() throws {
        for (name, bytes) in try Self.files() {
            let whole = try ImageDecoder.decode(bytes, name: "d")
            for at in [bytes.count / 2, bytes.count / 2 + 1, bytes.count * 5 / 8] {
                for value: UInt8 in [0x00, 0xFF, bytes[at] ^ 0x10] where value != bytes[at] {
                    var changed = bytes
                    changed[at] = value
                    // Rows whose data all comes before the change are the whole file's: the
                    // rows a copy cut there gives.
                    let before = Self.open(Array(bytes[..<at]), "\(name) cut at \(at)")
                    let trusted: Int
                    if case .damaged(let damage, _) = before, damage.inOrder {
                        trusted = damage.rowsRead
                    } else {
                        trusted = 0
                    }
                    let fault = Self.open(changed, "\(name), byte \(at) = \(value)")
                    if case .whole = fault { continue }  // damaged in a way the format cannot tell
                    Self.check(fault, whole: whole, trusted: trusted, "\(name), byte \(at) = \(value)")
                }
            }
        }
    }

    /// A file whose header is whole but whose data gives no row is refused, cut short, as
    /// before: there is nothing to show.
    @Test func aFileCutBeforeItsFirstRowIsRefused() throws {
        for (name, bytes) in try Self.files() {
            let firstData: Int
            switch ImageFormat.sniff(bytes) {
            case .png: firstData = try #require(Self.find(Array("IDAT".utf8), in: bytes)) + 4 + 2
            case .jpeg: firstData = try #require(Self.find([0xFF, 0xDA], in: bytes)) + 2 + 12
            case .gif: firstData = try #require(bytes.lastIndex(of: 0x2C).map { _ in Self.gifData(bytes) })
            case .webp: firstData = 34
            case .bmp: firstData = Int(bytes[10]) | Int(bytes[11]) << 8
            default: firstData = 0
            }
            for cut in [firstData, firstData + 2] {
                let fault = Self.open(Array(bytes[..<cut]), "\(name) cut at \(cut)")
                guard case .refused(let error) = fault else {
                    Issue.record("\(name) cut at \(cut): \(fault)")
                    continue
                }
                guard case .cutShort = error else {
                    Issue.record("\(name) cut at \(cut): \(error.message)")
                    continue
                }
            }
        }
        // The header itself cut: refused with the words it had.
        let png = try PNGCodec.encode(Self.pictures().opaque, withAlpha: false)
        #expect(throws: ImageFileError.cutShort(path: "d", reason: "it ends before the picture does")) {
            try ImageDecoder.decode(Array(png[..<20]), name: "d")
        }
    }

    /// A cut BMP claims at most 1032 bytes of pixels per byte it holds (as deflate packs at
    /// most 1032 into one): less is refused before the picture is set aside, as before.
    @Test func aCutBMPClaimingFarMoreThanItHoldsIsRefused() throws {
        let bmp = try #require(
            BMPEncoder.encode(PixelImage(width: 1000, height: 5, fill: 0xFF10_2030), withAlpha: false))
        var claim = bmp
        claim.replaceSubrange(22..<26, with: Self.le32(5000))  // 5 rows held of 5000: 15 MB claimed
        #expect(claim.count == 54 + 5 * 3000 && claim.count >= 5000 * 3000 / 1032)
        let opened = Self.open(claim, "5 rows of 5000")
        guard case .damaged(let damage, let image) = opened else {
            Issue.record("5 rows of 5000: \(opened)")
            return
        }
        #expect(damage.rowsRead == 5 && damage.orientation == .flipVertical && image[0, 4999] == 0xFF10_2030)
        #expect(image[999, 4995] == 0xFF10_2030 && image[0, 4994] == Color.white.pixel)
        let one = Array(claim[..<(54 + 3000)])
        #expect(
            Self.open(one, "1 row of 5000")
                == .refused(.cutShort(path: "d", reason: "it holds 3054 bytes, too few for a 1000 x 5000 picture")))
    }

    @Test func theMessageSaysHowManyRowsCouldBeRead() {
        let cut = PictureDamage(
            error: .cutShort(path: "/p/photo.png", reason: "it ends before the picture does"), rowsRead: 412,
            height: 1080)
        #expect(
            cut.message(name: "photo.png")
                == "“photo.png” is damaged: only the top 412 of 1080 rows could be read"
                + " (it is cut short: it ends before the picture does)")
        // Rows stored bottom-up (a BMP) are the bottom ones; a photo turned upright by its EXIF
        // orientation says the columns its rows became.
        let bottomUp = PictureDamage(error: cut.error, rowsRead: 40, height: 300, orientation: .flipVertical)
        #expect(bottomUp.message(name: "a.bmp").hasPrefix("“a.bmp” is damaged: only the bottom 40 of 300 rows could"))
        let turned = PictureDamage(error: cut.error, rowsRead: 412, height: 1080, orientation: .rotateLeft)
        #expect(
            turned.message(subject: "The pasted picture")
                == "The pasted picture is damaged: only the left 412 of 1080 columns could be read"
                + " (it is cut short: it ends before the picture does)")
        #expect(turned.turned(.rotate180).message(name: "b").contains("only the right 412 of 1080 columns"))
        let interlaced = PictureDamage(error: cut.error, rowsRead: 0, height: 1080, inOrder: false)
        #expect(
            interlaced.message(name: "a.gif").hasPrefix("“a.gif” is damaged: only part of the picture could be read"))
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Where a GIF's first image's data starts: after its descriptor and code size.
    static func gifData(_ bytes: [UInt8]) -> Int {
        var i = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        while i < bytes.count && bytes[i] == 0x21 {
            i += 2
            while i < bytes.count && bytes[i] != 0 { i += Int(bytes[i]) + 1 }
            i += 1
        }
        let local = bytes[i + 9] & 0x80 != 0 ? 3 << (Int(bytes[i + 9] & 7) + 1) : 0
        return i + 10 + local + 1
    }
}

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
        #expect(files.count == 10 && files.allSatisfy { $0.bytes.count > 1000 })
        return files
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
        let fill = whole.hasAlpha ? 0 : Color.white.pixel
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
            let exact = min(trusted ?? .max, damage.rowsRead)
            for y in 0..<exact where row(image, y) != row(whole.image, y) {
                Issue.record("\(label): row \(y) of \(damage.rowsRead) read differs from the whole file's")
                break
            }
            if damage.inOrder {
                #expect(damage.rowsRead > 0, "\(label): \(fault)")
                for y in damage.rowsRead..<height where row(image, y) != Array(repeating: fill, count: width) {
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

    @Test func theMessageSaysHowManyRowsCouldBeRead() {
        let cut = PictureDamage(
            error: .cutShort(path: "/p/photo.png", reason: "it ends before the picture does"), rowsRead: 412,
            height: 1080)
        #expect(
            cut.message(name: "photo.png")
                == "“photo.png” is damaged: only the top 412 of 1080 rows could be read"
                + " (it is cut short: it ends before the picture does)")
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

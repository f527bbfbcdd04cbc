// paint-bench encode [--photo FILE] [--runs 3] [--formats png,jpeg90,...] [--folder DIR]
//
// How long writing a big picture takes in each format SwiftPaint saves, through the program's
// own encoder (`ImageEncoder.encode`, what every save, Save as and --export call): PNG, JPEG at
// quality 90 and 100, WebP lossy at 90 and 99 and WebP lossless (what the quality question's
// 100 gives). FILE (any format SwiftPaint opens; `make bench` writes a 4000 x 3000 photo-like
// one with resources/bench-photo.py) is opened once; each format is then encoded --runs times,
// the formats taking turns, on the one thread a save uses. Per format: the median wall-clock and
// CPU time of the encode, the file's size, the time to decode it again (a save with a history
// names it by the pixels a reader gets: for a lossy format it reads back what it wrote) and how
// far the decoded pixels are from the picture (PSNR in dB over R, G and B; "exact" when equal);
// for a lossless format, the time to work those pixels out without a decode instead
// (`ImageEncoder.decodedExactly`, what the save does since session 17) and whether they equal
// the decoded ones. The files are written to DIR (default .build/bench-encode) for a look.

import Glibc
import PaintCore
import PaintIO

/// One format and setting as the bench names it.
private struct EncodeCase {
    let name: String
    let options: SaveOptions

    static let all = [
        EncodeCase(name: "png", options: SaveOptions(format: .png)),
        EncodeCase(name: "jpeg90", options: SaveOptions(format: .jpeg, quality: 90)),
        EncodeCase(name: "jpeg100", options: SaveOptions(format: .jpeg, quality: 100)),
        EncodeCase(name: "webp90", options: SaveOptions(format: .webp, quality: 90, lossless: false)),
        EncodeCase(name: "webp99", options: SaveOptions(format: .webp, quality: 99, lossless: false)),
        EncodeCase(name: "webp-lossless", options: SaveOptions(format: .webp, quality: 100, lossless: true)),
    ]

    var fileExtension: String { options.format == .jpeg ? "jpg" : options.format == .png ? "png" : "webp" }
}

func runEncodeBench(arguments: [String]) -> Never {
    var runs = 3
    var photo: String?
    var folder = ".build/bench-encode"
    var names = EncodeCase.all.map(\.name)
    let usage =
        "usage: paint-bench encode [--photo FILE] [--runs 3] [--formats "
        + EncodeCase.all.map(\.name).joined(separator: ",") + "] [--folder DIR]"
    var reader = ArgumentReader(arguments, usage: usage)
    while let option = reader.next() {
        switch option {
        case "--photo": photo = reader.value()
        case "--runs": runs = reader.integer(in: 1...1000)
        case "--folder": folder = reader.value()
        case "--formats": names = reader.value().split(separator: ",").map(String.init)
        default: reader.unknown()
        }
    }
    let cases = names.map { name in
        EncodeCase.all.first { $0.name == name } ?? { reader.reject("unknown format \(name)") }()
    }
    _ = mkdir(folder, 0o755)
    let picture: PixelImage
    if let photo {
        do { picture = ImageEncoder.flattened(try ImageFile.load(path: photo), onto: Color.white.pixel) } catch {
            fail("cannot open \(photo): \(error)", code: 1)
        }
    } else {
        picture = fallbackPhoto()
    }
    print(
        "encode_bench picture=\(picture.width)x\(picture.height) from \(photo ?? "a generated picture")"
            + " runs=\(runs) (median per format; the formats take turns)")

    var encodeWall: [String: [Double]] = [:]
    var encodeCPU: [String: [Double]] = [:]
    var outputs: [String: [UInt8]] = [:]
    for _ in 0..<runs {
        for item in cases {
            let wall0 = seconds(CLOCK_MONOTONIC)
            let cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID)
            let bytes: [UInt8]
            do { bytes = try ImageEncoder.encode(picture, options: item.options, withAlpha: false) } catch {
                fail("\(item.name): \(error)", code: 1)
            }
            encodeCPU[item.name, default: []].append(seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0)
            encodeWall[item.name, default: []].append(seconds(CLOCK_MONOTONIC) - wall0)
            outputs[item.name] = bytes
        }
    }
    for item in cases {
        guard let bytes = outputs[item.name] else { continue }
        let path = "\(folder)/photo-\(item.name).\(item.fileExtension)"
        do { try AtomicFile.write(bytes, to: path) } catch { fail("cannot write \(path): \(error)", code: 1) }
        let decodeStart = seconds(CLOCK_MONOTONIC)
        let decoded: PixelImage
        do { decoded = try ImageDecoder.decode(bytes, name: path).image } catch {
            fail("\(item.name) does not decode: \(error)", code: 1)
        }
        let decodeTime = seconds(CLOCK_MONOTONIC) - decodeStart
        // What a save with a history takes instead of the decode where the format is lossless.
        let exactStart = seconds(CLOCK_MONOTONIC)
        let exact = ImageEncoder.decodedExactly(picture, options: item.options, withAlpha: false)
        let exactTime = seconds(CLOCK_MONOTONIC) - exactStart
        let readBack =
            exact.map {
                "worked out without a decode in \(fixed(exactTime * 1000, 1)) ms (\($0 == decoded ? "equal" : "DIFFERENT"));"
            }
            ?? "lossy: a save decodes it;"
        print(
            "\(item.name): encode median \(fixed(median(encodeWall[item.name] ?? []) * 1000, 0)) ms wall,"
                + " \(fixed(median(encodeCPU[item.name] ?? []) * 1000, 0)) ms CPU on its thread;"
                + " \(bytes.count) bytes; decoded again in \(fixed(decodeTime * 1000, 0)) ms; \(readBack)"
                + " \(psnr(picture, decoded))")
    }
    exit(0)
}

/// A clock's reading in seconds.
private func seconds(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// How far `decoded` is from `original`: PSNR over R, G and B, or "exact".
private func psnr(_ original: PixelImage, _ decoded: PixelImage) -> String {
    guard original.width == decoded.width, original.height == decoded.height else { return "a different size" }
    var squares = 0.0
    original.pixels.withUnsafeBufferPointer { a in
        decoded.pixels.withUnsafeBufferPointer { b in
            for i in a.indices where a[i] != b[i] {
                for shift in [0, 8, 16] as [UInt32] {
                    let d = Double(Int((a[i] >> shift) & 0xFF) - Int((b[i] >> shift) & 0xFF))
                    squares += d * d
                }
            }
        }
    }
    guard squares > 0 else { return "exact" }
    let mean = squares / Double(original.width * original.height * 3)
    return "PSNR \(fixed(10 * log10(255 * 255 / mean), 2)) dB"
}

/// A 4000 x 3000 picture when no photo is given: smooth colors and noise (the photo from
/// resources/bench-photo.py is the realistic one).
private func fallbackPhoto() -> PixelImage {
    let (w, h) = (4000, 3000)
    var image = PixelImage(width: w, height: h)
    var state: UInt64 = 16
    image.pixels.withUnsafeMutableBufferPointer { pixels in
        for y in 0..<h {
            for x in 0..<w {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 61)
                let r = UInt8(min(255, x * 200 / w + noise))
                let g = UInt8(min(255, y * 200 / h + noise))
                pixels[y * w + x] = Pixel.pack(r: r, g: g, b: UInt8(min(255, 90 + noise * 3)), a: 255)
            }
        }
    }
    return image
}

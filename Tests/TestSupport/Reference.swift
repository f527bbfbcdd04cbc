import Foundation
import PaintCore

/// The tests' reference tools, outside SwiftPaint: Debian's Python with Pillow (`make deps`
/// installs python3-pil) and the scripts in Tests/Fixtures.
public enum Reference {
    /// Tests/Fixtures, found from this file's path.
    public static let fixtures: String = {
        var root = #filePath
        for _ in 0..<2 { root = (root as NSString).deletingLastPathComponent }
        return root + "/Fixtures"
    }()

    /// Debian's Python (where python3-pil installs), not a pyenv one on PATH.
    public static let python = "/usr/bin/python3"

    /// Runs a fixture script; returns its stderr when it fails.
    public static func run(_ script: String, _ arguments: [String]) throws -> String? {
        let run = try ChildProcess.run(python, [fixtures + "/" + script] + arguments)
        return run.succeeded ? nil : run.stderrText
    }

    /// Runs a fixture script that writes files and a `manifest.json` (a list of objects) into a
    /// new folder under the package's `.build/fixtures`; returns the folder and the manifest's
    /// entries. A failure is thrown with the script's words. Folders an earlier run left (more
    /// than an hour old: no test of this run can still be reading them) are removed first.
    public static func fixtures(_ script: String) throws -> (folder: String, entries: [[String: Any]]) {
        let base = (fixtures as NSString).deletingLastPathComponent + "/../.build/fixtures"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        for old in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
            let path = base + "/" + old
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, modified < Date(timeIntervalSinceNow: -3600) {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        var template = Array("\(base)/\(script)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ReferenceError(text: "mkdtemp failed") }
        let folder = String(cString: made)
        if let failure = try run(script, [folder]) { throw ReferenceError(text: "\(script) failed: \(failure)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
        return (folder, try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? [])
    }

    /// A picture as Pillow decodes it: size, Pillow's mode and format names, straight RGBA bytes.
    public struct Decoded: Sendable {
        public var width: Int
        public var height: Int
        public var mode: String
        public var format: String
        public var rgba: [UInt8]
    }

    /// Decodes every file in `paths` with Pillow (one Python process for all of them).
    public static func pillow(_ paths: [String]) throws -> [String: Decoded] {
        if let failure = try run("pillow_decode.py", paths) {
            throw ReferenceError(text: "Pillow could not decode: \(failure)")
        }
        var decoded: [String: Decoded] = [:]
        for path in paths {
            defer { try? FileManager.default.removeItem(atPath: path + ".pillow.rgba") }
            guard let data = FileManager.default.contents(atPath: path + ".pillow.rgba"),
                let newline = data.firstIndex(of: 10)
            else { throw ReferenceError(text: "no Pillow output for \(path)") }
            let fields = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ").map(String.init)
            guard fields.count == 4, let w = Int(fields[0]), let h = Int(fields[1]) else {
                throw ReferenceError(text: "bad Pillow header for \(path)")
            }
            decoded[path] = Decoded(
                width: w, height: h, mode: fields[2], format: fields[3], rgba: [UInt8](data[(newline + 1)...]))
        }
        return decoded
    }

    /// Straight RGBA bytes of a premultiplied image, as a file with alpha stores them.
    public static func straightRGBA(_ image: PixelImage) -> [UInt8] {
        image.pixels.flatMap { p -> [UInt8] in
            let (r, g, b, a) = Pixel.unpack(Pixel.unpremultiply(p))
            return [r, g, b, a]
        }
    }

    /// How many pixels of two straight RGBA byte arrays differ (a length mismatch counts as all).
    /// Fully transparent pixels are equal whatever color they carry: encoders may store any.
    public static func differingPixels(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) / 4 }
        var count = 0
        for i in stride(from: 0, to: a.count, by: 4) where a[i + 3] != 0 || b[i + 3] != 0 {
            if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3] { count += 1 }
        }
        return count
    }

    /// Peak signal-to-noise ratio of two straight RGBA byte arrays over the color channels, in
    /// dB (infinite when equal, 0 when the sizes differ).
    public static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for i in stride(from: 0, to: a.count - 3, by: 4) {
            for c in 0..<3 {
                let d = Double(a[i + c]) - Double(b[i + c])
                sum += d * d
            }
        }
        return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count / 4 * 3)))
    }

    /// Premultiplied pixels from straight RGBA bytes, the way every decoder stores them.
    public static func premultiplied(_ rgba: [UInt8]) -> [UInt32] {
        stride(from: 0, to: rgba.count - 3, by: 4).map {
            Pixel.premultiply(Pixel.pack(r: rgba[$0], g: rgba[$0 + 1], b: rgba[$0 + 2], a: rgba[$0 + 3]))
        }
    }

    public struct ReferenceError: Error, CustomStringConvertible {
        public var text: String
        public var description: String { text }
    }
}

extension Reference {
    /// libjpeg-turbo's own command-line encoder (libjpeg-turbo-progs).
    public static let cjpeg = "/usr/bin/cjpeg"

    /// `image` (opaque) as libjpeg-turbo's cjpeg writes it: `-quality quality -sample sample
    /// -optimize` (optimized Huffman tables, as SwiftPaint writes every JPEG), from a PPM of
    /// its pixels. The reference a JPEG SwiftPaint saves is compared with byte for byte.
    public static func cjpeg(_ image: PixelImage, quality: Int, sample: String) throws -> [UInt8] {
        var ppm = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        ppm.reserveCapacity(ppm.count + image.pixels.count * 3)
        for p in image.pixels {
            let (r, g, b, _) = Pixel.unpack(p)
            ppm += [r, g, b]
        }
        let run = try ChildProcess.run(
            cjpeg, ["-quality", String(quality), "-sample", sample, "-optimize"], input: ppm)
        guard run.succeeded else { throw ReferenceError(text: "cjpeg failed: \(run.stderrText)") }
        return run.stdout
    }
}

import CPNG
import Foundation
import Glibc
import PaintCore
import TestSupport

@testable import PaintIO

/// Small helpers shared by the PaintIO tests.
enum Support {
    /// Runs a program, returning whether it exited with status 0. A program that is not
    /// installed is false here; `everyProgramTheTestsStartIsInstalledByMakeDeps` names it.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) -> Bool {
        ChildProcess.succeeds(program, arguments)
    }

    /// Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN, as in the test container).
    static let canMount: Bool = {
        guard let folder = try? TemporaryDirectory(prefix: "PaintIOTests-probe") else { return false }
        defer { folder.remove() }
        guard run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path]) else { return false }
        run("/usr/bin/umount", [folder.path])
        return true
    }()

    /// Writes `bytes` to `path` the plain way (test set-up, not the code under test).
    static func put(_ bytes: [UInt8], _ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    /// The bytes at `path`, or nil.
    static func get(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// The permission bits of `path` (following symlinks).
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// A deterministic pseudo-random generator, so failures reproduce.
    struct Noise {
        var state: UInt64
        mutating func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
    }

    /// An opaque `width` x `height` image: a gradient in R and G, noise in B and in the low bits.
    static func opaqueImage(width: Int = 97, height: Int = 61) -> PixelImage {
        var noise = Noise(state: 42)
        var image = PixelImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let n = noise.next()
                let r = UInt8((x * 255 / max(width - 1, 1)) ^ Int(n & 7))
                let g = UInt8((y * 255 / max(height - 1, 1)) ^ Int(n >> 3 & 7))
                image[x, y] = Pixel.pack(r: r, g: g, b: UInt8(truncatingIfNeeded: n >> 8), a: 255)
            }
        }
        return image
    }

    /// One PNG chunk: length, type, data, CRC-32 (zlib) over type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let crc = Zlib.crc32(typeBytes + data)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [
            UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8),
            UInt8(truncatingIfNeeded: v),
        ]
    }

    /// A syntactically valid PNG whose header claims `width` x `height` RGBA pixels, with a tiny
    /// IDAT (one zlib-compressed row) that could never fill it.
    static func pngClaiming(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
        // zlib stream of a few zero bytes, made by zlib so it is well formed.
        let compressed = Zlib.compress([UInt8](repeating: 0, count: 5)) ?? []
        return PNGCodec.signature + chunk("IHDR", ihdr) + chunk("IDAT", compressed) + chunk("IEND", [])
    }

    /// The straight BGRA bytes stored in PNG `bytes`, read with libpng directly (test oracle).
    static func straightBGRA(_ bytes: [UInt8]) -> [UInt8]? {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&png) }
        return bytes.withUnsafeBytes { raw -> [UInt8]? in
            guard png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count) != 0 else { return nil }
            png.format = UInt32(PNG_FORMAT_BGRA)
            var out = [UInt8](repeating: 0, count: Int(png.width * png.height * 4))
            let ok = png_image_finish_read(&png, nil, &out, Int32(png.width * 4), nil)
            return ok != 0 ? out : nil
        }
    }

    /// A folder that cannot be written even by root, holding `a.png` with `contents`.
    ///
    /// Tests run as root, and root ignores permission bits, so chmod cannot make a folder
    /// read-only. In order of preference: a tmpfs remounted read-only (EROFS), an immutable
    /// folder via `chattr +i` (EPERM), or else /proc, which root cannot create files in either;
    /// in the /proc case the "existing file" is /proc/version instead of a.png.
    struct ReadOnlyFolder {
        let path: String
        let file: String
        let how: String
        let cleanup: () -> Void
    }

    static func readOnlyFolder(holding contents: [UInt8]) throws -> ReadOnlyFolder {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-readonly")
        let file = folder.file("a.png")
        if run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.path]) {
            put(contents, file)
            if run("/usr/bin/mount", ["-o", "remount,ro", folder.path]) {
                return ReadOnlyFolder(path: folder.path, file: file, how: "read-only tmpfs") {
                    run("/usr/bin/umount", [folder.path])
                    folder.remove()
                }
            }
            run("/usr/bin/umount", [folder.path])
        }
        put(contents, file)
        if run("/usr/bin/chattr", ["+i", folder.path]) {
            return ReadOnlyFolder(path: folder.path, file: file, how: "chattr +i") {
                run("/usr/bin/chattr", ["-i", folder.path])
                folder.remove()
            }
        }
        folder.remove()
        return ReadOnlyFolder(path: "/proc", file: "/proc/version", how: "/proc") {}
    }
}

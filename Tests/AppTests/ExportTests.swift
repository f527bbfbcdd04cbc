import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// `swiftpaint --export OUT IN`: conversion without a window (no X display at all), and the peak
/// memory of opening hostile files, measured on the child process.
@Suite struct ExportTests {
    struct Run {
        var status: ExitStatus?
        var stderr: String
        var peakMemory: Int
    }

    /// Runs `swiftpaint` with `arguments`, no DISPLAY in its environment, to completion, under
    /// GNU time for its peak memory.
    ///
    /// Not wait4's ru_maxrss of a child we spawn: posix_spawn shares this process's address space
    /// until exec, and Linux then counts this (large) test process's peak as the child's. GNU
    /// time forks from its own small process, so the figure it reports is swiftpaint's.
    static func swiftpaint(_ arguments: [String], in dir: TemporaryDirectory) throws -> Run {
        var environment = ChildProcess.cleanEnvironment()
        environment["HOME"] = dir.path
        environment["XDG_STATE_HOME"] = dir.file("state")
        environment["XDG_CONFIG_HOME"] = dir.file("config")
        let child = try ChildProcess(
            executable: "/usr/bin/time", arguments: ["-f", "peak-kb %M", try SwiftPaintBinary.locate()] + arguments,
            environment: environment, stdoutPath: dir.file("stdout"), stderrPath: dir.file("stderr"))
        let status = child.waitForExit(timeout: .seconds(120))
        var lines = dir.read("stderr").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        // GNU time's line comes last; with a failing program it also says "Command exited ...".
        let peakLine = lines.last { $0.hasPrefix("peak-kb ") } ?? ""
        let own = lines.filter { !$0.hasPrefix("peak-kb ") && !$0.hasPrefix("Command exited with non-zero status") }
        return Run(
            status: status, stderr: own.joined(separator: "\n"),
            peakMemory: (Int(peakLine.dropFirst(8)) ?? 0) * 1024)
    }

    /// A smooth picture with a transparent-to-opaque ramp on its right half.
    static func picture() -> PixelImage {
        var image = PixelImage(width: 80, height: 48)
        for y in 0..<48 {
            for x in 0..<80 {
                let a = x < 40 ? 255 : (x - 40) * 255 / 39
                image[x, y] = Pixel.premultiply(
                    Pixel.pack(r: UInt8(x * 3), g: UInt8(y * 5), b: 200, a: UInt8(a)))
            }
        }
        return image
    }

    @Test func convertsBetweenFormatsWithoutADisplay() throws {
        let dir = try TemporaryDirectory()
        let png = dir.file("in.png")
        let image = Self.picture()
        try ImageFile.save(image, to: png, withAlpha: true)

        for out in ["out.webp", "out.jpg", "out.jpeg"] {
            let run = try Self.swiftpaint(["--export", dir.file(out), png], in: dir)
            #expect(run.status == .exited(0), "\(out): \(run.stderr)")
            #expect(run.stderr.isEmpty, "\(out): \(run.stderr)")
        }
        let decoded = try Reference.pillow([dir.file("out.webp"), dir.file("out.jpg")])
        let webp = try #require(decoded[dir.file("out.webp")])
        #expect(webp.format == "WEBP" && webp.mode == "RGBA", "alpha is kept in WebP")
        #expect(Reference.differingPixels(webp.rgba, Reference.straightRGBA(image)) == 0, "lossless by default")
        let jpeg = try #require(decoded[dir.file("out.jpg")])
        #expect(jpeg.format == "JPEG" && jpeg.mode == "RGB")
        // Transparency is flattened onto white: the fully transparent column is near white.
        let clear = (0..<48).map { Int(jpeg.rgba[($0 * 80 + 41) * 4]) }
        #expect(clear.allSatisfy { $0 > 230 }, "transparent became white: \(clear.prefix(6))")

        // And back: the JPEG opened exactly as SwiftPaint opens it in the window, saved as PNG.
        let run = try Self.swiftpaint(["--export", dir.file("back.png"), dir.file("out.jpg")], in: dir)
        #expect(run.status == .exited(0), "\(run.stderr)")
        let opened = try ImageFile.open(path: dir.file("out.jpg")).picture
        let back = try ImageFile.open(path: dir.file("back.png")).picture
        #expect(back.image == opened.image)
        #expect(back.hasAlpha == false, "a JPEG has no alpha, so its PNG has none")
    }

    /// `--export OUT.jpg IN.jpg` keeps IN's quality and color sampling as Ctrl+S keeps them:
    /// a camera's quality-97 4:2:0 photo (written by libjpeg-turbo's `cjpeg -quality 97
    /// -sample 2x2 -optimize`) comes out as cjpeg writes the picture opened from it with the same
    /// settings, byte for byte. Before, it came out at 90 and 4:4:4. A `--quality` is taken as
    /// a quality typed into Save As' question: the file's own keeps its sampling, another is
    /// written as given, its color by it; a file below 90 is written at 90 with its sampling.
    @Test func aJPEGFromAJPEGKeepsItsQualityAndColorSampling() throws {
        let dir = try TemporaryDirectory()
        var photo = PixelImage(width: 96, height: 64)
        for y in 0..<64 {
            for x in 0..<96 {
                let grain = (x &* 7_919 ^ y &* 104_729) % 23
                photo[x, y] = Pixel.pack(r: UInt8(x * 2 + grain), g: UInt8(y * 3 + grain), b: UInt8(x + y), a: 255)
            }
        }
        let wide = try #require(JPEGSampling(horizontal: 2, vertical: 1))
        // (input quality, its -sample, --quality, the quality and sampling expected out).
        let cases: [(Int, String, Int?, Int, JPEGSampling)] = [
            (97, "2x2", nil, 97, .halved),
            (97, "2x2", 97, 97, .halved),  // the file's own quality chosen: its settings kept
            (97, "2x2", 98, 98, .full),  // another, 90 or more: every pixel's color
            (97, "2x2", 80, 80, .halved),  // below 90: halved by the quality
            (97, "1x1", 80, 80, .halved),
            (60, "2x1", nil, 90, wide),  // below 90: saved at 90, its 4:2:2 kept
            (80, "1x1", nil, 90, .full),  // a scanner's 4:4:4 stays 4:4:4
            (95, "1x2", nil, 95, try #require(JPEGSampling(horizontal: 1, vertical: 2))),
        ]
        for (quality, sample, chosen, expectedQuality, expectedSampling) in cases {
            let what = "q\(quality) \(sample) --quality \(chosen.map(String.init) ?? "none")"
            let input = dir.file("in.jpg")
            let output = dir.file("out.jpg")
            try Data(try Reference.cjpeg(photo, quality: quality, sample: sample))
                .write(to: URL(fileURLWithPath: input))
            let run = try Self.swiftpaint(
                ["--export", output, input] + (chosen.map { ["--quality", String($0)] } ?? []), in: dir)
            #expect(run.status == .exited(0) && run.stderr.isEmpty, "\(what): \(run.stderr)")
            let written = [UInt8](FileManager.default.contents(atPath: output) ?? Data())
            #expect(JPEGQuality.estimate(head: written) == expectedQuality, "\(what)")
            #expect(JPEGSampling.read(head: written) == expectedSampling, "\(what)")
            let opened = try ImageFile.open(path: input).picture.image
            let factors = "\(expectedSampling.horizontal)x\(expectedSampling.vertical)"
            #expect(
                written == (try Reference.cjpeg(opened, quality: expectedQuality, sample: factors)),
                "\(what): not what cjpeg writes for the picture")
        }
        // A PNG's picture is written at 90, every pixel's color, as before.
        try ImageFile.save(photo, to: dir.file("in.png"), withAlpha: false)
        let run = try Self.swiftpaint(["--export", dir.file("png.jpg"), dir.file("in.png")], in: dir)
        #expect(run.status == .exited(0), "\(run.stderr)")
        let written = [UInt8](FileManager.default.contents(atPath: dir.file("png.jpg")) ?? Data())
        #expect(JPEGQuality.estimate(head: written) == 90 && JPEGSampling.read(head: written) == .full)
    }

    @Test func failuresExitWithOneAndTheReason() throws {
        let dir = try TemporaryDirectory()
        let png = dir.file("in.png")
        try ImageFile.save(Self.picture(), to: png, withAlpha: true)
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir.file("text.png")))
        let cases: [([String], String)] = [
            (["--export", dir.file("o.png"), dir.file("missing.png")], "no such file"),
            (["--export", dir.file("o.png"), dir.file("text.png")], "not a picture SwiftPaint can open"),
            (["--export", dir.file("o.gif"), png], "opens GIF pictures but does not write them"),
            (["--export", dir.file("o.tiff"), png], "“.tiff” is not a picture format SwiftPaint writes"),
            (["--export", dir.file("noextension"), png], "is not a picture format SwiftPaint writes"),
            (["--export", dir.file("o.png")], "--export needs two files"),
        ]
        for (arguments, words) in cases {
            let run = try Self.swiftpaint(arguments, in: dir)
            let code: Int32 = arguments.count == 2 ? 2 : 1  // a command-line mistake is 2
            #expect(run.status == .exited(code), "\(arguments): \(String(describing: run.status))")
            #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("o") }
        #expect(left.isEmpty, "no output is written when the conversion fails: \(left)")
    }

    /// A file name that is not UTF-8 (Latin-1 "\xff.png") on the command line is refused with
    /// the reason. Before, Swift's arguments repaired it into "�.png": opening said "no such
    /// file" for a file that is there (or opened another file, "�.png"), and saving wrote a
    /// file of a name nobody gave.
    @Test func aFileNameThatIsNotUTF8IsRefusedNotTakenForAnother() throws {
        let dir = try TemporaryDirectory()
        try ImageFile.save(Self.picture(), to: dir.file("in.png"), withAlpha: true)
        let other = PixelImage(width: 3, height: 3, fill: Color.black.pixel)
        try ImageFile.save(other, to: dir.file("\u{FFFD}.png"), withAlpha: false)
        var environment = ChildProcess.cleanEnvironment()
        environment["HOME"] = dir.path
        environment["XDG_STATE_HOME"] = dir.file("state")
        environment["XDG_CONFIG_HOME"] = dir.file("config")
        environment["SP"] = try SwiftPaintBinary.locate()
        environment["D"] = dir.path
        // The shell passes the bytes as they are (printf's octal escapes); a Swift string cannot.
        let scripts = [
            #"cp "$D/in.png" "$(printf '%s/\377.png' "$D")" && exec "$SP" --export "$D/o.png" "$(printf '%s/\377.png' "$D")""#,
            #"exec "$SP" --export "$(printf '%s/o\376.png' "$D")" "$D/in.png""#,
        ]
        for script in scripts {
            let child = try ChildProcess(
                executable: "/bin/sh", arguments: ["-c", script], environment: environment,
                stdoutPath: dir.file("stdout"), stderrPath: dir.file("stderr"))
            let status = child.waitForExit(timeout: .seconds(120))
            if status == nil { child.killAndReap() }
            let stderr = dir.read("stderr")
            #expect(status == .exited(2), "\(script): \(String(describing: status)) \(stderr)")
            #expect(stderr.contains("is not valid UTF-8") && stderr.contains("rename it"), "\(script): \(stderr)")
        }
        for name in ["o.png", "o\u{FFFD}.png"] {
            #expect(!FileManager.default.fileExists(atPath: dir.file(name)), "\(name) was written")
        }
        // The other file is untouched.
        #expect(try ImageFile.load(path: dir.file("\u{FFFD}.png")) == other)
    }

    /// Sparse files of 900 MB (no disk taken): junk, and a small PNG or WebP with a tail of
    /// zeros. Junk is refused after its first bytes and a picture read up to its end (a PNG's
    /// IEND, a WebP's RIFF size), in little memory. Before, --export (like a Ctrl-drop, a
    /// background picture or a thumbnail) read the whole 900 MB into memory first.
    @Test func aHugeFileIsReadOnlyUpToItsPicturesEnd() throws {
        let dir = try TemporaryDirectory()
        let picture = Self.picture()
        let png = try PNGCodec.encode(picture, withAlpha: true)
        let webp = try WebPCodec.encode(picture, quality: nil, withAlpha: true)
        let cases: [(String, [UInt8], String)] = [
            ("junk.png", Array("hello, this is no picture at all".utf8), "not a picture SwiftPaint can open"),
            ("tail.png", png, ""), ("tail.webp", webp, ""),
        ]
        for (name, head, words) in cases {
            let path = dir.file(name)
            try Data(head).write(to: URL(fileURLWithPath: path))
            #expect(truncate(path, 900 << 20) == 0)
            let run = try Self.swiftpaint(["--export", dir.file("out.png"), path], in: dir)
            #expect(run.status == .exited(words.isEmpty ? 0 : 1), "\(name): \(run.stderr)")
            #expect(words.isEmpty ? run.stderr.isEmpty : run.stderr.contains(words), "\(name): \(run.stderr)")
            #expect(run.peakMemory > 0 && run.peakMemory < 64 << 20, "\(name): peak \(run.peakMemory >> 20) MB")
            if words.isEmpty {
                #expect(try ImageFile.load(path: dir.file("out.png")) == picture, "\(name): other pixels")
            }
        }
    }

    /// A JPEG, a GIF, a BMP with a 900 MB tail, and a WebP whose header claims 900 MB in a file
    /// that long, are read up to their picture's end: --export and --forget (`ImageFile.open`)
    /// hold a few MB, not 900 (each took 900+ MB before).
    @Test func everyFormatWithAHugeTailOrClaimIsReadOnlyUpToItsPicture() throws {
        let dir = try TemporaryDirectory()
        let (folder, list) = try Reference.fixtures("formats.py")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func fixture(_ name: String) throws -> (bytes: [UInt8], ext: String) {
            let file = try #require(list.first { $0["name"] as? String == name }?["file"] as? String, "\(name)")
            return (
                Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))), (file as NSString).pathExtension
            )
        }
        let size = 900 << 20
        for name in [
            "jpeg-progressive", "gif-animated", "bmp-rle8-hole", "bmp-24-topdown", "bmp-png", "bmp-jpeg",
            "webp-animated",
            "webp-lossy-rgba",
        ] {
            var (bytes, ext) = try fixture(name)
            let shown = try ImageDecoder.decode(bytes, name: name).image
            if ext == "webp" {
                for i in 0..<4 { bytes[4 + i] = UInt8(truncatingIfNeeded: (size - 8) >> (8 * i)) }
            }
            let path = dir.file("\(name).\(ext)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(truncate(path, off_t(size)) == 0)
            let run = try Self.swiftpaint(["--export", dir.file("out.png"), path], in: dir)
            #expect(run.status == .exited(0) && run.stderr.isEmpty, "\(name): \(run.stderr)")
            #expect(run.peakMemory > 0 && run.peakMemory < 64 << 20, "\(name): peak \(run.peakMemory >> 20) MB")
            #expect(try ImageFile.load(path: dir.file("out.png")) == shown, "\(name): other pixels")
            let forget = try Self.swiftpaint(["--forget", path], in: dir)
            #expect(forget.status == .exited(0), "\(name): \(forget.stderr)")
            #expect(
                forget.peakMemory > 0 && forget.peakMemory < 64 << 20,
                "\(name): --forget peak \(forget.peakMemory >> 20) MB")
        }
    }

    /// A lossless WebP and an animation whose picture chunk claims 900 MB, in a file that long:
    /// refused with the reason after a few kilobytes, by --export and --forget.
    @Test func aWebPWhosePictureChunkClaimsAHugeSizeIsRefusedInLittleMemory() throws {
        let dir = try TemporaryDirectory()
        let (folder, list) = try Reference.fixtures("formats.py")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = 900 << 20
        for name in ["webp-lossless-rgba", "webp-animated"] {
            let file = try #require(list.first { $0["name"] as? String == name }?["file"] as? String, "\(name)")
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))
            // The first picture chunk: VP8L after the header, or ANMF after VP8X and ANIM.
            var at = 12
            while !["VP8L", "ANMF"].contains(String(decoding: bytes[at..<(at + 4)], as: UTF8.self)) {
                let length = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16
                at += 8 + length + (length & 1)
            }
            for (offset, value) in [(4, size - 8), (at + 4, size - at - 8)] {
                for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
            }
            let path = dir.file("\(name).webp")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(truncate(path, off_t(size)) == 0)
            for arguments in [["--export", dir.file("out.png"), path], ["--forget", path]] {
                let run = try Self.swiftpaint(arguments, in: dir)
                #expect(run.status == .exited(1), "\(name) \(arguments[0])")
                #expect(run.stderr.contains("claims \(size - at - 8) bytes"), "\(name) \(arguments[0]): \(run.stderr)")
                #expect(run.peakMemory > 0 && run.peakMemory < 64 << 20, "\(name): peak \(run.peakMemory >> 20) MB")
            }
        }
    }

    /// A WebP whose EXIF, XMP, ICC profile or unknown chunk before its picture claims 900 MB,
    /// in a file that long: --export writes its picture and --forget opens it, the chunk passed
    /// over, in little memory (before: 938 MB, the claim read).
    @Test func aWebPMetadataChunkClaimingAHugeSizeIsPassedOverInLittleMemory() throws {
        let dir = try TemporaryDirectory()
        let (folder, list) = try Reference.fixtures("formats.py")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try #require(list.first { $0["name"] as? String == "webp-lossy-rgba" }?["file"] as? String)
        let webp = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))
        let shown = try ImageDecoder.decode(webp, name: file).image
        for type in ["EXIF", "XMP ", "ICCP", "ZZZZ"] {
            let path = dir.file("\(type.prefix(3)).webp")
            let size = try #require(HugeChunkWebP.write(webp, type: type, claim: 900 << 20, to: path), "\(type)")
            #expect(size > 900 << 20)
            let run = try Self.swiftpaint(["--export", dir.file("out.png"), path], in: dir)
            #expect(run.status == .exited(0) && run.stderr.isEmpty, "\(type): \(run.stderr)")
            #expect(run.peakMemory > 0 && run.peakMemory < 64 << 20, "\(type): peak \(run.peakMemory >> 20) MB")
            #expect(try ImageFile.load(path: dir.file("out.png")) == shown, "\(type): other pixels")
            let forget = try Self.swiftpaint(["--forget", path], in: dir)
            #expect(forget.status == .exited(0), "\(type): \(forget.stderr)")
            #expect(
                forget.peakMemory > 0 && forget.peakMemory < 64 << 20,
                "\(type): --forget peak \(forget.peakMemory >> 20) MB")
        }
    }

    /// A PNG whose text chunk before its pixels claims 900 MB, in a file that long: --export
    /// writes its picture and --forget opens it in little memory, the chunk passed over (before:
    /// 938 MB, read up to the claim).
    @Test func aPNGTextChunkClaimingAHugeSizeIsPassedOverInLittleMemory() throws {
        let dir = try TemporaryDirectory()
        var picture = PixelImage(width: 40, height: 30, fill: 0xFF33_6699)
        picture[3, 4] = 0xFFFF_0000
        let png = try PNGCodec.encode(picture, withAlpha: false)
        let claim = 900 << 20
        let length = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: claim >> $0) }
        let path = dir.file("text.png")
        // After IHDR: the chunk's header, its 900 MB a hole of zeros, then the rest of the PNG.
        #expect(
            SparseFile.write(
                [(0, Array(png[0..<33]) + length + Array("tEXt".utf8)), (33 + 12 + claim, Array(png[33...]))], to: path)
        )
        let run = try Self.swiftpaint(["--export", dir.file("out.png"), path], in: dir)
        #expect(run.status == .exited(0) && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.peakMemory > 0 && run.peakMemory < 64 << 20, "peak \(run.peakMemory >> 20) MB")
        #expect(try ImageFile.load(path: dir.file("out.png")) == picture)
        let forget = try Self.swiftpaint(["--forget", path], in: dir)
        #expect(forget.status == .exited(0), "\(forget.stderr)")
        #expect(forget.peakMemory > 0 && forget.peakMemory < 64 << 20, "--forget peak \(forget.peakMemory >> 20) MB")
    }

    @Test func hostileFilesAreRefusedOrOpenInLittleMemory() throws {
        let dir = try TemporaryDirectory()
        let (folder, list) = try Reference.fixtures("hostile.py")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(list.count == 23)
        // The program itself (Swift runtime, libraries) takes about 13 MB; a decoder that believed
        // any of these files would take hundreds of megabytes to gigabytes.
        let budget = 64 << 20
        for item in list {
            let file = item["file"] as? String ?? ""
            let words = item["words"] as? String ?? "?"
            let run = try Self.swiftpaint(["--export", dir.file("out.png"), folder + "/" + file], in: dir)
            // A few open: their oversized metadata is skipped (`words` is empty for them).
            #expect(run.status == .exited(words.isEmpty ? 0 : 1), "\(file): \(String(describing: run.status))")
            #expect(words.isEmpty ? run.stderr.isEmpty : run.stderr.contains(words), "\(file): \(run.stderr)")
            #expect(run.peakMemory > 0 && run.peakMemory < budget, "\(file): peak \(run.peakMemory >> 20) MB")
        }
    }
}

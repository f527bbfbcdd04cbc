// paint-bench open [--folder DIR] [--runs 5] [--tiles] [--file PATH ...]
//
// How long opening a 4K photo takes, and at what peak memory (issue 13): a photo-like 3840 x 2160
// picture (smooth shapes plus sensor-like noise, so it compresses as photos do) is written once
// into DIR (default .build/bench-open) as SwiftPaint saves it: photo-4k.png (RGB),
// photo-4k-alpha.png (RGBA) and photo-4k.jpg (quality 90). Each file is then opened --runs times
// through `ImageFile.open`, exactly as the program opens it, in a child process of its own, so
// the child's peak resident memory (its own VmHWM: a fresh address space since exec, unlike
// wait4's ru_maxrss, which also counts the parent's peak when spawned with posix_spawn) is what
// opening that file costs.
//
// --tiles opens through `ImageFile.openTiles` instead, as the window does (the pixels go into
// the engine's 64 x 64 tiles; the peak is what opening a picture costs the program); --file
// opens the files named (any format, any size) instead of the written photos.

import Glibc
import PaintCore
import PaintIO

func runOpenBench(arguments: [String]) -> Never {
    var folder = ".build/bench-open"
    var runs = 5
    var tiles = false
    var named: [String] = []
    var reader = ArgumentReader(
        arguments, usage: "usage: paint-bench open [--folder DIR] [--runs 5] [--tiles] [--file PATH ...]")
    while let option = reader.next() {
        switch option {
        case "--folder": folder = reader.value()
        case "--runs": runs = reader.integer(in: 1...1000)
        case "--tiles": tiles = true
        case "--file": named.append(reader.value())
        default: reader.unknown()
        }
    }
    var files = named
    if files.isEmpty {
        mkdir(folder, 0o755)
        files = ["photo-4k.png", "photo-4k-alpha.png", "photo-4k.jpg"].map { folder + "/" + $0 }
        if !files.allSatisfy({ access($0, R_OK) == 0 }) { writePhotos(files) }
        print("a 3840 x 2160 photo-like picture (it takes 32 MB; the process alone about 10 MB)")
    }
    let through = tiles ? "ImageFile.openTiles" : "ImageFile.open"
    print("opening through \(through), \(runs) runs each, one child process per file")
    fflush(nil)
    for file in files {
        let status = spawnSelf(["open-file", file, String(runs)] + (tiles ? ["tiles"] : []))
        guard status == 0 else { fail("opening \(file) failed (status \(status))", code: 1) }
    }
    exit(0)
}

/// The child's part: opens `file` `runs` times and prints the times.
func runOpenFile(arguments: [String]) -> Never {
    guard arguments.count == 2 || arguments.count == 3, let runs = Int(arguments[1]) else {
        fail("open-file FILE RUNS [tiles]", code: 2)
    }
    let file = arguments[0]
    let tiles = arguments.count == 3
    var milliseconds: [Double] = []
    var cpuMilliseconds: [Double] = []
    var size = ""
    func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
    for _ in 0..<runs {
        let start = monotonicNanoseconds()
        let cpuStart = cpuNanoseconds()
        do {
            if tiles {
                let opened = try ImageFile.openTiles(path: file)
                size = "\(opened.picture.width) x \(opened.picture.height), \(opened.bytes.count / 1024) KB"
            } else {
                let opened = try ImageFile.open(path: file)
                size = "\(opened.picture.image.width) x \(opened.picture.image.height), \(opened.bytes.count / 1024) KB"
            }
        } catch {
            fail(error.description, code: 1)
        }
        milliseconds.append(Double(monotonicNanoseconds() - start) / 1e6)
        cpuMilliseconds.append(Double(cpuNanoseconds() - cpuStart) / 1e6)
    }
    let name = file.split(separator: "/").last.map(String.init) ?? file
    print(
        "\(name) (\(size)): best \(fixed(milliseconds.min() ?? .nan, 1)) ms,"
            + " median \(fixed(median(milliseconds), 1)) ms; CPU best \(fixed(cpuMilliseconds.min() ?? .nan, 1)) ms;"
            + " peak RSS \(fixed(peakResidentMegabytes() ?? .nan, 0)) MB")
    exit(0)
}

/// Writes the photo-like picture as PNG, PNG with alpha and JPEG.
private func writePhotos(_ paths: [String]) {
    let (width, height) = (3840, 2160)
    var random = SplitMix64(seed: 1)
    // Smooth shapes: a 48 x 27 grid of random colors, bilinearly enlarged.
    let grid = (0..<(49 * 28 * 3)).map { _ in Double(random.next() % 256) }
    var image = PixelImage(width: width, height: height)
    var alpha = PixelImage(width: width, height: height)
    for y in 0..<height {
        let gy = Double(y) / Double(height) * 27
        let y0 = Int(gy)
        let fy = gy - Double(y0)
        for x in 0..<width {
            let gx = Double(x) / Double(width) * 48
            let x0 = Int(gx)
            let fx = gx - Double(x0)
            var channels: [UInt8] = []
            for c in 0..<3 {
                func at(_ i: Int, _ j: Int) -> Double { grid[((j * 49) + i) * 3 + c] }
                let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                // Sensor-like noise of about ±12 levels.
                let noise = Double(Int(random.next() % 25) - 12)
                channels.append(UInt8(max(0, min(255, top * (1 - fy) + bottom * fy + noise))))
            }
            let pixel = Pixel.pack(r: channels[0], g: channels[1], b: channels[2], a: 255)
            image[x, y] = pixel
            alpha[x, y] = Pixel.premultiply(pixel & 0x00FF_FFFF | UInt32(x * 255 / (width - 1)) << 24)
        }
    }
    do {
        try ImageFile.save(image, to: paths[0], withAlpha: false)
        try ImageFile.save(alpha, to: paths[1], withAlpha: true)
        try ImageFile.save(image, to: paths[2], options: SaveOptions(format: .jpeg), withAlpha: false)
    } catch {
        fail(error.description, code: 1)
    }
}

/// A small deterministic generator (SplitMix64), so every run writes the same picture.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs this program with `arguments` and waits: its exit status.
private func spawnSelf(_ arguments: [String]) -> Int32 {
    var path = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &path, path.count - 1)
    guard length > 0 else { fail("cannot find this program's path", code: 1) }
    let argv = (["paint-bench"] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { fail("cannot start a child", code: 1) }
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
    return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
}

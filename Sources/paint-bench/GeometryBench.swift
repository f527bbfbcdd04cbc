// paint-bench geometry [--size WxH] [--runs N]
//
// Changing the canvas of a photo-like picture (default 3840 x 2160, every pixel different, so
// the history's snapshot cannot shrink it): scaled to 50 % and to 200 %, turned 90°, each as
// the program does it, a step of the history (the whole picture kept before a scale, nothing
// before a turn), and then undone. Per change: the median time of the step and of its undo over
// N runs (default 3, each on a fresh picture), and the process's peak resident memory during
// the step, with the resident memory just before it (the picture alone).

import Glibc
import PaintCore

/// A photo-like picture: smooth gradients with fine noise on top, opaque.
private func photo(width: Int, height: Int) -> PixelImage {
    var image = PixelImage(width: width, height: height)
    var seed: UInt32 = 0x2545_F491
    image.pixels.withUnsafeMutableBufferPointer { pixels in
        for y in 0..<height {
            for x in 0..<width {
                seed ^= seed << 13
                seed ^= seed >> 17
                seed ^= seed << 5
                let noise = seed & 0x0F
                let r = UInt32(x * 255 / max(1, width - 1)) ^ noise
                let g = UInt32(y * 255 / max(1, height - 1)) ^ (noise << 1 & 0x0F)
                let b = UInt32((x + y) & 0xFF)
                pixels[y * width + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }
    return image
}

/// Resets the peak resident set size to the current one (Linux: "5" into clear_refs), so the
/// next reading of VmHWM is the peak of what follows; false when the kernel refuses.
private func resetPeakMemory() -> Bool {
    guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
    defer { fclose(file) }
    return fputs("5", file) >= 0
}

/// glibc's `malloc_trim(0)`: freed heap memory goes back to the system (looked up at run time,
/// as the Glibc module does not import it).
private func trimMalloc() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}

func runGeometryBench(arguments: [String]) -> Never {
    var width = 3840
    var height = 2160
    var runs = 3
    var reader = ArgumentReader(arguments, usage: "usage: paint-bench geometry [--size WxH] [--runs N]")
    while let option = reader.next() {
        switch option {
        case "--size":
            let parts = reader.value().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 <= 16384 }) else {
                reader.reject("--size needs WxH, 16 to 16384 a side")
            }
            (width, height) = (parts[0], parts[1])
        case "--runs": runs = reader.integer(in: 1...50)
        default: reader.unknown()
        }
    }
    let picture = photo(width: width, height: height)
    let changes: [(String, CanvasChange)] = [
        ("scale 50 %", .scale(width: width / 2, height: height / 2)),
        ("scale 200 %", .scale(width: width * 2, height: height * 2)),
        ("rotate 90°", .orient(.rotateRight)),
    ]
    var peaksMeasured = true
    for (name, change) in changes {
        var times: [UInt64] = []
        var undos: [UInt64] = []
        var peak = 0.0
        var before = 0.0
        for _ in 0..<runs {
            let engine = StrokeEngine(image: picture, background: .color(.white))
            let history = History(base: picture)
            // Memory freed by the runs before goes back to the system first, so the peak is
            // this step's, not the allocator's leftovers.
            trimMalloc()
            before = procStatusMegabytes("VmRSS") ?? 0
            peaksMeasured = resetPeakMemory() && peaksMeasured
            var t0 = monotonicNanoseconds()
            history.perform(.canvas(change), engine: engine)
            times.append(monotonicNanoseconds() - t0)
            peak = max(peak, procStatusMegabytes("VmHWM") ?? 0)
            t0 = monotonicNanoseconds()
            history.undo(engine: engine)
            undos.append(monotonicNanoseconds() - t0)
            guard engine.width == width, engine.height == height else { fail("\(name): undo missed the size", code: 1) }
        }
        let size = change.size(width: width, height: height)
        print(
            "geometry \(name): \(width)x\(height) -> \(size.width)x\(size.height)"
                + " step_ms=\(fixed(Double(TimingStats(nanoseconds: times).p50Microseconds) / 1000, 1))"
                + " undo_ms=\(fixed(Double(TimingStats(nanoseconds: undos).p50Microseconds) / 1000, 1))"
                + " peak_rss_mb=\(fixed(peak, 1)) rss_before_mb=\(fixed(before, 1)) runs=\(runs)")
    }
    if !peaksMeasured { print("geometry: the kernel would not reset the peak; peaks are the process's") }
    exit(0)
}

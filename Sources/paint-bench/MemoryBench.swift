// paint-bench memory: the program's memory and start-up with a picture, as peerbench measures
// them: open a PNG, the window moved to 0,0 and sized 1280 x 800, one stroke, then the peak
// (VmHWM) and current (VmRSS) resident memory.
//
//   paint-bench memory --app PATH [--app PATH2] [--runs N] [--also FILE]
//
// With a program that traces its start-up (SWIFTPAINT_TRACE_STARTUP), each line also gives
// phases_ms: when each phase ended, in ms since the launch (main, session, window, opened,
// frame, journal, input), and frame_cpu_ms: the CPU time its threads had used by the first frame.
//
// --also FILE opens FILE too (a picture with a long saved history, say, as `paint-bench history
// --save-png` writes it), reporting when its window shows (map_ms).
//
// Each line gives the peak right after the stroke (peak_rss_mb, rss_mb) and again once the
// program has settled, its CPU time unchanged for a second (settled_peak_rss_mb,
// settled_rss_mb, settled_ms after the stroke): a saved history is rebuilt in the background
// and may take seconds on a loaded machine, so only the settled peak is sure to include it.
//
// Pictures: white 1920 x 1080, white 3840 x 2160, noise 3840 x 2160 (every pixel different, as
// a photograph: no square shares a tile) and white 8192 x 8192. With two --app the programs
// alternate launch by launch, so their figures come from the same minutes (compare ratios).

import CX11
import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import XDriver

/// One picture the memory bench opens.
private struct MemoryPicture {
    let name: String
    let width: Int
    let height: Int
    let noise: Bool
    /// An existing file to open as it is (nil: write the picture).
    var file: String? = nil
}

/// VmRSS in MB.
private func residentMegabytes(_ pid: pid_t) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 2, let kb = Double(parts[1]) { return kb / 1024 }
    }
    return nil
}

/// Writes the picture's PNG into `folder`; returns its path.
private func writePicture(_ picture: MemoryPicture, in folder: String) -> String? {
    let path = "\(folder)/\(picture.name).png"
    var image = PixelImage(width: picture.width, height: picture.height, fill: Color.white.pixel)
    if picture.noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in image.pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            image.pixels[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: state >> 40) & 0xFF_FFFF
        }
    }
    do {
        try ImageFile.save(image, to: path, withAlpha: false)
    } catch {
        x11Warn("cannot write \(path): \(error.message)")
        return nil
    }
    return path
}

/// Launches `app` on `path`, sizes the window, draws one stroke and reads its memory; one line.
private func measureOpen(
    app: String, path: String, picture: MemoryPicture, client: XClient, reader: RootPixelReader,
    server: XvfbServer, home: String
) -> String {
    try? FileManager.default.removeItem(atPath: home)
    mkdir(home, 0o700)
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = server.displayName
    environment["HOME"] = home
    environment["XDG_STATE_HOME"] = home + "/state"
    environment["XDG_DATA_HOME"] = home + "/data"
    environment["XDG_CONFIG_HOME"] = home + "/config"
    // The program says when each phase of its start-up ends (a build without the trace says
    // nothing, and the line has no phases).
    environment["SWIFTPAINT_TRACE_STARTUP"] = "1"
    let t0 = x11Now()
    let process: ChildProcess
    do {
        process = try ChildProcess(
            executable: app, arguments: [path], environment: environment, stdoutPath: "\(home).log",
            stderrPath: "\(home).err")
    } catch {
        return "launch=failed"
    }
    defer { process.killAndReap() }
    var window: Window = 0
    var ready: UInt64?
    var mapped: UInt64?
    let deadline = t0 + 30_000_000_000
    while x11Now() < deadline {
        if window == 0, let w = client.findWindow(pid: process.pid) { window = w }
        if window != 0, client.isViewable(window), let g = client.geometry(window) {
            if mapped == nil { mapped = x11Now() - t0 }
            if picture.file != nil {
                ready = mapped
                break
            }
            // Ready: the middle of the canvas shows the picture (white, or anything but the
            // unpainted window for noise).
            let x = g.x + g.width / 2
            let y = g.y + g.height / 2
            if picture.noise ? (reader.pixel(x: x, y: y).map { $0 != 0 } ?? false) : reader.isWhiteBox(x: x, y: y) {
                ready = x11Now() - t0
                break
            }
        }
        usleep(1000)
    }
    guard window != 0, ready != nil else { return "startup=timeout" }
    XMoveResizeWindow(client.display, window, 0, 0, 1280, 800)
    client.sync()
    usleep(500_000)
    // A stroke across the canvas below the toolbar, black at full opacity (the default brush).
    let y0 = 200
    client.moveMouse(toScreenX: 100, y: y0)
    client.press()
    var end = (x: 100, y: y0)
    for i in 0...200 {
        end = (100 + i * 5, y0 + (i % 40) * 8)
        client.moveMouse(toScreenX: end.x, y: end.y)
    }
    client.release()
    let inked = x11Wait { reader.pixel(x: end.x, y: end.y) == 0 }
    usleep(300_000)
    let peak = x11PeakRSS(process.pid)
    let resident = residentMegabytes(process.pid)
    let phases = startupPhases(in: "\(home).err", launchedAt: t0)
    // What comes after the first moments (a saved history rebuilt in the background: seconds
    // on a loaded machine) is in the peak only once the program has settled: its CPU time
    // unchanged for a second.
    let settled = waitUntilIdle(process.pid)
    return "map_ms=\(x11Fixed(Double(mapped ?? 0) / 1e6, 1)) ready_ms=\(x11Fixed(Double(ready!) / 1e6, 1))"
        + (phases.isEmpty ? "" : " phases_ms=\(phases)")
        + " peak_rss_mb=\(peak.map { x11Fixed($0, 1) } ?? "unknown")"
        + " rss_mb=\(resident.map { x11Fixed($0, 1) } ?? "unknown")"
        + " settled_peak_rss_mb=\(x11PeakRSS(process.pid).map { x11Fixed($0, 1) } ?? "unknown")"
        + " settled_rss_mb=\(residentMegabytes(process.pid).map { x11Fixed($0, 1) } ?? "unknown")"
        + " settled_ms=\(settled.map { x11Fixed(Double($0) / 1e6, 0) } ?? "never")"
        + (inked == nil ? " stroke=not-seen" : "")
}

/// The process's CPU time (user + system) in clock ticks, from /proc.
private func cpuTicks(_ pid: pid_t) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// Waits (up to 60 s) until `pid` has used no CPU for a second; the ns waited, or nil.
private func waitUntilIdle(_ pid: pid_t) -> UInt64? {
    let start = x11Now()
    var last = cpuTicks(pid)
    var stillSince = start
    while x11Now() - start < 60_000_000_000 {
        usleep(100_000)
        let now = cpuTicks(pid)
        if now != last {
            last = now
            stillSince = x11Now()
        } else if x11Now() - stillSince >= 1_000_000_000 {
            return stillSince - start
        }
    }
    return nil
}

/// The phases `SWIFTPAINT_TRACE_STARTUP=1` wrote to `path`, as milliseconds since the launch at
/// `t0` (CLOCK_MONOTONIC ns, the trace's clock): `main:21.3,opened:80.2,...`; empty without them.
private func startupPhases(in path: String, launchedAt t0: UInt64) -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
    let names = [
        "main": "main", "session made": "session", "window made": "window", "picture opened": "opened",
        "first frame shown": "frame", "journal started": "journal", "input ready": "input",
    ]
    var parts: [String] = []
    var frameCPU = ""
    for line in text.split(separator: "\n") where line.hasPrefix("swiftpaint: startup ") {
        let words = line.dropFirst("swiftpaint: startup ".count).split(separator: " ")
        guard let msIndex = words.firstIndex(of: "ms"), msIndex > 1, let ms = Double(words[msIndex - 1]) else {
            continue
        }
        let phase = words[..<(msIndex - 1)].joined(separator: " ")
        guard let name = names[phase] else { continue }
        parts.append("\(name):\(x11Fixed(ms - Double(t0) / 1e6, 1))")
        // The process's CPU time when its first frame was on screen.
        if name == "frame", let c = words.lastIndex(of: "cpu"), c + 1 < words.count, let cpu = Double(words[c + 1]) {
            frameCPU = " frame_cpu_ms=\(x11Fixed(cpu, 1))"
        }
    }
    return parts.joined(separator: ",") + frameCPU
}

func runMemoryBench(arguments: [String]) -> Never {
    var apps: [String] = []
    var runs = 2
    var also: [String] = []
    var options = ArgumentReader(
        arguments, usage: "usage: paint-bench memory --app PATH [--app PATH2] [--runs N] [--also FILE]")
    while let option = options.next() {
        switch option {
        case "--app": apps.append(options.value())
        case "--runs": runs = options.integer(in: 1...100)
        case "--also": also.append(options.value())
        default: options.unknown()
        }
    }
    guard !apps.isEmpty, apps.allSatisfy({ access($0, X_OK) == 0 }) else {
        options.reject("--app must name the swiftpaint executable")
    }
    let folder: TemporaryDirectory
    let server: XvfbServer
    let client: XClient
    do {
        folder = try TemporaryDirectory(prefix: "paint-bench-memory")
        server = try XvfbServer(width: 1920, height: 1200, depth: 24, shm: true)
        client = try XClient(display: server.displayName)
    } catch {
        x11Warn("\(error)")
        exit(1)
    }
    // The stroke's events are sent as fast as they go, as a user's would be.
    client.waitsForServer = false
    let reader = RootPixelReader(client: client, tryShm: true)
    var pictures = [
        MemoryPicture(name: "white-1920x1080", width: 1920, height: 1080, noise: false),
        MemoryPicture(name: "white-3840x2160", width: 3840, height: 2160, noise: false),
        MemoryPicture(name: "noise-3840x2160", width: 3840, height: 2160, noise: true),
        MemoryPicture(name: "white-8192x8192", width: 8192, height: 8192, noise: false),
    ]
    for file in also where access(file, R_OK) == 0 {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        pictures.append(MemoryPicture(name: name, width: 0, height: 0, noise: false, file: file))
    }
    for picture in pictures {
        guard let path = picture.file ?? writePicture(picture, in: folder.path) else { continue }
        for run in 1...runs {
            for (k, app) in apps.enumerated() {
                let line = measureOpen(
                    app: app, path: path, picture: picture, client: client, reader: reader, server: server,
                    home: folder.file("home"))
                x11Say("open picture=\(picture.name) app=\(k + 1) run=\(run) " + line)
            }
        }
        if picture.file == nil { unlink(path) }
    }
    withExtendedLifetime(reader) {}
    client.close()
    server.stop()
    folder.remove()
    exit(0)
}

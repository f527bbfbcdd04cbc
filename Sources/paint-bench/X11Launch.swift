// paint-bench x11: the program under test, started under the benchmark's Xvfb through the X
// driver the end-to-end tests use (XDriver), and the figures read from /proc.

import CX11
import Foundation
import Glibc
import PaintCore
import TestSupport
import XDriver

/// Monotonic nanoseconds.
func x11Now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func x11Say(_ line: String) {
    print(line)
    fflush(nil)
}

func x11Warn(_ line: String) {
    FileHandle.standardError.write(Data("paint-bench x11: \(line)\n".utf8))
}

/// Sum of the first schedstat field over all threads of `pid`, in ns.
func x11CPUTime(_ pid: pid_t) -> UInt64 {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
        return total + (text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0)
    }
}

/// VmHWM in MB.
func x11PeakRSS(_ pid: pid_t) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 2, let kb = Double(parts[1]) { return kb / 1024 }
    }
    return nil
}

func x11Fixed(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }

func x11IsDark(_ p: UInt32?) -> Bool {
    guard let p else { return false }
    return (Int(p >> 16 & 255) + Int(p >> 8 & 255) + Int(p & 255)) / 3 < 128
}

/// Polls `condition` until true or `timeout` ns; returns the elapsed ns or nil on timeout.
func x11Wait(timeout: UInt64 = 10_000_000_000, sleepMicros: UInt32 = 0, _ condition: () -> Bool) -> UInt64? {
    let start = x11Now()
    while true {
        if condition() { return x11Now() - start }
        if x11Now() - start > timeout { return nil }
        if sleepMicros > 0 { usleep(sleepMicros) }
    }
}

func x11SleepUntil(_ deadline: UInt64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

struct X11Options {
    var app = ""
    /// Extra arguments for every launch of the program.
    var appArgs: [String] = []
    var samples = 200
    var noShm = false
    /// Self-check of the fidelity count: leave out every Kth tip (0 = none).
    var skipEvery = 0
    /// Instead of the full run: this many interleaved pairs of CPU-per-event measurements with
    /// core pointer events (SWIFTPAINT_NO_XI2=1) and with XInput 2.
    var comparePointer = 0
    /// Instead of the full run: this many launches measuring the CPU of motion events a
    /// question in the status bar makes the canvas ignore, against painting ones.
    var questionRuns = 0
}

/// One instance of the program: started, its window found, its canvas white.
struct X11Instance {
    var process: ChildProcess
    var window: Window
    var startupNs: UInt64?
    /// Root position of image pixel (0, 0).
    var origin: (x: Int, y: Int)
    /// The file it saves to.
    var path: String
}

/// Where the canvas area starts below the window's top at scale 1 in a window wide enough for
/// one toolbar row: the menu bar (26 px) and the toolbar (64 px).
let x11CanvasTop = 90

/// Where image pixel (0, 0) sits in root coordinates: centred in the canvas area between the
/// menu bar and toolbar (`x11CanvasTop`) and the status bar (28 px) when it fits.
func x11ImageOrigin(window g: IntRect, imageWidth: Int, imageHeight: Int) -> (x: Int, y: Int) {
    let areaY = x11CanvasTop
    let areaHeight = max(1, g.height - x11CanvasTop - 28)
    let ox = imageWidth <= g.width ? (g.width - imageWidth) / 2 : 0
    let oy = imageHeight <= areaHeight ? areaY + (areaHeight - imageHeight) / 2 : areaY
    return (g.x + ox, g.y + oy)
}

/// Starts the program on a `width` x `height` canvas with HOME (and its journals) in `home` and
/// `environment` added; returns once its window shows a white canvas (the startup time), or
/// after 10 s.
func x11Launch(
    client: XClient, reader: RootPixelReader, options: X11Options, server: XvfbServer, home: TemporaryDirectory,
    width: Int, height: Int, tag: String, environment extra: [String: String] = [:]
) -> X11Instance? {
    let path = home.file("picture-\(tag).png")
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = server.displayName
    environment["HOME"] = home.path
    environment["XDG_STATE_HOME"] = home.path + "/state"
    environment["XDG_CONFIG_HOME"] = home.path + "/config"
    environment.merge(extra) { $1 }
    let t0 = x11Now()
    let process: ChildProcess
    do {
        process = try ChildProcess(
            executable: options.app, arguments: options.appArgs + ["--size", "\(width)x\(height)", path],
            environment: environment, stdoutPath: home.file("\(tag).out"), stderrPath: home.file("\(tag).err"))
    } catch {
        x11Warn("\(tag): \(error)")
        return nil
    }
    var window: Window = 0
    var startup: UInt64?
    while x11Now() < t0 + 10_000_000_000 {
        if window == 0, let w = client.findWindow(pid: process.pid) { window = w }
        if window != 0, client.isViewable(window), let g = client.geometry(window) {
            let origin = x11ImageOrigin(window: g, imageWidth: width, imageHeight: height)
            // A point inside the visible canvas: 40 px into the image (never past the window).
            if reader.isWhiteBox(x: origin.x + min(40, width / 2), y: origin.y + min(40, height / 2)) {
                startup = x11Now() - t0
                break
            }
        }
    }
    guard window != 0, let g = client.geometry(window) else {
        x11Warn("\(tag): no window with _NET_WM_PID=\(process.pid) within 10 s")
        return X11Instance(process: process, window: 0, startupNs: nil, origin: (0, 0), path: path)
    }
    // The final geometry (in case it changed while mapping).
    let origin = x11ImageOrigin(window: g, imageWidth: width, imageHeight: height)
    return X11Instance(process: process, window: window, startupNs: startup, origin: origin, path: path)
}

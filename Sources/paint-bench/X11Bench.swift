// paint-bench x11: drives the real program under its own Xvfb through XTest and measures
// end-to-end figures (startup, input-to-pixel latency, CPU per motion event, fidelity, memory).
//
//   paint-bench x11 --app PATH_TO_swiftpaint [--app-args "ARGS"] [--samples 200] [--no-shm]
//   paint-bench x11 --app PATH_TO_swiftpaint --compare-pointer PAIRS
//   paint-bench x11 --app PATH_TO_swiftpaint --question-cpu RUNS
//
// --compare-pointer measures only the CPU per motion event, alternating launches with core
// pointer events (SWIFTPAINT_NO_XI2=1) and with XInput 2, PAIRS times each.
// --question-cpu measures only the CPU per motion event while a question in the status bar
// blocks the canvas (a drag and a hover, both ignored), against a drag that paints, RUNS launches.
//
// --app-args passes extra arguments to every launch of the program (split on spaces), e.g.
// `--app-args --no-journal`. The program runs with HOME and XDG_STATE_HOME in a temporary
// folder, so its crash journals never land in the real home; the folder is removed at the end.
// The server, the program and the X connection are the end-to-end tests' (XDriver).

import CX11
import Foundation
import Glibc
import PaintCore
import TestSupport
import XDriver

func runX11Bench(arguments: [String]) -> Never {
    let options = x11Options(arguments)
    let code = x11Run(options)
    exit(code)
}

private func x11Options(_ arguments: [String]) -> X11Options {
    var options = X11Options()
    var reader = ArgumentReader(
        arguments,
        usage: "usage: paint-bench x11 --app PATH [--app-args \"ARGS\"] [--samples 200] [--no-shm]"
            + " [--compare-pointer PAIRS] [--question-cpu RUNS]")
    while let option = reader.next() {
        switch option {
        case "--app": options.app = reader.value()
        // One word (`--app-args --no-journal`) or one quoted string of several.
        case "--app-args": options.appArgs += reader.value().split(separator: " ").map(String.init)
        case "--samples": options.samples = reader.integer(in: 1...100_000)
        case "--no-shm": options.noShm = true
        case "--skip-every": options.skipEvery = reader.integer(in: 0...100_000)
        case "--compare-pointer": options.comparePointer = reader.integer(in: 1...100)
        case "--question-cpu": options.questionRuns = reader.integer(in: 1...100)
        default: reader.unknown()
        }
    }
    guard !options.app.isEmpty, access(options.app, X_OK) == 0 else {
        reader.reject("--app must name the swiftpaint executable")
    }
    return options
}

/// The whole run; the server, the program instances and the temporary home go when it returns.
private func x11Run(_ options: X11Options) -> Int32 {
    let home: TemporaryDirectory
    let server: XvfbServer
    let client: XClient
    do {
        // The program's home: its journals go here, not into the real home.
        home = try TemporaryDirectory(prefix: "paint-bench-x11-home")
        server = try XvfbServer(width: 1920, height: 1080, depth: 24, shm: !options.noShm)
        client = try XClient(display: server.displayName)
    } catch {
        x11Warn("\(error)")
        return 1
    }
    // Events are paced by the measurements: sent, not waited for one by one.
    client.waitsForServer = false
    let reader = RootPixelReader(client: client, tryShm: !options.noShm)
    x11Say(
        "app_args=\(options.appArgs.isEmpty ? "none" : options.appArgs.joined(separator: " "))"
            + " app_home=\(home.path) (temporary)")
    x11Say(
        "display=\(server.displayName) xvfb_pid=\(server.pid) screen_read=\(reader.usesShm ? "XShmGetImage" : "XGetImage")"
            + (options.noShm ? " xvfb=-extension MIT-SHM" : ""))

    if options.comparePointer > 0 {
        return x11ComparePointer(client: client, reader: reader, options: options, server: server, home: home)
    }
    if options.questionRuns > 0 {
        return x11QuestionCPU(client: client, reader: reader, options: options, server: server, home: home)
    }
    let imageW = 1280
    let imageH = 800
    guard
        let app = x11Launch(
            client: client, reader: reader, options: options, server: server, home: home, width: imageW,
            height: imageH, tag: "a"),
        app.window != 0
    else {
        x11Say("startup_ms=timeout")
        return 1
    }
    x11Say("startup_ms=" + (app.startupNs.map { x11Fixed(Double($0) / 1e6, 1) } ?? "timeout"))
    x11Latency(client, reader, app, options: options, imageWidth: imageW)
    x11CPUPerEvent(client, reader, app, server: server, imageWidth: imageW)
    x11Fidelity(client, reader, app, options: options, imageWidth: imageW, imageHeight: imageH)
    x11Say("peak_rss_mb=\(x11PeakRSS(app.process.pid).map { x11Fixed($0, 1) } ?? "unknown") size=1280x800")
    app.process.killAndReap()
    x11BigCanvas(client, reader, options: options, server: server, home: home)
    // The instances were killed (SIGKILL), so with the journal on their journals are still there.
    let journals = (try? FileManager.default.contentsOfDirectory(atPath: home.path + "/state/swiftpaint")) ?? []
    x11Say("app_journals_left=\(journals.count) (removed with the temporary home)")
    client.close()
    server.stop()
    return 0
}

/// Input-to-pixel latency: the button held, each pointer move timed until its pixel changes.
private func x11Latency(
    _ client: XClient, _ reader: RootPixelReader, _ app: X11Instance, options: X11Options, imageWidth: Int
) {
    let o = app.origin
    // Pointer over the canvas so keys go to the window (no window manager: focus follows
    // pointer root).
    let (sx, sy) = (o.x + 24, o.y + 24)
    client.moveMouse(toScreenX: sx, y: sy)
    usleep(50_000)
    for _ in 0..<3 { try? client.key(KeySym(XK_bracketright)) }
    client.sync()
    usleep(200_000)
    // Serpentine grid: rows 16 px apart, points 16 px apart, starting at (24, 24).
    var grid: [(Int, Int)] = []
    var row = 0
    while grid.count < options.samples + 1 {
        let y = 24 + row * 16
        var xs = Array(stride(from: 24, through: imageWidth - 24, by: 16))
        if row % 2 == 1 { xs.reverse() }
        for x in xs { grid.append((x, y)) }
        row += 1
    }
    client.press()
    // Wait until the pressed dot shows.
    _ = x11Wait { x11IsDark(reader.pixel(x: sx, y: sy)) }
    var latencies: [UInt64] = []
    var timeouts = 0
    for i in 1...options.samples {
        let (px, py) = (o.x + grid[i].0, o.y + grid[i].1)
        let t0 = x11Now()
        client.moveMouse(toScreenX: px, y: py)
        var done: UInt64 = 0
        while true {
            if let p = reader.pixel(x: px, y: py), p != 0xFF_FFFF {
                done = x11Now()
                break
            }
            if x11Now() - t0 > 10_000_000_000 { break }
        }
        if done == 0 { timeouts += 1 } else { latencies.append(done - t0) }
    }
    client.release()
    client.sync()
    if latencies.isEmpty {
        x11Say("latency_ms timeout n=0")
    } else {
        let s = latencies.sorted()
        func q(_ f: Double) -> String {
            x11Fixed(Double(s[min(s.count - 1, Int((Double(s.count) * f).rounded(.up)) - 1)]) / 1e6, 3)
        }
        x11Say(
            "latency_ms p50=\(q(0.5)) p95=\(q(0.95)) p99=\(q(0.99)) max=\(x11Fixed(Double(s.last!) / 1e6, 3)) n=\(s.count)"
                + (timeouts > 0 ? " timeouts=\(timeouts)" : ""))
    }
    usleep(100_000)
}

/// CPU per motion event at 1 kHz (`x11MotionCPU`).
private func x11CPUPerEvent(
    _ client: XClient, _ reader: RootPixelReader, _ app: X11Instance, server: XvfbServer, imageWidth: Int
) {
    let cpu = x11MotionCPU(client, reader, app, server: server, imageWidth: imageWidth)
    x11Say(
        "cpu_us_per_event app=\(x11Fixed(cpu.app, 2)) xserver=\(x11Fixed(cpu.xserver, 2)) events=\(cpu.events)"
            + " wall_ms=\(x11Fixed(cpu.wallMs, 1))" + (cpu.endPainted ? "" : " end_point=timeout"))
    usleep(100_000)
}

/// Fidelity: an unpaced zigzag of 25 rows x 200 tips, tips 6 px apart, alternating between the
/// row's top and top+12, rows 21 px apart from image y 270, serpentine; every tip must show,
/// and Ctrl+S must save.
private func x11Fidelity(
    _ client: XClient, _ reader: RootPixelReader, _ app: X11Instance, options: X11Options, imageWidth: Int,
    imageHeight: Int
) {
    let o = app.origin
    var tips: [(Int, Int)] = []
    for r in 0..<25 {
        let top = 270 + r * 21
        for k in 0..<200 {
            let x = r % 2 == 0 ? 40 + k * 6 : 40 + (199 - k) * 6
            tips.append((x, k % 2 == 0 ? top : top + 12))
        }
    }
    client.moveMouse(toScreenX: o.x + tips[0].0, y: o.y + tips[0].1)
    client.press()
    let start = x11Now()
    for (i, p) in tips.enumerated().dropFirst() {
        if options.skipEvery > 0 && i % options.skipEvery == 0 && i != tips.count - 1 { continue }
        client.moveMouse(toScreenX: o.x + p.0, y: o.y + p.1)
    }
    let sendNs = x11Now() - start
    client.release()
    let last = tips[tips.count - 1]
    let (lx, ly) = (o.x + last.0, o.y + last.1)
    let endPainted = x11Wait { x11IsDark(reader.pixel(x: lx, y: ly)) }
    let settledNs = x11Now() - start
    // Save with Ctrl+S and wait for the file.
    client.moveMouse(toScreenX: lx, y: ly)
    try? client.key(KeySym(XK_s), modifiers: [.control])
    client.sync()
    let saved = x11Wait(sleepMicros: 2_000) { access(app.path, F_OK) == 0 }
    usleep(200_000)
    var painted = 0
    if let g = client.geometry(app.window),
        let shot = try? client.capture(
            app.window, rect: IntRect(x: o.x - g.x, y: o.y - g.y, width: imageWidth, height: imageHeight))
    {
        for t in tips where x11IsDark(shot.image[t.0, t.1] & 0xFF_FFFF) { painted += 1 }
    } else {
        x11Warn("XGetImage of the window failed")
    }
    x11Say(
        "zigzag tips_painted=\(painted)/\(tips.count) end_point_painted=\(endPainted != nil ? "yes" : "no")"
            + " send_ms=\(x11Fixed(Double(sendNs) / 1e6, 1)) settled_ms=\(x11Fixed(Double(settledNs) / 1e6, 1))"
            + " saved=\(saved != nil ? "yes" : "timeout")")
}

/// Peak memory and startup on a 1920 x 1080 canvas, after a stroke across it (so the paint
/// path's buffers exist too).
private func x11BigCanvas(
    _ client: XClient, _ reader: RootPixelReader, options: X11Options, server: XvfbServer, home: TemporaryDirectory
) {
    guard
        let big = x11Launch(
            client: client, reader: reader, options: options, server: server, home: home, width: 1920, height: 1080,
            tag: "b"),
        big.window != 0, let g = client.geometry(big.window)
    else {
        x11Say("peak_rss_mb=timeout size=1920x1080")
        return
    }
    let top = g.y + x11CanvasTop + 20
    let bottom = g.y + g.height - 28 - 20
    client.moveMouse(toScreenX: g.x + 20, y: top)
    client.press()
    var end = (x: g.x + 20, y: top)
    for i in 0..<500 {
        end = (g.x + 20 + (i * (g.width - 40)) / 500, i % 2 == 0 ? top : bottom)
        client.moveMouse(toScreenX: end.x, y: end.y)
    }
    client.release()
    let ok = x11Wait { x11IsDark(reader.pixel(x: end.x, y: end.y)) }
    usleep(200_000)
    x11Say(
        "peak_rss_mb=\(x11PeakRSS(big.process.pid).map { x11Fixed($0, 1) } ?? "unknown") size=1920x1080 startup_ms="
            + (big.startupNs.map { x11Fixed(Double($0) / 1e6, 1) } ?? "timeout")
            + (ok == nil ? " stroke_end=timeout" : ""))
    big.process.killAndReap()
}

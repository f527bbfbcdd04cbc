// paint-bench x11 --compare-pointer: the window's CPU per motion event with XInput 2 against
// core pointer events, measured in interleaved launches (the machine's speed drifts by tens of
// percent over minutes; pairs taken seconds apart compare fairly).

import Glibc
import TestSupport
import XDriver

/// Runs `pairs` core/XI2 pairs of the CPU-per-event measurement; returns the exit code.
func x11ComparePointer(
    client: XClient, reader: RootPixelReader, options: X11Options, server: XvfbServer, home: TemporaryDirectory
) -> Int32 {
    var ratios: [Double] = []
    for pair in 1...options.comparePointer {
        var figures: [String: (app: Double, xserver: Double)] = [:]
        for (name, environment) in [("core", ["SWIFTPAINT_NO_XI2": "1"]), ("xi2", [:])] {
            guard
                let app = x11Launch(
                    client: client, reader: reader, options: options, server: server, home: home, width: 1280,
                    height: 800, tag: "\(name)\(pair)", environment: environment),
                app.window != 0
            else {
                x11Say("pointer_cpu pair=\(pair) \(name)=timeout")
                return 1
            }
            let cpu = x11MotionCPU(client, reader, app, server: server, imageWidth: 1280)
            app.process.killAndReap()
            unlink(app.path)
            figures[name] = (cpu.app, cpu.xserver)
            x11Say(
                "pointer_cpu pair=\(pair) input=\(name) app_us=\(x11Fixed(cpu.app, 2)) xserver_us=\(x11Fixed(cpu.xserver, 2))"
                    + (cpu.endPainted ? "" : " end_point=timeout"))
            usleep(200_000)
        }
        if let core = figures["core"], let xi2 = figures["xi2"], core.app > 0 {
            ratios.append(xi2.app / core.app)
        }
    }
    let sorted = ratios.sorted()
    if !sorted.isEmpty {
        x11Say(
            "pointer_cpu xi2_over_core app median=\(x11Fixed(sorted[sorted.count / 2], 3))"
                + " all=\(sorted.map { x11Fixed($0, 3) }.joined(separator: ","))")
    }
    return 0
}

/// The zigzag the CPU figures drive: 5,000 points in image rows 110..210 with x bouncing across
/// the width in 4 px steps, the last one a fresh point at (640, 240).
func x11Zigzag(imageWidth: Int) -> [(Int, Int)] {
    let events = 5000
    var points: [(Int, Int)] = []
    var cx = 20
    var dir = 4
    for i in 0..<(events - 1) {
        points.append((cx, i % 2 == 0 ? 110 : 210))
        cx += dir
        if cx > imageWidth - 20 || cx < 20 {
            dir = -dir
            cx += 2 * dir
        }
    }
    points.append((640, 240))
    return points
}

/// Moves the pointer through `points` (image coordinates of `app`) at 1 kHz.
func x11SendAt1kHz(_ client: XClient, app: X11Instance, _ points: [(Int, Int)]) {
    let start = x11Now() + 1_000_000
    for (i, p) in points.enumerated() {
        x11SleepUntil(start + UInt64(i) * 1_000_000)
        client.moveMouse(toScreenX: app.origin.x + p.0, y: app.origin.y + p.1)
    }
}

/// The program's and the X server's CPU time per motion event: the zigzag at 1 kHz with the
/// button held, its last point (a fresh one) waited for until it is painted.
func x11MotionCPU(
    _ client: XClient, _ reader: RootPixelReader, _ app: X11Instance, server: XvfbServer, imageWidth: Int
) -> (app: Double, xserver: Double, events: Int, wallMs: Double, endPainted: Bool) {
    let points = x11Zigzag(imageWidth: imageWidth)
    client.moveMouse(toScreenX: app.origin.x + points[0].0, y: app.origin.y + points[0].1)
    client.press()
    client.sync()
    usleep(100_000)
    let appCPU0 = x11CPUTime(app.process.pid)
    let xCPU0 = x11CPUTime(server.pid)
    let start = x11Now()
    x11SendAt1kHz(client, app: app, points)
    let end = x11Wait { x11IsDark(reader.pixel(x: app.origin.x + 640, y: app.origin.y + 240)) }
    let appCPU1 = x11CPUTime(app.process.pid)
    let xCPU1 = x11CPUTime(server.pid)
    let elapsed = x11Now() - start
    client.release()
    client.sync()
    return (
        Double(appCPU1 &- appCPU0) / 1000 / Double(points.count),
        Double(xCPU1 &- xCPU0) / 1000 / Double(points.count),
        points.count, Double(elapsed) / 1e6, end != nil
    )
}

// paint-bench x11 --question-cpu: what a motion event costs while a question in the status bar
// blocks the canvas (issue 17: ~200 µs of the program's CPU and ~170 µs of the X server's per
// ignored event, six times a painted one, because the status bar was redrawn on every motion).
// An ignored event should cost next to nothing; a painted drag in the same launch is the yardstick.

import CX11
import Glibc
import TestSupport
import XDriver

/// Waits until `pid` has used no CPU for three polls 30 ms apart (it has taken every event the
/// server sent it), at most 10 s; returns its CPU time then.
func x11SettledCPU(_ pid: pid_t) -> UInt64 {
    var last = x11CPUTime(pid)
    var still = 0
    let deadline = x11Now() + 10_000_000_000
    while still < 3 && x11Now() < deadline {
        usleep(30_000)
        let now = x11CPUTime(pid)
        still = now == last ? still + 1 : 0
        last = now
    }
    return last
}

/// The program's and the server's CPU per event for the zigzag sent while nothing is expected
/// to show (the canvas is blocked): measured until the program has gone quiet.
func x11IgnoredMotionCPU(_ client: XClient, server: XvfbServer, app: X11Instance, drag: Bool) -> (
    app: Double, xserver: Double
) {
    // A different part of the canvas than the painted zigzag, so nothing painted is under it.
    let points = x11Zigzag(imageWidth: 1280).map { ($0.0, $0.1 + 300) }
    client.moveMouse(toScreenX: app.origin.x + points[0].0, y: app.origin.y + points[0].1)
    if drag { client.press() }
    client.sync()
    let appCPU0 = x11SettledCPU(app.process.pid)
    let xCPU0 = x11CPUTime(server.pid)
    x11SendAt1kHz(client, app: app, points)
    client.sync()
    let appCPU1 = x11SettledCPU(app.process.pid)
    // The server's share up to the program going quiet (idle in the last 90 ms of polling).
    let xCPU1 = x11CPUTime(server.pid)
    if drag {
        client.release()
        client.sync()
    }
    return (
        Double(appCPU1 &- appCPU0) / 1000 / Double(points.count),
        Double(xCPU1 &- xCPU0) / 1000 / Double(points.count)
    )
}

/// Runs `options.questionRuns` launches: each paints the zigzag (the yardstick), then asks the
/// Ctrl+N question (the picture has changes: Save, Discard, Cancel) and drags and hovers over the
/// blocked canvas; checks that nothing was painted meanwhile. Returns the exit code.
func x11QuestionCPU(
    client: XClient, reader: RootPixelReader, options: X11Options, server: XvfbServer, home: TemporaryDirectory
) -> Int32 {
    let askFill: UInt32 = 0xFFF4C8
    var failed = false
    for run in 1...options.questionRuns {
        guard
            let app = x11Launch(
                client: client, reader: reader, options: options, server: server, home: home, width: 1280,
                height: 800, tag: "question\(run)"),
            app.window != 0, let g = client.geometry(app.window)
        else {
            x11Say("question_cpu run=\(run) timeout")
            return 1
        }
        defer {
            app.process.killAndReap()
            unlink(app.path)
        }
        let painted = x11MotionCPU(client, reader, app, server: server, imageWidth: 1280)
        // The question: its status bar is yellow, its canvas dimmed.
        let (statusX, statusY) = (g.x + 3, g.y + g.height - 28 + 4)
        client.moveMouse(toScreenX: app.origin.x + 640, y: app.origin.y + 600)
        try? client.key(KeySym(XK_n), modifiers: [.control])
        client.sync()
        guard x11Wait(sleepMicros: 5_000, { reader.pixel(x: statusX, y: statusY) == askFill }) != nil else {
            x11Say("question_cpu run=\(run) question=timeout")
            return 1
        }
        let blockedSpot = (app.origin.x + 640, app.origin.y + 410)
        let dimmed = reader.pixel(x: blockedSpot.0, y: blockedSpot.1)
        let drag = x11IgnoredMotionCPU(client, server: server, app: app, drag: true)
        let hover = x11IgnoredMotionCPU(client, server: server, app: app, drag: false)
        // Still asking, and the drag left the canvas as it was.
        let stillAsking = reader.pixel(x: statusX, y: statusY) == askFill
        let untouched = reader.pixel(x: blockedSpot.0, y: blockedSpot.1) == dimmed
        if !stillAsking || !untouched || !painted.endPainted { failed = true }
        let figures =
            "painting app_us=\(x11Fixed(painted.app, 2)) xserver_us=\(x11Fixed(painted.xserver, 2))"
            + " | blocked_drag app_us=\(x11Fixed(drag.app, 2)) xserver_us=\(x11Fixed(drag.xserver, 2))"
            + " | blocked_hover app_us=\(x11Fixed(hover.app, 2)) xserver_us=\(x11Fixed(hover.xserver, 2))"
        let problems =
            (stillAsking ? "" : " question=gone") + (untouched ? "" : " canvas=changed")
            + (painted.endPainted ? "" : " end_point=timeout")
        x11Say("question_cpu run=\(run) " + figures + problems)
        usleep(200_000)
    }
    return failed ? 1 : 0
}

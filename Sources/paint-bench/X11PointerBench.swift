// paint-bench x11 --compare-pointer: the window's CPU per motion event with XInput 2 against
// core pointer events, measured in interleaved launches (the machine's speed drifts by tens of
// percent over minutes; pairs taken seconds apart compare fairly).

import CX11
import Glibc

/// Runs `pairs` core/XI2 pairs of the CPU-per-event measurement; returns the exit code.
func x11ComparePointer(probe: X11Probe, options: X11Options, display: String, xvfb: pid_t) -> Int32 {
    var ratios: [Double] = []
    for pair in 1...options.comparePointer {
        var figures: [String: (app: Double, xserver: Double)] = [:]
        for (name, environment) in [("core", [("SWIFTPAINT_NO_XI2", "1")]), ("xi2", [])] {
            guard
                let app = x11Launch(
                    probe: probe, options: options, display: display, width: 1280, height: 800,
                    tag: "\(name)\(pair)", environment: environment),
                app.window != 0
            else {
                x11Say("pointer_cpu pair=\(pair) \(name)=timeout")
                return 1
            }
            let cpu = x11MotionCPU(
                probe: probe, display: probe.display, xvfb: xvfb, app: app, imageWidth: 1280)
            x11Kill(app.pid)
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

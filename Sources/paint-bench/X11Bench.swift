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

import CX11
import CXTest
import Glibc

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
    let bytes = Array("paint-bench x11: \(line)\n".utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// posix_spawn with an empty signal mask and default dispositions; stdout/stderr to `output`.
/// `environment` replaces (or adds) those variables in the child's environment.
func x11Spawn(
    _ path: String, _ arguments: [String], display: String?, output: String,
    environment: [(String, String)] = []
) -> pid_t? {
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    var overrides = environment
    if let display { overrides.append(("DISPLAY", display)) }
    var envStrings: [String] = []
    var e: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
    while let entry = e?.pointee {
        let s = String(cString: entry)
        if !overrides.contains(where: { s.hasPrefix($0.0 + "=") }) { envStrings.append(s) }
        e = e! + 1
    }
    for (name, value) in overrides { envStrings.append("\(name)=\(value)") }
    let envp: [UnsafeMutablePointer<CChar>?] = envStrings.map { strdup($0) } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attr, &mask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD, SIGQUIT, SIGALRM] {
        sigaddset(&defaults, sig)
    }
    posix_spawnattr_setsigdefault(&attr, &defaults)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, &attr, argv, envp)
    if rc != 0 {
        x11Warn("posix_spawn \(path) failed: \(String(cString: strerror(rc)))")
        return nil
    }
    return pid
}

/// Sum of the first schedstat field over all threads of `pid`, in ns.
func x11CPUTime(_ pid: pid_t) -> UInt64 {
    guard let dir = opendir("/proc/\(pid)/task") else { return 0 }
    defer { closedir(dir) }
    var total: UInt64 = 0
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name.hasPrefix(".") { continue }
        if let text = x11ReadFile("/proc/\(pid)/task/\(name)/schedstat"),
            let first = text.split(separator: " ").first, let v = UInt64(first)
        {
            total += v
        }
    }
    return total
}

func x11ReadFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    if fd < 0 { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// VmHWM in MB.
func x11PeakRSS(_ pid: pid_t) -> Double? {
    guard let text = x11ReadFile("/proc/\(pid)/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 2, let kb = Double(parts[1]) { return kb / 1024 }
    }
    return nil
}

func x11Fixed(_ v: Double, _ digits: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([v]) { vsnprintf(&buffer, 64, "%.\(digits)f", $0) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Where image pixel (0, 0) sits in root coordinates, from the window geometry.
func x11ImageOrigin(
    window: (x: Int, y: Int, width: Int, height: Int, viewable: Bool), imageWidth: Int, imageHeight: Int
) -> (x: Int, y: Int) {
    let areaY = 64
    let areaHeight = max(1, window.height - 64 - 28)
    let ox = imageWidth <= window.width ? (window.width - imageWidth) / 2 : 0
    let oy = imageHeight <= areaHeight ? areaY + (areaHeight - imageHeight) / 2 : areaY
    return (window.x + ox, window.y + oy)
}

func x11IsDark(_ p: UInt32?) -> Bool {
    guard let p else { return false }
    let r = Int(p >> 16 & 255)
    let g = Int(p >> 8 & 255)
    let b = Int(p & 255)
    return (r + g + b) / 3 < 128
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
    /// The program's HOME (and XDG_STATE_HOME below it): a temporary folder of the bench's.
    var appHome = ""
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

/// One instance of the program: spawn, find window, wait for white canvas.
struct X11Instance {
    var pid: pid_t
    var window: Window
    var startupNs: UInt64?
    var origin: (x: Int, y: Int)
    var path: String
}

func x11Launch(
    probe: X11Probe, options: X11Options, display: String, width: Int, height: Int, tag: String,
    environment: [(String, String)] = []
) -> X11Instance? {
    let path = "/tmp/paint-bench-x11-\(getpid())-\(tag).png"
    unlink(path)
    let t0 = x11Now()
    guard
        let pid = x11Spawn(
            options.app, options.appArgs + ["--size", "\(width)x\(height)", path], display: display,
            output: "/tmp/paint-bench-x11-\(getpid())-\(tag).log",
            environment: [
                ("HOME", options.appHome), ("XDG_STATE_HOME", options.appHome + "/state"),
                ("XDG_CONFIG_HOME", options.appHome + "/config"),
            ] + environment)
    else { return nil }
    var window: Window = 0
    var origin = (x: 0, y: 0)
    var startup: UInt64?
    let deadline = t0 + 10_000_000_000
    while x11Now() < deadline {
        if window == 0, let w = probe.findWindow(pid: pid) { window = w }
        if window != 0, let g = probe.geometry(window), g.viewable {
            origin = x11ImageOrigin(window: g, imageWidth: width, imageHeight: height)
            // A point inside the visible canvas: 40 px into the image (never past the window).
            let cx = origin.x + min(40, width / 2)
            let cy = origin.y + min(40, height / 2)
            if probe.boxWhite(x: cx, y: cy) {
                startup = x11Now() - t0
                break
            }
        }
    }
    if window == 0 {
        x11Warn("\(tag): no window with _NET_WM_PID=\(pid) within 10 s")
        return X11Instance(pid: pid, window: 0, startupNs: nil, origin: origin, path: path)
    }
    // Final geometry (in case it changed while mapping).
    if let g = probe.geometry(window) { origin = x11ImageOrigin(window: g, imageWidth: width, imageHeight: height) }
    return X11Instance(pid: pid, window: window, startupNs: startup, origin: origin, path: path)
}

func x11Kill(_ pid: pid_t) {
    kill(pid, SIGKILL)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
}

/// Removes `path` and everything below it (never following symbolic links).
func x11RemoveTree(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR, let dir = opendir(path) {
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names { x11RemoveTree(path + "/" + name) }
        _ = rmdir(path)
    } else {
        _ = unlink(path)
    }
}

/// Files in `folder` (not recursive), or 0 when it does not exist.
func x11CountFiles(_ folder: String) -> Int {
    guard let dir = opendir(folder) else { return 0 }
    defer { closedir(dir) }
    var count = 0
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { count += 1 }
    }
    return count
}

func runX11Bench(arguments: [String]) -> Never {
    var options = X11Options()
    var rest = arguments[...]
    while var a = rest.popFirst() {
        var inline: String?
        if a.hasPrefix("--app-args=") {
            inline = String(a.dropFirst("--app-args=".count))
            a = "--app-args"
        }
        switch a {
        case "--app": options.app = rest.popFirst() ?? ""
        case "--app-args":
            // One word (`--app-args --no-journal`) or one quoted string of several.
            guard let text = inline ?? rest.popFirst() else {
                x11Warn("--app-args needs a value")
                exit(2)
            }
            options.appArgs += text.split(separator: " ").map(String.init)
        case "--samples": options.samples = Int(rest.popFirst() ?? "") ?? 200
        case "--no-shm": options.noShm = true
        case "--skip-every": options.skipEvery = Int(rest.popFirst() ?? "") ?? 0
        case "--compare-pointer": options.comparePointer = Int(rest.popFirst() ?? "") ?? 3
        case "--question-cpu": options.questionRuns = Int(rest.popFirst() ?? "") ?? 3
        default:
            x11Warn(
                "unknown argument \(a)\nusage: paint-bench x11 --app PATH [--app-args \"ARGS\"] [--samples 200] [--no-shm] [--compare-pointer PAIRS] [--question-cpu RUNS]"
            )
            exit(2)
        }
    }
    guard !options.app.isEmpty, access(options.app, X_OK) == 0 else {
        x11Warn("--app must name the swiftpaint executable")
        exit(2)
    }
    _ = XSetErrorHandler { _, _ in 0 }

    // The program's home: its journals go here, not into the real home.
    var template = Array("/tmp/paint-bench-x11-home-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else {
        x11Warn("cannot create a temporary home: \(String(cString: strerror(errno)))")
        exit(1)
    }
    options.appHome = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let appHome = options.appHome
    /// Every exit from here on goes through this, so the temporary home never stays behind.
    func finish(_ code: Int32) -> Never {
        x11RemoveTree(appHome)
        exit(code)
    }

    // A free display number.
    var n = 150
    while access("/tmp/.X\(n)-lock", F_OK) == 0 || access("/tmp/.X11-unix/X\(n)", F_OK) == 0 { n += 1 }
    let displayName = ":\(n)"
    var xArgs = [displayName, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"]
    if options.noShm { xArgs += ["-extension", "MIT-SHM"] }
    guard let xvfb = x11Spawn("/usr/bin/Xvfb", xArgs, display: nil, output: "/tmp/paint-bench-x11-\(getpid())-xvfb.log")
    else { finish(1) }
    var dpy: OpaquePointer?
    _ = x11Wait(sleepMicros: 10_000) {
        dpy = XOpenDisplay(displayName)
        return dpy != nil
    }
    guard let display = dpy else {
        x11Warn("Xvfb \(displayName) did not accept connections within 10 s")
        x11Kill(xvfb)
        finish(1)
    }
    let probe = X11Probe(display: display, tryShm: !options.noShm)
    x11Say(
        "app_args=\(options.appArgs.isEmpty ? "none" : options.appArgs.joined(separator: " "))"
            + " app_home=\(appHome) (temporary)")
    x11Say(
        "display=\(displayName) xvfb_pid=\(xvfb) screen_read=\(probe.usesShm ? "XShmGetImage" : "XGetImage")\(options.noShm ? " xvfb=-extension MIT-SHM" : "")"
    )

    let imageW = 1280
    let imageH = 800
    if options.comparePointer > 0 {
        let code = x11ComparePointer(probe: probe, options: options, display: displayName, xvfb: xvfb)
        XCloseDisplay(display)
        x11Kill(xvfb)
        finish(code)
    }
    if options.questionRuns > 0 {
        let code = x11QuestionCPU(probe: probe, options: options, display: displayName, xvfb: xvfb)
        XCloseDisplay(display)
        x11Kill(xvfb)
        finish(code)
    }
    guard
        let app = x11Launch(
            probe: probe, options: options, display: displayName, width: imageW, height: imageH, tag: "a"),
        app.window != 0
    else {
        x11Say("startup_ms=timeout")
        x11Kill(xvfb)
        finish(1)
    }
    x11Say("startup_ms=" + (app.startupNs.map { x11Fixed(Double($0) / 1e6, 1) } ?? "timeout"))
    let o = app.origin
    func root(_ ix: Int, _ iy: Int) -> (Int, Int) { (o.x + ix, o.y + iy) }

    // --- 2. latency ---
    // Pointer over the canvas so keys go to the window (no window manager: focus follows pointer root).
    let (sx, sy) = root(24, 24)
    probe.move(sx, sy)
    usleep(50_000)
    for _ in 0..<3 { probe.tap(Int32(XK_bracketright)) }
    XSync(display, 0)
    usleep(200_000)
    // Serpentine grid: rows 16 px apart, points 16 px apart, starting at (24, 24).
    var grid: [(Int, Int)] = []
    var row = 0
    while grid.count < options.samples + 1 {
        let y = 24 + row * 16
        var xs = Array(stride(from: 24, through: imageW - 24, by: 16))
        if row % 2 == 1 { xs.reverse() }
        for x in xs { grid.append((x, y)) }
        row += 1
    }
    probe.button(true)
    // Wait until the pressed dot shows.
    _ = x11Wait { x11IsDark(probe.pixel(x: sx, y: sy)) }
    var latencies: [UInt64] = []
    var latencyTimeouts = 0
    for i in 1...options.samples {
        let (px, py) = root(grid[i].0, grid[i].1)
        let t0 = x11Now()
        probe.move(px, py)
        var done: UInt64 = 0
        while true {
            if let p = probe.pixel(x: px, y: py), p != 0xFFFFFF {
                done = x11Now()
                break
            }
            if x11Now() - t0 > 10_000_000_000 { break }
        }
        if done == 0 { latencyTimeouts += 1 } else { latencies.append(done - t0) }
    }
    probe.button(false)
    XSync(display, 0)
    if latencies.isEmpty {
        x11Say("latency_ms timeout n=0")
    } else {
        let s = latencies.sorted()
        func q(_ f: Double) -> String {
            x11Fixed(Double(s[min(s.count - 1, Int((Double(s.count) * f).rounded(.up)) - 1)]) / 1e6, 3)
        }
        x11Say(
            "latency_ms p50=\(q(0.5)) p95=\(q(0.95)) p99=\(q(0.99)) max=\(x11Fixed(Double(s.last!) / 1e6, 3)) n=\(s.count)"
                + (latencyTimeouts > 0 ? " timeouts=\(latencyTimeouts)" : ""))
    }
    usleep(100_000)

    // --- 3. CPU per motion event at 1 kHz ---
    let cpu = x11MotionCPU(probe: probe, display: display, xvfb: xvfb, app: app, imageWidth: imageW)
    x11Say(
        "cpu_us_per_event app=\(x11Fixed(cpu.app, 2)) xserver=\(x11Fixed(cpu.xserver, 2)) events=\(cpu.events) wall_ms=\(x11Fixed(cpu.wallMs, 1))"
            + (cpu.endPainted ? "" : " end_point=timeout"))
    usleep(100_000)

    // --- 4. Fidelity: unpaced zigzag ---
    // 25 rows x 200 tips, tips 6 px apart, alternating between the row's top and top+12;
    // rows 21 px apart from image y 270, serpentine.
    var tips: [(Int, Int)] = []
    for r in 0..<25 {
        let top = 270 + r * 21
        for k in 0..<200 {
            let x = r % 2 == 0 ? 40 + k * 6 : 40 + (199 - k) * 6
            tips.append((x, k % 2 == 0 ? top : top + 12))
        }
    }
    let (f0x, f0y) = root(tips[0].0, tips[0].1)
    probe.move(f0x, f0y)
    probe.button(true)
    let fStart = x11Now()
    for (i, p) in tips.enumerated().dropFirst() {
        if options.skipEvery > 0 && i % options.skipEvery == 0 && i != tips.count - 1 { continue }
        let (rx, ry) = root(p.0, p.1)
        probe.move(rx, ry)
    }
    let sendNs = x11Now() - fStart
    probe.button(false)
    let last = tips.last!
    let (lx, ly) = root(last.0, last.1)
    let endPainted = x11Wait { x11IsDark(probe.pixel(x: lx, y: ly)) }
    let settledNs = x11Now() - fStart
    // Save with Ctrl+S and wait for the file.
    probe.move(lx, ly)
    probe.key(Int32(XK_Control_L), true)
    probe.tap(Int32(XK_s))
    probe.key(Int32(XK_Control_L), false)
    XSync(display, 0)
    let saved = x11Wait(sleepMicros: 2_000) { access(app.path, F_OK) == 0 }
    usleep(200_000)
    var painted = 0
    if let image = XGetImage(
        display, app.window, Int32(o.x - (probe.geometry(app.window)?.x ?? 0)),
        Int32(o.y - (probe.geometry(app.window)?.y ?? 0)), UInt32(imageW), UInt32(imageH), UInt.max, ZPixmap)
    {
        for t in tips
        where x11IsDark(UInt32(truncatingIfNeeded: cx_get_pixel(image, Int32(t.0), Int32(t.1))) & 0xFFFFFF) {
            painted += 1
        }
        _ = cx_destroy_image(image)
    } else {
        x11Warn("XGetImage of the window failed")
    }
    x11Say(
        "zigzag tips_painted=\(painted)/\(tips.count) end_point_painted=\(endPainted != nil ? "yes" : "no")"
            + " send_ms=\(x11Fixed(Double(sendNs) / 1e6, 1)) settled_ms=\(x11Fixed(Double(settledNs) / 1e6, 1))"
            + " saved=\(saved != nil ? "yes" : "timeout")")

    // --- 5. peak memory ---
    let rss = x11PeakRSS(app.pid)
    x11Say("peak_rss_mb=\(rss.map { x11Fixed($0, 1) } ?? "unknown") size=1280x800")
    x11Kill(app.pid)
    unlink(app.path)

    if let big = x11Launch(probe: probe, options: options, display: displayName, width: 1920, height: 1080, tag: "b"),
        big.window != 0
    {
        // A stroke across the visible canvas so the paint path's buffers exist too.
        let g = probe.geometry(big.window)!
        let top = g.y + 64 + 20
        let bottom = g.y + g.height - 28 - 20
        probe.move(g.x + 20, top)
        probe.button(true)
        var endX = g.x + 20
        var endY = top
        for i in 0..<500 {
            endX = g.x + 20 + (i * (g.width - 40)) / 500
            endY = i % 2 == 0 ? top : bottom
            probe.move(endX, endY)
        }
        probe.button(false)
        let ok = x11Wait { x11IsDark(probe.pixel(x: endX, y: endY)) }
        usleep(200_000)
        let bigRSS = x11PeakRSS(big.pid)
        x11Say(
            "peak_rss_mb=\(bigRSS.map { x11Fixed($0, 1) } ?? "unknown") size=1920x1080 startup_ms="
                + (big.startupNs.map { x11Fixed(Double($0) / 1e6, 1) } ?? "timeout")
                + (ok == nil ? " stroke_end=timeout" : ""))
        x11Kill(big.pid)
        unlink(big.path)
    } else {
        x11Say("peak_rss_mb=timeout size=1920x1080")
    }

    // The instances were killed (SIGKILL), so with the journal on their journals are still there.
    x11Say("app_journals_left=\(x11CountFiles(appHome + "/state/swiftpaint")) (removed with the temporary home)")
    XCloseDisplay(display)
    x11Kill(xvfb)
    finish(0)
}

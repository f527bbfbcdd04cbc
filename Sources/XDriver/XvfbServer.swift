import Foundation
import TestSupport
import XConnect

/// A private Xvfb X server for one test, on a display number nobody else is using.
///
/// Started as `Xvfb :N -screen 0 WxHxD -nolisten tcp -noreset -r [-extension MIT-SHM]` through
/// `ChildProcess` (empty signal mask, default dispositions), with its output in `logPath`. The
/// initializer returns once a client can connect.
///
/// `-r`: no key autorepeat. A test taps a key as an XTest press and a release; on a loaded
/// machine the test's thread can be held up between the two for longer than the repeat delay
/// (660 ms), and a server that repeats would type the letter again and again (a Hebrew word
/// typed as "שלללללום" never showed, and the text test timed out waiting for it). `stop()` (or `deinit`) SIGKILLs and reaps the
/// server and removes the lock file and socket it leaves behind.
///
/// ```swift
/// let server = try XvfbServer(depth: 16, shm: false)
/// let client = try XClient(display: server.displayName)
/// ```
public final class XvfbServer {
    /// Screen width in pixels.
    public let width: Int
    /// Screen height in pixels.
    public let height: Int
    /// Screen depth: 24 or 16.
    public let depth: Int
    /// Whether the MIT-SHM extension is offered.
    public let shm: Bool
    /// The display number N.
    public let number: Int
    /// The server's output (stdout and stderr).
    public let logPath: String
    private let process: ChildProcess
    private let directory: TemporaryDirectory

    /// `":N"`, for `DISPLAY` and `XOpenDisplay`.
    public var displayName: String { ":\(number)" }
    /// The server's process id.
    public var pid: pid_t { process.pid }

    /// Starts a server and waits (polling `XOpenDisplay`) until it accepts connections.
    ///
    /// Display numbers are tried from a random start among `displays`, skipping any N with a
    /// `/tmp/.X11-unix/XN` socket or `/tmp/.XN-lock` file; a server that exits (another one won
    /// the race for N) or never answers is killed and the next number is tried.
    /// - Parameters:
    ///   - startTimeout: how long one attempt may take before it counts as failed.
    ///   - withoutExtensions: further extensions the server leaves out (`-extension NAME`),
    ///     to test what a client does on a server that lacks them.
    ///   - displays: the display numbers it may take (`displaysAllowed`: 90 to 489, or those
    ///     `$XVFB_DISPLAYS` names).
    public init(
        width: Int = 1280, height: Int = 1024, depth: Int = 24, shm: Bool = true,
        startTimeout: Duration = Wait.defaultTimeout, withoutExtensions: [String] = [],
        displays: ClosedRange<Int> = XvfbServer.displaysAllowed
    ) throws {
        precondition(depth == 24 || depth == 16, "Xvfb depth must be 24 or 16")
        self.width = width
        self.height = height
        self.depth = depth
        self.shm = shm
        let directory = try TemporaryDirectory(prefix: "swiftpaint-xvfb")
        self.directory = directory

        var attempts: [String] = []
        // Wrapped around inside `displays`: a machine shared by several people gives each a few.
        func wrapped(_ n: Int) -> Int { displays.lowerBound + (n - displays.lowerBound) % displays.count }
        var candidate = Int.random(in: displays)
        for attempt in 0..<12 {
            var looked = 0
            while Self.displayLooksTaken(candidate) && looked < displays.count {
                candidate = wrapped(candidate + 1)
                looked += 1
            }
            let n = candidate
            candidate = wrapped(candidate + 1 + Int.random(in: 0..<min(7, displays.count)))
            let log = directory.file("xvfb-\(n)-\(attempt).log")
            // -r: keys do not repeat (see above).
            var arguments = [
                ":\(n)", "-screen", "0", "\(width)x\(height)x\(depth)", "-nolisten", "tcp", "-noreset", "-r",
            ]
            if !shm { arguments += ["-extension", "MIT-SHM"] }
            for name in withoutExtensions { arguments += ["-extension", name] }
            let child: ChildProcess
            do {
                child = try ChildProcess(
                    executable: Self.executable, arguments: arguments,
                    environment: ChildProcess.cleanEnvironment(), stdoutPath: log, stderrPath: log)
            } catch {
                attempts.append(":\(n): \(error)")
                continue
            }
            let ready = Wait.until(timeout: startTimeout, poll: .milliseconds(20)) {
                if !child.isRunning { return true }
                return Self.lockOwner(n) == child.pid && Self.canConnect(":\(n)")
            }
            if ready && child.isRunning {
                self.number = n
                self.logPath = log
                self.process = child
                return
            }
            let why = child.isRunning ? "no connection after \(startTimeout)" : "Xvfb \(child.status!)"
            child.killAndReap()
            Self.removeLeftovers(n, pid: child.pid)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            attempts.append(":\(n): \(why)\n\(text.suffix(600))")
        }
        throw HarnessError.xvfbDidNotStart(attempts: attempts)
    }

    deinit { stop() }

    /// Whether the server process is still alive.
    public var isRunning: Bool { process.isRunning }

    /// The server's output so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// SIGKILLs and reaps the server, then removes its lock file and socket. Idempotent.
    /// `XClient`s still connected survive it: their next request marks them `isConnectionLost`.
    public func stop() {
        guard process.status == nil else { return }
        process.killAndReap()
        Self.removeLeftovers(number, pid: process.pid)
    }

    /// The display numbers a server may take: those `$XVFB_DISPLAYS` names (`195-199`, or one
    /// number), so people sharing a machine keep to the displays each was given; else 90 to 489.
    public static var displaysAllowed: ClosedRange<Int> {
        displays(named: ProcessInfo.processInfo.environment["XVFB_DISPLAYS"]) ?? 90...489
    }

    /// The range `text` names, `"195-199"` or `"195"`; nil for anything else (absent, empty,
    /// backwards, negative).
    public static func displays(named text: String?) -> ClosedRange<Int>? {
        guard let text else { return nil }
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 1 || ends.count == 2,
            let low = Int(ends[0].trimmingCharacters(in: .whitespaces)),
            let high = Int(ends[ends.count - 1].trimmingCharacters(in: .whitespaces)),
            low >= 0, low <= high
        else { return nil }
        return low...high
    }

    /// The Xvfb binary: `$XVFB` if set, else `/usr/bin/Xvfb`.
    public static var executable: String {
        ProcessInfo.processInfo.environment["XVFB"] ?? "/usr/bin/Xvfb"
    }

    /// Whether display N has a socket or lock file (a server, or the remains of one).
    public static func displayLooksTaken(_ n: Int) -> Bool {
        access("/tmp/.X11-unix/X\(n)", F_OK) == 0 || access("/tmp/.X\(n)-lock", F_OK) == 0
    }

    /// The pid written in `/tmp/.XN-lock`, if the file exists and parses.
    public static func lockOwner(_ n: Int) -> pid_t? {
        guard let text = try? String(contentsOfFile: "/tmp/.X\(n)-lock", encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether `XOpenDisplay(name)` succeeds right now (the connection is closed again).
    public static func canConnect(_ name: String) -> Bool {
        // Closed again when it goes, here.
        XConnection(name) != nil
    }

    /// Removes the lock file and socket of display N if they belong to `pid` (SIGKILL gives
    /// the server no chance to do it itself).
    private static func removeLeftovers(_ n: Int, pid: pid_t) {
        guard lockOwner(n) == pid else { return }
        unlink("/tmp/.X11-unix/X\(n)")
        unlink("/tmp/.X\(n)-lock")
    }
}

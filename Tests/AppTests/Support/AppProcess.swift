import Foundation
import TestSupport
import XDriver

/// A program under test (normally `swiftpaint`) running on a test's X server.
///
/// Its environment is this process's environment without DISPLAY/XAUTHORITY/WAYLAND_DISPLAY/
/// SWIFTPAINT_*, plus `DISPLAY`, plus `HOME`, `XDG_STATE_HOME`, `XDG_CONFIG_HOME` and
/// `XDG_DATA_HOME` (the history store) pointing into a private temporary directory (`home`), plus
/// `SWIFTPAINT_NOTICE_SECONDS=3600` (notices stay while tests read them), plus `environment`
/// (which wins). stdout and stderr are captured to files and readable at any time
/// through `stdout` / `stderr`. `deinit` SIGKILLs and reaps the
/// program if it is still running.
///
/// ```swift
/// let app = try AppProcess(executable: try SwiftPaintBinary.locate(), arguments: ["--size", "400x300"],
///                          display: server.displayName, environment: ["SWIFTPAINT_NO_SHM": "1"])
/// #expect(app.waitForExit(timeout: .seconds(30)) == 0)
/// ```
final class AppProcess {
    /// The program's process id.
    var pid: pid_t { process.pid }
    /// The executable that was started.
    let executable: String
    /// The arguments it was given (without argv[0]).
    let arguments: [String]
    /// The complete environment it was given.
    let environment: [String: String]
    /// The private directory that is `HOME`; `XDG_STATE_HOME` is `home/.local/state`,
    /// `XDG_DATA_HOME` is `home/.local/share`.
    /// Owned by the caller when passed in, else created here and deleted with this object.
    let home: String
    /// Where stdout goes.
    let stdoutPath: String
    /// Where stderr goes.
    let stderrPath: String
    private let process: ChildProcess
    private let ownedHome: TemporaryDirectory?

    /// Starts `executable`.
    /// - Parameters:
    ///   - display: the X display, e.g. `server.displayName`.
    ///   - environment: extra variables (e.g. `SWIFTPAINT_NO_SHM=1`), applied last.
    ///   - home: an existing directory to use as `HOME` (so a second run can find the first run's
    ///     journal); by default a fresh temporary one.
    init(
        executable: String, arguments: [String] = [], display: String,
        environment: [String: String] = [:], home: String? = nil
    ) throws {
        self.executable = executable
        self.arguments = arguments
        let temp: TemporaryDirectory? = home == nil ? try TemporaryDirectory(prefix: "swiftpaint-home") : nil
        ownedHome = temp
        let home = home ?? temp!.path
        self.home = home
        let state = "\(home)/.local/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let logs = "\(home)/.e2e-logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let stamp = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        stdoutPath = "\(logs)/stdout-\(stamp).txt"
        stderrPath = "\(logs)/stderr-\(stamp).txt"

        var env = ChildProcess.cleanEnvironment()
        env["DISPLAY"] = display
        env["HOME"] = home
        env["XDG_STATE_HOME"] = state
        // The settings file too, so no test reads or writes the settings of whoever runs it.
        env["XDG_CONFIG_HOME"] = "\(home)/.config"
        env["XDG_DATA_HOME"] = "\(home)/.local/share"
        // A notice stays an hour, not 8 s: a test waiting to read one on a loaded machine can
        // look later than that, and would wait for a notice already gone. The test of the
        // fade itself sets the product's lifetime here.
        env["SWIFTPAINT_NOTICE_SECONDS"] = "3600"
        env.merge(environment) { _, new in new }
        self.environment = env
        process = try ChildProcess(
            executable: executable, arguments: arguments, environment: env,
            stdoutPath: stdoutPath, stderrPath: stderrPath)
    }

    deinit { process.killAndReap() }

    /// Whether the program has not exited yet.
    var isRunning: Bool { process.isRunning }

    /// How it ended, once it has (nil while running).
    var exitStatus: ExitStatus? { process.poll() }

    /// Polls until the program exits and returns its exit code (128 + signal number when a
    /// signal killed it, -1 if unknown); nil if it is still running after `timeout`.
    @discardableResult
    func waitForExit(timeout: Duration = Wait.defaultTimeout) -> Int32? {
        process.waitForExit(timeout: timeout)?.shellCode
    }

    /// Sends `signal` (default SIGTERM); false if the program has already exited.
    @discardableResult
    func kill(_ signal: Int32 = SIGTERM) -> Bool { process.kill(signal) }

    /// SIGKILLs and reaps the program now (the "kill -9" of the crash-recovery tests).
    func killAndReap() { process.killAndReap() }

    /// Everything the program has written to stdout so far.
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// Everything the program has written to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// stdout and stderr, labelled, for failure messages.
    var outputSummary: String {
        "[\(executable) \(arguments.joined(separator: " "))] \(exitStatus.map(\.description) ?? "running")\n"
            + "--- stdout ---\n\(stdout.suffix(4000))\n--- stderr ---\n\(stderr.suffix(4000))"
    }
}

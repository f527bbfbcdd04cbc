import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, owned (and reaped) by the test that started it.
///
/// The child gets an empty signal mask and default dispositions for every signal: Swift
/// Testing's worker threads block SIGTERM and friends, and the runtime ignores SIGPIPE, and both
/// would otherwise be inherited across `exec`. Its stdin is `/dev/null` or a given file, its
/// stdout and stderr go to the given files, and every other descriptor of the test process is
/// closed in the child.
///
/// Every program a test or `paint-bench` starts goes through here, none through Foundation's
/// `Process` (which runs a run-loop thread of its own in the test process); `run` starts one
/// and waits for its end.
///
/// Not thread-safe: confine an instance to the test that owns it. `deinit` kills (SIGKILL) and
/// reaps the child if it is still running, so no process outlives its owner.
public final class ChildProcess {
    /// The child's process id.
    public let pid: pid_t
    /// The executable that was started.
    public let executable: String
    /// How the child ended, once it has been reaped.
    public private(set) var status: ExitStatus?

    /// Starts `executable` with `arguments` (not including argv[0]) and exactly `environment`.
    /// Its stdin reads `stdinPath` (default `/dev/null`).
    /// - Throws: `MissingProgram` (naming the Debian package to add to `make deps`) when
    ///   `executable` is not installed, `ChildProcessError.spawnFailed` when `posix_spawn` fails.
    public init(
        executable: String, arguments: [String], environment: [String: String],
        stdinPath: String = "/dev/null", stdoutPath: String, stderrPath: String
    ) throws {
        self.executable = executable
        try TestPrograms.require(executable)

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        // sigfillset leaves out glibc's internal signals 32 and 33, which posix_spawn would then
        // set to SIG_IGN in the child, and an ignored signal survives exec: reset them too.
        all.__val.0 |= 1 << 31 | 1 << 32
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Close every other descriptor of this process in the child (pipes of the test runner,
        // X connections). Closing one that is gone by then is not an error for glibc.
        for fd in Self.openDescriptors() where fd > 2 {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attr, argv, envp)
        guard rc == 0 else { throw ChildProcessError.spawnFailed(path: executable, errno: rc) }
        pid = child
    }

    deinit { killAndReap() }

    /// The child's peak resident memory (ru_maxrss, in KiB), once it has been reaped.
    public private(set) var peakResidentKilobytes: Int?

    /// Reaps the child without blocking if it has exited; returns its status if so.
    @discardableResult
    public func poll() -> ExitStatus? {
        if let status { return status }
        var raw: Int32 = 0
        var rc: pid_t
        var usage = rusage()
        repeat { rc = wait4(pid, &raw, WNOHANG, &usage) } while rc < 0 && errno == EINTR
        if rc == pid {
            status = ExitStatus(waitStatus: raw)
            peakResidentKilobytes = usage.ru_maxrss
        } else if rc < 0 {
            // ECHILD: someone else reaped it; we cannot know how it ended.
            status = .unknown
        }
        return status
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { poll() == nil }

    /// Polls until the child exits; nil if it is still running after `timeout`.
    public func waitForExit(timeout: Duration = Wait.defaultTimeout) -> ExitStatus? {
        Wait.until(timeout: timeout) { poll() != nil }
        return status
    }

    /// Sends `signal` to the child; false if it has already been reaped or `kill` failed.
    @discardableResult
    public func kill(_ signal: Int32) -> Bool {
        guard poll() == nil else { return false }
        return Glibc.kill(pid, signal) == 0
    }

    /// SIGKILLs the child if it is still running and reaps it (blocking: SIGKILL cannot be
    /// caught, so the wait is short). Safe to call more than once.
    public func killAndReap() {
        guard status == nil else { return }
        _ = Glibc.kill(pid, SIGKILL)
        var raw: Int32 = 0
        var rc: pid_t
        repeat { rc = waitpid(pid, &raw, 0) } while rc < 0 && errno == EINTR
        status = rc == pid ? ExitStatus(waitStatus: raw) : .unknown
    }

    /// Whether a process with this pid exists at all (`kill(pid, 0)`), reaped or not.
    /// After `killAndReap` this is false unless the pid was recycled.
    public var processExists: Bool { Glibc.kill(pid, 0) == 0 }

    /// The descriptors open in this process now (from /proc/self/fd).
    public static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }

    /// The environment of this test process without anything that would point a child at
    /// another X server or session (DISPLAY, XAUTHORITY, WAYLAND_DISPLAY, SWIFTPAINT_*).
    public static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { key, _ in
            !["DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY"].contains(key) && !key.hasPrefix("SWIFTPAINT_")
        }
    }
}

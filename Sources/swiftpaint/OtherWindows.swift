import Glibc
import PaintApp

/// Opens the further files of a command line (`swiftpaint a.png b.png`, or a file manager's
/// "Open with" on several pictures, through the `.desktop` file's `%F`) in windows of their own.
///
/// Each file gets its own `swiftpaint` process, as if started alone: its own journal, its own
/// questions, and a crash in one window costs no other. The processes are started from a short-
/// lived intermediate child, so they are re-parented to init and this window never holds zombies.
/// Call it before any thread is started (fork copies only the calling thread).
enum OtherWindows {
    /// Starts one `swiftpaint` per file in `options.otherPaths`; returns how many failed to start.
    static func open(_ options: CommandLineOptions, programName: String) -> Int32 {
        guard !options.otherPaths.isEmpty else { return 0 }
        // Every C string is made before fork: the child only calls posix_spawn and _exit.
        let argvs: [[UnsafeMutablePointer<CChar>?]] = options.otherPaths.map { path in
            ([programName] + options.arguments(opening: path)).map { strdup($0) } + [nil]
        }
        defer { for argv in argvs { for p in argv { free(p) } } }
        let child = fork()
        if child == 0 {
            var failed: Int32 = 0
            for argv in argvs {
                var pid: pid_t = 0
                if posix_spawn(&pid, "/proc/self/exe", nil, nil, argv, environ) != 0 { failed += 1 }
            }
            _exit(failed)
        }
        guard child > 0 else { return Int32(options.otherPaths.count) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : Int32(options.otherPaths.count)
    }
}

/// A program a test starts could not be started, or did not end in time.
public enum ChildProcessError: Error, Sendable, CustomStringConvertible {
    /// `posix_spawn` failed with this error number.
    case spawnFailed(path: String, errno: Int32)
    /// `ChildProcess.run` waited this long for the program to end; it was killed.
    case timedOut(path: String, after: Duration)

    public var description: String {
        switch self {
        case .spawnFailed(let path, let code):
            return "posix_spawn \(path) failed: errno \(code)"
        case .timedOut(let path, let after):
            return "\(path) had not ended after \(after); killed"
        }
    }
}

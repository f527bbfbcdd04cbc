/// How a reaped child process ended.
public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
    /// `exit(code)` or a return from `main`.
    case exited(Int32)
    /// Killed by a signal.
    case signaled(Int32)
    /// Reaped by someone else (`waitpid` said ECHILD); the outcome is not known.
    case unknown

    /// Decodes a raw `waitpid` status (the W* macros are not imported into Swift).
    public init(waitStatus raw: Int32) {
        let low = raw & 0x7f
        if low == 0 {
            self = .exited((raw >> 8) & 0xff)
        } else if low != 0x7f {
            self = .signaled(low)
        } else {
            self = .unknown  // stopped; not requested with WUNTRACED, so not expected
        }
    }

    /// The code a shell would report: the exit code, or 128 + signal number, or -1 if unknown.
    public var shellCode: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        case .unknown: return -1
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): return "exited with code \(code)"
        case .signaled(let signal): return "killed by signal \(signal)"
        case .unknown: return "ended (status unknown)"
        }
    }
}

/// A failure of the end-to-end harness itself (as opposed to a failed expectation about the
/// program under test). Every case carries enough words to diagnose a CI log without rerunning.
public enum HarnessError: Error, Sendable, CustomStringConvertible {
    /// Xvfb could not be brought up on any of the display numbers tried.
    case xvfbDidNotStart(attempts: [String])
    /// `XOpenDisplay` returned nil.
    case cannotOpenDisplay(String)
    /// A condition polled by `Wait` did not become true in time.
    case timedOut(String)
    /// A keysym or character has no keycode in the server's keyboard map.
    case noKeycode(String)
    /// `XGetImage` failed (window gone, rectangle outside the window, ...).
    case captureFailed(String)
    /// The `swiftpaint` executable was not found.
    case binaryNotFound(searched: [String])
    /// Any other X request that failed.
    case xRequestFailed(String)

    public var description: String {
        switch self {
        case .xvfbDidNotStart(let attempts):
            return "Xvfb did not start:\n" + attempts.joined(separator: "\n")
        case .cannotOpenDisplay(let name):
            return "XOpenDisplay(\(name)) failed"
        case .timedOut(let what):
            return "timed out waiting for \(what)"
        case .noKeycode(let what):
            return "no keycode for \(what)"
        case .captureFailed(let what):
            return "XGetImage failed: \(what)"
        case .binaryNotFound(let searched):
            return "swiftpaint executable not found (set SWIFTPAINT_BIN); searched:\n"
                + searched.joined(separator: "\n")
        case .xRequestFailed(let what):
            return "X request failed: \(what)"
        }
    }
}

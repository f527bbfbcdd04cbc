import PaintCore
import PaintIO

/// What the window checks now and then, not only on input: whether the crash journal keeps
/// up with the drawing (a full disk stops it; it resumes by itself when there is room again).
extension Session {
    /// Looks at the crash journal and says in the status bar when protection stops (and why)
    /// and when it resumes. The window calls it on every turn of its loop; it returns when to
    /// look again (seconds from now), or nil when nothing is pending.
    @discardableResult
    public func watch() -> Double? {
        let protection = sink?.protection ?? .safe
        var stopped: String?
        if case .stopped(let why) = protection { stopped = why }
        if stopped != crashProtectionStopped {
            if let stopped {
                setMessage(
                    "Crash protection stopped: \(stopped); new changes are not safe from a crash"
                        + " (retrying every 2 s)")
            } else if crashProtectionStopped != nil {
                setMessage("Crash protection resumed: every change is safe from a crash again")
            }
            crashProtectionStopped = stopped
        }
        return protection == .safe ? nil : 0.5
    }
}

/// What happens with time and no input: a drag selecting text held still past the canvas's
/// edge keeps scrolling, a restore or a history rebuild under way says how far it got, and a notice in the status bar goes after a few seconds (once no button is held). The window calls `runTimers` at every turn of its loop with its clock
/// and sleeps no longer than the time it returns; nil lets it sleep until input comes, so a
/// window with nothing pending is never woken for nothing.
extension Session {
    /// Seconds between the motions repeated while a drag selecting text rests past the
    /// canvas's edge (20 a second: the picture moves smoothly, by the pointer's overshoot, at
    /// most a wheel step, each time).
    public static let autoscrollInterval = 0.05

    /// Seconds a notice stays in the status bar (an error stays until something replaces it):
    /// long enough to read a long one twice, as desktop programs' status bars keep theirs.
    public static let messageLifetime = 8.0

    /// The notice lifetime `SWIFTPAINT_NOTICE_SECONDS` asks for (seconds, above 0 and at most
    /// a day), or nil when it is unset or not such a number. A setting for the end-to-end tests:
    /// a loaded machine can take longer than `messageLifetime` to look at a notice the test
    /// waits for, which would then be gone for good.
    public static func noticeLifetime(environment value: String?) -> Double? {
        guard let value, let seconds = Double(value), seconds > 0, seconds <= 86_400 else { return nil }
        return seconds
    }

    /// Does what is due at `now` (CLOCK_MONOTONIC seconds); returns when it should be called
    /// again at the latest (the same clock), or nil when nothing waits on time.
    public func runTimers(at now: Double) -> Double? {
        var due = autoscroll(at: now)
        // After the fade: a notice gone while a history is rebuilt gives way to its progress.
        for next in [fadeMessage(at: now), restoreProgress(at: now), rebuildProgress(at: now)] {
            if let next { due = min(due ?? next, next) }
        }
        return due
    }

    /// A notice shown `noticeLifetime` ago goes; returns when the one shown will go.
    private func fadeMessage(at now: Double) -> Double? {
        guard messageFades, !message.isEmpty else { return nil }
        guard let shown = messageShownAt else {
            // Set since the last turn: it shows from now.
            messageShownAt = now
            return now + noticeLifetime
        }
        guard now >= shown + noticeLifetime else { return shown + noticeLifetime }
        // Not in the middle of a drag: the status bar drawn again (its whole width) would
        // hold up the frame that shows the stroke. The release is input, and the window runs
        // the timers at every turn, so the notice goes then without a wake-up of its own.
        guard case .idle = gesture else { return nil }
        // Nor while the pointer rests on it cut short: its whole text is being read in a
        // tooltip. The pointer moving off is input, and the timers run at every turn.
        guard statusTip == nil else { return nil }
        setMessage("")
        return nil
    }

    /// Repeats the motion of a drag selecting text held still past the canvas's edge every
    /// `autoscrollInterval`; returns when the next repeat is due.
    private func autoscroll(at now: Double) -> Double? {
        guard let held = autoscrollPoint else {
            autoscrolledAt = nil
            return nil
        }
        guard let last = autoscrolledAt else {
            // The pointer's own motion has just scrolled: the first repeat is an interval away.
            autoscrolledAt = now
            return now + Self.autoscrollInterval
        }
        guard now >= last + Self.autoscrollInterval else { return last + Self.autoscrollInterval }
        handleMotion(held.x, held.y, [])
        autoscrolledAt = now
        return autoscrollPoint == nil ? nil : now + Self.autoscrollInterval
    }
}

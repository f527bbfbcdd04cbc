import Foundation

/// Polling waits. The harness never sleeps for a fixed time to "let things settle": every wait
/// polls a condition until it holds or a generous deadline passes (CI is a loaded 2-core box).
public enum Wait {
    /// The default deadline for anything the harness waits on.
    public static let defaultTimeout: Duration = .seconds(30)

    /// Polls `condition` every `poll` until it returns true or `timeout` has passed.
    ///
    /// The condition is always evaluated at least once, and once more after the deadline, so a
    /// slow machine that was descheduled past the deadline still gets a final look.
    /// - Returns: whether the condition became true.
    @discardableResult
    public static func until(
        timeout: Duration = defaultTimeout, poll: Duration = .milliseconds(10),
        _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if try condition() { return true }
            if clock.now >= deadline { return try condition() }
            Thread.sleep(forTimeInterval: seconds(poll))
        }
    }

    /// Polls `produce` until it returns a value, or returns nil after `timeout`.
    public static func value<T>(
        timeout: Duration = defaultTimeout, poll: Duration = .milliseconds(10),
        _ produce: () throws -> T?
    ) rethrows -> T? {
        var result: T?
        try until(timeout: timeout, poll: poll) {
            result = try produce()
            return result != nil
        }
        return result
    }

    /// A `Duration` in seconds as a `Double`.
    public static func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) * 1e-18
    }
}

import TestSupport

extension Wait {
    /// Like `until`, but throws `HarnessError.timedOut(what)` when the deadline passes.
    public static func require(
        _ what: @autoclosure () -> String, timeout: Duration = defaultTimeout,
        poll: Duration = .milliseconds(10), _ condition: () throws -> Bool
    ) throws {
        if try !until(timeout: timeout, poll: poll, condition) {
            throw HarnessError.timedOut(what())
        }
    }
}

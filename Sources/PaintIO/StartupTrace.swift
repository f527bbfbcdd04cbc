import Glibc

/// Where start-up time goes: with `SWIFTPAINT_TRACE_STARTUP=1` the program writes one line to
/// stderr at each phase of opening its window, `swiftpaint: startup PHASE T ms (+D) cpu C ms`,
/// where T is CLOCK_MONOTONIC in milliseconds (the clock a benchmark that started the program
/// can subtract its own launch time from), D the milliseconds since the phase before and C the
/// CPU time all of the process's threads have used so far (steadier than T on a loaded
/// machine). Off, it costs one environment lookup.
public enum StartupTrace {
    /// Whether the variable asked for the trace.
    public static let enabled = FileSystem.environment("SWIFTPAINT_TRACE_STARTUP") == "1"
    nonisolated(unsafe) private static var last: Double?

    /// Writes the line for `phase` (only from the main thread, as start-up runs).
    public static func mark(_ phase: String) {
        guard enabled else { return }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let ms = Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        let since = last.map { " (+\(fixed(ms - $0)))" } ?? ""
        last = ms
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        let cpu = Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        FileSystem.printError("swiftpaint: startup \(phase) \(fixed(ms)) ms\(since) cpu \(fixed(cpu)) ms")
    }

    /// `value` with three decimals, without Foundation's formatting.
    private static func fixed(_ value: Double) -> String {
        let micros = Int((value * 1000).rounded())
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

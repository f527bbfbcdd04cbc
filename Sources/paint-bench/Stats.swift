import Glibc

/// Summary of a list of per-event durations in nanoseconds.
struct TimingStats {
    let count: Int
    let totalNanoseconds: UInt64
    let meanMicroseconds: Double
    let p50Microseconds: Double
    let p99Microseconds: Double
    let maxMicroseconds: Double

    /// Summarises `nanoseconds`; percentiles are nearest-rank (always a measured value, never an
    /// interpolation between two events).
    init(nanoseconds: [UInt64]) {
        count = nanoseconds.count
        totalNanoseconds = nanoseconds.reduce(0, &+)
        guard count > 0 else {
            meanMicroseconds = 0
            p50Microseconds = 0
            p99Microseconds = 0
            maxMicroseconds = 0
            return
        }
        let sorted = nanoseconds.sorted()
        meanMicroseconds = Double(totalNanoseconds) / Double(count) / 1000
        p50Microseconds = Double(Self.percentile(sorted, 0.50)) / 1000
        p99Microseconds = Double(Self.percentile(sorted, 0.99)) / 1000
        maxMicroseconds = Double(sorted[count - 1]) / 1000
    }

    var totalMilliseconds: Double { Double(totalNanoseconds) / 1_000_000 }

    /// The smallest value with at least `fraction` of the values at or below it.
    static func percentile(_ sorted: [UInt64], _ fraction: Double) -> UInt64 {
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Formats `value` with a fixed number of decimals ("12.345"), without Foundation.
func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    // Beyond 2^63 the integer split below would trap; such values only come from nonsense.
    guard scaled < 9e18 else { return String(value) }
    let units = UInt64(scaled)
    let whole = units / UInt64(scale)
    let sign = value < 0 && units > 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(whole)" }
    let fraction = String(units % UInt64(scale))
    return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

/// The process's peak resident set size in MiB (`VmHWM` in `/proc/self/status`), or nil when
/// the file cannot be read (not Linux, or /proc not mounted).
func peakResidentMegabytes() -> Double? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix("VmHWM:") else { continue }
        // "VmHWM:\t  123456 kB"
        let digits = text.dropFirst(6).filter { $0.isNumber }
        return Int(digits).map { Double($0) / 1024 }
    }
    return nil
}

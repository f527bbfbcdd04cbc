import PaintIO

/// How often the window wakes for input while pointer motion keeps coming.
///
/// A 1 kHz mouse sends an event every millisecond. Waking for each one costs the program the
/// same wake-up, reads, X requests and flush whatever the event draws, for frames no screen
/// shows: displays refresh 60–240 times a second. So while motion comes faster than `period`
/// (a read found more than one event, or the last one came less than `period` before), the
/// loop leaves the connection alone for `period` after a read (work of its own, a signal, a
/// finished history rebuild still wake it), then takes everything that came meanwhile in one
/// read and presents once. Every sample still goes into the engine, in order (DESIGN: input
/// is never dropped or compressed; redrawing is what gets batched). Slower motion is read as
/// it comes, without a wake-up of its own for the pause: the first event of a stroke, and
/// every event of a mouse at 250 Hz or slower, waits for nothing; at 1 kHz an event waits at
/// most about `period`.
struct InputPacing {
    /// 4 ms: 250 presents a second at most, above nearly every display's refresh rate.
    static let standardPeriod = 0.004

    /// Seconds the connection is left alone after a turn with motion; 0 turns pacing off.
    let period: Double
    /// Until when (CLOCK_MONOTONIC seconds) the connection is not read.
    private(set) var holdUntil = -Double.infinity

    /// `SWIFTPAINT_INPUT_PERIOD_MS` (0 to 20; 0: read every event as it comes) overrides
    /// the standard period, to measure one against the other with the same build.
    init(environment: String? = FileSystem.environment("SWIFTPAINT_INPUT_PERIOD_MS")) {
        if let environment, let ms = Double(environment), ms >= 0, ms <= 20 {
            period = ms / 1000
        } else {
            period = Self.standardPeriod
        }
    }

    /// When the last pointer motion was read (CLOCK_MONOTONIC seconds).
    private var lastMotion = -Double.infinity

    /// A turn read `count` motion events at `clock`: when motion comes faster than `period`,
    /// the next read waits for `period`.
    mutating func readMotion(_ count: Int, at clock: Double) {
        if period > 0, count > 1 || clock - lastMotion < period { holdUntil = clock + period }
        lastMotion = clock
    }

    /// Whether the connection is left alone at `clock`.
    func holds(at clock: Double) -> Bool { clock < holdUntil }

    /// `poll`'s time-out in milliseconds (-1: none): `timeout`, or while `holding` no later
    /// than the next read (rounded up: poll's time-outs are whole milliseconds).
    func timeout(_ timeout: Int32, holding: Bool, at clock: Double) -> Int32 {
        guard holding else { return timeout }
        let rest = Int32(max(1, ((holdUntil - clock) * 1000).rounded(.up)))
        return timeout < 0 ? rest : min(timeout, rest)
    }
}

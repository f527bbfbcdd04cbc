import PaintIO

/// How often the window wakes for input while pointer motion keeps coming.
///
/// A 1 kHz mouse sends an event every millisecond. Waking for each one costs the program the
/// same wake-up, reads, X requests and flush whatever the event draws (measured: most of its
/// CPU per event is the wake-up's, not the drawing's), for frames no screen shows. So while
/// motion comes faster than the display's frames, the loop leaves the connection alone and
/// reads everything that came meanwhile once a frame, just before the display's vertical blank
/// (`frameMargin` before it), and presents once: what was read reaches the screen at the same
/// blank it would have reached had each event been drawn as it came. This is the frame clock
/// GTK and Firefox keep on X11, with the blank's phase from the Present extension
/// (`DisplayFrames`) rather than a free-running timer, which would add half a frame of delay.
///
/// Every sample still goes into the engine, in order (DESIGN: input is never dropped or
/// compressed; redrawing is what gets batched). Slower motion, and the first event after a
/// pause, is read as it comes. Where the frames are not known (no Present extension, a server
/// whose clock is not this machine's), motion is read every `standardPeriod`.
struct InputPacing {
    /// 4 ms (250 reads a second) where the display's frames are not known: above nearly every
    /// display's refresh rate.
    static let standardPeriod = 0.004
    /// How long before a vertical blank the held input is read: drawing it, presenting it and
    /// the server's copy fit in it with room to spare (a 1 kHz frame's worth of samples takes
    /// well under a millisecond). At most a third of a frame.
    static let frameMargin = 0.002

    /// A fixed period from `SWIFTPAINT_INPUT_PERIOD_MS` (0: every event read as it comes), or
    /// nil: the display's frames.
    let fixedPeriod: Double?
    /// The display's vertical blanks as far as they are known.
    private(set) var frames = DisplayFrames()
    /// Until when (CLOCK_MONOTONIC seconds) the connection is not read.
    private(set) var holdUntil = -Double.infinity
    /// When the last pointer motion was read (CLOCK_MONOTONIC seconds).
    private var lastMotion = -Double.infinity

    /// `SWIFTPAINT_INPUT_PERIOD_MS` (0 to 20; 0: read every event as it comes) fixes the period
    /// instead of the display's frames, to measure one against the other with the same build.
    init(environment: String? = FileSystem.environment("SWIFTPAINT_INPUT_PERIOD_MS")) {
        if let environment, let ms = Double(environment), ms >= 0, ms <= 20 {
            fixedPeriod = ms / 1000
        } else {
            fixedPeriod = nil
        }
    }

    /// Whether the display's frames pace the reads (nothing fixed the period).
    var followsFrames: Bool { fixedPeriod == nil }

    /// The time between reads while motion keeps coming: the fixed period, the display's frame,
    /// or `standardPeriod` while the frames are not known.
    var period: Double { fixedPeriod ?? frames.interval ?? Self.standardPeriod }

    /// A turn read `count` motion events at `clock`: when motion comes faster than `period`,
    /// the next read waits (`nextRead`).
    mutating func readMotion(_ count: Int, at clock: Double) {
        let period = period
        if period > 0, count > 1 || clock - lastMotion < period { holdUntil = nextRead(after: clock) }
        lastMotion = clock
    }

    /// When the connection is read next after a read at `clock` while motion keeps coming:
    /// `frameMargin` before the first vertical blank at least a millisecond (a quarter of a
    /// frame on a fast display) away, or `period` later where the frames are not known.
    func nextRead(after clock: Double) -> Double {
        guard fixedPeriod == nil, let blank = frames.lastBlank, let interval = frames.interval else {
            return clock + period
        }
        let margin = min(Self.frameMargin, interval / 3)
        let soonest = clock + min(0.001, interval / 4)
        let first = blank - margin
        let k = ((soonest - first) / interval).rounded(.up)
        return first + max(k, 0) * interval
    }

    /// Whether the connection is left alone at `clock`.
    func holds(at clock: Double) -> Bool { clock < holdUntil }

    /// How long the ink of motion read as it came has the server to itself before the
    /// pointer's position in the status bar follows. Requests flushed together are served
    /// together: a position drawn in the ink's turn held the ink back from the screen by its
    /// text's drawing (peerbench latency p50 0.40 ms against 0.34 without it).
    static let inkLead = 0.002

    /// Whether this turn, at `clock`, draws the pointer's position (a redraw that shows only
    /// what motion changed), its throttle allowing it from `throttle`, `inkNow` whether the turn
    /// puts ink on screen, `lastInk` when a turn last did. A frame of held motion draws it after
    /// its ink's flush: the frame is read ahead of the blank, with time to spare. Motion read as
    /// it came leaves the server `inkLead` for its ink first.
    func drawsPosition(throttle: Double, inkNow: Bool, lastInk: Double, at clock: Double) -> Bool {
        guard clock >= throttle else { return false }
        if holds(at: clock) { return true }
        return !inkNow && clock >= lastInk + Self.inkLead
    }

    /// When the loop wakes to draw the pointer's position (see `drawsPosition`): while motion
    /// is held, with the next read's frame, never a wake-up of its own between reads, which
    /// would read the held motion early and draw a frame of ink no screen shows (measured: a
    /// sixth more frames and wake-ups at 1 kHz); else `inkLead` after the last ink at the
    /// earliest.
    func positionDue(throttle: Double, lastInk: Double) -> Double {
        max(throttle, holdUntil, lastInk + Self.inkLead)
    }

    /// `poll`'s time-out in milliseconds (-1: none): `timeout`, or while `holding` no later
    /// than the next read (rounded up: poll's time-outs are whole milliseconds).
    func timeout(_ timeout: Int32, holding: Bool, at clock: Double) -> Int32 {
        guard holding else { return timeout }
        let rest = Int32(max(1, ((holdUntil - clock) * 1000).rounded(.up)))
        return timeout < 0 ? rest : min(timeout, rest)
    }

    /// The blank to ask the display about at `clock`, or nil when nothing needs asking: the
    /// frames are learnt at start and timed again every second while motion comes (displays
    /// change modes; a window moves to another screen), never while idle.
    func blankToAsk(at clock: Double) -> (number: UInt64, when: Double)? {
        guard followsFrames else { return nil }
        return frames.blankToAsk(at: clock, moving: clock - lastMotion < 0.25)
    }

    /// Whether an answer about a blank is out at `clock`.
    func awaitsBlank(at clock: Double) -> Bool { frames.awaitsAnswer(at: clock) }

    /// The display was asked about blank `msc` at `clock`.
    mutating func asked(_ msc: UInt64, at clock: Double) { frames.asked(msc, at: clock) }

    /// The display told of blank `msc` at `ust` (seconds) at `clock`; returns whether this
    /// made the frame interval known for the first time.
    mutating func blank(_ msc: UInt64, at ust: Double, clock: Double) -> Bool {
        let known = frames.interval != nil
        frames.told(msc, at: ust, clock: clock)
        return !known && frames.interval != nil
    }
}

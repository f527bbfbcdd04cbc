import Testing

@testable import PaintX11

/// When the window reads its connection while pointer motion keeps coming.
@Suite struct InputPacingTests {
    /// Pacing that has learnt a display of `interval` seconds whose blank `number` came at
    /// `time`, through the questions and answers the window makes.
    static func learnt(interval: Double, blank time: Double, number: UInt64 = 100) -> InputPacing {
        var pacing = InputPacing(environment: nil)
        let run = DisplayFrames.firstRun
        var clock = time - Double(run + 2) * interval
        // The current number, then the blank after it, then the blank `firstRun` later.
        #expect(pacing.blankToAsk(at: clock)?.number == 0)
        pacing.asked(0, at: clock)
        let current = pacing.blank(number - run - 1, at: clock, clock: clock)
        #expect(!current)
        clock += interval
        #expect(pacing.blankToAsk(at: clock)?.number == number - run)
        pacing.asked(number - run, at: clock)
        clock = time - Double(run) * interval
        let first = pacing.blank(number - run, at: clock, clock: clock)
        #expect(!first)
        #expect(pacing.blankToAsk(at: clock)?.number == number)
        pacing.asked(number, at: clock)
        let known = pacing.blank(number, at: time, clock: time + 0.0001)
        #expect(known)
        return pacing
    }

    @Test func withoutTheDisplaysFramesMotionIsReadEveryFourMilliseconds() {
        var pacing = InputPacing(environment: nil)
        #expect(pacing.followsFrames && pacing.period == InputPacing.standardPeriod)
        // Motion after a pause is read at once, and holds nothing: a mouse at 125 Hz (one
        // event a read, 8 ms apart) is read as it comes.
        #expect(!pacing.holds(at: 10))
        pacing.readMotion(1, at: 10)
        #expect(!pacing.holds(at: 10))
        pacing.readMotion(1, at: 10.008)
        #expect(!pacing.holds(at: 10.008))
        // An event a millisecond after the last: the connection rests for the period.
        pacing.readMotion(1, at: 10.009)
        #expect(pacing.holds(at: 10.009) && pacing.holds(at: 10.0129))
        #expect(!pacing.holds(at: 10.0131) && !pacing.holds(at: 11))
        // The read after the rest finds several events: it rests again, though 4 ms passed.
        pacing.readMotion(4, at: 10.0135)
        #expect(pacing.holds(at: 10.0135) && pacing.holds(at: 10.0174))
        #expect(!pacing.holds(at: 10.0176))
        // Motion stopped: the next lone event comes after a pause and is read at once.
        pacing.readMotion(1, at: 10.5)
        #expect(!pacing.holds(at: 10.5))
    }

    @Test func fastMotionIsReadJustBeforeEachVerticalBlank() {
        let frame = 1.0 / 60
        var pacing = Self.learnt(interval: frame, blank: 50)
        #expect(abs(pacing.period - frame) < 1e-9)
        let margin = InputPacing.frameMargin
        // A lone event after a pause is read at once.
        pacing.readMotion(1, at: 50.003)
        #expect(!pacing.holds(at: 50.003))
        // Motion at 1 kHz: held until 2 ms before the next blank (50 + frame).
        pacing.readMotion(1, at: 50.004)
        #expect(pacing.holds(at: 50.004) && pacing.holds(at: 50 + frame - margin - 0.0001))
        #expect(!pacing.holds(at: 50 + frame - margin + 0.0001))
        // Read there: held until the same point before the blank after.
        let read = 50 + frame - margin
        pacing.readMotion(16, at: read)
        #expect(pacing.holds(at: read + frame - 0.0001) && !pacing.holds(at: read + frame + 0.0001))
        // A read within a millisecond of a deadline waits for the next one, not for nothing.
        pacing.readMotion(3, at: read + 2 * frame - 0.0005)
        #expect(pacing.holds(at: read + 3 * frame - 0.0001) && !pacing.holds(at: read + 3 * frame + 0.0001))
        // A mouse at 125 Hz is faster than the frames: it is read once a frame too.
        pacing.readMotion(1, at: 60)
        pacing.readMotion(1, at: 60.008)
        #expect(pacing.holds(at: 60.008))
        #expect(abs(pacing.holdUntil - (50 + 601 * frame - margin)) < 1e-6)
    }

    @Test func theIntervalIsMeasuredOverEveryBlankTimedAndFollowsAChange() {
        var pacing = Self.learnt(interval: 0.0166, blank: 20)
        // Jittered stamps (a server without a real display): the run's average is taken.
        var number: UInt64 = 100
        var time = 20.0
        for jitter in [0.0025, -0.0005, 0.002, 0.0] {
            number += 60
            time = 20 + Double(number - 100) * 0.0166 + jitter
            pacing.asked(number, at: time - 0.01)
            _ = pacing.blank(number, at: time, clock: time + 0.0002)
            #expect(abs(pacing.period - 0.0166) < 0.0001, "\(pacing.period)")
        }
        // Not asked again within the second, nor while the pointer rests.
        #expect(pacing.blankToAsk(at: time + 0.5) == nil)
        #expect(pacing.blankToAsk(at: time + 5) == nil)
        // Asked while moving after a second: the blank after the one now due.
        pacing.readMotion(2, at: time + 1.2)
        #expect(pacing.blankToAsk(at: time + 1.2)?.number == number + UInt64((1.2 / 0.0166).rounded(.down)) + 1)
        // The display switches to 144 Hz: the next timing starts a new run.
        let fast = 1.0 / 144
        pacing.asked(number + 1, at: time + 1.2)
        _ = pacing.blank(number + 1, at: time + 1.2 + fast * 2, clock: time + 1.21)
        pacing.readMotion(2, at: time + 2.3)
        pacing.asked(number + 150, at: time + 2.3)
        _ = pacing.blank(number + 150, at: time + 1.2 + fast * 151, clock: time + 2.31)
        #expect(abs(pacing.period - fast) < 0.0001, "\(pacing.period)")
    }

    @Test func anAnswerForABlankAlreadyPastTimesNothing() {
        var pacing = InputPacing(environment: nil)
        pacing.asked(0, at: 1)
        _ = pacing.blank(7, at: 1, clock: 1)
        pacing.asked(8, at: 1.001)
        // The server had passed 8 already: it answers 9 at once, stamped with the moment.
        _ = pacing.blank(9, at: 1.002, clock: 1.002)
        #expect(pacing.frames.lastBlank == nil && pacing.frames.interval == nil)
        // Asked again for the blank after it, not at once: the questions are spaced.
        let next = pacing.blankToAsk(at: 1.003)
        #expect(next?.number == 10 && next?.when == 1.001 + DisplayFrames.spacing)
    }

    @Test func aServerOnAnotherClockOrWithoutAnswersLeavesTheStandardPeriod() {
        // A remote display: its stamps are hours from this machine's clock.
        var remote = InputPacing(environment: nil)
        remote.asked(0, at: 100)
        _ = remote.blank(5, at: 7200, clock: 100)
        #expect(remote.frames.unusable && remote.blankToAsk(at: 200) == nil)
        remote.readMotion(1, at: 300)
        remote.readMotion(1, at: 300.001)
        #expect(remote.period == InputPacing.standardPeriod && abs(remote.holdUntil - 300.005) < 1e-9)
        // No answer: asked again after half a second, for the current number; at most
        // `idleQuestions` (eight) while idle.
        var silent = InputPacing(environment: nil)
        var asked = 0
        for t in stride(from: 0.0, through: 10, by: 0.1) {
            if let (number, when) = silent.blankToAsk(at: t) {
                #expect(number == 0 && when == t)
                silent.asked(number, at: t)
                asked += 1
            }
        }
        #expect(asked == DisplayFrames.idleQuestions && asked == 8)
        // A window on no screen is told of a blank a second: not a display's interval.
        var offScreen = InputPacing(environment: nil)
        offScreen.asked(0, at: 0)
        _ = offScreen.blank(1, at: 0, clock: 0)
        offScreen.asked(2, at: 0)
        _ = offScreen.blank(2, at: 0.5, clock: 0.5)
        offScreen.asked(8, at: 0.5)
        let known = offScreen.blank(8, at: 6.5, clock: 6.5)
        #expect(!known)
        #expect(offScreen.frames.interval == nil && offScreen.period == InputPacing.standardPeriod)
    }

    @Test func pollWakesAtTheNextReadOrAnEarlierDeadline() {
        var pacing = InputPacing(environment: nil)
        pacing.readMotion(2, at: 5)
        // Not holding: the loop's own time-out, none (-1) included.
        #expect(pacing.timeout(-1, holding: false, at: 5) == -1)
        #expect(pacing.timeout(33, holding: false, at: 5) == 33)
        // Holding: no later than the next read (whole milliseconds, rounded up, at least 1).
        #expect(pacing.timeout(-1, holding: true, at: 5) == 4)
        #expect(pacing.timeout(-1, holding: true, at: 5.0015) == 3)
        #expect(pacing.timeout(-1, holding: true, at: 5.0039999) == 1)
        // A status-bar redraw due sooner wakes it sooner.
        #expect(pacing.timeout(2, holding: true, at: 5) == 2)
        #expect(pacing.timeout(30, holding: true, at: 5) == 4)
    }

    @Test func theEnvironmentFixesThePeriodWithinBoundsOrTurnsItOff() {
        #expect(InputPacing(environment: "0").period == 0)
        #expect(InputPacing(environment: "8").period == 0.008)
        #expect(InputPacing(environment: "2.5").period == 0.0025)
        for bad in ["", "-1", "21", "1e9", "nan", "four"] {
            let pacing = InputPacing(environment: bad)
            #expect(pacing.followsFrames && pacing.period == InputPacing.standardPeriod, "\(bad)")
        }
        // Fixed: the display is never asked, and motion holds for the period.
        var fixed = InputPacing(environment: "8")
        #expect(!fixed.followsFrames && fixed.blankToAsk(at: 0) == nil)
        fixed.readMotion(3, at: 1)
        #expect(abs(fixed.holdUntil - 1.008) < 1e-9)
        // Off: motion never holds the connection.
        var off = InputPacing(environment: "0")
        off.readMotion(5, at: 1)
        #expect(!off.holds(at: 1))
    }

    /// The pointer's position in the status bar, throttled on its own: a frame of held motion
    /// draws it with its ink (never a wake-up of its own between reads, which read the held
    /// motion early); motion read as it came draws its ink alone and the position `inkLead`
    /// later, so that the server shows the ink first.
    @Test func thePositionIsDrawnWithAHeldFrameOrAfterTheInk() {
        let frame = 1.0 / 60
        let lead = InputPacing.inkLead
        var pacing = Self.learnt(interval: frame, blank: 50)
        // A lone event read as it came: its turn has ink, so no position; the loop wakes for
        // it `inkLead` later (or at its throttle, whichever is later).
        pacing.readMotion(1, at: 50.003)
        #expect(!pacing.holds(at: 50.003))
        #expect(!pacing.drawsPosition(throttle: 50.0, inkNow: true, lastInk: 49.0, at: 50.003))
        #expect(pacing.positionDue(throttle: 50.0, lastInk: 50.003) == 50.003 + lead)
        #expect(pacing.positionDue(throttle: 50.02, lastInk: 50.003) == 50.02)
        #expect(!pacing.drawsPosition(throttle: 50.0, inkNow: false, lastInk: 50.003, at: 50.003 + lead / 2))
        #expect(pacing.drawsPosition(throttle: 50.0, inkNow: false, lastInk: 50.003, at: 50.003 + lead))
        #expect(!pacing.drawsPosition(throttle: 50.01, inkNow: false, lastInk: 50.003, at: 50.0099))
        // Fast motion: the read is held to the next frame, whose turn draws the position with
        // its ink once the throttle allows; the wake-up for it is that read, not earlier.
        pacing.readMotion(8, at: 50.004)
        let next = pacing.holdUntil
        #expect(pacing.holds(at: 50.004) && next > 50.01)
        #expect(pacing.drawsPosition(throttle: 50.0, inkNow: true, lastInk: 50.003, at: 50.004))
        #expect(!pacing.drawsPosition(throttle: 50.03, inkNow: true, lastInk: 50.003, at: 50.004))
        #expect(pacing.positionDue(throttle: 50.005, lastInk: 50.004) == next)
        #expect(pacing.positionDue(throttle: next + 0.01, lastInk: 50.004) == next + 0.01)
        // The window's poll then sleeps to the read, not to the position's throttle.
        let timeout = Int32(((pacing.positionDue(throttle: 50.005, lastInk: 50.004) - 50.004) * 1000).rounded(.up))
        #expect(pacing.timeout(timeout, holding: true, at: 50.004) == timeout)
        #expect(Double(timeout) / 1000 >= next - 50.004)
    }
}

import Testing

@testable import PaintX11

/// When the window reads its connection while pointer motion keeps coming.
@Suite struct InputPacingTests {
    @Test func afterMotionTheConnectionRestsForThePeriodThenIsReadAgain() {
        var pacing = InputPacing(environment: nil)
        #expect(pacing.period == 0.004)
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

    @Test func theEnvironmentSetsThePeriodWithinBoundsOrTurnsItOff() {
        #expect(InputPacing(environment: "0").period == 0)
        #expect(InputPacing(environment: "8").period == 0.008)
        #expect(InputPacing(environment: "2.5").period == 0.0025)
        for bad in ["", "-1", "21", "1e9", "nan", "four"] {
            #expect(InputPacing(environment: bad).period == InputPacing.standardPeriod, "\(bad)")
        }
        // Off: motion never holds the connection.
        var off = InputPacing(environment: "0")
        off.readMotion(5, at: 1)
        #expect(!off.holds(at: 1))
    }
}

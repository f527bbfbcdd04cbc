import Testing

@testable import PaintX11

/// When the window reads its connection while pointer motion keeps coming.
@Suite struct InputPacingTests {
    @Test func afterMotionTheConnectionRestsForThePeriodThenIsReadAgain() {
        var pacing = InputPacing(environment: nil)
        #expect(pacing.period == 0.004)
        // Motion after a pause is read at once.
        #expect(!pacing.holds(at: 10))
        pacing.readMotion(at: 10)
        #expect(pacing.holds(at: 10) && pacing.holds(at: 10.0039))
        #expect(!pacing.holds(at: 10.004) && !pacing.holds(at: 11))
    }

    @Test func pollWakesAtTheNextReadOrAnEarlierDeadline() {
        var pacing = InputPacing(environment: nil)
        pacing.readMotion(at: 5)
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
        off.readMotion(at: 1)
        #expect(!off.holds(at: 1))
    }
}

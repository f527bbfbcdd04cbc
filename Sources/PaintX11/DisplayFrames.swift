/// The display's vertical blanks, as the Present extension tells them: when the last one came
/// and how far apart they are, for `InputPacing` to read input just before the next.
///
/// The window asks about one blank at a time (`blankToAsk`) and hears back its number (MSC)
/// and time (UST, microseconds of CLOCK_MONOTONIC on a local server). Only the answer for a
/// blank still ahead when asked gives that blank's time: asked about one already past, a server
/// answers with the current number at once, and a server without a real display (Xvfb) stamps
/// that answer with the moment it answers. So the first question asks for the current number
/// (0), the next ones for the blank after a known one; the interval is measured over every
/// blank timed since the display last changed (the error of one stamp shrinks with the run).
struct DisplayFrames {
    /// The last blank whose time is known (CLOCK_MONOTONIC seconds), and its number.
    private(set) var lastBlank: Double?
    private(set) var lastNumber: UInt64 = 0
    /// The time between blanks, once two have been timed; nil before, and where it is not a
    /// display's (a window on no screen is told of a blank a second).
    private(set) var interval: Double?
    /// Whether the server's clock is another machine's (a remote display): its times cannot
    /// pace reads here, and nothing more is asked.
    private(set) var unusable = false
    /// The first timed blank of the run the interval is measured over.
    private var reference: (time: Double, number: UInt64)?
    /// The current blank's number, where its time is not known (the answer to 0).
    private var currentNumber: UInt64?
    /// The blank asked about and when, while its answer is out.
    private var question: (number: UInt64, at: Double)?
    /// When the last question was asked (CLOCK_MONOTONIC seconds).
    private var asked = -Double.infinity
    /// Questions asked while the interval is not known: after `idleQuestions`, only motion asks
    /// again.
    private var questionsUnknown = 0

    /// Whether an answer is out at `clock` (it is looked for only then, and not for longer than
    /// `answerTimeout`).
    func awaitsAnswer(at clock: Double) -> Bool { question.map { clock - $0.at < Self.answerTimeout } ?? false }

    /// The shortest and longest time between blanks taken as a display's: 500 to 20 Hz.
    static let plausible = (1.0 / 500)...(1.0 / 20)
    /// How long an answer may take before the question counts as lost (the window was moved
    /// to a screen whose blanks are numbered otherwise, or it is on none).
    static let answerTimeout = 0.5
    /// How often the blanks are timed again while they pace motion.
    static let refresh = 1.0
    /// The blanks the first interval is measured over.
    static let firstRun: UInt64 = 6
    /// The least time between two questions.
    static let spacing = 0.01
    /// How many questions are asked while the interval is not known and nothing moves. Three
    /// answers make it known; on a loaded machine an answer can come too late (its question
    /// counts as lost after `answerTimeout`, or the blank asked about is past when the server
    /// reads the question, and is answered as the current number). With four, a window can stop
    /// asking before it knows, until motion comes (the first stroke's first frames are then
    /// read every `InputPacing.standardPeriod`); PacedMotionEndToEndTests, which waits for the
    /// frames before it moves, timed out on it twice at load 7. Eight, at most one every
    /// `answerTimeout` when none is answered, cost an idle window nothing after its first
    /// seconds.
    static let idleQuestions = 8

    /// The blank to ask about at `clock` and the earliest time to ask (questions are at least
    /// `spacing` apart, whatever the answers say), or nil: none while an answer is out, none
    /// once the interval is known unless `moving` and a second has passed, and at most
    /// `idleQuestions` while it is not known unless `moving`.
    func blankToAsk(at clock: Double, moving: Bool) -> (number: UInt64, when: Double)? {
        guard !unusable else { return nil }
        if awaitsAnswer(at: clock) { return nil }
        if interval != nil {
            guard moving, clock - (lastBlank ?? -.infinity) >= Self.refresh else { return nil }
        } else if !moving && questionsUnknown >= Self.idleQuestions {
            return nil
        }
        let when = max(clock, asked + Self.spacing)
        // A question that went unanswered: the numbering is not known any more.
        if question != nil { return (0, when) }
        // The blank after the current one: predicted from the last timed blank, or after the
        // current number an answer gave (a prediction that fell behind is answered with it).
        var next = currentNumber.map { $0 &+ 1 } ?? 0
        if let lastBlank, let interval {
            let passed = UInt64(max(0, ((clock - lastBlank) / interval).rounded(.down)))
            next = max(next, lastNumber &+ passed &+ 1)
        } else if lastBlank != nil {
            // The first interval is measured over `firstRun` blanks: a blank stamped late by a
            // busy server (Xvfb's are a timer's) errs by a fraction of a frame, not by a third.
            next = max(next, lastNumber &+ Self.firstRun)
        }
        return (next, when)
    }

    /// The display was asked about blank `number` at `clock`.
    mutating func asked(_ number: UInt64, at clock: Double) {
        question = (number, clock)
        asked = clock
        if interval == nil { questionsUnknown += 1 }
        if number == 0 { currentNumber = nil }
    }

    /// The display told of blank `number` at `ust` (seconds), heard at `clock`.
    mutating func told(_ number: UInt64, at ust: Double, clock: Double) {
        let asked = question?.number
        question = nil
        // An answer is heard within moments of its stamp, on this machine's clock; a server
        // whose stamps are far from it keeps another clock.
        guard abs(clock - ust) < 1 else {
            unusable = true
            interval = nil
            lastBlank = nil
            return
        }
        guard let asked, asked != 0, number == asked else {
            // The current number (asked for it, or the blank asked about was past): its time
            // is the answer's, not the blank's.
            currentNumber = number
            return
        }
        if let lastBlank, number > lastNumber {
            let step = (ust - lastBlank) / Double(number - lastNumber)
            if let run = reference, number > run.number {
                var measured = (ust - run.time) / Double(number - run.number)
                if abs(measured - step) > step / 4 {
                    // The display changed (another mode, another screen): measure anew.
                    reference = (lastBlank, lastNumber)
                    measured = step
                }
                interval = Self.plausible.contains(measured) ? measured : nil
            }
        } else {
            // The first timed blank, or a numbering that went back (another screen).
            reference = (ust, number)
        }
        lastBlank = ust
        lastNumber = number
        currentNumber = number
    }
}

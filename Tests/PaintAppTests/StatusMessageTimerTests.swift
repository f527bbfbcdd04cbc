import PaintApp
import PaintCore
import Testing

@testable import PaintApp

/// Notices in the status bar ("Scale cancelled", "Copied …") go by themselves
/// `messageLifetime` after they show, through `runTimers`, which asks for no wake-up while
/// nothing is shown; errors (red) stay until something replaces them.
@Suite struct StatusMessageTimerTests {
    typealias T = SessionTests

    @Test func aNoticeGoesAfterItsLifetime() {
        let (s, _) = ImageCommandTests.session()
        let life = Session.messageLifetime
        // The set-up's paste says so; once that goes, nothing is shown and no timer is asked for.
        #expect(s.message.hasPrefix("Pasted"))
        #expect(s.runTimers(at: 10) == 10 + life)
        #expect(s.runTimers(at: 10 + life) == nil)
        #expect(s.message.isEmpty)
        #expect(s.runTimers(at: 30) == nil)
        ImageCommandTests.ctrl(s, "r")
        s.handle(.key(.escape, modifiers: []))
        #expect(s.message == "Scale cancelled")
        // It shows from the turn the window first runs the timers after it was set.
        #expect(s.runTimers(at: 50) == 50 + life)
        #expect(s.runTimers(at: 50 + life / 2) == 50 + life)
        #expect(s.runTimers(at: 50 + life - 0.001) == 50 + life)
        #expect(s.shownMessage == "Scale cancelled")
        _ = s.takeEffects()
        #expect(s.runTimers(at: 50 + life) == nil)
        #expect(s.message.isEmpty && s.shownMessage.isEmpty)
        #expect(s.takeEffects().status, "the status bar is drawn again without it")
        #expect(s.runTimers(at: 100) == nil)
        #expect(!s.takeEffects().status)
        // A second notice before the first goes waits its own whole lifetime.
        _ = T.key(s, "c", .control)
        #expect(s.message.hasPrefix("Copied"))
        #expect(s.runTimers(at: 200) == 200 + life)
        _ = T.key(s, "c", .control)
        #expect(s.runTimers(at: 205) == 205 + life)
        #expect(s.runTimers(at: 200 + life) == 205 + life)
        #expect(s.message.hasPrefix("Copied"))
        #expect(s.runTimers(at: 205 + life) == nil)
        #expect(s.message.isEmpty)
    }

    /// `SWIFTPAINT_NOTICE_SECONDS` (what the end-to-end tests set) gives a notice another
    /// lifetime; a value that is not a number of seconds above 0, up to a day, is ignored.
    @Test func aNoticeLifetimeFromTheEnvironment() {
        #expect(Session.noticeLifetime(environment: "3600") == 3600)
        #expect(Session.noticeLifetime(environment: "8.0") == 8)
        #expect(Session.noticeLifetime(environment: "0.25") == 0.25)
        for bad in [nil, "", "0", "-5", "nan", "inf", "86401", "an hour", "3600s"] {
            #expect(Session.noticeLifetime(environment: bad) == nil, "\(bad ?? "unset")")
        }
        let s = T.makeSession()
        #expect(s.noticeLifetime == Session.messageLifetime)
        s.noticeLifetime = 3600
        s.show("A notice")
        #expect(s.runTimers(at: 10) == 3610)
        #expect(s.runTimers(at: 10 + Session.messageLifetime) == 3610)
        #expect(s.message == "A notice", "still shown past the program's own lifetime")
        #expect(s.runTimers(at: 3610) == nil)
        #expect(s.message.isEmpty)
    }

    @Test func anErrorStaysUntilReplaced() {
        let (s, _) = ImageCommandTests.session()
        s.show("Cannot open “gone.png”: no such file")
        #expect(Session.isError(s.message))
        #expect(s.runTimers(at: 1) == nil)
        #expect(s.runTimers(at: 1000) == nil)
        #expect(s.message == "Cannot open “gone.png”: no such file")
        // A notice replacing it goes as any.
        s.show("Selected 10 × 10 at 0, 0")
        #expect(!Session.isError(s.message))
        #expect(s.runTimers(at: 2000) == 2000 + Session.messageLifetime)
        #expect(s.runTimers(at: 2000 + Session.messageLifetime) == nil)
        #expect(s.message.isEmpty)
    }

    /// A notice and a drag held past the canvas's edge at once: the window is woken for the
    /// nearer of the two.
    @Test func theNearerTimerWakesTheWindow() throws {
        let (s, _) = TextToolTests.typing(at: 4, 4)
        TextToolTests.type(s, "one two three four five six seven eight nine ten")
        s.zoom(to: Zoom(8))
        s.setLayout(s.layout.scrolled(toX: 0, y: 0))
        s.show("A notice")
        #expect(s.runTimers(at: 10) == 10 + Session.messageLifetime)
        let area = s.layout.canvasArea
        let live = try #require(s.liveText)
        let y = s.layout.imageOrigin.y + (4 + live.layout.lineHeight / 2) * 8
        s.handle(.press(x: s.layout.imageOrigin.x + 4 * 8 + 2, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: area.maxX + 10, y: y, modifiers: []))
        #expect(s.runTimers(at: 11) == 11 + Session.autoscrollInterval)
        s.handle(.release(x: area.maxX + 10, y: y, button: .left, modifiers: []))
        #expect(s.runTimers(at: 12) == 10 + Session.messageLifetime)
    }

    /// A notice due while a stroke is drawn waits for the release: the status bar drawn again
    /// mid-stroke would hold up the frame that shows the ink. It goes at the release's turn.
    @Test func aNoticeDueDuringAStrokeGoesAtTheRelease() {
        let (s, sink) = T.recordingSession()
        s.show("A notice")
        let life = Session.messageLifetime
        #expect(s.runTimers(at: 10) == 10 + life)
        let (x, y) = T.window(s, 5, 5)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.motion(x: x + 3, y: y, modifiers: []))
        _ = s.takeEffects()
        #expect(s.runTimers(at: 10 + life) == nil, "no wake-up of its own while the button is held")
        #expect(s.message == "A notice")
        #expect(!s.takeEffects().status, "the status bar is not drawn again mid-stroke")
        s.handle(.motion(x: x + 6, y: y, modifiers: []))
        #expect(s.runTimers(at: 10 + life + 1) == nil)
        #expect(s.message == "A notice")
        // The stroke's commit is a change, which takes a notice away by itself; a release that
        // changes nothing leaves it to the timers' next turn.
        let released = s.handle(.release(x: x + 6, y: y, button: .left, modifiers: []))
        #expect(s.runTimers(at: 10 + life + 2) == nil)
        #expect(s.message.isEmpty)
        #expect(released.status || s.takeEffects().status, "the status bar is drawn again without it")
        #expect(sink.operations.count == 1, "the drag was a stroke")
        // A drag that changes nothing (the picture panned with the middle button): the notice
        // goes at the first turn after the release.
        s.show("Another notice")
        #expect(s.runTimers(at: 100) == 100 + life)
        s.handle(.press(x: x, y: y, button: .middle, modifiers: []))
        s.handle(.motion(x: x + 2, y: y, modifiers: []))
        #expect(s.runTimers(at: 100 + life) == nil)
        #expect(s.message == "Another notice")
        #expect(s.handle(.release(x: x + 2, y: y, button: .middle, modifiers: [])).status == false)
        #expect(s.message == "Another notice")
        #expect(s.runTimers(at: 100 + life + 1) == nil)
        #expect(s.message.isEmpty)
        #expect(s.takeEffects().status)
    }
}

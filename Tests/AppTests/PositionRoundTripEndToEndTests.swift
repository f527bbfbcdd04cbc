import Foundation
import Glibc
import PaintCore
import Testing
import XDriver

/// The pointer's position in the status bar follows a stroke's ink a couple of milliseconds
/// later, in a turn of its own (`InputPacing.inkLead`). That turn writes nothing into the
/// window's shared image, so it does not wait for the X server to have read the last one: it
/// used to, with an `XSync` (a round trip, two more wake-ups of the window) 2 ms after every
/// motion event that came alone.
@Suite("The position's redraw waits for no answer from the server", .serialized)
struct PositionRoundTripEndToEndTests {
    /// The descriptors and time-out (ms, -1: none) of the `poll` the program's main thread is
    /// in, from `/proc/PID/syscall`; nil while it is in no `poll`.
    static func poll(of pid: pid_t) -> (descriptors: Int, timeout: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return nil }
        // "7 0xFDS 0xNFDS 0xTIMEOUT …": poll is system call 7 on x86-64.
        let fields = text.split(separator: " ")
        guard fields.count >= 4, fields[0] == "7", let n = Int(fields[2].dropFirst(2), radix: 16),
            let t = UInt64(fields[3].dropFirst(2), radix: 16)
        else { return nil }
        return (n, Int32(truncatingIfNeeded: t))
    }

    @Test(
        "with the X server stopped right after a motion event, the window still draws the position and goes back to its loop"
    )
    func thePositionTurnMakesNoRoundTrip() throws {
        #if arch(x86_64)
            // Every motion read as it comes (no frames of the display asked about, whose answers
            // cannot come while the server is stopped).
            let paint = try PaintWindow(
                .standard, arguments: ["--no-journal", "--size", "300x200"], imageWidth: 300, imageHeight: 200,
                environment: ["SWIFTPAINT_INPUT_PERIOD_MS": "0"])
            var stopped = false
            defer {
                if stopped { _ = kill(paint.session.server.pid, SIGCONT) }
                paint.stop()
            }
            let from = paint.windowPoint(imageX: 40, imageY: 60)
            paint.client.moveMouse(toWindow: paint.window, x: from.0, y: from.1)
            paint.client.press()
            _ = try paint.waitForCapture(image: IntRect(x: 40, y: 60, width: 1, height: 1), "the press's dot") {
                $0.color(x: 0, y: 0).brightest < 100
            }
            // Back in its loop with nothing due soon: the dot's position is drawn too.
            try Wait.require("the window idle after the press") {
                Self.poll(of: paint.app.pid).map { $0.descriptors >= 2 && ($0.timeout < 0 || $0.timeout >= 100) }
                    ?? false
            }
            // The motion is sent and the server has delivered it (the client's XTest request is
            // synced) when the server stops: the window reads it, puts its ink and, 2 ms later,
            // draws the position. Waiting there for the server to read the ink would never end.
            let to = paint.windowPoint(imageX: 160, imageY: 60)
            paint.client.moveMouse(toWindow: paint.window, x: to.0, y: to.1)
            #expect(kill(paint.session.server.pid, SIGSTOP) == 0)
            stopped = true
            let back = Wait.until(timeout: .seconds(20)) {
                Self.poll(of: paint.app.pid).map { $0.descriptors >= 2 && ($0.timeout < 0 || $0.timeout >= 100) }
                    ?? false
            }
            let last = Self.poll(of: paint.app.pid)
            #expect(
                back,
                "the window's thread is in poll(\(last.map { "\($0.descriptors) fds, \($0.timeout) ms" } ?? "-")), not back in its loop"
            )
            #expect(kill(paint.session.server.pid, SIGCONT) == 0)
            stopped = false
            // The stroke reaches its end on screen once the server runs again.
            _ = try paint.waitForCapture(image: IntRect(x: 150, y: 60, width: 1, height: 1), "the motion's ink") {
                $0.color(x: 0, y: 0).brightest < 100
            }
            paint.client.release()
            try paint.roundTrip()
        #endif
    }
}

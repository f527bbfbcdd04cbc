import Glibc
import PaintCore
import Testing
import XDriver

/// Motion at a gaming mouse's rate: the window reads its connection once a frame of the
/// display (Xvfb's Present ticks at 60 Hz), or every few milliseconds where a period is set,
/// while motion keeps coming (`InputPacing`), and draws what came meanwhile with one present.
/// Every sample still goes into the engine: the picture is the one a window that reads each
/// event alone draws, pixel for pixel.
@Suite("Motion at 1 kHz end to end", .serialized)
struct PacedMotionEndToEndTests: CanvasChecks {
    /// Draws `BurstEndToEndTests`' teeth at one event per millisecond (as near as this
    /// machine manages; the picture must not depend on it) with the input period `periodMs`
    /// (nil: the display's frames, once the window has learnt them), saves, and returns the
    /// saved picture.
    func drawTeeth(_ config: ServerConfig, periodMs: String?) throws -> PixelImage {
        let size = BurstEndToEndTests.size
        let dir = try scratchFolder()
        let file = dir.file("paced.png")
        let paint = try PaintWindow(
            config, arguments: ["--size", "\(size.w)x\(size.h)", file], imageWidth: size.w, imageHeight: size.h,
            environment: periodMs.map { ["SWIFTPAINT_INPUT_PERIOD_MS": $0] } ?? [:])
        defer { paint.stop() }
        if periodMs == nil {
            // The window learns the display's frames from Present a few blanks after it shows:
            // about 16.7 ms apart on Xvfb (its blanks are a timer's, a little late at times).
            var line = ""
            try Wait.require("the display's frames learnt") {
                line =
                    paint.app.stderr.split(separator: "\n").first { $0.contains("input paced by") }.map(String.init)
                    ?? ""
                return !line.isEmpty
            }
            let micros = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            #expect((14_000...20_000).contains(micros), "\(config): \(line)")
        }
        let teeth = BurstEndToEndTests.teeth(base: 60, via: (385, 260))
        let o = paint.layout.imageOrigin
        let origin = paint.client.toScreen(paint.window, x: o.x, y: o.y)
        paint.client.moveMouse(toScreenX: origin.x + teeth.path[0].0, y: origin.y + teeth.path[0].1)
        paint.client.press()
        paint.client.waitsForServer = false
        var next = timespec()
        clock_gettime(CLOCK_MONOTONIC, &next)
        for (x, y) in teeth.path.dropFirst() {
            next.tv_nsec += 1_000_000
            if next.tv_nsec >= 1_000_000_000 {
                next.tv_nsec -= 1_000_000_000
                next.tv_sec += 1
            }
            // Input generation at 1 kHz (the program is not waited for here).
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nil)
            paint.client.moveMouse(toScreenX: origin.x + x, y: origin.y + y)
        }
        paint.client.waitsForServer = true
        paint.client.release()
        let end = BurstEndToEndTests.end
        _ = try paint.waitForCapture(image: IntRect(x: end.0, y: end.1, width: 1, height: 1), "the end point") {
            $0.color(x: 0, y: 0).brightest < 100
        }
        let canvas = try paint.captureCanvas()
        let onScreen = BurstEndToEndTests.unpainted(teeth.tips) { canvas.color(x: $0, y: $1) }
        #expect(onScreen.isEmpty, "\(config), period \(periodMs) ms: tips left white on screen: \(onScreen)")
        try save(paint)
        return try load(file)
    }

    @Test(
        "a stroke at 1 kHz read a few milliseconds at a time draws the picture of one read event by event",
        arguments: ServerConfig.all)
    func pacedMotionDrawsWhatEventByEventDraws(config: ServerConfig) throws {
        let eventByEvent = try drawTeeth(config, periodMs: "0")
        let paced = try drawTeeth(config, periodMs: "4")
        let framed = try drawTeeth(config, periodMs: nil)
        // The control: a stroke was drawn at all (the teeth are dark in both).
        let dark = (0..<eventByEvent.pixels.count).filter { Pixel.unpack(eventByEvent.pixels[$0]).r < 100 }
        #expect(dark.count > 2000, "\(config): the stroke is missing")
        for (name, picture) in [("4 ms", paced), ("the display's frames", framed)] {
            let differing = (0..<picture.pixels.count).filter { picture.pixels[$0] != eventByEvent.pixels[$0] }
            #expect(
                differing.isEmpty,
                "\(config), \(name): \(differing.count) pixels differ, the first at \(differing.first.map { ($0 % picture.width, $0 / picture.width) } ?? (-1, -1))"
            )
        }
    }
}

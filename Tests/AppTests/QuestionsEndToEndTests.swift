import CX11
import Foundation
import PaintApp
import PaintCore
import Testing

/// A question in the status bar blocks the canvas, and shows it: the picture is dimmed while
/// it waits, a drag paints nothing, and the answer brings it back as it was.
@Suite("Questions end to end", .serialized)
struct QuestionsEndToEndTests {
    static let size = (w: 400, h: 300)

    @Test("a question dims the canvas and keeps it from painting; Cancel gives it back")
    func aQuestionBlocksTheCanvas() throws {
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"],
            imageWidth: Self.size.w, imageHeight: Self.size.h)
        defer { paint.stop() }
        try paint.drag(image: line(from: (50, 150), to: (350, 150), step: 4))
        try paint.waitForModified(true)
        let spot = IntRect(x: 200, y: 60, width: 1, height: 1)
        try paint.key("n", modifiers: [.control])
        try paint.waitForCloseQuestion()
        // White under a translucent gray.
        let dimmed = try paint.waitForCapture(image: spot, "the dimmed canvas") {
            let c = $0.color(x: 0, y: 0)
            return c.brightest < 230 && c.brightest > 120
        }
        try paint.drag(image: line(from: (50, 60), to: (350, 60), step: 4))
        // The question is still there and the drag painted nothing under the gray.
        try paint.waitForCloseQuestion()
        #expect(try paint.capture(image: spot).color(x: 0, y: 0) == dimmed.color(x: 0, y: 0))
        try paint.key("Escape")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Cancel")
        _ = try paint.waitForCapture(image: spot, "the canvas, undimmed") { $0.color(x: 0, y: 0) == .white }
        #expect(try paint.capture(image: IntRect(x: 200, y: 150, width: 1, height: 1)).color(x: 0, y: 0).brightest < 60)
    }
}

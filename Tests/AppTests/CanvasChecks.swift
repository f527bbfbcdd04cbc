import PaintCore
import PaintIO
import Testing
import XDriver

/// Checks shared by the end-to-end suites that compare the window and saved files with
/// expected pictures.
protocol CanvasChecks {}

extension CanvasChecks {
    /// Loads a PNG the program saved.
    func load(_ path: String) throws -> PixelImage {
        do { return try ImageFile.load(path: path) } catch {
            throw HarnessError.xRequestFailed("cannot load \(path): \(error)")
        }
    }

    /// Polls the canvas until it equals `expected` (as the visual shows it); records the
    /// differences when it never does. Returns the last capture.
    @discardableResult
    func expectCanvas(
        _ paint: PaintWindow, equals expected: PixelImage, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ScreenCapture? {
        var last: ScreenCapture?
        let equal = Wait.until(poll: .milliseconds(20)) {
            guard let shot = try? paint.captureCanvas() else { return false }
            last = shot
            return shot.image == expected || differences(screen: shot, file: expected, limit: 1).isEmpty
        }
        if !equal {
            let diff = last.map { differences(screen: $0, file: expected) } ?? ["no capture"]
            Issue.record(
                "\(what) differs from the expected pixels:\n\(diff.joined(separator: "\n"))\n\(paint.app.outputSummary)",
                sourceLocation: sourceLocation)
        }
        return last
    }

    /// Ctrl+S on a modified document, then waits until the title loses its star.
    func save(_ paint: PaintWindow) throws {
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
    }

    /// Ctrl+V once, calling `serve` (the fake clipboard owner answering) until the canvas shows
    /// `expected`; Enter, now and then, puts the floating paste down once it has arrived.
    func pasteServed(_ paint: PaintWindow, serve: () -> Void, until expected: PixelImage, _ what: String) throws {
        try paint.key("v", modifiers: [.control])
        var last: ScreenCapture?
        var polls = 0
        let pasted = Wait.until(poll: .milliseconds(5)) {
            serve()
            polls += 1
            if polls % 20 == 0 { try? paint.key("Return") }
            guard let shot = try? paint.captureCanvas() else { return false }
            last = shot
            return differences(screen: shot, file: expected, limit: 1).isEmpty
        }
        let diff = last.map { differences(screen: $0, file: expected) } ?? ["no capture"]
        #expect(pasted, "\(what) never showed:\n\(diff.joined(separator: "\n"))\n\(paint.app.outputSummary)")
    }
}

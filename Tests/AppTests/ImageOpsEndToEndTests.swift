import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

/// The picture's commands in the real program: each through its keys under Xvfb, the window
/// showing exactly what replaying the journal gives, then `kill -9`, and the next start
/// restoring that picture, at its new size, pixel for pixel.
@Suite("Image commands end to end", .serialized)
struct ImageOpsEndToEndTests {
    typealias R = RecoveryTests

    /// One command as a user gives it: the keys (after the stroke), and how many journal
    /// records it adds.
    struct Command: Sendable, CustomTestStringConvertible {
        let name: String
        let records: Int
        let keys: @Sendable (PaintWindow) throws -> Void
        var testDescription: String { name }
    }

    static func press(_ name: String, _ modifiers: KeyModifiers = [.control]) -> @Sendable (PaintWindow) throws -> Void
    {
        { try $0.key(name, modifiers: modifiers) }
    }

    static let commands: [Command] = [
        Command(name: "rotate right (Ctrl+H)", records: 1, keys: press("h")),
        Command(name: "rotate left (Ctrl+G)", records: 1, keys: press("g")),
        Command(name: "rotate 180° (Ctrl+J)", records: 1, keys: press("j")),
        Command(name: "flip horizontally (Ctrl+M)", records: 1, keys: press("m")),
        Command(name: "flip vertically (Ctrl+Shift+M)", records: 1, keys: press("m", [.control, .shift])),
        Command(name: "autocrop (Ctrl+U)", records: 1, keys: press("u")),
        Command(name: "crop to selection (S, drag, Ctrl+Shift+X)", records: 1) { paint in
            try paint.key("s")
            try paint.drag(image: [(60, 50), (200, 120), (311, 233)])
            try paint.key("x", modifiers: [.control, .shift])
        },
        Command(name: "rotate a selection (S, drag, Ctrl+H, Enter)", records: 1) { paint in
            try paint.key("s")
            try paint.drag(image: [(100, 60), (250, 200)])
            try paint.key("h", modifiers: [.control])
            try paint.key("Return")
        },
        Command(name: "scale to 50 % (Ctrl+R, Tab, Tab, 50, Enter)", records: 1) { paint in
            try paint.key("r", modifiers: [.control])
            try paint.key("Tab", times: 2)
            try paint.client.typeText("50\n")
        },
        Command(name: "canvas 500 wide, top-left anchor (Ctrl+Shift+R)", records: 1) { paint in
            try paint.key("r", modifiers: [.control, .shift])
            try paint.client.typeText("500")
            // The anchor's top-left cell, in the dialog centred over the canvas.
            let dialog = SizeDialog(kind: .canvas, width: R.size.w, height: R.size.h)
            let area = paint.layout.canvasArea
            let frame = (
                x: max(0, min(area.x + (area.width - dialog.width) / 2, paint.layout.windowWidth - dialog.width)),
                y: max(0, min(area.y + (area.height - dialog.height) / 3, paint.layout.windowHeight - dialog.height))
            )
            let cell = dialog.anchorCell(0)
            try paint.client.click(paint.window, x: frame.x + cell.x + 5, y: frame.y + cell.y + 5, button: 1)
            try paint.key("Return")
        },
    ]

    /// The canvas as the window shows it now, at the size the picture has now.
    static func captureCanvas(_ paint: PaintWindow, width: Int, height: Int) throws -> ScreenCapture {
        let layout = paint.layout.showing(imageWidth: width, imageHeight: height)
        return try paint.client.capture(paint.window, rect: layout.visibleImage)
    }

    /// Polls until the window shows `expected` (a picture of its own size); records the
    /// differences if it never does.
    static func expectCanvas(_ paint: PaintWindow, equals expected: PixelImage, _ what: String) {
        var last: ScreenCapture?
        let equal = Wait.until(poll: .milliseconds(30)) {
            guard let shot = try? captureCanvas(paint, width: expected.width, height: expected.height) else {
                return false
            }
            last = shot
            // A picture taller or wider than the window shows its top-left part (scrolled to
            // the start): that much is compared.
            let shown = expected.cropped(to: IntRect(x: 0, y: 0, width: shot.width, height: shot.height))
            return shot.image == shown || differences(screen: shot, file: shown, limit: 1).isEmpty
        }
        if !equal {
            let diff =
                last.map {
                    differences(
                        screen: $0, file: expected.cropped(to: IntRect(x: 0, y: 0, width: $0.width, height: $0.height)))
                } ?? ["no capture"]
            Issue.record("\(what) differs from the journal's replay:\n\(diff.prefix(12).joined(separator: "\n"))")
        }
    }

    @Test(
        "each command: the window shows the journal's replay; kill -9; the next start restores it", arguments: commands)
    func killNineRestoresTheChangedCanvas(command: Command) throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let expected: PixelImage
        do {
            let paint = try R().start(home, [], offer: false)
            defer { paint.stop() }
            // A stroke in black and one in translucent red: the picture is not symmetric, so
            // every turn and mirror shows.
            try R().drawStroke(paint, 0, home: home)
            try R().drawStroke(paint, 1, home: home)
            let before = try R.expectedCanvas(try R.waitForJournal(home, operations: 2, "the strokes").contents)
            try command.keys(paint)
            let (_, contents) = try R.waitForJournal(home, operations: 2 + command.records, "after \(command.name)")
            expected = try R.expectedCanvas(contents)
            #expect(expected != before, "\(command.name) changed nothing")
            Self.expectCanvas(paint, equals: expected, "the live window after \(command.name)")
            try paint.waitForModified(true)
            paint.app.killAndReap()
            #expect(paint.app.exitStatus == .signaled(SIGKILL))
        }
        let paint = try R().start(home, [], offer: true)
        defer { paint.stop() }
        try paint.key("Return")
        try paint.waitForStatus(ChromeColors.statusFill, "the status bar after Restore")
        Self.expectCanvas(paint, equals: expected, "the restored canvas after \(command.name)")
        try paint.waitForModified(true)
    }

    /// Canvas size starts with keep aspect off (as GIMP's Canvas Size): 500 typed as the
    /// width of a 400 x 300 picture gives a 500 x 300 canvas; with keep aspect on it was
    /// 500 x 375. Read back from the journal and from the window.
    @Test func canvasSizeStartsWithTheSidesFree() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let paint = try R().start(home, [], offer: false)
        defer { paint.stop() }
        try R().drawStroke(paint, 0, home: home)
        _ = try R.waitForJournal(home, operations: 1, "the stroke")
        try paint.key("r", modifiers: [.control, .shift])
        try paint.client.typeText("500\n")
        let (_, contents) = try R.waitForJournal(home, operations: 2, "after the canvas size")
        let expected = try R.expectedCanvas(contents)
        #expect(expected.width == 500 && expected.height == R.size.h, "\(expected.width) x \(expected.height)")
        Self.expectCanvas(paint, equals: expected, "the window after the canvas size")
    }

    /// A selection dragged 200 px across and 100 px down selects 200 x 100 pixels, from the
    /// pixel pressed on (it selected 201 x 101: both end pixels): cropped to it, the saved
    /// picture is exactly those pixels of the one opened. With and without MIT-SHM.
    @Test(arguments: [true, false])
    func aSelectionDraggedOver200PixelsSelects200(shm: Bool) throws {
        let dir = try scratchFolder()
        let file = dir.file("noise.png")
        let noise = ClipboardEndToEndTests.noise()
        try ImageFile.save(noise, to: file, withAlpha: false)
        let paint = try PaintWindow(
            ServerConfig(depth: 24, shm: shm), arguments: ["--no-journal", file], imageWidth: noise.width,
            imageHeight: noise.height)
        defer { paint.stop() }
        Self.expectCanvas(paint, equals: noise, "the opened noise")
        try paint.key("s")
        try paint.drag(image: [(50, 40), (150, 90), (250, 140)])
        try paint.key("x", modifiers: [.control, .shift])
        try paint.waitForModified(true)
        let expected = noise.cropped(to: IntRect(x: 50, y: 40, width: 200, height: 100))
        Self.expectCanvas(paint, equals: expected, "the window after the crop")
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)
        let saved = try ImageFile.load(path: file)
        #expect(saved.width == 200 && saved.height == 100, "\(saved.width) x \(saved.height)")
        #expect(saved == expected, "the saved crop is the dragged-over pixels")
    }
}

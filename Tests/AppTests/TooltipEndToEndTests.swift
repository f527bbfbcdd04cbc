import CX11
import PaintApp
import PaintCore
import Testing
import XDriver

/// A tooltip showing when a panel, a dialog or a menu opens from the keyboard goes at once, as it
/// does when one opens by a click; it stayed over the panel until the pointer moved.
@Suite("Tooltips end to end", .serialized)
struct TooltipEndToEndTests {
    @Test(
        "a tooltip showing goes when the keys panel, the scale dialog, the file dialog or a menu opens from the keyboard",
        arguments: ServerConfig.all.prefix(2))
    func aPanelOpenedByKeyHidesTheTooltip(config: ServerConfig) throws {
        let paint = try PaintWindow(
            config, arguments: ["--no-journal", "--size", "400x300"], imageWidth: 400, imageHeight: 300)
        defer { paint.stop() }
        let client = paint.client
        let button = paint.center(of: .tool(.brush))
        for (key, modifiers, what) in [
            ("F1", KeyModifiers(), "the keys panel"), ("r", .control, "the scale dialog"),
            ("o", .control, "the file dialog"), ("F10", KeyModifiers(), "the File menu"),
        ] {
            // Keys go to the window under the pointer (no window manager): it rests on the button.
            client.moveMouse(toWindow: paint.window, x: button.0, y: button.1)
            try Wait.require("\(config): the brush's tooltip before \(what)") {
                !WindowSizesEndToEndTests.overrideRedirectWindows(client, besides: paint.window).isEmpty
            }
            try client.key(key, modifiers: modifiers)
            try Wait.require("\(config): the tooltip gone once \(what) opened") {
                WindowSizesEndToEndTests.overrideRedirectWindows(client, besides: paint.window).isEmpty
            }
            if what == "the file dialog" { try paint.waitForFileDialog() }
            try client.key("Escape")
            if what == "the file dialog" { try paint.waitForFileDialogClosed() }
            try paint.roundTrip()
        }
        #expect(paint.app.isRunning)
    }
}

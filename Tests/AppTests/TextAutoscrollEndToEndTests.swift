import Foundation
import PaintApp
import PaintCore
import PaintIO
import PaintText
import Testing
import XDriver

/// A drag selecting text in the real window, held still past the canvas's edge: the picture
/// keeps scrolling on the window's timer (one motion moves it by the overshoot only), and the
/// selection runs on with it.
@Suite("Text drag held past the edge end to end", .serialized)
struct TextAutoscrollEndToEndTests: CanvasChecks {
    typealias Text = TextEndToEndTests
    typealias Primary = TextPrimaryEndToEndTests

    /// Taller than the window, with a red band at its bottom, seen only once scrolled there.
    static let size = (w: 400, h: 3000)
    static let red = Color(r: 0xE0, g: 0x10, b: 0x10)

    @Test("the pointer held still below the canvas scrolls to the picture's end", arguments: ServerConfig.all.prefix(2))
    func heldBelowTheCanvas(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let file = dir.file("wide.png")
        var picture = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)
        for y in (Self.size.h - 40)..<Self.size.h {
            for x in 0..<Self.size.w { picture[x, y] = Self.red.pixel }
        }
        try Data(PNGCodec.encode(picture, withAlpha: false)).write(to: URL(fileURLWithPath: file))
        // At 100 %, so that the text has a picture to run down (fitted, it would fit the window).
        try openLargePicturesAtActualSize(home: dir.path)
        let paint = try PaintWindow(
            config, arguments: [file], imageWidth: Self.size.w, imageHeight: Self.size.h, home: dir.path)
        defer { paint.stop() }
        let area = paint.layout.canvasArea
        let origin = paint.client.toScreen(paint.window, x: 0, y: 0)
        try #require(origin.y + area.maxY + 30 < 768, "room on the screen below the canvas: \(area) at \(origin)")
        try Text.typeInNewBox(paint, Primary.typed, x: 30, y: 40)
        // Pressed in "alpha", then one motion to 30 px below the canvas, and held there.
        let alpha = try Primary.point(paint, Primary.typed, line: 0, offset: 2)
        paint.client.moveMouse(toWindow: paint.window, x: alpha.0, y: alpha.1)
        paint.client.press()
        paint.client.moveMouse(toWindow: paint.window, x: alpha.0, y: area.maxY + 30)
        // One motion scrolls 30 px; only the repeats reach the red band 2,960 px down.
        let bottom = IntRect(x: paint.layout.visibleImage.x + 10, y: area.maxY - 20, width: 40, height: 20)
        _ = try paint.client.waitForCapture(paint.window, rect: bottom, "\(config): the picture's bottom") { shot in
            shot.count { ScreenCapture.matches($0, Self.red, tolerance: config.tolerance) } == bottom.width
                * bottom.height
        }
        paint.client.release()
        // The selection ran on with the picture: from "al" to the place on the last line nearest
        // the pointer (below the text, level with "al"), offered as PRIMARY at the release.
        let typesetter = try #require(Typesetter())
        let layout = typesetter.layout(Primary.typed, font: .standard)
        let x = layout.caret(line: 0, offset: 2).x
        let under = try #require(
            (0...5).min { abs(layout.caret(line: 1, offset: $0).x - x) < abs(layout.caret(line: 1, offset: $1).x - x) })
        var last = ""
        #expect(
            Primary().waitForPrimary(paint, "pha beta\n" + "gamma".prefix(under), &last),
            "\(config): PRIMARY after the held drag: “\(last)”")
        #expect(paint.app.isRunning)
    }
}

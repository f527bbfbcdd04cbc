import PaintApp
import PaintCore
import Testing

/// A text box typed near the picture's edge: its frame and caret show over the gray beyond it,
/// where the text runs off the picture (they were cut at the picture's edge, so the caret of a
/// line typed past it could not be seen), and they leave nothing there once the box goes.
extension TextEndToEndTests {
    @Test(
        "a box typed past the picture's right edge shows its frame and caret over the gray; gone, the gray is clean",
        arguments: ServerConfig.all.prefix(2))
    func boxPastThePicturesEdge(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let paint = try start(config, dir.file("edge.png"))
        defer { paint.stop() }
        let image = paint.layout.visibleImage
        let area = paint.layout.canvasArea
        try #require(area.maxX - image.maxX >= 80, "gray right of the picture: \(image) in \(area)")
        try paint.key("t")
        try paint.click(imageX: Self.size.w - 60, imageY: 100)
        paint.parkPointer()
        try paint.client.typeText("Wide words")
        // Right of the picture, level with the box: the gray, with the caret and the frame on it.
        let beyond = IntRect(x: image.maxX, y: image.y + 90, width: 80, height: 60)
        _ = try paint.client.waitForCapture(paint.window, rect: beyond, "\(config): the caret over the gray") {
            shot in shot.count { !ScreenCapture.matches($0, Theme.surround, tolerance: config.tolerance) } > 20
        }
        try paint.key("Escape")
        _ = try paint.client.waitForCapture(paint.window, rect: beyond, "\(config): the gray clean again") { shot in
            shot.count { !ScreenCapture.matches($0, Theme.surround, tolerance: config.tolerance) } == 0
        }
        // A box dragged wholly off the picture, onto the gray, then dropped: nothing stays there.
        try paint.click(imageX: Self.size.w - 60, imageY: 100)
        paint.parkPointer()
        try paint.client.typeText("Off")
        // By its frame, 3 px left of the text (a drag over the text selects).
        try paint.drag(image: line(from: (Self.size.w - 63, 110), to: (Self.size.w + 27, 110), step: 5))
        _ = try paint.client.waitForCapture(paint.window, rect: beyond, "\(config): the dragged box on the gray") {
            shot in shot.count { !ScreenCapture.matches($0, Theme.surround, tolerance: config.tolerance) } > 20
        }
        paint.parkPointer()
        try paint.key("Escape")
        _ = try paint.client.waitForCapture(paint.window, rect: beyond, "\(config): no frame left on the gray") {
            shot in shot.count { !ScreenCapture.matches($0, Theme.surround, tolerance: config.tolerance) } == 0
        }
        #expect(paint.app.isRunning)
    }
}

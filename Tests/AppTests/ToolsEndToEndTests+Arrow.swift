import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

extension ToolsEndToEndTests {
    /// The arrow through the real program: A chooses it, a drag draws it with its head where the
    /// drag ends, Ctrl+S saves it, and the PNG holds it as the window showed it.
    @Test("arrow: A, a drag, Ctrl+S: the PNG has the head at the drag's end, a sharp tip, the shaft behind it")
    func arrowDrawnAndSaved() throws {
        let dir = try scratchFolder()
        let file = dir.file("arrow.png")
        let paint = try start(Self.config, [file])
        defer { paint.stop() }
        let driver = ToolsDriver(paint)
        try driver.key("a", "a")
        try driver.key("bracketright", "]")
        #expect(driver.replay().settings.tool == .arrow)
        // Left to right and up, overshooting on the way: only the final drag is drawn.
        let path = [(40, 250), (200, 40), (120, 200), (341, 60)]
        try driver.drag(path)
        let png = try saveAndCheck(driver, file, "arrow")
        #expect(paint.title == "arrow.png — SwiftPaint")

        // Independent of the replay, from the file: along the drag from (40, 250) to (341, 60).
        let (ax, ay) = (40.5, 250.5)
        let (bx, by) = (341.5, 60.5)
        let length = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
        let (ux, uy) = ((bx - ax) / length, (by - ay) / length)
        func at(_ along: Double, _ side: Double = 0) -> Color {
            let x = bx + along * ux - side * uy
            let y = by + along * uy + side * ux
            return png.color(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
        }
        #expect(at(0) != .white, "the tip pixel is not inked")
        #expect(at(3) == .white, "ink past the tip")
        // Width 6 after `]`: the head is 27 px long and 22.7 px across at its back.
        let width = driver.replay().settings.brushWidth
        let head = ArrowHead.lengthFactor * width
        #expect(at(-0.5 * head) == .black, "the head's middle is not solid")
        #expect(at(-0.8 * head, width / 2 + 3) == .black, "the head is no wider than the shaft")
        #expect(at(-0.8 * head, -(width / 2 + 3)) == .black, "the head is lopsided")
        #expect(at(-150) == .black, "the shaft")
        #expect(at(-150, width / 2 + 3) == .white, "beside the shaft")
        #expect(png.color(x: 200, y: 40) == .white, "the preview on the way left paint")
    }
}

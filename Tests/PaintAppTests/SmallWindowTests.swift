import PaintCore
import Testing

@testable import PaintApp

/// A window smaller than the 640 x 480 the program asks for (no window manager holds it there):
/// the toolbar keeps two rows, the recent colors and the actions behind "»", so the canvas keeps
/// its room; "»" shows them in a third row and they work there. Before, at 420 x 320 the toolbar
/// took four rows and left the canvas 3 px tall.
@Suite struct SmallWindowTests {
    typealias T = SessionTests

    @Test(arguments: [(420, 320), (500, 400)])
    func theCanvasKeepsItsRoomAndMoreShowsTheRest(width: Int, height: Int) {
        let s = T.makeSession(width: 800, height: 600, windowWidth: width, windowHeight: height)
        #expect(s.layout.controls.rows == 2 && s.layout.controls.hasMore)
        #expect(s.layout.canvasArea.height >= height / 3, "the canvas is \(s.layout.canvasArea.height) px tall")
        #expect(s.layout.rect(of: .recent(0)).isEmpty)
        let more = s.layout.rect(of: .more)
        #expect(!more.isEmpty)
        // A stroke, then "»" and the undo button it shows.
        T.drag(s, [(10, 10), (60, 30)])
        let drawn = Array(s.engine.viewPixels)
        let canvasBefore = s.layout.canvasArea.height
        T.click(s, .more)
        #expect(s.layout.controls.rows == 3 && s.layout.controls.expanded)
        #expect(s.layout.canvasArea.height < canvasBefore, "the row is the canvas's, not over it")
        for item in ToolbarLayout.allItems {
            #expect(!s.layout.rect(of: item).isEmpty, "\(item) has no place with “»” open")
        }
        #expect(Array(s.engine.viewPixels) == drawn)
        T.click(s, .undo)
        #expect(Array(s.engine.viewPixels) != drawn, "undo in the row “»” showed did nothing")
        #expect(s.engine.viewPixels.allSatisfy { $0 == Color.white.pixel })
        // It stays open across a resize that still needs it; "»" hides it again.
        s.handle(.resize(width: width + 10, height: height))
        #expect(s.layout.controls.expanded)
        T.click(s, .more)
        #expect(s.layout.controls.rows == 2 && !s.layout.controls.expanded)
        #expect(s.layout.canvasArea.height == canvasBefore)
        // A window wide enough for two rows has nothing behind "»".
        s.handle(.resize(width: 700, height: 500))
        #expect(!s.layout.controls.hasMore && s.layout.rect(of: .more).isEmpty)
        #expect(!s.layout.rect(of: .recent(0)).isEmpty && !s.layout.rect(of: .save).isEmpty)
    }
}

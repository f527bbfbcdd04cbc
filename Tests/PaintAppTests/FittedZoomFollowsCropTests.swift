import PaintCore
import Testing

@testable import PaintApp

/// A picture opened fitted to the window is fitted again when its size changes (a crop, a
/// turn, their undo), at most 100 % as on open; a zoom the user chose stays as it was.
@Suite struct FittedZoomFollowsCropTests {
    typealias T = SessionTests

    /// A 4000 x 3000 picture opened fitted in a 1200 x 900 window, as Open installs one.
    static func fittedPhoto() -> Session {
        let s = T.makeSession(width: 120, height: 80, windowWidth: 1200, windowHeight: 900)
        s.fitLargePictures = true
        let photo = Document(engine: StrokeEngine(width: 4000, height: 3000), history: History(base: nil), path: nil)
        s.install(photo, message: "", journal: nil, anotherPicture: true)
        return s
    }

    @Test func croppingAFittedPhotoShowsTheCropFittedAgain() {
        let s = Self.fittedPhoto()
        let fitted = s.layout.zoom
        #expect(fitted < Zoom(1, 3), "opened at \(fitted)")
        s.setSelection(IntRect(x: 1000, y: 800, width: 700, height: 500))
        s.run(.cropToSelection)
        #expect(s.engine.width == 700 && s.engine.height == 500)
        #expect(s.layout.zoom == .actualSize, "cropped at \(s.layout.zoom)")
        // Undo brings the whole photo back fitted, redo the crop at 100 %.
        s.undo()
        #expect(s.engine.width == 4000 && s.layout.zoom == fitted, "undone at \(s.layout.zoom)")
        s.redo()
        #expect(s.engine.width == 700 && s.layout.zoom == .actualSize, "redone at \(s.layout.zoom)")
        // A turn of a fitted picture taller than the window fits it again.
        s.undo()
        s.run(.rotateRight)
        #expect(s.engine.width == 3000 && s.layout.zoom == s.layout.fitZoom(), "turned at \(s.layout.zoom)")
    }

    @Test func aZoomTheUserChoseStaysAfterACrop() {
        let s = Self.fittedPhoto()
        s.zoom(by: 1)
        let chosen = s.layout.zoom
        s.setSelection(IntRect(x: 1000, y: 800, width: 700, height: 500))
        s.run(.cropToSelection)
        #expect(s.engine.width == 700 && s.layout.zoom == chosen, "cropped at \(s.layout.zoom)")
        s.undo()
        #expect(s.engine.width == 4000 && s.layout.zoom == chosen)
        // Fit to Window makes the zoom a fitted one again.
        s.zoom(to: s.layout.fitZoom(enlarge: true))
        #expect(!s.zoomFitted)
        _ = T.key(s, "J", [.control, .shift])
        #expect(s.zoomFitted)
        s.redo()
        #expect(s.engine.width == 700 && s.layout.zoom == .actualSize, "redone at \(s.layout.zoom)")
    }
}

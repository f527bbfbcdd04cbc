import PaintCore
import Testing

@testable import PaintApp

/// A picture opened fitted to the window is fitted again when its size changes (a crop, a
/// turn, their undo), at most 100 % as on open, and when the window's size changes; a zoom the
/// user chose stays as it was.
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

    @Test func aFittedPhotoIsFittedAgainWhenTheWindowIsResized() {
        let s = Self.fittedPhoto()
        let opened = s.layout.zoom
        s.handle(.resize(width: 800, height: 600))
        #expect(s.layout.windowWidth == 800 && s.layout.zoom == s.layout.fitZoom(), "at \(s.layout.zoom)")
        #expect(s.layout.zoom < opened && s.zoomFitted)
        #expect(s.layout.horizontalScrollbar == nil && s.layout.verticalScrollbar == nil, "the whole photo shows")
        // Larger than the photo: at most 100 %, as on open.
        s.handle(.resize(width: 5000, height: 4000))
        #expect(s.layout.zoom == .actualSize, "at \(s.layout.zoom)")
        s.handle(.resize(width: 1200, height: 900))
        #expect(s.layout.zoom == opened, "back at \(s.layout.zoom)")
        // Still fitted: a crop fits again too.
        s.setSelection(IntRect(x: 1000, y: 800, width: 700, height: 500))
        s.run(.cropToSelection)
        #expect(s.layout.zoom == .actualSize && s.zoomFitted)
    }

    @Test func aZoomTheUserChoseStaysWhenTheWindowIsResized() {
        let s = Self.fittedPhoto()
        s.zoom(by: -1)
        let chosen = s.layout.zoom
        s.handle(.resize(width: 800, height: 600))
        #expect(s.layout.zoom == chosen && !s.zoomFitted, "at \(s.layout.zoom)")
        // A picture opened at 100 % stays there too.
        let t = T.makeSession(width: 300, height: 200, windowWidth: 1200, windowHeight: 900)
        t.handle(.resize(width: 800, height: 600))
        #expect(t.layout.zoom == .actualSize)
    }

    @Test func fitToWindowEnlargesASmallPictureAgainWhenTheWindowIsResized() {
        let s = T.makeSession(width: 300, height: 200, windowWidth: 1200, windowHeight: 900)
        _ = T.key(s, "J", [.control, .shift])
        let fitted = s.layout.zoom
        #expect(fitted > Zoom(3, 1), "fitted at \(fitted)")
        s.handle(.resize(width: 1600, height: 1200))
        #expect(s.layout.zoom > fitted && s.layout.zoom == s.layout.fitZoom(enlarge: true), "at \(s.layout.zoom)")
        s.handle(.resize(width: 700, height: 500))
        #expect(s.layout.zoom < fitted && s.layout.zoom == s.layout.fitZoom(enlarge: true), "at \(s.layout.zoom)")
        // A zoom chosen after it stays.
        s.zoom(by: 1)
        let chosen = s.layout.zoom
        s.handle(.resize(width: 1200, height: 900))
        #expect(s.layout.zoom == chosen)
    }
}

import PaintCore
import Testing

@testable import PaintApp

/// The point a brush or shape paints at, zoomed in: on the picture pixel under the pointer.
@Suite struct PixelSnapTests {
    @Test func zoomedInAnOddWidthIsCentredOnThePixelAndAnEvenOneOnTheNearestCorner() {
        let zoom = Zoom(16)
        // Anywhere in pixel (10, 7): its centre for 1 and 3 px.
        for p in [Point(x: 10.03125, y: 7.03125), Point(x: 10.96875, y: 7.96875), Point(x: 10.5, y: 7.2)] {
            #expect(PixelSnap.point(p, width: 1, zoom: zoom) == Point(x: 10.5, y: 7.5))
            #expect(PixelSnap.point(p, width: 3, zoom: zoom) == Point(x: 10.5, y: 7.5))
        }
        // 2 and 4 px: the nearest pixel corner.
        #expect(PixelSnap.point(Point(x: 10.2, y: 7.8), width: 2, zoom: zoom) == Point(x: 10, y: 8))
        #expect(PixelSnap.point(Point(x: 10.7, y: 7.3), width: 4, zoom: Zoom(3, 2)) == Point(x: 11, y: 7))
    }

    @Test func atActualSizeAndBelowThePointsAreLeftSmooth() {
        let p = Point(x: 10.25, y: 7.75)
        for zoom in [Zoom(1), Zoom(2, 3), Zoom(1, 8)] {
            #expect(PixelSnap.point(p, width: 1, zoom: zoom) == p)
        }
    }
}

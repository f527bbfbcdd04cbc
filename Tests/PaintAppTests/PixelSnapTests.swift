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

    /// A pen whose pressure sets the width, zoomed in: the point is put on the picture pixel
    /// by the width drawn there. A 4 px brush pressed at three quarters draws (almost exactly)
    /// 3 px, so its click is centred on the pixel clicked, as a 3 px click is, and paints it and
    /// its four neighbours alike; a 3 px brush pressed at two thirds draws 2 px, on the nearest
    /// pixel corner, and paints exactly what a 2 px click paints. Before, the point went by the
    /// set width: the 3 px dot sat on a corner, half a pixel off.
    @Test func aPenWhosePressureSetsTheWidthIsSnappedByTheWidthDrawn() {
        typealias T = SessionTests
        /// One click in picture pixel (10, 7) at 1600 %, `width` px, with `pressure` from a pen
        /// (nil: a mouse): the paint and the stroke's recorded point.
        func click(width: Double, pressure: Double?) -> (paint: PixelImage, point: Point?) {
            let (s, sink) = T.recordingSession(width: 24, height: 16)
            s.zoom(to: Zoom(16))
            s.settings.setWidth(width)
            let o = s.layout.imageOrigin
            let (x, y) = (o.x + 10 * 16 + 3, o.y + 7 * 16 + 5)
            let sample = pressure.map {
                PointerSample(x: Double(x) + 0.25, y: Double(y) + 0.25, pressure: $0, eraser: false)
            }
            s.handle(.press(x: x, y: y, button: .left, modifiers: [], sample: sample))
            s.handle(.release(x: x, y: y, button: .left, modifiers: []))
            guard case .stroke(_, let points, _)? = sink.operations.last else { return (s.engine.paintImage(), nil) }
            return (s.engine.paintImage(), points.first)
        }
        let three = click(width: 3, pressure: nil)
        #expect(three.point == Point(x: 10.5, y: 7.5))
        let pressed = click(width: 4, pressure: 0.75)
        #expect(pressed.point == Point(x: 10.5, y: 7.5), "\(String(describing: pressed.point))")
        let paint = pressed.paint
        let neighbours = [paint[9, 7], paint[11, 7], paint[10, 6], paint[10, 8]]
        #expect(paint[10, 7] >> 24 == 255 && neighbours.allSatisfy { $0 == neighbours[0] && $0 >> 24 > 128 })
        #expect(paint[12, 7] == 0 && paint[8, 7] == 0 && paint[10, 9] == 0 && paint[10, 5] == 0)
        let two = click(width: 2, pressure: nil)
        let light = click(width: 3, pressure: 2.0 / 3)
        #expect(two.point == Point(x: 10, y: 7) && light.point == two.point, "\(String(describing: light.point))")
        #expect(light.paint == two.paint, "a 3 px pen at 2/3 paints as a 2 px click")
    }
}

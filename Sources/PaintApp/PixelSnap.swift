import PaintCore

/// Where a brush, eraser or shape goes when the picture is zoomed in past 100 %: the point the
/// pointer's screen pixel maps to, put where a stroke of its width covers whole picture pixels.
///
/// Zoomed in, one picture pixel spans many screen pixels and the user aims at a picture pixel:
/// at 1600 % a click with a 1 px brush must paint exactly the pixel clicked, as MS Paint,
/// KolourPaint, mtPaint and GIMP's pencil paint it. The pointer's own place inside that pixel
/// (from 1/32 to 31/32 of it at 1600 %) put a 1 px disc off its centre, tinting the right and
/// lower neighbours. So an odd width is centred on the picture pixel under the pointer (a 1 px
/// dot is that pixel, a 3 px one that pixel and its four neighbours, the corners anti-aliased)
/// and an even width on the pixel corner nearest it (a 2 px dot is the 2 x 2 pixels round
/// it): the rule a rectangle's sides are already drawn by (`StrokeEngine.pixelAligned`). At
/// 100 % and below a screen pixel is a picture pixel or more, and the points are left as they
/// are, so strokes stay smooth.
enum PixelSnap {
    /// `point` as a stroke or shape `width` wide uses it at `zoom` (see the type).
    static func point(_ point: Point, width: Double, zoom: Zoom) -> Point {
        guard zoom.numerator > zoom.denominator else { return point }
        // A rectangle's corner is aligned exactly so: the one rule for both, kept in the engine.
        let corner = ShapeSpec(kind: .rectangle, from: point, to: point, filled: false)
        return StrokeEngine.pixelAligned(corner, width: max(1, width.rounded())).from
    }
}

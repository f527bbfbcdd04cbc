@testable import PaintCore

/// Shared helpers for engine tests: strokes from point lists, pixel reads. (Pictures as text
/// are in TestSupport: `PixelPictures`.)
enum EngineTestSupport {
    /// Draws one stroke through `points` (pixel units); returns the view captured just before
    /// release, so tests can compare the preview with the merged result.
    @discardableResult
    static func draw(_ engine: StrokeEngine, _ style: StrokeStyle, _ points: [(Double, Double)]) -> [UInt32] {
        guard let first = points.first else { return [] }
        engine.begin(style, at: Point(x: first.0, y: first.1))
        for p in points.dropFirst() { engine.move(to: Point(x: p.0, y: p.1)) }
        let preview = Array(engine.viewPixels)
        engine.end()
        return preview
    }

    /// The red channel of the view at (x, y).
    static func red(_ engine: StrokeEngine, _ x: Int, _ y: Int) -> Int {
        Int(engine.viewPixel(x: x, y: y).map { $0 >> 16 & 0xFF } ?? 999)
    }

    /// Points along a parametric curve, `count` samples for t in 0...1.
    static func curve(_ count: Int, _ f: (Double) -> (Double, Double)) -> [(Double, Double)] {
        (0..<count).map { f(Double($0) / Double(count - 1)) }
    }
}

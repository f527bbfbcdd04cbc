/// A change to the canvas itself rather than to its paint: its size or its orientation. The
/// operation `.canvas` carries one; the history keeps the whole picture before a change it
/// cannot undo by computation.
public enum CanvasChange: Hashable, Sendable, CustomStringConvertible {
    /// The canvas becomes this rectangle of the old one: a crop when it lies inside, a larger
    /// canvas (the new area unpainted) when it reaches outside. Crop to selection, autocrop and
    /// the canvas size dialog all record this.
    case resize(IntRect)
    /// The picture scaled to width x height.
    case scale(width: Int, height: Int)
    /// The picture turned a quarter or half, or mirrored.
    case orient(Orientation)

    /// Carries the change out on `engine`; returns the new bounds, or empty when the engine
    /// refused it (beyond the limits, or no change at all).
    @discardableResult
    public func apply(to engine: StrokeEngine) -> IntRect {
        switch self {
        case .resize(let rect): return engine.resizeCanvas(to: rect)
        case .scale(let w, let h): return engine.scalePicture(toWidth: w, height: h)
        case .orient(let o): return engine.orient(o)
        }
    }

    /// The change that undoes this one exactly by computation (turns and mirrors), else nil:
    /// a crop or a scale loses pixels, so the history keeps the picture from before it.
    public var inverse: CanvasChange? {
        if case .orient(let o) = self { return .orient(o.inverse) }
        return nil
    }

    /// The size of a width x height canvas after the change.
    public func size(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .resize(let rect): return (rect.width, rect.height)
        case .scale(let w, let h): return (w, h)
        case .orient(let o): return o.size(width: width, height: height)
        }
    }

    /// Where a point of a width x height canvas lands after the change (image coordinates):
    /// a past stroke's outline drawn over the picture as it is now.
    public func map(_ p: Point, width: Int, height: Int) -> Point {
        switch self {
        case .resize(let rect):
            return Point(x: p.x - Double(rect.x), y: p.y - Double(rect.y))
        case .scale(let w, let h):
            return Point(x: p.x * Double(w) / Double(max(1, width)), y: p.y * Double(h) / Double(max(1, height)))
        case .orient(let o):
            return o.map(p, width: width, height: height)
        }
    }

    /// Where a point of the canvas after the change was before it, on a width x height canvas
    /// (the size before): a click on the picture as it is now, taken back to a past stroke.
    public func unmap(_ p: Point, width: Int, height: Int) -> Point {
        switch self {
        case .resize(let rect):
            return Point(x: p.x + Double(rect.x), y: p.y + Double(rect.y))
        case .scale(let w, let h):
            return Point(x: p.x * Double(width) / Double(max(1, w)), y: p.y * Double(height) / Double(max(1, h)))
        case .orient(let o):
            let after = o.size(width: width, height: height)
            return o.inverse.map(p, width: after.width, height: after.height)
        }
    }

    /// In words: "canvas 120 × 80 at 10, -5", "scale to 60 × 40", "rotated right".
    public var description: String {
        switch self {
        case .resize(let rect): return "canvas \(rect.width) × \(rect.height) at \(rect.x), \(rect.y)"
        case .scale(let w, let h): return "scale to \(w) × \(h)"
        case .orient(let o): return o.description
        }
    }
}

/// A piece of text as it was put down: the coverage it drew, which replay lays down again bit
/// for bit on any machine (whatever fonts and FreeType it has), and what it was typed as, so it
/// can be shown and edited again.
public struct TextSpec: Hashable, Sendable {
    /// The rendered coverage, placed on the canvas (clipped to it when committed).
    public var mask: CoverageMask
    /// The text as typed; lines are separated by "\n".
    public var text: String
    /// The font it was set in.
    public var font: TextFont
    /// The text box's top-left corner (the glyphs can hang outside the box).
    public var x: Int
    public var y: Int

    /// Makes a spec.
    public init(mask: CoverageMask, text: String, font: TextFont, x: Int, y: Int) {
        self.mask = mask
        self.text = text
        self.font = font
        self.x = x
        self.y = y
    }

    /// The most bytes of UTF-8 a decoded text or family name may have.
    public static let maximumTextBytes = 1 << 16
    public static let maximumFamilyBytes = 1024

    /// Whether `point` lies on the text's ink or within `reach` pixels of it: the stroke
    /// eraser's hit test. Looks at the (2 reach + 1)² pixels around the point only.
    public func isHit(by point: Point, reach: Double) -> Bool {
        guard point.isFinite else { return false }
        let r = Int(max(0, min(reach, 64)).rounded(.up))
        let px = Int(clamping: point.x, .down)
        let py = Int(clamping: point.y, .down)
        guard mask.bounds.intersection(IntRect(x: px - r, y: py - r, width: 2 * r + 1, height: 2 * r + 1)).area > 0
        else { return false }
        for y in (py - r)...(py + r) {
            for x in (px - r)...(px + r) where mask.coverage(atX: x, y: y) >= 64 {
                let dx = Double(x) + 0.5 - point.x
                let dy = Double(y) + 0.5 - point.y
                if (dx * dx + dy * dy).squareRoot() <= reach + 0.5 { return true }
            }
        }
        return false
    }

    /// The box around the ink, as a closed polyline (the stroke eraser's hover outline).
    public var outline: [Point] {
        let b = mask.bounds
        let (x0, y0, x1, y1) = (Double(b.x), Double(b.y), Double(b.maxX), Double(b.maxY))
        return [
            Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1), Point(x: x0, y: y0),
        ]
    }
}

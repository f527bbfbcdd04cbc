import Glibc

extension ShapeSpec {
    /// A polyline along the shape drawn `width` wide, for a hover outline: an arrow's goes
    /// along the shaft and round its head.
    func outline(width: Double) -> [Point] {
        let x0 = min(from.x, to.x)
        let x1 = max(from.x, to.x)
        let y0 = min(from.y, to.y)
        let y1 = max(from.y, to.y)
        switch kind {
        case .line, .dashedLine:
            return [from, to]
        case .arrow, .dashedArrow:
            guard let head = ArrowHead(from: from, to: to, width: width) else { return [from, to] }
            return [from, head.base, head.left, head.tip, head.right, head.base]
        case .rectangle:
            return [
                Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1), Point(x: x0, y: y0),
            ]
        case .ellipse:
            let cx = (x0 + x1) / 2
            let cy = (y0 + y1) / 2
            return (0...48).map { k in
                let t = Double(k) / 48 * 2 * Double.pi
                return Point(x: cx + (x1 - x0) / 2 * cos(t), y: cy + (y1 - y0) / 2 * sin(t))
            }
        }
    }

    /// Whether `point` lies within `reach` of the shape's outline (or inside a filled one): the
    /// stroke eraser's hit test. A rectangle with `squareCorners` (drawing version 2) reaches
    /// into its corners' squares as it is drawn; a round-cornered one only within `reach` of a side.
    /// An arrow drawn `width` wide is hit on its shaft or within `reach - width / 2` of its head.
    func isHit(by point: Point, reach: Double, width: Double = 1, squareCorners: Bool = false) -> Bool {
        let x0 = min(from.x, to.x)
        let x1 = max(from.x, to.x)
        let y0 = min(from.y, to.y)
        let y1 = max(from.y, to.y)
        switch kind {
        case .line, .dashedLine:
            return Capsule(from: from, to: to, width: 0).distance(point.x, point.y) <= reach
        case .arrow, .dashedArrow:
            if Capsule(from: from, to: to, width: 0).distance(point.x, point.y) <= reach { return true }
            guard let head = ArrowHead(from: from, to: to, width: width) else { return false }
            return head.depth(of: point) >= -max(0, reach - width / 2)
        case .rectangle where squareCorners:
            let dx = abs(point.x - (x0 + x1) / 2)
            let dy = abs(point.y - (y0 + y1) / 2)
            let hx = (x1 - x0) / 2
            let hy = (y1 - y0) / 2
            let inBand = dx <= hx + reach && dy <= hy + reach
            return inBand && (filled || !(dx < hx - reach && dy < hy - reach))
        case .rectangle:
            let inside = point.x >= x0 && point.x <= x1 && point.y >= y0 && point.y <= y1
            if filled && inside { return true }
            let corners = [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
            return zip(corners, corners.dropFirst() + [corners[0]]).contains {
                Capsule(from: $0.0, to: $0.1, width: 0).distance(point.x, point.y) <= reach
            }
        case .ellipse:
            let a = max((x1 - x0) / 2, 0.5)
            let b = max((y1 - y0) / 2, 0.5)
            let dx = (point.x - (x0 + x1) / 2) / a
            let dy = (point.y - (y0 + y1) / 2) / b
            let r = (dx * dx + dy * dy).squareRoot()
            if filled && r <= 1 { return true }
            // Distance to the curve, roughly: the radial gap scaled by the smaller semi-axis.
            return abs(r - 1) * min(a, b) <= reach
        }
    }
}

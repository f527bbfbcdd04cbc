import PaintCore

/// Anti-aliased 2-D drawing into an opaque pixel image, for the toolbar, status bar and icons.
///
/// Every shape is a coverage function of the pixel centre (a signed distance, clamped to one
/// pixel of ramp), blended source-over; the chrome is small and redrawn only when it changes, so
/// clarity wins over speed here.
public struct ChromePainter {
    /// The pixels drawn so far (opaque, see `Pixel`).
    public private(set) var image: PixelImage
    /// Added to every coordinate: lets callers draw in window coordinates into a strip.
    public var offsetX = 0.0
    public var offsetY = 0.0
    /// Shapes are drawn scaled by this factor about `scaleOrigin` (icons are designed in a 40 px
    /// box and drawn smaller); the one-pixel anti-aliasing ramp stays one device pixel wide.
    var scale = 1.0
    var scaleOrigin = (x: 0.0, y: 0.0)

    /// A canvas of the given size filled with `background`.
    public init(width: Int, height: Int, background: Color) {
        image = PixelImage(width: width, height: height, fill: background.pixel)
    }

    /// Blends `color` at `alpha` times the coverage the closure gives for each pixel centre in
    /// `box` (window coordinates).
    mutating func shade(
        _ box: (x0: Double, y0: Double, x1: Double, y1: Double), _ color: Color, alpha: Double = 1,
        coverage: (Double, Double) -> Double
    ) {
        let s = scale
        let o = scaleOrigin
        let x0 = max(0, Int(((box.x0 - o.x) * s + o.x + offsetX).rounded(.down)))
        let y0 = max(0, Int(((box.y0 - o.y) * s + o.y + offsetY).rounded(.down)))
        let x1 = min(image.width - 1, Int(((box.x1 - o.x) * s + o.x + offsetX).rounded(.up)))
        let y1 = min(image.height - 1, Int(((box.y1 - o.y) * s + o.y + offsetY).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        let source = color.pixel
        let (offsetX, offsetY, width) = (offsetX, offsetY, image.width)
        // Through the pixels' buffer: `image[x, y]` is a call into PaintCore per access (the
        // first frame's toolbar, menu bar and scrollbars made 12 million instructions of them).
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in y0...y1 {
                let row = y * width
                for x in x0...x1 {
                    let dx = Double(x) + 0.5 - offsetX
                    let dy = Double(y) + 0.5 - offsetY
                    var c = coverage((dx - o.x) / s + o.x, (dy - o.y) / s + o.y)
                    // Coverage is "half a pixel minus a distance" in the drawing's units: rescale
                    // the distance so the edge ramp is one device pixel.
                    // (Clamped coverage of 0 means "outside": it stays 0.)
                    if s != 1 && c > 0 { c = (c - 0.5) * s + 0.5 }
                    c *= alpha
                    guard c > 0 else { continue }
                    let a = UInt32(min(c, 1) * 255 + 0.5)
                    pixels[row + x] = Pixel.blend(pixels[row + x], source: source, alpha: a)
                }
            }
        }
    }

    /// Fills a rectangle with sharp pixel edges.
    public mutating func fill(_ r: IntRect, _ color: Color) {
        let clipped = IntRect(x: r.x + Int(offsetX), y: r.y + Int(offsetY), width: r.width, height: r.height)
            .intersection(IntRect(x: 0, y: 0, width: image.width, height: image.height))
        guard !clipped.isEmpty else { return }
        let (pixel, width) = (color.pixel, image.width)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            for y in clipped.y..<clipped.maxY {
                (base + y * width + clipped.x).update(repeating: pixel, count: clipped.width)
            }
        }
    }

    /// Fills a vertical gradient from `top` to `bottom`.
    public mutating func gradient(_ r: IntRect, top: Color, bottom: Color) {
        for row in 0..<max(0, r.height) {
            let t = r.height > 1 ? Double(row) / Double(r.height - 1) : 0
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - t) + Double(b) * t).rounded()) }
            fill(
                IntRect(x: r.x, y: r.y + row, width: r.width, height: 1),
                Color(r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b)))
        }
    }

    /// Signed distance from (px, py) to a rounded box (negative inside).
    static func roundedBoxDistance(
        _ px: Double, _ py: Double, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ radius: Double
    ) -> Double {
        let hx = w / 2
        let hy = h / 2
        let qx = abs(px - (x + hx)) - (hx - radius)
        let qy = abs(py - (y + hy)) - (hy - radius)
        let ox = max(qx, 0)
        let oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
    }

    /// Fills a rounded rectangle (anti-aliased).
    public mutating func fillRoundedRect(
        _ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, _ color: Color, alpha: Double = 1
    ) {
        shade((x - 1, y - 1, x + w + 1, y + h + 1), color, alpha: alpha) { px, py in
            0.5 - Self.roundedBoxDistance(px, py, x, y, w, h, radius)
        }
    }

    /// Outlines a rounded rectangle with a line of `lineWidth` centred on its edge.
    public mutating func strokeRoundedRect(
        _ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, lineWidth: Double = 1, _ color: Color,
        alpha: Double = 1
    ) {
        shade((x - lineWidth - 1, y - lineWidth - 1, x + w + lineWidth + 1, y + h + lineWidth + 1), color, alpha: alpha)
        { px, py in
            min(max(lineWidth / 2 + 0.5 - abs(Self.roundedBoxDistance(px, py, x, y, w, h, radius)), 0), 1)
        }
    }

    /// Fills a disc.
    public mutating func fillCircle(_ cx: Double, _ cy: Double, radius: Double, _ color: Color, alpha: Double = 1) {
        shade((cx - radius - 1, cy - radius - 1, cx + radius + 1, cy + radius + 1), color, alpha: alpha) { px, py in
            radius + 0.5 - ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
        }
    }

    /// Outlines a circle.
    public mutating func strokeCircle(
        _ cx: Double, _ cy: Double, radius: Double, lineWidth: Double, _ color: Color, alpha: Double = 1
    ) {
        let outer = radius + lineWidth
        shade((cx - outer - 1, cy - outer - 1, cx + outer + 1, cy + outer + 1), color, alpha: alpha) { px, py in
            let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
            return min(max(lineWidth / 2 + 0.5 - abs(d - radius), 0), 1)
        }
    }

    /// Draws a round-capped line.
    public mutating func line(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, width: Double, _ color: Color, alpha: Double = 1
    ) {
        let capsule = Capsule(from: Point(x: x0, y: y0), to: Point(x: x1, y: y1), width: width)
        let b = capsule.bounds(margin: 1)
        shade((b.minX, b.minY, b.maxX, b.maxY), color, alpha: alpha) { px, py in
            capsule.radius + 0.5 - capsule.distance(px, py)
        }
    }

    /// Draws round-capped segments through `points` (closed back to the first when asked).
    public mutating func strokePolyline(
        _ points: [(Double, Double)], closed: Bool = false, width: Double, _ color: Color, alpha: Double = 1
    ) {
        guard points.count > 1 else { return }
        let ends = closed ? Array(points.dropFirst()) + [points[0]] : Array(points.dropFirst())
        guard alpha < 1 else {
            for (a, b) in zip(points, ends) { line(a.0, a.1, b.0, b.1, width: width, color) }
            return
        }
        // Translucent: one coverage (the nearest segment) per pixel, so joints are not darker.
        let capsules = zip(points, ends).map {
            Capsule(from: Point(x: $0.0.0, y: $0.0.1), to: Point(x: $0.1.0, y: $0.1.1), width: width)
        }
        let xs = points.map(\.0)
        let ys = points.map(\.1)
        let m = width / 2 + 1
        shade((xs.min()! - m, ys.min()! - m, xs.max()! + m, ys.max()! + m), color, alpha: alpha) { px, py in
            capsules.reduce(0.0) { max($0, $1.radius + 0.5 - $1.distance(px, py)) }
        }
    }

    /// Fills a convex polygon given in clockwise or counter-clockwise order.
    public mutating func fillPolygon(_ points: [(Double, Double)], _ color: Color, alpha: Double = 1) {
        guard points.count >= 3 else { return }
        let xs = points.map(\.0)
        let ys = points.map(\.1)
        let area = zip(points, points.dropFirst() + [points[0]]).reduce(0.0) { $0 + $1.0.0 * $1.1.1 - $1.1.0 * $1.0.1 }
        let sign = area >= 0 ? 1.0 : -1.0
        // Each edge's start, direction and length once, not at every pixel (the closing edge's
        // array was built anew per pixel).
        let edges: [(ax: Double, ay: Double, ex: Double, ey: Double, length: Double)] =
            zip(points, points.dropFirst() + [points[0]]).compactMap { a, b in
                let ex = b.0 - a.0
                let ey = b.1 - a.1
                let length = (ex * ex + ey * ey).squareRoot()
                return length > 0 ? (a.0, a.1, ex, ey, length) : nil
            }
        shade((xs.min()! - 1, ys.min()! - 1, xs.max()! + 1, ys.max()! + 1), color, alpha: alpha) { px, py in
            var inside = Double.infinity
            for e in edges { inside = min(inside, sign * (e.ex * (py - e.ay) - e.ey * (px - e.ax)) / e.length) }
            return inside + 0.5
        }
    }

    /// Blends `color` through a coverage mask (text the typesetter drew) with the mask's
    /// top-left at (x, y), only inside `clip`.
    public mutating func blend(_ mask: CoverageMask, atX x: Int, y: Int, clip: IntRect, _ color: Color) {
        let target = IntRect(x: x + Int(offsetX), y: y + Int(offsetY), width: mask.width, height: mask.height)
        let r = target.intersection(
            IntRect(x: clip.x + Int(offsetX), y: clip.y + Int(offsetY), width: clip.width, height: clip.height)
        )
        .intersection(IntRect(x: 0, y: 0, width: image.width, height: image.height))
        guard !r.isEmpty else { return }
        let (source, width) = (color.pixel, image.width)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for py in r.y..<r.maxY {
                let row = (py - target.y) * mask.width - target.x
                let out = py * width
                for px in r.x..<r.maxX {
                    let a = mask.bytes[row + px]
                    if a != 0 { pixels[out + px] = Pixel.blend(pixels[out + px], source: source, alpha: UInt32(a)) }
                }
            }
        }
    }

    /// Draws a premultiplied picture (a thumbnail) with its top-left at (x, y), over what is
    /// there: its transparent parts show the chrome.
    public mutating func draw(_ picture: PixelImage, atX x: Int, y: Int) {
        let target = IntRect(x: x + Int(offsetX), y: y + Int(offsetY), width: picture.width, height: picture.height)
        let r = target.intersection(IntRect(x: 0, y: 0, width: image.width, height: image.height))
        guard !r.isEmpty else { return }
        for py in r.y..<r.maxY {
            for px in r.x..<r.maxX {
                image[px, py] = Pixel.over(picture[px - target.x, py - target.y], backdrop: image[px, py])
            }
        }
    }

    /// An 8-px checkerboard, the usual sign of transparency.
    public mutating func checkerboard(_ r: IntRect) {
        for y in 0..<r.height {
            for x in 0..<r.width {
                let light = ((x >> 2) ^ (y >> 2)) & 1 == 0
                fill(
                    IntRect(x: r.x + x, y: r.y + y, width: 1, height: 1), light ? .white : Color(r: 204, g: 204, b: 204)
                )
            }
        }
    }
}

/// The view as the window shows it at a zoom other than 100 %: whole pixels repeated when
/// zoomed in (each window pixel takes the image pixel under its centre), and when zoomed out
/// each window pixel the mean of the image pixels it covers, weighted by how much of each it
/// covers (so thin lines fade rather than vanish, as they would if pixels were dropped).
public enum ViewScaler {
    /// The pixels of `rect`, given in the coordinates of the image as shown at `zoom`, from
    /// opaque `view` pixels `width` x `height`. Row-major, `rect.width` per row.
    public static func render(
        _ view: UnsafeBufferPointer<UInt32>, width: Int, height: Int, zoom: Zoom, rect: IntRect
    ) -> [UInt32] {
        guard let base = view.baseAddress else { return [] }
        return render(base, stride: width, origin: (0, 0), width: width, height: height, zoom: zoom, rect: rect)
    }

    /// The image rectangle `render` reads for `rect` (clipped to a `width` x `height` image).
    public static func source(of rect: IntRect, zoom: Zoom, width: Int, height: Int) -> IntRect {
        guard !rect.isEmpty else { return .empty }
        return IntRect(
            x0: zoom.unscaledDown(rect.x), y0: zoom.unscaledDown(rect.y), x1: zoom.unscaledUp(rect.maxX) - 1,
            y1: zoom.unscaledUp(rect.maxY) - 1
        ).intersection(IntRect(x: 0, y: 0, width: width, height: height))
    }

    /// `render` from only the view pixels of `source(of: rect, ...)`: image pixel (x, y) is at
    /// `pixels[(y - origin.y) * stride + (x - origin.x)]`.
    public static func render(
        _ pixels: UnsafePointer<UInt32>, stride: Int, origin: (x: Int, y: Int), width: Int, height: Int, zoom: Zoom,
        rect: IntRect
    ) -> [UInt32] {
        guard !rect.isEmpty, width > 0, height > 0 else { return [] }
        let base = pixels
        var out = [UInt32](repeating: 0xFF00_0000, count: rect.width * rect.height)
        out.withUnsafeMutableBufferPointer { target in
            guard let to = target.baseAddress else { return }
            if zoom >= .actualSize {
                let columns = (0..<rect.width).map { min(width - 1, max(0, zoom.sourcePixel(rect.x + $0))) - origin.x }
                columns.withUnsafeBufferPointer { columns in
                    for y in 0..<rect.height {
                        let row = base + (min(height - 1, max(0, zoom.sourcePixel(rect.y + y))) - origin.y) * stride
                        let line = to + y * rect.width
                        for x in 0..<rect.width { line[x] = row[columns[x]] }
                    }
                }
                return
            }
            let across = Footprints(zoom: zoom, from: rect.x, count: rect.width, limit: width)
            let down = Footprints(zoom: zoom, from: rect.y, count: rect.height, limit: height)
            across.weights.withUnsafeBufferPointer { wx in
                down.weights.withUnsafeBufferPointer { wy in
                    for y in 0..<rect.height {
                        let (y0, y1) = (down.starts[y], down.starts[y + 1])
                        let (ys, ye) = (down.first[y], down.first[y] + (y1 - y0))
                        let line = to + y * rect.width
                        for x in 0..<rect.width {
                            let (x0, x1) = (across.starts[x], across.starts[x + 1])
                            guard y0 < y1, x0 < x1 else { continue }
                            let xs = across.first[x]
                            var r: UInt32 = 0
                            var g: UInt32 = 0
                            var b: UInt32 = 0
                            var total: UInt32 = 0
                            for (k, yy) in (ys..<ye).enumerated() {
                                let row = base + (yy - origin.y) * stride + (xs - origin.x)
                                let weightY = wy[y0 + k]
                                var rowR: UInt32 = 0
                                var rowG: UInt32 = 0
                                var rowB: UInt32 = 0
                                var rowTotal: UInt32 = 0
                                for i in 0..<(x1 - x0) {
                                    let p = row[i]
                                    let w = wx[x0 + i]
                                    rowR &+= (p >> 16 & 0xFF) &* w
                                    rowG &+= (p >> 8 & 0xFF) &* w
                                    rowB &+= (p & 0xFF) &* w
                                    rowTotal &+= w
                                }
                                r &+= rowR &* weightY
                                g &+= rowG &* weightY
                                b &+= rowB &* weightY
                                total &+= rowTotal &* weightY
                            }
                            let half = total / 2
                            line[x] =
                                0xFF00_0000 | ((r &+ half) / total) << 16 | ((g &+ half) / total) << 8
                                | (b &+ half) / total
                        }
                    }
                }
            }
        }
        return out
    }

    /// For each window pixel along one axis, the image pixels it covers and how much of each:
    /// window pixel `i` covers image pixels `first[i] ..< first[i] + (starts[i + 1] - starts[i])`
    /// with the weights `weights[starts[i] ..< starts[i + 1]]` (in 1/numerator of a pixel).
    struct Footprints {
        var first: [Int] = []
        var starts: [Int] = [0]
        var weights: [UInt32] = []

        init(zoom: Zoom, from origin: Int, count: Int, limit: Int) {
            let n = zoom.numerator
            let d = zoom.denominator
            first.reserveCapacity(count)
            starts.reserveCapacity(count + 1)
            for i in origin..<(origin + count) {
                // The window pixel spans [i * d, (i + 1) * d) in units of 1/n image pixel.
                let lo = max(0, i * d)
                let hi = min(limit * n, (i + 1) * d)
                let p0 = lo / n
                first.append(p0)
                if lo < hi {
                    var p = p0
                    while p * n < hi {
                        let overlap = min((p + 1) * n, hi) - max(p * n, lo)
                        weights.append(UInt32(overlap))
                        p += 1
                    }
                }
                starts.append(weights.count)
            }
        }
    }
}

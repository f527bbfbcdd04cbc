/// The view as the window shows it at a zoom other than 100 %: whole pixels repeated when
/// zoomed in, blocks of pixels averaged when zoomed out (so thin lines fade rather than
/// vanish, as they would if every other pixel were dropped).
public enum ViewScaler {
    /// The pixels of `rect`, given in the coordinates of the image as shown at `zoom` (a
    /// power of two: 1 is 200 %, -1 is 50 %), from opaque `view` pixels `width` x `height`.
    /// Row-major, `rect.width` per row.
    public static func render(
        _ view: UnsafeBufferPointer<UInt32>, width: Int, height: Int, zoom: Int, rect: IntRect
    ) -> [UInt32] {
        guard !rect.isEmpty, let base = view.baseAddress else { return [] }
        var out = [UInt32](repeating: 0xFF00_0000, count: rect.width * rect.height)
        out.withUnsafeMutableBufferPointer { target in
            guard let to = target.baseAddress else { return }
            if zoom >= 0 {
                for y in 0..<rect.height {
                    let row = base + min(height - 1, (rect.y + y) >> zoom) * width
                    let line = to + y * rect.width
                    for x in 0..<rect.width { line[x] = row[min(width - 1, (rect.x + x) >> zoom)] }
                }
                return
            }
            let f = 1 << -zoom
            for y in 0..<rect.height {
                let y0 = (rect.y + y) * f
                let y1 = min(height, y0 + f)
                let line = to + y * rect.width
                for x in 0..<rect.width {
                    let x0 = (rect.x + x) * f
                    let x1 = min(width, x0 + f)
                    guard y0 < y1, x0 < x1 else { continue }
                    var r: UInt32 = 0
                    var g: UInt32 = 0
                    var b: UInt32 = 0
                    for yy in y0..<y1 {
                        let row = base + yy * width
                        for xx in x0..<x1 {
                            let p = row[xx]
                            r &+= p >> 16 & 0xFF
                            g &+= p >> 8 & 0xFF
                            b &+= p & 0xFF
                        }
                    }
                    let n = UInt32((y1 - y0) * (x1 - x0))
                    let half = n / 2
                    line[x] = 0xFF00_0000 | ((r &+ half) / n) << 16 | ((g &+ half) / n) << 8 | (b &+ half) / n
                }
            }
        }
        return out
    }
}

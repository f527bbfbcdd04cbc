import Testing

@testable import PaintCore

/// The view at other zooms: pixels repeated when zoomed in, blocks averaged when zoomed out.
@Suite struct ViewScalerTests {
    /// A 5 x 3 view with distinct pixels.
    static let view: [UInt32] = (0..<15).map { (i: Int) -> UInt32 in
        let r = UInt32(i * 16)
        let g = UInt32(255 - i * 16)
        return 0xFF00_0000 | r << 16 | g << 8 | UInt32(i)
    }

    @Test func zoomedInEachPixelIsASquareOfCopies() {
        let out = Self.view.withUnsafeBufferPointer {
            ViewScaler.render($0, width: 5, height: 3, zoom: 2, rect: IntRect(x: 3, y: 1, width: 10, height: 9))
        }
        for y in 0..<9 {
            for x in 0..<10 {
                #expect(out[y * 10 + x] == Self.view[((1 + y) / 4) * 5 + (3 + x) / 4], "(\(x), \(y))")
            }
        }
    }

    @Test func zoomedOutEachPixelIsTheRoundedMeanOfItsBlockAlsoAtTheEdges() {
        let out = Self.view.withUnsafeBufferPointer {
            ViewScaler.render($0, width: 5, height: 3, zoom: -1, rect: IntRect(x: 0, y: 0, width: 3, height: 2))
        }
        #expect(out.count == 6)
        for sy in 0..<2 {
            for sx in 0..<3 {
                var sums = [0, 0, 0]
                var n = 0
                for y in (sy * 2)..<min(3, sy * 2 + 2) {
                    for x in (sx * 2)..<min(5, sx * 2 + 2) {
                        let p = Self.view[y * 5 + x]
                        sums[0] += Int(p >> 16 & 0xFF)
                        sums[1] += Int(p >> 8 & 0xFF)
                        sums[2] += Int(p & 0xFF)
                        n += 1
                    }
                }
                let want = sums.map { UInt32(($0 + n / 2) / n) }
                #expect(out[sy * 3 + sx] == 0xFF00_0000 | want[0] << 16 | want[1] << 8 | want[2], "(\(sx), \(sy))")
            }
        }
    }
}

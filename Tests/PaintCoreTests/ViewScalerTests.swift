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
            ViewScaler.render($0, width: 5, height: 3, zoom: Zoom(4), rect: IntRect(x: 3, y: 1, width: 10, height: 9))
        }
        for y in 0..<9 {
            for x in 0..<10 {
                #expect(out[y * 10 + x] == Self.view[((1 + y) / 4) * 5 + (3 + x) / 4], "(\(x), \(y))")
            }
        }
    }

    @Test func zoomedOutEachPixelIsTheRoundedMeanOfItsBlockAlsoAtTheEdges() {
        let out = Self.view.withUnsafeBufferPointer {
            ViewScaler.render($0, width: 5, height: 3, zoom: Zoom(1, 2), rect: IntRect(x: 0, y: 0, width: 3, height: 2))
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

    @Test("at 150 % each window pixel takes the image pixel under its centre: columns 1, 2, 1, 2 wide")
    func zoomedInByAFractionSamplesUnderTheCentre() {
        let out = Self.view.withUnsafeBufferPointer {
            ViewScaler.render($0, width: 5, height: 3, zoom: Zoom(3, 2), rect: IntRect(x: 0, y: 0, width: 7, height: 1))
        }
        // Window pixel x shows image pixel floor((x + 0.5) / 1.5): 0, 1, 1, 2, 3, 3, 4.
        #expect(out == [0, 1, 1, 2, 3, 3, 4].map { Self.view[$0] })
    }

    @Test("at 67 % each window pixel is the mean of the pixels it covers, weighted by how much of each")
    func zoomedOutByAFractionWeighsPartlyCoveredPixels() {
        // One row of gray levels; window pixel 0 covers image pixels [0, 1.5), pixel 1 [1.5, 3).
        let row: [UInt32] = [0, 90, 240].map { 0xFF00_0000 | $0 << 16 | $0 << 8 | $0 }
        let out = row.withUnsafeBufferPointer {
            ViewScaler.render($0, width: 3, height: 1, zoom: Zoom(2, 3), rect: IntRect(x: 0, y: 0, width: 2, height: 1))
        }
        // (0 * 2 + 90 * 1) / 3 = 30 and (90 * 1 + 240 * 2) / 3 = 190, in units of half a pixel.
        #expect(out.map { $0 & 0xFF } == [30, 190])
    }

    @Test("at 33 % a block of 3 x 3 is averaged, and a partly covered block at the edge averages what is there")
    func zoomedOutByAThirdAveragesBlocksOfThree() {
        let out = Self.view.withUnsafeBufferPointer {
            ViewScaler.render($0, width: 5, height: 3, zoom: Zoom(1, 3), rect: IntRect(x: 0, y: 0, width: 2, height: 1))
        }
        func mean(_ columns: Range<Int>) -> UInt32 {
            let pixels = (0..<3).flatMap { y in columns.map { Self.view[y * 5 + $0] } }
            let n = UInt32(pixels.count)
            let channel = { (shift: UInt32) in (pixels.reduce(0) { $0 + ($1 >> shift & 0xFF) } + n / 2) / n }
            return 0xFF00_0000 | channel(16) << 16 | channel(8) << 8 | channel(0)
        }
        #expect(out == [mean(0..<3), mean(3..<5)])
    }
}

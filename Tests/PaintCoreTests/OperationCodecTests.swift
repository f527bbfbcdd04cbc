import TestSupport
import Testing

@testable import PaintCore

/// Operations in the binary form. Strokes: pointer samples (pixel centres) as half-pixel differences, any
/// other point as doubles, both decoding to exactly the values encoded.
@Suite struct OperationCodecTests {
    @Test func pointerSamplesGoAsHalfPixelDifferencesOfOneOrTwoBytes() {
        var rng = SplitMix(seed: 4)
        var p = Point(x: 640.5, y: 400.5)
        var points: [Point] = []
        for _ in 0..<1000 {
            p = Point(x: p.x + Double(Int(rng.next() % 21) - 10), y: p.y + Double(Int(rng.next() % 21) - 10))
            points.append(p)
        }
        let stroke = Operation.stroke(StrokeStyle(width: 12), points: points)
        let bytes = stroke.encoded()
        #expect(bytes.first == 11)
        #expect(Operation(decoding: bytes) == stroke)
        // Style (20 bytes), grid, count, then at most two bytes a coordinate: not sixteen a point.
        #expect(bytes.count <= 1 + 20 + 1 + 4 + 1000 * 4, "\(bytes.count) bytes")
        #expect(bytes.count * 4 < 1000 * 16, "\(bytes.count) bytes for 1,000 points")
        // Far corners and negative coordinates (a stroke leaving the canvas) too.
        let far = Operation.stroke(StrokeStyle(), points: [Point(x: -40000.5, y: 3), Point(x: 1e6, y: -0.5)])
        #expect(Operation(decoding: far.encoded()) == far && far.encoded().first == 11)
    }

    @Test func zoomedInPointsUseAFinerGrid() {
        // At 1600 % a window pixel centre is a multiple of 1/32 image pixel.
        let points = (0..<50).map { Point(x: 100 + (Double($0) + 0.5) / 16, y: 40 + Double($0 % 7) / 32) }
        let stroke = Operation.stroke(StrokeStyle(width: 2), points: points)
        let bytes = stroke.encoded()
        #expect(bytes.first == 11 && bytes[1 + 20] == 5, "grid 1/32")
        #expect(Operation(decoding: bytes) == stroke)
    }

    @Test func otherPointsKeepEveryBit() {
        let points = [Point(x: 1765.2, y: 1340.3), Point(x: 0.1, y: 1e-300), Point(x: 3e9, y: 2)]
        let stroke = Operation.stroke(StrokeStyle(width: 3), points: points)
        let bytes = stroke.encoded()
        #expect(bytes.first == 1)
        #expect(Operation(decoding: bytes) == stroke)
    }

    @Test func hostileGridStrokesDecodeToNilNotACrash() {
        var rng = SplitMix(seed: 9)
        let valid = Operation.stroke(StrokeStyle(), points: [Point(x: 10.5, y: 20), Point(x: 30, y: 40.5)]).encoded()
        var header = Array(valid.prefix(1 + 20 + 1))
        header += [0xFF, 0xFF, 0xFF, 0x7F]  // two billion points claimed
        #expect(Operation(decoding: header + [0, 0, 0, 0]) == nil)
        // Ten-byte varints (Int64.min) and runaway sums.
        var huge = Array(valid.prefix(1 + 20 + 1)) + [1, 0, 0, 0]
        huge += [UInt8](repeating: 0xFF, count: 9) + [0x01] + [0]
        #expect(Operation(decoding: huge) == nil)
        #expect(
            Operation(decoding: [11] + Array(valid[1..<21]) + [7, 1, 0, 0, 0, 2, 2]) == nil, "grid finer than 1/64")
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            if rng.next() % 3 == 0 { bytes += [UInt8](repeating: 0xFF, count: Int(rng.next() % 12)) }
            _ = Operation(decoding: bytes)
        }
    }
}

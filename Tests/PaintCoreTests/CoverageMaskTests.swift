import Testing

@testable import PaintCore

@Suite struct CoverageMaskTests {
    /// A 4 x 3 mask at (10, 20) with ink only at mask pixels (1, 1) and (2, 1).
    static func sample() throws -> CoverageMask {
        try #require(CoverageMask(x: 10, y: 20, width: 4, height: 3, bytes: [0, 0, 0, 0, 0, 9, 200, 0, 0, 0, 0, 0]))
    }

    @Test func readsCoverageInCanvasCoordinates() throws {
        let mask = try Self.sample()
        #expect(mask.coverage(atX: 11, y: 21) == 9)
        #expect(mask.coverage(atX: 12, y: 21) == 200)
        #expect(mask.coverage(atX: 9, y: 21) == 0)
        #expect(mask.coverage(atX: 14, y: 21) == 0)
        #expect(mask.moved(byX: -10, y: 5).coverage(atX: 2, y: 26) == 200)
        #expect(CoverageMask(x: 0, y: 0, width: 2, height: 2, bytes: [1, 2, 3]) == nil)
    }

    @Test func trimsToInkAndClip() throws {
        let mask = try Self.sample()
        let trimmed = mask.trimmed(to: IntRect(x: 0, y: 0, width: 100, height: 100))
        #expect(trimmed.bounds == IntRect(x: 11, y: 21, width: 2, height: 1))
        #expect(trimmed.bytes == [9, 200])
        let clipped = mask.trimmed(to: IntRect(x: 12, y: 0, width: 100, height: 100))
        #expect(clipped.bounds == IntRect(x: 12, y: 21, width: 1, height: 1))
        #expect(clipped.bytes == [200])
        #expect(mask.trimmed(to: IntRect(x: 0, y: 0, width: 5, height: 5)).isBlank)
        #expect(!mask.isBlank)
    }
}

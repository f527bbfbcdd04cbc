import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A history read back is measured before it is decoded in full or replayed, its starting
/// picture must fit its canvas, and its replay must give the file's pixels (DESIGN §3).
@Suite struct HistoryReplayTests {
    typealias H = HistoryChunkTests

    /// An archive payload written by hand (the layout `DocumentArchive.payload()` writes), with
    /// `count` operations whose bytes `operation(i)` gives: no `Operation` values are built, so
    /// millions of them cost only their bytes.
    static func payload(
        width: Int, height: Int, count: Int, hash: UInt64 = 0, operation: (Int, inout ByteWriter) -> Void
    ) -> [UInt8] {
        var out = ByteWriter()
        out.byte(0)
        out.uint32(UInt32(width))
        out.uint32(UInt32(height))
        out.backgroundColor(.white)
        out.uint64(hash)
        out.uint32(UInt32(count))
        for i in 0..<count { operation(i, &out) }
        return out.bytes
    }

    /// A PNG of `image` carrying `payload` as its history chunk.
    static func png(_ image: PixelImage, payload: [UInt8]) throws -> [UInt8] {
        let compressed = try #require(Zlib.compress(payload, level: 1))
        return H.withRawChunk(
            try PNGCodec.encode(image, withAlpha: false),
            H.chunkData(declared: UInt64(payload.count), body: compressed))
    }

    /// A one-point stroke at a pseudo-random place: the grid form, whose last two bytes are
    /// the point's zigzag units (kept below 0x80, one byte each).
    static func dot(_ rng: inout SplitMix, into out: inout ByteWriter) {
        var bytes = PaintCore.Operation.stroke(StrokeStyle(width: 3), points: [Point(x: 0.5, y: 0.5)]).encoded()
        bytes[bytes.count - 2] = UInt8(truncatingIfNeeded: rng.next()) & 0x7E
        bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: rng.next()) & 0x7E
        out.uint32(UInt32(bytes.count))
        out.append(bytes)
    }

    /// A replay told to stop ends between two operations with `.stopped` and replays no more
    /// (here after 5 of 200); one stopped before it starts replays none; one never stopped
    /// replays the whole log.
    @Test func aReplayToldToStopEndsBetweenTwoOperations() throws {
        var rng = SplitMix(seed: 5)
        let operations = (0..<200).map { _ in
            PaintCore.Operation.stroke(
                StrokeStyle(width: 3), points: [Point(x: rng.unit() * 60, y: rng.unit() * 40)])
        }
        let start = HistoryReplay.Start(width: 64, height: 48, background: .color(.white), baseImage: nil)
        let atFive = ReplayControl(stoppingAfter: 5)
        #expect(throws: HistoryReplay.Refusal.stopped) { try HistoryReplay.replay(start, operations, control: atFive) }
        #expect(atFive.operationsReplayed == 5)
        let before = ReplayControl()
        before.stop()
        #expect(throws: HistoryReplay.Refusal.stopped) { try HistoryReplay.replay(start, operations, control: before) }
        #expect(before.operationsReplayed == 0)
        let never = ReplayControl()
        let whole = try HistoryReplay.replay(start, operations, control: never)
        #expect(never.operationsReplayed == 200 && whole.history.count == 200)
        let plain = try HistoryReplay.replay(start, operations)
        #expect(whole.engine.flattenedImage() == plain.engine.flattenedImage())
    }

    /// A replay has no idle slices to free what its history lets go of: the keyframes it
    /// thins (here 1 MB each, a noise picture that does not pack) are freed as it goes, not
    /// kept until the history is taken over (a 2,000-step 4K history kept some 140 MB so).
    @Test func aReplayFreesTheKeyframesItThinsAsItGoes() throws {
        var rng = SplitMix(seed: 7)
        var picture = PixelImage(width: 512, height: 512)
        for i in picture.pixels.indices { picture.pixels[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) }
        let operations = (0..<100).map { _ in
            PaintCore.Operation.stroke(
                StrokeStyle(width: 3), points: [Point(x: rng.unit() * 500, y: rng.unit() * 500)])
        }
        let start = HistoryReplay.Start(
            width: 512, height: 512, background: .color(.white),
            baseImage: try PNGCodec.encode(picture, withAlpha: false))
        // Keyframes may hold a quarter of the cap, two of them: thinned at the third.
        let cap = 8 << 20
        let replayed = try HistoryReplay.replay(start, operations, memoryCap: cap)
        let history = replayed.history
        #expect(history.keyframeInterval > History.initialKeyframeInterval, "keyframes were thinned")
        #expect(history.keyframeBytes > 1 << 20 && history.snapshotBytes <= cap, "nothing to trim")
        #expect(!history.hasIdleWork(engine: replayed.engine), "nothing held for idle slices to free")
    }

    @Test func aMillionAndOneStrokesAreRefusedBeforeAnyIsDecoded() throws {
        var rng = SplitMix(seed: 1)
        let image = PixelImage(width: 64, height: 48, fill: 0xFFFF_FFFF)
        let payload = Self.payload(width: 64, height: 48, count: 1_000_001) { _, out in Self.dot(&rng, into: &out) }
        let result = HistoryChunk.extract(from: try Self.png(image, payload: payload))
        #expect(result == .rejected("it holds 1,000,001 steps, more than the 1,000,000 SwiftPaint replays"))
    }

    @Test func aStrokeOfSeventeenMillionPointsIsRefusedBeforeItsPointsAreDecoded() throws {
        var rng = SplitMix(seed: 2)
        let points = 17_000_000
        let image = PixelImage(width: 64, height: 48, fill: 0xFFFF_FFFF)
        let payload = Self.payload(width: 64, height: 48, count: 1) { _, out in
            var bytes = PaintCore.Operation.stroke(StrokeStyle(width: 3), points: [Point(x: 0.5, y: 0.5)]).encoded()
            bytes.removeLast(2)
            // The count sits just before the points.
            let n = UInt32(points)
            bytes.replaceSubrange(
                (bytes.count - 4)..., with: [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: n >> $0) })
            var steps = [UInt8](repeating: 0, count: 2 * points)
            for i in steps.indices { steps[i] = UInt8(truncatingIfNeeded: rng.next()) & 0x7E }
            out.uint32(UInt32(bytes.count + steps.count))
            out.append(bytes)
            out.append(steps)
        }
        let result = HistoryChunk.extract(from: try Self.png(image, payload: payload))
        #expect(
            result == .rejected("its strokes hold 17,000,000 points, more than the 16,777,216 SwiftPaint replays"))
    }

    @Test func tenThousandAndOneFillsAreRefused() throws {
        let image = PixelImage(width: 64, height: 48, fill: 0xFFFF_FFFF)
        let fill = PaintCore.Operation.fill(StrokeStyle(), at: Point(x: 1, y: 1), tolerance: 0).encoded()
        let payload = Self.payload(width: 64, height: 48, count: 10_001) { _, out in
            out.uint32(UInt32(fill.count))
            out.append(fill)
        }
        #expect(
            HistoryChunk.extract(from: try Self.png(image, payload: payload))
                == .rejected("it holds 10,001 flood fills, more than the 10,000 SwiftPaint replays"))
    }

    @Test func aCanvasLargerThanTheImageLimitsIsRefusedBeforeAllocating() {
        for (w, h) in [(100_000, 100_000), (65535, 65535), (4_294_967_295, 1), (0, 10)] {
            let start = HistoryReplay.Start(width: w, height: h, background: .color(.white), baseImage: nil)
            #expect(throws: HistoryReplay.Refusal.canvasTooLarge(width: w, height: h)) {
                try HistoryReplay.replay(start, [])
            }
        }
    }

    @Test func aStartingPictureOfAnotherSizeIsRefused() throws {
        let red = PixelImage(width: 640, height: 480, fill: 0xFFFF_0000)
        let start = HistoryReplay.Start(
            width: 64, height: 48, background: .color(.white), baseImage: try PNGCodec.encode(red, withAlpha: true))
        #expect(
            throws: HistoryReplay.Refusal.baseSizeMismatch(width: 640, height: 480, canvasWidth: 64, canvasHeight: 48)
        ) {
            try HistoryReplay.replay(start, [])
        }
    }

    /// The picture saved and read back is what `verify` accepts, compared a band of 64 rows at
    /// a time (150 rows: three bands); one pixel off in any band, and it is refused.
    @Test func verifyAgreesWithARealSaveAndReadBack() throws {
        var rng = SplitMix(seed: 3)
        for background in [Background.transparent, .color(Color(r: 10, g: 200, b: 30))] {
            let engine = StrokeEngine(width: 40, height: 150, background: background)
            for _ in 0..<24 {
                let style = StrokeStyle(
                    color: Color(
                        r: UInt8(truncatingIfNeeded: rng.next()), g: UInt8(truncatingIfNeeded: rng.next()),
                        b: UInt8(truncatingIfNeeded: rng.next())),
                    opacity: 0.05 + rng.unit() * 0.9, width: 1 + rng.unit() * 9)
                PaintCore.Operation.stroke(
                    style, points: (0..<5).map { _ in Point(x: rng.unit() * 40, y: rng.unit() * 150) }
                ).apply(to: engine)
            }
            let saved = try PNGCodec.decode(
                try PNGCodec.encode(engine.flattenedImage(), withAlpha: background == .transparent), name: "t")
            #expect(HistoryReplay.verify(engine, shows: StrokeEngine(image: saved).paintSnapshot()))
            for pixel in [17, 40 * 70 + 3, 40 * 149 + 39] {
                var off = saved
                off.pixels[pixel] ^= 0x0000_0100
                #expect(
                    !HistoryReplay.verify(engine, shows: StrokeEngine(image: off).paintSnapshot()), "pixel \(pixel)")
            }
            #expect(!HistoryReplay.verify(engine, shows: StrokeEngine(width: 40, height: 149).paintSnapshot()))
        }
    }
}

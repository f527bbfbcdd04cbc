import TestSupport
import Testing

@testable import PaintCore

/// The engine pays only for what is painted: tiles on first touch, released when empty, merges
/// in slices, the view kept only for the shown region, snapshots by reference. Every one of
/// these leaves the pixels exactly as the whole-canvas engine did.
@Suite struct TiledEngineTests {
    typealias S = EngineTestSupport

    static func strokes(_ count: Int, seed: UInt64, width: Double, height: Double) -> [(StrokeStyle, [Point])] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { n in
            let style = StrokeStyle(
                tool: n % 6 == 5 ? .eraser : .brush,
                color: Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: UInt8(rng.next() & 255)),
                opacity: [1, 0.5, 0.2][n % 3], width: Double(1 + rng.next() % 90))
            let points = (0..<(1 + Int(rng.next() % 10))).map { _ in
                Point(x: rng.unit() * (width + 40) - 20, y: rng.unit() * (height + 40) - 20)
            }
            return (style, points)
        }
    }

    static func draw(_ engine: StrokeEngine, _ stroke: (StrokeStyle, [Point])) {
        engine.begin(stroke.0, at: stroke.1[0])
        for p in stroke.1.dropFirst() { engine.move(to: p) }
        engine.end()
    }

    @Test func aBlankCanvasHoldsNoPixelsAndAStrokeOnlyTheTilesItTouches() {
        let engine = StrokeEngine(width: 3840, height: 2160)
        #expect(engine.pixelBytes == 0, "no paint tile, no coverage, no view until one is shown")
        engine.showRegion(IntRect(x: 0, y: 0, width: 640, height: 480))
        #expect(engine.pixelBytes == 640 * 480 * 4)
        // A 10 px stroke along one row of tiles: it touches 3 tiles of paint (two 64 px columns
        // and the one it ends in) and as many of coverage.
        engine.begin(StrokeStyle(width: 10), at: Point(x: 20, y: 30))
        engine.move(to: Point(x: 150, y: 30))
        let coverageTiles = (engine.pixelBytes - 640 * 480 * 4) / Tile.coverageBytes
        #expect(coverageTiles == 3)
        engine.end()
        #expect(engine.hasPendingMerges)
        while engine.mergePendingTiles(limit: 1) {}
        #expect(engine.pixelBytes == 640 * 480 * 4 + 3 * Tile.pixels * 4, "3 paint tiles, coverage given back")
        // Clearing gives the paint tiles back too.
        engine.clearPaint()
        #expect(engine.pixelBytes == 640 * 480 * 4)
    }

    @Test func anEraserThatEmptiesATileReleasesIt() {
        let engine = StrokeEngine(width: 128, height: 64)
        S.draw(engine, StrokeStyle(width: 8), [(10, 10), (50, 40)])
        _ = engine.paintImage()
        #expect(engine.paint.fullTileBytes == Tile.pixels * 4)
        S.draw(engine, StrokeStyle(tool: .eraser, width: 200), [(32, 32)])
        _ = engine.paintImage()
        #expect(engine.paint.fullTileBytes == 0)
        #expect(engine.paintImage() == PixelImage(width: 128, height: 64))
    }

    @Test func aLoadedPictureSharesOneTilePerSquareOfOneValue() {
        var image = PixelImage(width: 300, height: 200, fill: Color.white.pixel)
        image[130, 70] = Color.black.pixel
        let engine = StrokeEngine(image: image)
        #expect(engine.paint.fullTileBytes == Tile.pixels * 4, "only the tile with the black pixel is stored")
        #expect(engine.paintImage() == image)
        #expect(
            engine.viewPixel(x: 130, y: 70) == Color.black.pixel
                && engine.viewPixel(x: 299, y: 199) == Color.white.pixel)
    }

    /// Merging in slices, merging when a later stroke touches a tile, and merging everything at
    /// once give the same paint, and the view never changes when a merge happens.
    @Test func slicedMergesGiveTheSamePixelsAsImmediateOnes() {
        let strokes = Self.strokes(40, seed: 3, width: 200, height: 150)
        let sliced = StrokeEngine(width: 200, height: 150)
        let deferred = StrokeEngine(width: 200, height: 150)
        let immediate = StrokeEngine(width: 200, height: 150)
        for (n, stroke) in strokes.enumerated() {
            Self.draw(sliced, stroke)
            let view = Array(sliced.viewPixels)
            // A slice or two after some strokes, none after others: later strokes meet tiles
            // of earlier ones still unmerged.
            for _ in 0..<(n % 3) { sliced.mergePendingTiles(limit: 1) }
            let unchanged = Array(sliced.viewPixels) == view
            #expect(unchanged, "stroke \(n): a merge changed the view")
            Self.draw(deferred, stroke)
            Self.draw(immediate, stroke)
            _ = immediate.paintImage()
        }
        let expected = immediate.paintImage()
        #expect(deferred.paintImage() == expected)
        while sliced.mergePendingTiles(limit: 2) {}
        #expect(sliced.paintImage() == expected)
        let slicedSame = Array(sliced.viewPixels) == Array(immediate.viewPixels)
        #expect(slicedSame)
        immediate.recomposite(immediate.bounds)
        let deferredSame = Array(deferred.viewPixels) == Array(immediate.viewPixels)
        #expect(deferredSame)
    }

    /// With the view kept only for a region, strokes inside and outside it, and the pixels read
    /// outside it, are the same as with the whole view.
    @Test func aShownRegionGivesTheSameViewAsTheWholeCanvas() {
        let strokes = Self.strokes(30, seed: 11, width: 260, height: 190)
        for background in [Background.color(.white), .transparent, .image(PasteTests.picture(260, 190, seed: 2))] {
            let whole = StrokeEngine(width: 260, height: 190, background: background)
            let part = StrokeEngine(width: 260, height: 190, background: background)
            part.showRegion(IntRect(x: 70, y: 40, width: 100, height: 90))
            let r = IntRect(x: 60, y: 30, width: 120, height: 110)
            for (n, stroke) in strokes.enumerated() {
                for e in [whole, part] {
                    e.begin(stroke.0, at: stroke.1[0])
                    for p in stroke.1.dropFirst() { e.move(to: p) }
                }
                // Mid-stroke the region shows the live stroke exactly as the whole view does,
                // and so do the pixels composited around it.
                let live = part.withViewPixels(in: r) { p, stride in
                    (0..<r.height).flatMap { y in (0..<r.width).map { p[y * stride + $0] } }
                }
                let all = whole.viewPixels
                let expected = (r.y..<r.maxY).flatMap { y in (r.x..<r.maxX).map { all[y * 260 + $0] } }
                let same = live == expected
                #expect(same, "stroke \(n): the live view differs")
                whole.end()
                part.end()
            }
            #expect(part.shownRegion == IntRect(x: 70, y: 40, width: 100, height: 90))
            #expect(part.pixelBytes <= 100 * 90 * 4 + 20 * Tile.pixels * 4 + 20 * Tile.coverageBytes)
            // Moving the region keeps what overlaps and composites the rest.
            part.showRegion(IntRect(x: 120, y: 100, width: 140, height: 90))
            let all = whole.viewPixels
            var differing = 0
            for y in stride(from: 0, to: 190, by: 3) {
                for x in 0..<260 where part.viewPixel(x: x, y: y) != all[y * 260 + x] { differing += 1 }
            }
            #expect(differing == 0, "pixels read one by one")
            let same = Array(part.viewPixels) == Array(whole.viewPixels)
            #expect(same, "the whole view")
        }
    }

    /// A fill floods what the view shows, also where the view is not kept.
    @Test func aFillOutsideTheShownRegionFloodsTheSameArea() {
        let strokes = Self.strokes(12, seed: 5, width: 150, height: 150)
        let whole = StrokeEngine(width: 150, height: 150)
        let part = StrokeEngine(width: 150, height: 150)
        part.showRegion(IntRect(x: 0, y: 0, width: 30, height: 30))
        for stroke in strokes {
            Self.draw(whole, stroke)
            Self.draw(part, stroke)
        }
        for e in [whole, part] {
            e.beginFill(StrokeStyle(color: Color(r: 0, g: 200, b: 90)), at: Point(x: 120, y: 120), tolerance: 30)
            e.end()
        }
        #expect(part.paintImage() == whole.paintImage())
    }

    /// A snapshot holds tiles by reference: drawing afterwards copies the tiles it changes, so
    /// the snapshot still gives back the paint as it was, and the unchanged tiles stay shared.
    @Test func snapshotsShareTilesUntilTheyAreWritten() {
        let engine = StrokeEngine(image: PasteTests.picture(200, 130, seed: 9))
        let before = engine.paintImage()
        let snapshot = PackedPixels(tiles: engine.snapshotPaint(engine.bounds), coversRect: true)
        #expect(!snapshot.isPacked)
        S.draw(engine, StrokeStyle(color: .black, width: 30), [(10, 10), (190, 120)])
        let after = engine.paintImage()
        #expect(after != before)
        engine.unpackPaint(snapshot)
        #expect(engine.paintImage() == before)
        engine.unpackPaint(snapshot.packed())
        #expect(engine.paintImage() == before)
        #expect(snapshot.packed().byteCount < snapshot.byteCount)
    }

    /// A stroke too large to pack at once is recorded by reference and packed by idle slices;
    /// undo gives the same pixels before and after packing.
    @Test func largeUndoSnapshotsArePackedInIdleSlices() {
        let engine = StrokeEngine(width: 700, height: 500)
        let history = History(base: nil)
        let first = Operation.stroke(
            StrokeStyle(color: .black, width: 40), points: [Point(x: 0, y: 0), Point(x: 700, y: 500)])
        history.perform(first, engine: engine)
        let afterFirst = engine.paintImage()
        let style = StrokeStyle(color: Color(r: 200, g: 10, b: 10), opacity: 0.5, width: 200)
        let points = [Point(x: 0, y: 250), Point(x: 700, y: 250)]
        engine.begin(style, at: points[0])
        engine.move(to: points[1])
        history.commitLiveStroke(.stroke(style, points: points), engine: engine)
        #expect(history.hasIdleWork(engine: engine), "the merge and the packing are left for idle time")
        let drawn = engine.paintImage()
        history.undo(engine: engine)
        #expect(engine.paintImage() == afterFirst, "undo before packing")
        history.redo(engine: engine)
        #expect(engine.paintImage() == drawn)
        var slices = 0
        while history.idleWork(engine: engine, budget: 1 << 14) { slices += 1 }
        #expect(slices > 2, "packed in several slices")
        #expect(!history.hasIdleWork(engine: engine))
        history.undo(engine: engine)
        #expect(engine.paintImage() == afterFirst, "undo after packing")
        history.redo(engine: engine)
        #expect(engine.paintImage() == drawn)
    }

    /// A large snapshot is packed into room reserved for the worst case and kept there: it
    /// gives back every pixel, and the history counts the words it holds, not the room.
    @Test func aLargePackedSnapshotCountsTheWordsItHolds() {
        var image = PixelImage(width: 300, height: 300)
        // Runs of four: half as many words as pixels, more than are copied to an exact size.
        for i in 0..<image.pixels.count {
            image.pixels[i] = 0xFF00_0000 | UInt32(truncatingIfNeeded: (i / 4) &* 2_654_435_761)
        }
        let engine = StrokeEngine(image: image)
        let packed = engine.packPaint(engine.bounds)
        #expect(packed.isPacked)
        #expect(packed.image() == image)
        let pixelBytes = image.pixels.count * 4
        #expect(packed.byteCount >= pixelBytes / 2 && packed.byteCount < pixelBytes * 3 / 4, "\(packed.byteCount)")
        // Raw pixels (noise: runs would not save anything) round-trip too.
        var noise = image
        var state: UInt32 = 7
        for i in 0..<noise.pixels.count {
            state = state &* 1_664_525 &+ 1_013_904_223
            noise.pixels[i] = 0xFF00_0000 | state >> 8
        }
        let raw = StrokeEngine(image: noise).packPaint(IntRect(x: 0, y: 0, width: 300, height: 300))
        #expect(raw.image() == noise)
        #expect(raw.byteCount >= pixelBytes && raw.byteCount < pixelBytes + pixelBytes / 8)
    }

    /// Tiles at the canvas edge are partly outside it: on a canvas of odd size undo and redo
    /// through snapshots of edge tiles land on the pixels each step left.
    @Test func oddSizedCanvasesKeepEveryPixel() {
        let picture = PasteTests.picture(131, 67, seed: 4)
        let engine = StrokeEngine(image: picture)
        let history = History(startingFrom: engine, memoryCap: 0)
        var steps = [picture]
        for stroke in Self.strokes(10, seed: 21, width: 131, height: 67) {
            history.perform(.stroke(stroke.0, points: stroke.1), engine: engine)
            steps.append(engine.paintImage())
        }
        history.perform(.clearRect(IntRect(x: 60, y: 0, width: 71, height: 67)), engine: engine)
        steps.append(engine.paintImage())
        for k in stride(from: steps.count - 2, through: 0, by: -1) {
            history.undo(engine: engine)
            #expect(engine.paintImage() == steps[k], "undo to step \(k)")
        }
        for k in 1..<steps.count {
            history.redo(engine: engine)
            #expect(engine.paintImage() == steps[k], "redo to step \(k)")
        }
    }
}

/// `TiledPicture`: a picture cut into the engine's tiles, taken over by an engine as it is.
@Suite struct TiledPictureTests {
    @Test func anEngineOnAPictureShowsItAndPaintingLeavesThePictureAsItWas() {
        var image = PixelImage(width: 150, height: 70, fill: Color.white.pixel)
        for x in 70..<150 { image[x, 5] = 0xFF12_3456 }
        let picture = TiledPicture(image)
        #expect(picture.image == image)
        #expect(picture.pixel(x: 100, y: 5) == 0xFF12_3456)
        // Tiles (0,0) and (0,1) and every tile of the second band are white: one shared tile.
        #expect(picture.fullTileCount == 2)
        let engine = StrokeEngine(picture: picture)
        #expect(engine.paintImage() == image)
        engine.begin(StrokeStyle(width: 9), at: Point(x: 100, y: 5))
        engine.end()
        #expect(engine.paintPixel(x: 100, y: 5) == Color.black.pixel)
        // The picture's tiles were shared, never written: it still shows what it was made of.
        #expect(picture.image == image)
    }
}

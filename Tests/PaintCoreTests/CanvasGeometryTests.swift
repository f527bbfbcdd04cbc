import TestSupport
import Testing

@testable import PaintCore

/// Crop, canvas size, scale, turns and mirrors of the engine's canvas: the paint moves as the
/// pixel pictures say, an image background moves with it, the view is recomposited whole, the
/// limits are checked first, and the engine draws normally on its new size.
@Suite struct CanvasGeometryTests {
    static let picture = PixelPictures.image(
        """
        abcd
        efgh
        ijkl
        """)

    static func engine(_ image: PixelImage = picture, _ background: Background = .transparent) -> StrokeEngine {
        StrokeEngine(image: image, background: background)
    }

    /// The view a fresh engine shows for this engine's paint and background: what a resize must
    /// leave on screen.
    static func freshView(of engine: StrokeEngine) -> [UInt32] {
        let fresh = StrokeEngine(image: engine.paintImage(), background: engine.background)
        return withExtendedLifetime(fresh) { Array(fresh.viewPixels) }
    }

    @Test func aCropKeepsTheRectangleOnly() {
        let engine = Self.engine()
        #expect(
            engine.resizeCanvas(to: IntRect(x: 1, y: 1, width: 2, height: 2))
                == IntRect(x: 0, y: 0, width: 2, height: 2))
        #expect(PixelPictures.text(engine) == "fg\njk")
        #expect((engine.width, engine.height) == (2, 2))
        #expect(Array(engine.viewPixels) == Self.freshView(of: engine))
    }

    @Test func aLargerCanvasLeavesTheNewAreaUnpainted() {
        let engine = Self.engine(Self.picture, .color(.white))
        engine.resizeCanvas(to: IntRect(x: -1, y: -2, width: 7, height: 5))
        #expect(
            PixelPictures.text(engine) == """
                .......
                .......
                .abcd..
                .efgh..
                .ijkl..
                """)
        #expect(engine.viewPixel(x: 0, y: 0) == Color.white.pixel, "the background shows in the new area")
        #expect(Array(engine.viewPixels) == Self.freshView(of: engine))
    }

    @Test func aCanvasCanGrowOnOneSideAndShrinkOnTheOther() {
        let engine = Self.engine()
        engine.resizeCanvas(to: IntRect(x: 2, y: -1, width: 4, height: 3))
        #expect(PixelPictures.text(engine) == "....\ncd..\ngh..")
        // A canvas entirely off the old one keeps nothing.
        engine.resizeCanvas(to: IntRect(x: 10, y: 10, width: 1, height: 3))
        #expect(PixelPictures.text(engine) == ".\n.\n.")
    }

    @Test func anImageBackgroundIsCutAndExtendedWithWhiteAlongWithThePaint() {
        let backdrop = PixelPictures.image("mnop\nqrst\nuvwx")
        let engine = Self.engine(PixelImage(width: 4, height: 3), .image(backdrop))
        engine.resizeCanvas(to: IntRect(x: 1, y: 1, width: 4, height: 3))
        guard case .image(let image) = engine.background else { return #expect(Bool(false), "image background kept") }
        let w = Color.white.pixel
        let r = PixelPictures.pixel
        #expect(image.pixels == [r("r"), r("s"), r("t"), w, r("v"), r("w"), r("x"), w, w, w, w, w])
        #expect(Array(engine.viewPixels) == Self.freshView(of: engine))
    }

    @Test func turnsAndMirrorsMoveThePaintAndTheBackground() {
        let backdrop = PixelPictures.image("mnop\nqrst\nuvwx")
        for o in Orientation.all where o != .identity {
            let engine = Self.engine(Self.picture, .image(backdrop))
            #expect(engine.orient(o) == engine.bounds)
            #expect(engine.paintImage() == Self.picture.oriented(o), "\(o)")
            #expect(engine.background == .image(backdrop.oriented(o)), "\(o)")
            #expect(Array(engine.viewPixels) == Self.freshView(of: engine), "\(o)")
        }
        let row = Self.engine(PixelPictures.image("abcde"))
        row.orient(.rotateLeft)
        #expect(PixelPictures.text(row) == "e\nd\nc\nb\na")
        #expect(Self.engine().orient(.identity) == .empty)
    }

    @Test func scalingTheEngineIsScalingItsPaint() throws {
        for (w, h) in [(9, 5), (2, 7), (4, 3), (1, 1)] {
            let engine = Self.engine(Self.picture, .color(Color(r: 1, g: 2, b: 3)))
            let expected = try #require(Self.picture.scaled(toWidth: w, height: h))
            #expect(engine.scalePicture(toWidth: w, height: h) == (w == 4 && h == 3 ? .empty : engine.bounds))
            #expect(engine.paintImage() == expected, "\(w)x\(h)")
            #expect(Array(engine.viewPixels) == Self.freshView(of: engine))
        }
        let backdrop = PixelPictures.image("mnop\nqrst\nuvwx")
        let engine = Self.engine(PixelImage(width: 4, height: 3), .image(backdrop))
        engine.scalePicture(toWidth: 7, height: 2)
        guard case .image(let image) = engine.background else { return #expect(Bool(false), "image background kept") }
        #expect(image.width == 7 && image.height == 2 && image.isOpaque)
    }

    @Test func sizesBeyondTheLimitsAreRefusedAndChangeNothing() {
        let limits = ImageLimits(maxSide: 6, maxPixels: 24)
        let engine = Self.engine()
        let before = Array(engine.viewPixels)
        #expect(engine.resizeCanvas(to: IntRect(x: 0, y: 0, width: 7, height: 2), limits: limits) == .empty)
        #expect(engine.resizeCanvas(to: IntRect(x: 0, y: 0, width: 5, height: 5), limits: limits) == .empty)
        #expect(engine.resizeCanvas(to: IntRect(x: 0, y: 0, width: 0, height: 5), limits: limits) == .empty)
        #expect(engine.scalePicture(toWidth: 6, height: 6, limits: limits) == .empty)
        #expect(engine.scalePicture(toWidth: 1_000_000, height: 1_000_000) == .empty)
        #expect(engine.resizeCanvas(to: IntRect(x: 0, y: 0, width: 1 << 40, height: 1 << 40)) == .empty)
        #expect(engine.width == 4 && engine.height == 3 && Array(engine.viewPixels) == before)
        #expect(engine.resizeCanvas(to: IntRect(x: 0, y: 0, width: 6, height: 4), limits: limits) != .empty)
    }

    /// After a resize the engine's buffers are of the new size: a stroke across the whole new
    /// canvas draws exactly as on a fresh canvas of that size with the same paint.
    @Test func strokesDrawNormallyOnTheNewCanvas() {
        let style = StrokeStyle(color: Color(r: 200, g: 30, b: 60), opacity: 0.7, width: 5)
        let points = [Point(x: -3, y: 2), Point(x: 60, y: 33), Point(x: 10, y: 70)]
        for change in [
            { (e: StrokeEngine) in e.resizeCanvas(to: IntRect(x: -20, y: -30, width: 57, height: 71)) },
            { (e: StrokeEngine) in e.orient(.rotateRight) },
            { (e: StrokeEngine) in e.scalePicture(toWidth: 41, height: 77) },
        ] {
            let engine = StrokeEngine(image: PasteTests.picture(23, 40, seed: 4), background: .color(.white))
            _ = change(engine)
            let fresh = StrokeEngine(image: engine.paintImage(), background: .color(.white))
            for e in [engine, fresh] { Operation.stroke(style, points: points).apply(to: e) }
            #expect(engine.paintImage() == fresh.paintImage())
            #expect(Array(engine.viewPixels) == Array(fresh.viewPixels))
        }
    }

    @Test func whileCompositingIsDeferredTheViewCatchesUpAfterwards() {
        let engine = Self.engine(Self.picture, .color(.black))
        engine.defersComposite = true
        engine.resizeCanvas(to: IntRect(x: -2, y: 0, width: 8, height: 3))
        engine.orient(.rotateLeft)
        engine.defersComposite = false
        #expect(Array(engine.viewPixels) == Self.freshView(of: engine))
    }

    @Test func autocropFindsTheBorderOfOneColor() {
        let bordered = Self.engine(
            PixelPictures.image(
                """
                ......
                ..ab..
                ...c..
                ......
                """))
        #expect(bordered.autocropRect() == IntRect(x: 2, y: 1, width: 2, height: 2))
        // On a white background, unpainted pixels and white paint are the same white border.
        var withWhite = PixelPictures.image("zz..\n.ab.\n....")
        withWhite[0, 0] = Color.white.pixel
        withWhite[1, 0] = Color.white.pixel
        #expect(Self.engine(withWhite, .color(.white)).autocropRect() == IntRect(x: 1, y: 1, width: 2, height: 1))
        // A border only on the right and bottom is found from the other corner.
        #expect(
            Self.engine(PixelPictures.image("ab..\ncd..\n....")).autocropRect()
                == IntRect(x: 0, y: 0, width: 2, height: 2))
        #expect(Self.engine(PixelPictures.image("aaa\naaa")).autocropRect() == nil, "one color: nothing to keep")
        #expect(Self.engine(Self.picture).autocropRect() == nil, "no border")
        #expect(Self.engine(PixelPictures.image("a.a")).autocropRect() == IntRect(x: 1, y: 0, width: 1, height: 1))
        #expect(Self.engine(PixelPictures.image(".\na\n.")).autocropRect() == IntRect(x: 0, y: 1, width: 1, height: 1))
    }

    /// A margin whose whites differ by a few levels (a JPEG's, noisiest next to the content) is
    /// one border within a tolerance: the crop ends at the content, not at the first pixel
    /// off the corner's exact white. Each channel counts, alpha too.
    @Test func autocropTakesAMarginOfNearlyOneColorWithinTheTolerance() {
        var noisy = PixelImage(width: 9, height: 7, fill: Color.white.pixel)
        for (x, y, level) in [(0, 0, 254), (8, 6, 250), (2, 3, 243), (6, 2, 247), (4, 1, 252)] {
            noisy[x, y] = Color(r: 255, g: UInt8(level), b: 255).pixel
        }
        noisy[4, 3] = Color(r: 200, g: 30, b: 30).pixel
        noisy[5, 4] = Color(r: 200, g: 30, b: 30).pixel
        let content = IntRect(x: 4, y: 3, width: 2, height: 2)
        #expect(Self.engine(noisy).autocropRect(tolerance: 12) == content)
        #expect(Self.engine(noisy).autocropRect(tolerance: 255) == nil, "everything within 255: one color")
        // Exact (0, the default), the noise is content; 8 keeps the 243 still.
        #expect(Self.engine(noisy).autocropRect() == nil, "both corners are noise of their own")
        #expect(Self.engine(noisy).autocropRect(tolerance: 8) == IntRect(x: 2, y: 3, width: 4, height: 2))
        // Half-transparent white (premultiplied) is not the opaque white of a corner at a small tolerance.
        noisy[1, 5] = 0x8080_8080
        #expect(Self.engine(noisy).autocropRect(tolerance: 12) == IntRect(x: 1, y: 3, width: 5, height: 3))
        // A transparent corner is matched exactly: a shadow's last faint pixels (alpha 3, 10)
        // are content at any tolerance.
        var shadow = PixelImage(width: 8, height: 6)
        shadow[3, 2] = Pixel.pack(r: 0, g: 0, b: 0, a: 128)
        shadow[1, 2] = Pixel.pack(r: 0, g: 0, b: 0, a: 10)
        shadow[4, 4] = Pixel.pack(r: 0, g: 0, b: 0, a: 3)
        #expect(Self.engine(shadow).autocropRect(tolerance: 32) == IntRect(x: 1, y: 2, width: 4, height: 3))
    }
}

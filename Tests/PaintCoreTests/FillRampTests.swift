import Foundation
import TestSupport
import Testing

@testable import PaintCore

/// Version 3 fills (`DrawingVersion.session8`): the soft outline around the filled area takes
/// the fill exactly where its pixels are a mix of the outline and the area's color, up to
/// `StrokeEngine.edgeReach` pixels deep.
@Suite struct FillRampTests {
    static let red = Color(r: 220, g: 0, b: 0)
    static let white: UInt32 = 0xFFFF_FFFF
    static let black: UInt32 = 0xFF00_0000

    static func grey(_ v: UInt8) -> UInt32 { Color(r: v, g: v, b: v).pixel }

    /// A 16 x 8 opaque picture: white in columns 0...7, then `ramp`'s columns, then black.
    static func rampPicture(_ ramp: [UInt32]) -> StrokeEngine {
        var image = PixelImage(width: 16, height: 8, fill: white)
        for y in 0..<8 {
            for (i, p) in ramp.enumerated() { image[8 + i, y] = p }
            for x in (8 + ramp.count)..<16 { image[x, y] = black }
        }
        return StrokeEngine(image: image)
    }

    /// Fills the picture's white part with red at tolerance 32 by `drawing`'s rules; returns the
    /// view before the fill ends and the flattened picture after.
    static func fillWhite(
        _ engine: StrokeEngine, drawing: DrawingVersion = .session8, at point: Point = Point(x: 2.5, y: 2.5)
    ) -> (view: [UInt32], picture: PixelImage) {
        engine.beginFill(StrokeStyle(color: red, drawing: drawing), at: point, tolerance: 32)
        let view = Array(engine.viewPixels)
        engine.end()
        return (view, engine.flattenedImage())
    }

    @Test func anEdgePixelBecomesWhatTheFillWouldHaveMadeOfItUnderTheOutline() {
        // Half grey between white and black, filled with (220, 0, 0): a = 127/255, so the
        // pixel keeps its black part (none of the channels) and takes 128/255 of the red:
        // 128 - 128/255·35 = 110.4 in red, 0 in green and blue. Version 2 made it (197, 32, 32).
        let pixel = StrokeEngine.filledEdgePixel(
            pixel: Self.grey(128), target: Self.white, outline: Self.black, fill: Self.red.pixel, opacity: 1)
        #expect(pixel == Color(r: 110, g: 0, b: 0).pixel)
        // Filled with pure red the grey becomes exactly half red.
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: Self.grey(128), target: Self.white, outline: Self.black, fill: 0xFFFF_0000, opacity: 1)
                == Color(r: 128, g: 0, b: 0).pixel)
        // At opacity 0.5 the white part becomes half white, half red: 128 - 64/255·35 = 119.2,
        // 128 - 64/255·255 = 64.
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: Self.grey(128), target: Self.white, outline: Self.black, fill: Self.red.pixel, opacity: 0.5)
                == Color(r: 119, g: 64, b: 64).pixel)
        // A colored outline: a mix of white and blue (a = 127/255) keeps its blue part, and its
        // white part becomes red: (110, 0, 127).
        let blue: UInt32 = 0xFF00_00FF
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: Color(r: 128, g: 128, b: 255).pixel, target: Self.white, outline: blue, fill: Self.red.pixel,
                opacity: 1) == Color(r: 110, g: 0, b: 127).pixel)
        // On a transparent picture (premultiplied): half-covered black over nothing gets the
        // fill behind it: alpha 128 + 127, red 127/255·220 = 109.6.
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: 0x8000_0000, target: 0, outline: Self.black, fill: Self.red.pixel, opacity: 1) == 0xFF6E_0000)
        // Not a mix of the two (green between white and black): nothing.
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: 0xFF00_FF00, target: Self.white, outline: Self.black, fill: Self.red.pixel, opacity: 1) == nil)
        // The outline's own color, or no outline: nothing to change.
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: Self.black, target: Self.white, outline: Self.black, fill: Self.red.pixel, opacity: 1) == nil)
        #expect(
            StrokeEngine.filledEdgePixel(
                pixel: Self.white, target: Self.white, outline: Self.white, fill: Self.red.pixel, opacity: 1) == nil)
    }

    @Test func aThreePixelSoftEdgeTakesTheFillAcrossItsWholeWidth() {
        // Greys at a = 1/4, 1/2, 3/4 of black: filled with (220, 0, 0) each becomes p·220/255 red.
        let ramp = [Self.grey(191), Self.grey(128), Self.grey(64)]
        let (view, picture) = Self.fillWhite(Self.rampPicture(ramp))
        for y in 0..<8 {
            for x in 0..<8 { #expect(picture[x, y] == Self.red.pixel, "(\(x), \(y))") }
            #expect(picture[8, y] == Color(r: 165, g: 0, b: 0).pixel, "191·220/255 = 164.8: \(picture[8, y])")
            #expect(picture[9, y] == Color(r: 110, g: 0, b: 0).pixel, "128·220/255 = 110.4: \(picture[9, y])")
            #expect(picture[10, y] == Color(r: 55, g: 0, b: 0).pixel, "64·220/255 = 55.2: \(picture[10, y])")
            for x in 11..<16 { #expect(picture[x, y] == Self.black) }
        }
        // The view showed the merged pixels before the fill ended.
        #expect(view == picture.pixels)
        // Version 2 reached one pixel, by a least-squares coverage: the rest stayed grey.
        let (_, old) = Self.fillWhite(Self.rampPicture(ramp), drawing: .session7)
        #expect(old[8, 3] != picture[8, 3] && old[8, 3] >> 8 & 0xFF > 0)
        #expect(old[9, 3] == Self.grey(128) && old[10, 3] == Self.grey(64))
    }

    @Test func theInsideCornerOfASoftBoxTakesTheFillToo() {
        // White from (4, 4) on; around it greys by the distance to that corner's box (the
        // larger of the two): 191, 128, 64, then black. The corner's diagonal (3, 3), (2, 2),
        // (1, 1) lies on no row or column through a filled pixel.
        var image = PixelImage(width: 12, height: 12, fill: Self.white)
        for y in 0..<12 {
            for x in 0..<12 {
                let d = max(4 - x, 4 - y)
                if d > 0 { image[x, y] = [Self.grey(191), Self.grey(128), Self.grey(64), Self.black][min(d, 4) - 1] }
            }
        }
        let (_, picture) = Self.fillWhite(StrokeEngine(image: image), at: Point(x: 8.5, y: 8.5))
        for (x, y) in [(3, 3), (3, 8), (8, 3)] {
            #expect(picture[x, y] == Color(r: 165, g: 0, b: 0).pixel, "(\(x), \(y))")
        }
        for (x, y) in [(2, 2), (2, 8), (8, 2)] {
            #expect(picture[x, y] == Color(r: 110, g: 0, b: 0).pixel, "(\(x), \(y))")
        }
        for (x, y) in [(1, 1), (1, 8), (8, 1)] {
            #expect(picture[x, y] == Color(r: 55, g: 0, b: 0).pixel, "(\(x), \(y))")
        }
        #expect(picture[0, 0] == Self.black && picture[0, 8] == Self.black)
    }

    @Test func theFillReachesNoFartherThanItsReach() {
        // Five greys before the black: the walk sees four of them and takes the last as the
        // outline (grey 85): the three before it take the fill mixed with that grey, the two
        // from there on stay as they were.
        let ramp = [Self.grey(213), Self.grey(170), Self.grey(128), Self.grey(85), Self.grey(43)]
        let (_, picture) = Self.fillWhite(Self.rampPicture(ramp))
        #expect(StrokeEngine.edgeReach == 3)
        for y in 0..<8 {
            for x in 8..<11 {
                let p = picture[x, y]
                #expect(p >> 16 & 0xFF > p >> 8 & 0xFF, "(\(x), \(y)) took no fill: \(String(p, radix: 16))")
            }
            #expect(picture[11, y] == Self.grey(85) && picture[12, y] == Self.grey(43))
        }
    }

    @Test func aPixelThatIsNotAMixStopsTheWalk() {
        // Grey, then green, then black: the grey is filled against the black (the walk's peak),
        // the green, no mix of white and black, is left alone.
        let green = Color(r: 0, g: 160, b: 0).pixel
        let (_, picture) = Self.fillWhite(Self.rampPicture([0xFFC0_C0C0, green]))
        for y in 0..<8 {
            #expect(picture[8, y] == Color(r: 166, g: 0, b: 0).pixel, "192·220/255 = 165.6: \(picture[8, y])")
            #expect(picture[9, y] == green)
            #expect(picture[10, y] == Self.black)
        }
        // A hard edge of another color is its own peak: nothing beyond the area changes.
        let (_, hard) = Self.fillWhite(Self.rampPicture([green, green]))
        for y in 0..<8 { #expect(hard[8, y] == green && hard[9, y] == green && hard[10, y] == Self.black) }
    }

    @Test func onATransparentPictureTheFillGoesInBehindTheSoftEdge() {
        var image = PixelImage(width: 16, height: 4, fill: 0)
        for y in 0..<4 {
            image[8, y] = 0x4000_0000
            image[9, y] = 0x8000_0000
            image[10, y] = 0xC000_0000
            for x in 11..<16 { image[x, y] = Self.black }
        }
        let engine = StrokeEngine(image: image, background: .transparent)
        engine.beginFill(StrokeStyle(color: Self.red), at: Point(x: 2.5, y: 2.5), tolerance: 32)
        engine.end()
        let picture = engine.flattenedImage()
        // alpha a·255 black in front of (1 - a) of the red: opaque, red (255 - a)/255·220.
        #expect(picture[2, 1] == Self.red.pixel)
        #expect(picture[8, 1] == 0xFFA5_0000, "191/255·220 = 164.8: \(String(picture[8, 1], radix: 16))")
        #expect(picture[9, 1] == 0xFF6E_0000, "127/255·220 = 109.6: \(String(picture[9, 1], radix: 16))")
        #expect(picture[10, 1] == 0xFF36_0000, "63/255·220 = 54.4: \(String(picture[10, 1], radix: 16))")
        #expect(picture[11, 1] == Self.black)
    }

    @Test func aCancelledOrUndoneFillLeavesTheEdgeAsItWas() {
        let ramp = [Self.grey(191), Self.grey(128), Self.grey(64)]
        let engine = Self.rampPicture(ramp)
        let before = engine.flattenedImage()
        let viewBefore = Array(engine.viewPixels)
        engine.beginFill(StrokeStyle(color: Self.red), at: Point(x: 2.5, y: 2.5), tolerance: 32)
        #expect(engine.viewPixel(x: 9, y: 3) == Color(r: 110, g: 0, b: 0).pixel)
        engine.cancel()
        #expect(engine.flattenedImage() == before && Array(engine.viewPixels) == viewBefore)

        let history = History(base: before)
        history.perform(.fill(StrokeStyle(color: Self.red), at: Point(x: 2.5, y: 2.5), tolerance: 32), engine: engine)
        #expect(engine.flattenedImage()[9, 3] == Color(r: 110, g: 0, b: 0).pixel)
        history.undo(engine: engine)
        #expect(engine.flattenedImage() == before && Array(engine.viewPixels) == viewBefore)
        history.redo(engine: engine)
        #expect(engine.flattenedImage()[9, 3] == Color(r: 110, g: 0, b: 0).pixel)
    }

    @Test func anAntiAliasedCircleFillsWithNoPaleRingAndKeepsItsDarkLine() {
        let engine = FloodFillTests.circlePicture()
        let before = engine.flattenedImage()
        let (view, picture) = Self.fillWhite(engine, at: Point(x: 50, y: 50))
        #expect(view == picture.pixels)
        var changedOutsideTolerance = 0
        var palest = 0
        for y in 20..<80 {
            for x in 20..<80 {
                let dx = Double(x) + 0.5 - 49.95
                let dy = Double(y) + 0.5 - 49.95
                let r = (dx * dx + dy * dy).squareRoot()
                // Inside the line's middle every pixel is red or a mix of red and black: no
                // green (the channel both lack) beyond the slack.
                if r < 33 { palest = max(palest, Int(picture[x, y] >> 8 & 0xFF)) }
                if before[x, y] >> 8 & 0xFF < 255 - 32 && picture[x, y] != before[x, y] {
                    changedOutsideTolerance += 1
                    // What changed is the mix: its white part went, so its green fell.
                    #expect(picture[x, y] >> 8 & 0xFF < before[x, y] >> 8 & 0xFF, "(\(x), \(y))")
                }
            }
        }
        #expect(palest <= StrokeEngine.mixSlack, "a pale pixel inside the line: green \(palest)")
        #expect(changedOutsideTolerance > 50, "\(changedOutsideTolerance) pixels of the soft edge took the fill")
        // Outside the circle nothing changed.
        #expect(picture[2, 2] == Self.white && picture[50, 2] == Self.white)
    }
}

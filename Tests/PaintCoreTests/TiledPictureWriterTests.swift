import PaintCore
import Testing

/// `TiledPicture.Writer`: a decoder's rows cut into tiles band by band, turned as a photo's EXIF
/// orientation asks on the way, give exactly the tiles of the whole picture turned and then cut.
@Suite struct TiledPictureWriterTests {
    /// Noise with a white block across a band edge and a tile edge: uniform squares and partial
    /// tiles on every side.
    static func picture(width: Int, height: Int) -> PixelImage {
        var image = PixelImage(width: width, height: height)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                image[x, y] = x < 70 && y >= 40 && y < 140 ? Color.white.pixel : 0xFF00_0000 | state >> 8
            }
        }
        return image
    }

    /// Writes `image`'s rows through a writer, as a decoder does.
    static func written(_ image: PixelImage, _ orientation: Orientation) -> TiledPicture {
        let writer = TiledPicture.Writer(width: image.width, height: image.height, orientation: orientation)
        for y in 0..<image.height {
            for x in 0..<image.width { writer.band[writer.bandRow(of: y) * image.width + x] = image[x, y] }
            writer.rowWritten(y)
        }
        return writer.finish()
    }

    @Test(arguments: Orientation.all)
    func rowsTurnedAsTheyAreCutGiveThePictureTurnedWhole(orientation: Orientation) {
        // One pixel; one whole tile; sizes that are not multiples of 64 either way round, so
        // that turned and mirrored bands end on partial tiles.
        for (width, height) in [(1, 1), (64, 64), (65, 130), (130, 65), (150, 200), (201, 77)] {
            let image = Self.picture(width: width, height: height)
            let want = image.oriented(orientation)
            let tiled = Self.written(image, orientation)
            #expect(tiled.width == want.width && tiled.height == want.height, "\(orientation) \(width) x \(height)")
            #expect(tiled.image == want, "\(orientation) \(width) x \(height)")
            // The white squares are shared tiles, as when the turned picture is cut.
            #expect(
                tiled.fullTileCount == TiledPicture(want).fullTileCount, "\(orientation) \(width) x \(height)")
        }
    }

    @Test func aWhitePictureTurnedTakesOneSharedTile() {
        let image = PixelImage(width: 300, height: 130, fill: Color.white.pixel)
        let tiled = Self.written(image, .rotateRight)
        #expect(tiled.width == 130 && tiled.height == 300)
        #expect(tiled.fullTileCount == 0)
        #expect(tiled.image == PixelImage(width: 130, height: 300, fill: Color.white.pixel))
    }

    @Test func oneDifferentPixelAnywhereInASquareGivesItATileOfItsOwn() {
        // 100 x 70: a whole tile, and partial ones to the right and below. The pixel is put on
        // each square's edges and corners (the last one of its last row too) and inside it.
        let width = 100
        let height = 70
        let spots = [0, 1, 31, 62, 63].flatMap { x in [0, 1, 31, 62, 63].map { y in (x, y) } }
        for (tx, ty) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            for (x, y) in spots {
                let px = tx * 64 + x
                let py = ty * 64 + y
                guard px < width, py < height else { continue }
                var image = PixelImage(width: width, height: height, fill: Color.white.pixel)
                image[px, py] = 0xFFFF_FFFE
                let tiled = Self.written(image, .identity)
                #expect(tiled.image == image, "pixel at \(px), \(py)")
                #expect(tiled.fullTileCount == 1, "pixel at \(px), \(py)")
            }
        }
        // Alpha alone differing counts too.
        var image = PixelImage(width: width, height: height, fill: 0xFF00_0000)
        image[99, 69] = 0x0000_0000
        #expect(Self.written(image, .identity).image == image)
        #expect(Self.written(image, .identity).fullTileCount == 1)
    }

    @Test func aPictureCutWhileItsMemoryIsGivenBackKeepsEveryPixel() {
        // 700 x 333: bands of 179 KB, so pages are given back inside and across bands.
        let image = Self.picture(width: 700, height: 333)
        let kept = image
        let tiled = TiledPicture(releasing: image)
        #expect(tiled.image == kept)
        #expect(tiled.fullTileCount == TiledPicture(kept).fullTileCount)
        // The image was still shared: its pixels were copied before any page was given back.
        #expect(image == kept && image == Self.picture(width: 700, height: 333))
        let one = TiledPicture(releasing: PixelImage(width: 1, height: 1, fill: 0xFF12_3456))
        #expect(one.pixel(x: 0, y: 0) == 0xFF12_3456)
    }
}

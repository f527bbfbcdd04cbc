/// A picture already cut into the engine's 64 x 64 tiles (`PaintTile`), as a decoder writes it:
/// an opened file becomes the engine's paint without a whole-picture buffer in between, and
/// every square of one value (the white of a scan, a flat background) is one shared tile that
/// takes no memory of its own.
///
/// A value: its tiles are never written again once made (the engine copies a tile before it
/// writes into one that something else still holds), so it may cross threads.
public struct TiledPicture: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major by tile.
    let tiles: ContiguousArray<PaintTile>

    /// The tiles of `image`.
    public init(_ image: PixelImage) {
        self = image.pixels.withUnsafeBufferPointer { pixels in
            Self(width: image.width, height: image.height, copying: pixels.baseAddress!)
        }
    }

    /// The tiles of the `width` x `height` row-major pixels at `pixels`.
    init(width: Int, height: Int, copying pixels: UnsafePointer<UInt32>) {
        let writer = Writer(width: width, height: height)
        for band in 0..<writer.bands { writer.cut(band, from: pixels + (band << Tile.shift) * writer.width) }
        self = writer.finish()
    }

    init(width: Int, height: Int, tiles: ContiguousArray<PaintTile>) {
        self.width = width
        self.height = height
        self.tiles = tiles
    }

    /// The pixel at (x, y), which must be inside the picture.
    public func pixel(x: Int, y: Int) -> UInt32 {
        let tile = tiles[(y >> Tile.shift) * Tile.count(width) + (x >> Tile.shift)]
        return tile.row(y & Tile.mask)[x & Tile.mask]
    }

    /// The whole picture in one buffer (tests compare it with a flat decode).
    public var image: PixelImage {
        var image = PixelImage(width: width, height: height, fill: 0)
        image.pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                for x in 0..<width { out[y * width + x] = pixel(x: x, y: y) }
            }
        }
        return image
    }

    /// Tiles holding pixels of their own (not one shared value): what the picture costs.
    public var fullTileCount: Int { tiles.reduce(0) { $0 + ($1.isUniform ? 0 : 1) } }

    /// Builds a picture one band of 64 rows at a time: the caller writes the band's rows into
    /// `band` (row-major, `width` pixels a row, the band's first row first) and calls
    /// `storeBand`, which cuts them into tiles. The band is the only buffer besides the tiles:
    /// 64 rows, whatever the picture's height. Make one only once the size is within
    /// `ImageLimits`.
    public final class Writer {
        public let width: Int
        public let height: Int
        /// Rows of tiles: bands to store.
        public let bands: Int
        /// The band being written: 64 rows of `width` pixels (not zeroed).
        public let band: UnsafeMutableBufferPointer<UInt32>
        private let across: Int
        private var tiles: ContiguousArray<PaintTile>
        private var lastUniform = PaintLayer.transparent

        /// A writer for a `width` x `height` picture (at least 1 x 1).
        public init(width: Int, height: Int) {
            self.width = max(1, width)
            self.height = max(1, height)
            across = Tile.count(self.width)
            bands = Tile.count(self.height)
            band = .allocate(capacity: self.width * Tile.size)
            tiles = ContiguousArray(repeating: PaintLayer.transparent, count: across * bands)
        }

        deinit { band.deallocate() }

        /// Rows in band `index` (64, or what is left for the last).
        public func rows(inBand index: Int) -> Int { min(Tile.size, height - (index << Tile.shift)) }

        /// Where row `y` of the picture goes in `band`: its row within its band.
        public func bandRow(of y: Int) -> Int { y & Tile.mask }

        /// Row `y` has been written into `band` (rows in order): once it is the last of its
        /// band, the band is cut into tiles.
        public func rowWritten(_ y: Int) {
            if y & Tile.mask == Tile.mask || y == height - 1 { storeBand(y >> Tile.shift) }
        }

        /// Cuts the rows written into `band` into the tiles of band `index`.
        public func storeBand(_ index: Int) {
            guard let base = band.baseAddress else { return }
            cut(index, from: base)
        }

        /// Cuts the rows of band `index`, `width` pixels apart from `start` on, into its tiles.
        func cut(_ index: Int, from start: UnsafePointer<UInt32>) {
            guard index >= 0, index < bands else { return }
            let rows = rows(inBand: index)
            for tx in 0..<across {
                let x0 = tx << Tile.shift
                let w = min(Tile.size, width - x0)
                let square = start + x0
                let t = index * across + tx
                if let v = PaintTile.uniformValue(of: square, stride: width, count: w, rows: rows) {
                    // Neighbouring squares of one value (a white page) share one tile.
                    if lastUniform.pixels[0] != v { lastUniform = PaintTile(uniform: v) }
                    tiles[t] = lastUniform
                    continue
                }
                let tile = PaintTile(uninitialized: ())
                if w < Tile.size || rows < Tile.size {
                    tile.pixels.initialize(repeating: 0, count: Tile.pixels)
                    for r in 0..<rows { (tile.pixels + r * Tile.size).update(from: square + r * width, count: w) }
                } else {
                    for r in 0..<rows { (tile.pixels + r * Tile.size).initialize(from: square + r * width, count: w) }
                }
                tiles[t] = tile
            }
        }

        /// The picture, once every band is stored.
        public func finish() -> TiledPicture { TiledPicture(width: width, height: height, tiles: tiles) }
    }
}

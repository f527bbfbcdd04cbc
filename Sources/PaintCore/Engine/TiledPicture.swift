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

    /// Builds a picture one band of 64 rows at a time: the caller writes the rows it decodes
    /// into `band` (`width` pixels a row, at `bandRow(of:)`) and calls `rowWritten` after each,
    /// which cuts a band into tiles once its last row is in. The band is the only buffer besides
    /// the tiles: 64 rows, whatever the picture's height. Make one only once the size is within
    /// `ImageLimits`.
    ///
    /// With an `orientation` (a photo's EXIF one) the rows are turned as they are cut: the
    /// picture is `orientation.size(width:height:)`, and no whole-picture buffer is needed to
    /// turn it either. Rows that become the picture's columns fill a column of tiles per band;
    /// rows that end up bottom to top fill the bands from the last one up, so that each band is
    /// one row (or column) of tiles whatever the height.
    public final class Writer {
        /// The decoder's rows: `width` pixels each, `height` of them, before the orientation.
        public let width: Int
        public let height: Int
        /// How the rows are turned into the picture.
        public let orientation: Orientation
        /// Bands of up to 64 rows to store.
        public let bands: Int
        /// The band being written: 64 rows of `width` pixels (not zeroed).
        public let band: UnsafeMutableBufferPointer<UInt32>
        /// Tiles across the picture (after the orientation).
        let across: Int
        var tiles: ContiguousArray<PaintTile>
        var lastUniform = PaintLayer.transparent
        /// The rows come bottom to top in the picture (or right to left, turned).
        private let flipsRows: Bool

        /// A writer for `height` rows of `width` pixels (at least 1 x 1), turned by
        /// `orientation` into the picture.
        public init(width: Int, height: Int, orientation: Orientation = .identity) {
            self.width = max(1, width)
            self.height = max(1, height)
            self.orientation = orientation
            let picture = orientation.size(width: self.width, height: self.height)
            across = Tile.count(picture.width)
            bands = Tile.count(self.height)
            band = .allocate(capacity: self.width * Tile.size)
            tiles = ContiguousArray(repeating: PaintLayer.transparent, count: across * Tile.count(picture.height))
            flipsRows = orientation.swapsAxes ? orientation.mirrorsX : orientation.mirrorsY
        }

        deinit { band.deallocate() }

        /// Rows in band `index` (64, or what is left for the last).
        public func rows(inBand index: Int) -> Int { min(Tile.size, height - (index << Tile.shift)) }

        /// Where the decoder's row `y` goes in the picture's order of rows (or of columns).
        private func line(of y: Int) -> Int { flipsRows ? height - 1 - y : y }

        /// Where row `y` goes in `band`: its row within its band.
        public func bandRow(of y: Int) -> Int { line(of: y) & Tile.mask }

        /// Row `y` has been written into `band` (rows in order): once it is the last of its
        /// band, the band is cut into tiles.
        public func rowWritten(_ y: Int) {
            let l = line(of: y)
            let last = flipsRows ? l & Tile.mask == 0 : l & Tile.mask == Tile.mask || l == height - 1
            if last { storeBand(l >> Tile.shift) }
        }

        /// Writes `fill` into `rows` (the rows after the last one written, to the end) one
        /// after another, as a decoder would have: a damaged file's rest (one value, so its
        /// tiles take no memory of their own).
        public func fill(rows: Range<Int>, with fill: UInt32) {
            guard let base = band.baseAddress else { return }
            for y in rows.clamped(to: 0..<height) {
                (base + bandRow(of: y) * width).update(repeating: fill, count: width)
                rowWritten(y)
            }
        }

        /// Cuts the rows written into `band` into the tiles of band `index`.
        public func storeBand(_ index: Int) {
            guard let base = band.baseAddress, index >= 0, index < bands else { return }
            if orientation.swapsAxes ? orientation.mirrorsY : orientation.mirrorsX {
                for r in 0..<rows(inBand: index) {
                    var row = UnsafeMutableBufferPointer(start: base + r * width, count: width)
                    row.reverse()
                }
            }
            if orientation.swapsAxes { cutTurned(index, from: base) } else { cut(index, from: base) }
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
                    tiles[t] = uniformTile(v)
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

        /// The shared tile of value `v`: neighbouring squares of one value (a white page) share
        /// one tile.
        func uniformTile(_ v: UInt32) -> PaintTile {
            if lastUniform.pixels[0] != v { lastUniform = PaintTile(uniform: v) }
            return lastUniform
        }

        /// The picture, once every band is stored.
        public func finish() -> TiledPicture {
            let picture = orientation.size(width: width, height: height)
            return TiledPicture(width: picture.width, height: picture.height, tiles: tiles)
        }
    }
}

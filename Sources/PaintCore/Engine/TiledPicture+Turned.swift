extension TiledPicture.Writer {
    /// Cuts band `index` of rows that become the picture's columns (an orientation that swaps
    /// the axes, rows already mirrored as it asks) into column `index` of tiles: each 64 x 64
    /// square of the band is transposed into one tile. The rows are `width` pixels apart from
    /// `start` on.
    func cutTurned(_ index: Int, from start: UnsafePointer<UInt32>) {
        let columns = rows(inBand: index)
        let down = Tile.count(width)
        for ty in 0..<down {
            let y0 = ty << Tile.shift
            let rows = min(Tile.size, width - y0)
            let tile = PaintTile(uninitialized: ())
            if columns < Tile.size || rows < Tile.size { tile.pixels.initialize(repeating: 0, count: Tile.pixels) }
            // Row r of the square (a row of the band) becomes column r of the tile; eight band
            // rows at a time keep the reads in a few cache lines.
            var r0 = 0
            while r0 < columns {
                let r1 = min(columns, r0 + 8)
                for y in 0..<rows {
                    let out = tile.pixels + y * Tile.size
                    for r in r0..<r1 { out[r] = start[r * width + y0 + y] }
                }
                r0 = r1
            }
            let t = ty * across + index
            if let v = PaintTile.uniformValue(of: tile.pixels, stride: Tile.size, count: columns, rows: rows) {
                tiles[t] = uniformTile(v)
            } else {
                tiles[t] = tile
            }
        }
    }
}

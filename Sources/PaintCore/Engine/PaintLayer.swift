/// The paint layer: a grid of copy-on-write `PaintTile`s.
///
/// The pixel loops read through per-tile pointer and stride tables (no reference counting per
/// span) and write through `writableTile`, which copies a tile first when a snapshot shares it
/// or it is uniform. A blank canvas is one shared transparent tile; a cleared tile goes back to
/// it, so its memory is released.
final class PaintLayer {
    let width: Int
    let height: Int
    /// Tiles per row of tiles.
    let across: Int
    /// Rows of tiles.
    let down: Int
    /// The owning references, row-major by tile.
    private var tiles: ContiguousArray<PaintTile>
    /// Per tile: its first pixel.
    let bases: UnsafeMutableBufferPointer<UnsafeMutablePointer<UInt32>>
    /// Per tile: pixels between the starts of two rows (64, or 0 for a uniform tile).
    let strides: UnsafeMutableBufferPointer<Int>
    /// Per tile: whether it may be written in place (a full tile no snapshot holds).
    let writable: UnsafeMutableBufferPointer<Bool>

    /// The transparent tile every unpainted square shares.
    static let transparent = PaintTile(uniform: 0)

    /// A canvas of `width` x `height` (at least 1 x 1) with every pixel `fill`.
    init(width: Int, height: Int, fill: UInt32 = 0) {
        self.width = max(1, width)
        self.height = max(1, height)
        across = Tile.count(self.width)
        down = Tile.count(self.height)
        let shared = fill == 0 ? Self.transparent : PaintTile(uniform: fill)
        tiles = ContiguousArray(repeating: shared, count: across * down)
        bases = .allocate(capacity: across * down)
        bases.initialize(repeating: shared.pixels)
        strides = .allocate(capacity: across * down)
        strides.initialize(repeating: 0)
        writable = .allocate(capacity: across * down)
        writable.initialize(repeating: false)
    }

    /// A canvas holding `picture`'s tiles (shared until written: a tile no one else holds any
    /// more is then written in place).
    convenience init(_ picture: TiledPicture) {
        self.init(width: picture.width, height: picture.height)
        for t in picture.tiles.indices { set(t, picture.tiles[t]) }
    }

    /// A canvas holding the `width` x `height` row-major pixels at `pixels`: squares of one value
    /// become shared uniform tiles.
    convenience init(width: Int, height: Int, copying pixels: UnsafePointer<UInt32>) {
        self.init(TiledPicture(width: width, height: height, copying: pixels))
    }

    deinit {
        bases.deallocate()
        strides.deallocate()
        writable.deallocate()
    }

    /// The tile holding pixel column x of pixel row y.
    @inline(__always)
    func tile(x: Int, y: Int) -> Int { (y >> Tile.shift) * across + (x >> Tile.shift) }

    /// The first pixel of row `r` of tile `t`, for reading.
    @inline(__always)
    func row(_ t: Int, _ r: Int) -> UnsafeMutablePointer<UInt32> { bases[t] + r * strides[t] }

    /// The pixel at (x, y) (inside the canvas).
    @inline(__always)
    func pixel(x: Int, y: Int) -> UInt32 { row(tile(x: x, y: y), y & Tile.mask)[x & Tile.mask] }

    /// Tile `t`'s pixels, writable in place: copied first when shared or uniform.
    @inline(__always)
    func writableTile(_ t: Int) -> UnsafeMutablePointer<UInt32> {
        writable[t] ? bases[t] : makeWritable(t)
    }

    @inline(never)
    private func makeWritable(_ t: Int) -> UnsafeMutablePointer<UInt32> {
        if !tiles[t].isUniform && isKnownUniquelyReferenced(&tiles[t]) {
            writable[t] = true
            return bases[t]
        }
        let copy = PaintTile(copying: tiles[t])
        set(t, copy)
        writable[t] = true
        return copy.pixels
    }

    /// Puts `tile` at `t` (not writable in place until `writableTile` says so).
    @inline(__always)
    func set(_ t: Int, _ tile: PaintTile) {
        tiles[t] = tile
        bases[t] = tile.pixels
        strides[t] = tile.rowStride
        writable[t] = false
    }

    /// The tile at `t`, now shared: the engine copies it before writing into it again.
    func share(_ t: Int) -> PaintTile {
        writable[t] = false
        return tiles[t]
    }

    /// Every tile, shared: a snapshot of the whole layer in time proportional to the tile count.
    func shareAll() -> ContiguousArray<PaintTile> {
        writable.update(repeating: false)
        return tiles
    }

    /// Whether tile `t` is uniform.
    @inline(__always)
    func isUniform(_ t: Int) -> Bool { strides[t] == 0 }

    // MARK: Spans (a span may cross tiles; y and x0..<x0+count inside the canvas)

    /// Copies pixels x0..<x0+count of row y to `target`.
    func read(y: Int, x0: Int, count: Int, into target: UnsafeMutablePointer<UInt32>) {
        TileReader(self).visit(y: y, x0: x0, count: count) { pixels, offset, n in
            (target + offset).update(from: pixels, count: n)
        }
    }

    /// Writes `source` over pixels x0..<x0+count of row y.
    func write(y: Int, x0: Int, count: Int, from source: UnsafePointer<UInt32>) {
        let rowTiles = (y >> Tile.shift) * across
        Tile.segments(from: x0, through: x0 + count - 1) { tx, from, through in
            let row = writableTile(rowTiles + tx) + (y & Tile.mask) * Tile.size
            (row + (from & Tile.mask)).update(from: source + (from - x0), count: through - from + 1)
        }
    }

    /// Sets pixels x0..<x0+count of row y to `value`.
    func fill(y: Int, x0: Int, count: Int, value: UInt32) {
        let rowTiles = (y >> Tile.shift) * across
        Tile.segments(from: x0, through: x0 + count - 1) { tx, from, through in
            let t = rowTiles + tx
            guard !(isUniform(t) && bases[t][0] == value) else { return }
            let row = writableTile(t) + (y & Tile.mask) * Tile.size
            (row + (from & Tile.mask)).update(repeating: value, count: through - from + 1)
        }
    }

    /// Makes every pixel of `rect` (inside the canvas) transparent; tiles it covers whole go
    /// back to the shared transparent tile, so their memory is released.
    func clear(_ rect: IntRect) {
        guard !rect.isEmpty else { return }
        for ty in (rect.y >> Tile.shift)...((rect.maxY - 1) >> Tile.shift) {
            for tx in (rect.x >> Tile.shift)...((rect.maxX - 1) >> Tile.shift) {
                let tileRect = IntRect(x: tx << Tile.shift, y: ty << Tile.shift, width: Tile.size, height: Tile.size)
                let part = tileRect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
                let inside = part.intersection(rect)
                if inside == part {
                    set(ty * across + tx, Self.transparent)
                } else {
                    for y in inside.y..<inside.maxY { fill(y: y, x0: inside.x, count: inside.width, value: 0) }
                }
            }
        }
    }

    /// Copies the whole layer into `target` (row-major, `width` per row).
    func copy(into target: UnsafeMutablePointer<UInt32>) {
        for y in 0..<height { read(y: y, x0: 0, count: width, into: target + y * width) }
    }

    /// Bytes of pixels this layer holds in full tiles (uniform tiles are counted as nothing).
    var fullTileBytes: Int {
        var n = 0
        for t in 0..<(across * down) where strides[t] != 0 { n += 1 }
        return n * Tile.pixels * 4
    }
}

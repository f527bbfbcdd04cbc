/// Paint tiles held by reference: a snapshot taken in time proportional to the number of tiles,
/// with no pixel copied. The engine copies a tile before it next writes into it, so the
/// snapshot keeps the pixels as they were. The history packs such snapshots (run lengths, see
/// `PackedPixels`) later, when the program is idle, and then lets the tiles go.
///
/// Either whole tiles (a rectangle, or the whole canvas: a keyframe, the picture a history
/// starts from) or a stroke's footprint: the tiles it touched with their chunk marks (one byte
/// per row, bit k: pixels 8k..8k+7), of which only the marked chunks count.
struct TileSnapshot: Sendable {
    /// Tiles per row of the canvas the snapshot was taken from.
    let across: Int
    let width: Int
    let height: Int
    /// The whole grid (`indices` nil), or the tiles listed in `indices`.
    let tiles: ContiguousArray<PaintTile>
    let indices: [Int]?
    /// For a footprint: 64 bytes of chunk marks per tile in `tiles`.
    let marks: [UInt8]?
    /// The bounds of what the snapshot holds.
    let rect: IntRect
    /// Bytes of pixels the tiles hold (uniform tiles count 256 bytes), an upper bound of what
    /// the snapshot keeps alive.
    let byteCount: Int
    /// Tells this snapshot from others the same engine took.
    let serial: Int

    init(
        across: Int, width: Int, height: Int, tiles: ContiguousArray<PaintTile>, indices: [Int]?, marks: [UInt8]?,
        rect: IntRect, serial: Int
    ) {
        self.serial = serial
        self.across = across
        self.width = width
        self.height = height
        self.tiles = tiles
        self.indices = indices
        self.marks = marks
        self.rect = rect
        var bytes = marks?.count ?? 0
        for tile in tiles { bytes += tile.byteCount }
        byteCount = bytes + (indices?.count ?? 0) * 8
    }

    /// Whole tiles of `image`, which no engine holds.
    init(image: PixelImage) {
        let layer = image.pixels.withUnsafeBufferPointer {
            PaintLayer(width: image.width, height: image.height, copying: $0.baseAddress!)
        }
        self.init(
            across: layer.across, width: layer.width, height: layer.height, tiles: layer.shareAll(), indices: nil,
            marks: nil, rect: IntRect(x: 0, y: 0, width: image.width, height: image.height), serial: 0)
    }

    /// The tile index of entry `k` of `tiles`.
    @inline(__always)
    func index(_ k: Int) -> Int { indices?[k] ?? k }

    /// The canvas rectangle of tile `t`, clipped to the canvas.
    func area(ofTile t: Int) -> IntRect {
        IntRect(x: (t % across) << Tile.shift, y: (t / across) << Tile.shift, width: Tile.size, height: Tile.size)
            .intersection(IntRect(x: 0, y: 0, width: width, height: height))
    }

    /// The spans the snapshot holds, as (y, x0, count) triples in row order: the rectangle's
    /// rows, or the footprint's runs of marked chunks (runs that meet across a tile edge are
    /// one span), clipped to the canvas.
    func spans() -> [Int32] {
        var spans: [Int32] = []
        guard let marks, let indices else {
            let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
            guard !r.isEmpty else { return [] }
            spans.reserveCapacity(r.height * 3)
            for y in r.y..<r.maxY { spans += [Int32(y), Int32(r.x), Int32(r.width)] }
            return spans
        }
        // Tiles in row-major order; within a band of tiles, row by row, tile by tile.
        let order = indices.indices.sorted { indices[$0] < indices[$1] }
        var start = 0
        while start < order.count {
            let band = indices[order[start]] / across
            var end = start
            while end < order.count && indices[order[end]] / across == band { end += 1 }
            for r in 0..<Tile.size {
                let y = (band << Tile.shift) + r
                guard y < height else { break }
                for k in order[start..<end] {
                    var bits = marks[k * Tile.size + r]
                    let x = (indices[k] % across) << Tile.shift
                    while bits != 0 {
                        let first = bits.trailingZeroBitCount
                        let run = (~(bits >> UInt8(first))).trailingZeroBitCount
                        let x0 = x + (first << 3)
                        let x1 = min(width, x + ((first + run) << 3))
                        if x0 < x1 {
                            let n = spans.count
                            if n >= 3 && spans[n - 3] == Int32(y) && Int(spans[n - 2] + spans[n - 1]) == x0 {
                                spans[n - 1] += Int32(x1 - x0)
                            } else {
                                spans += [Int32(y), Int32(x0), Int32(x1 - x0)]
                            }
                        }
                        bits =
                            first + run >= 8 ? 0 : bits & ~(UInt8(truncatingIfNeeded: (1 << run) - 1) << UInt8(first))
                    }
                }
            }
            start = end
        }
        return spans
    }
}

/// Read access to tiled paint pixels for packing: per tile its first pixel and row stride,
/// borrowed from a `PaintLayer` or laid out for a `TileSnapshot` (which must outlive it).
struct TileReader {
    let across: Int
    let bases: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>
    let strides: UnsafeMutablePointer<Int>
    private let owned: Bool

    /// Reads `layer` as it is (its tables, borrowed).
    init(_ layer: PaintLayer) {
        across = layer.across
        bases = layer.bases.baseAddress!
        strides = layer.strides.baseAddress!
        owned = false
    }

    /// Reads `snapshot`'s tiles.
    init(_ snapshot: TileSnapshot) {
        across = snapshot.across
        let count = snapshot.across * Tile.count(snapshot.height)
        bases = .allocate(capacity: count)
        bases.initialize(repeating: PaintLayer.transparent.pixels, count: count)
        strides = .allocate(capacity: count)
        strides.initialize(repeating: 0, count: count)
        for k in snapshot.tiles.indices {
            let t = snapshot.index(k)
            bases[t] = snapshot.tiles[k].pixels
            strides[t] = snapshot.tiles[k].rowStride
        }
        owned = true
    }

    /// Frees the tables laid out for a snapshot.
    func release() {
        guard owned else { return }
        bases.deallocate()
        strides.deallocate()
    }

    /// Calls `body(pixels, offset, n)` for each tile's piece of pixels x0..<x0+count of row y,
    /// in order: `n` pixels from `pixels`, `offset` pixels into the span.
    @inline(__always)
    func visit(y: Int, x0: Int, count: Int, _ body: (UnsafePointer<UInt32>, Int, Int) -> Void) {
        let r = y & Tile.mask
        let rowTiles = (y >> Tile.shift) * across
        Tile.segments(from: x0, through: x0 + count - 1) { tx, from, through in
            let t = rowTiles + tx
            body(bases[t] + r * strides[t] + (from & Tile.mask), from - x0, through - from + 1)
        }
    }
}

extension StrokeEngine {
    /// A new serial for a snapshot.
    func nextSnapshotSerial() -> Int {
        snapshotSerial += 1
        return snapshotSerial
    }

    /// The paint under the stroke in progress, by reference (the tiles it touched and its
    /// chunk marks): its undo snapshot, taken in time proportional to its tiles. Call before
    /// `end`.
    func snapshotFootprint() -> TileSnapshot {
        let active = coverage.active
        var tiles = ContiguousArray<PaintTile>()
        tiles.reserveCapacity(active.count)
        var marks = [UInt8](repeating: 0, count: active.count * Tile.size)
        for (k, t) in active.enumerated() {
            tiles.append(paint.share(t))
            if let tile = coverage.tiles[t] {
                for r in 0..<Tile.size { marks[k * Tile.size + r] = tile[Tile.pixels + r] }
            }
        }
        return TileSnapshot(
            across: paint.across, width: width, height: height, tiles: tiles, indices: active, marks: marks,
            rect: strokeBounds, serial: nextSnapshotSerial())
    }

    /// The paint of `rect` (clipped to the canvas) by reference: whole tiles. Finished strokes
    /// are merged first.
    func snapshotPaint(_ rect: IntRect) -> TileSnapshot {
        settle()
        let r = rect.intersection(bounds)
        if r == bounds {
            return TileSnapshot(
                across: paint.across, width: width, height: height, tiles: paint.shareAll(), indices: nil, marks: nil,
                rect: r, serial: nextSnapshotSerial())
        }
        var tiles = ContiguousArray<PaintTile>()
        var indices: [Int] = []
        if !r.isEmpty {
            for ty in (r.y >> Tile.shift)...((r.maxY - 1) >> Tile.shift) {
                for tx in (r.x >> Tile.shift)...((r.maxX - 1) >> Tile.shift) {
                    let t = ty * paint.across + tx
                    tiles.append(paint.share(t))
                    indices.append(t)
                }
            }
        }
        return TileSnapshot(
            across: paint.across, width: width, height: height, tiles: tiles, indices: indices, marks: nil, rect: r,
            serial: nextSnapshotSerial())
    }

    /// Writes a snapshot's pixels back into the paint, only inside `region` (in the canvas). A
    /// whole tile inside the region is put back by reference; a snapshot of another canvas
    /// size is ignored.
    func restore(_ snapshot: TileSnapshot, in region: IntRect) {
        guard snapshot.width == width, snapshot.height == height, !region.isEmpty else { return }
        for k in snapshot.tiles.indices {
            let t = snapshot.index(k)
            let area = snapshot.area(ofTile: t)
            let part = area.intersection(region).intersection(snapshot.rect)
            guard !part.isEmpty else { continue }
            let tile = snapshot.tiles[k]
            guard let marks = snapshot.marks else {
                if part == area {
                    paint.set(t, tile)
                } else {
                    for y in part.y..<part.maxY {
                        paint.write(
                            y: y, x0: part.x, count: part.width,
                            from: tile.row(y & Tile.mask) + (part.x & Tile.mask))
                    }
                }
                continue
            }
            for y in part.y..<part.maxY {
                var bits = marks[k * Tile.size + (y & Tile.mask)]
                while bits != 0 {
                    let first = bits.trailingZeroBitCount
                    let run = (~(bits >> UInt8(first))).trailingZeroBitCount
                    let x0 = max(part.x, area.x + (first << 3))
                    let x1 = min(part.maxX, area.x + ((first + run) << 3))
                    if x0 < x1 {
                        paint.write(y: y, x0: x0, count: x1 - x0, from: tile.row(y & Tile.mask) + (x0 & Tile.mask))
                    }
                    bits = first + run >= 8 ? 0 : bits & ~(UInt8(truncatingIfNeeded: (1 << run) - 1) << UInt8(first))
                }
            }
        }
    }
}

/// The stroke image: 8-bit coverage in 64 x 64 tiles, allocated when a stroke first touches a
/// square and given back when it is merged or dropped.
///
/// Each tile belongs to one stroke (its serial) and carries that stroke's source pixel and
/// opacity, so a finished stroke can stay here, already shown in the view, while its tiles are
/// merged into the paint a few at a time (see `StrokeEngine.mergePendingTiles`): a release
/// never merges a huge stroke in one go. After its 4096 coverage bytes a tile holds one byte of
/// chunk marks per row (bit k: pixels 8k..8k+7 of the row hold coverage), so the merge and the
/// clearing visit only what the stroke touched.
final class CoverageLayer {
    let across: Int
    let count: Int
    /// Per tile: coverage and chunk marks (`Tile.coverageBytes`), or nil where there is none.
    let tiles: UnsafeMutableBufferPointer<UnsafeMutablePointer<UInt8>?>
    /// Per tile: the serial of the stroke it belongs to.
    let owner: UnsafeMutableBufferPointer<UInt32>
    /// Per tile: that stroke's premultiplied source pixel.
    let source: UnsafeMutableBufferPointer<UInt32>
    /// Per tile: that stroke's opacity (0...255).
    let opacity: UnsafeMutableBufferPointer<UInt16>
    /// Tiles of the stroke in progress, in the order they were first touched.
    var active: [Int] = []
    /// Tiles of finished strokes still to merge (an entry may be stale: merged early, or taken
    /// over by a later stroke; `StrokeEngine` checks).
    var pending: [Int] = []
    /// Zeroed tiles kept for the next stroke: no allocation, and no page fault on first touch.
    private var pool: [UnsafeMutablePointer<UInt8>] = []
    /// At most this many free tiles are kept (1 MiB).
    static let poolLimit = 256

    init(width: Int, height: Int) {
        across = Tile.count(max(1, width))
        count = across * Tile.count(max(1, height))
        tiles = .allocate(capacity: count)
        tiles.initialize(repeating: nil)
        owner = .allocate(capacity: count)
        owner.initialize(repeating: 0)
        source = .allocate(capacity: count)
        source.initialize(repeating: 0)
        opacity = .allocate(capacity: count)
        opacity.initialize(repeating: 0)
    }

    deinit {
        for case let tile? in tiles { tile.deallocate() }
        for tile in pool { tile.deallocate() }
        tiles.deallocate()
        owner.deallocate()
        source.deallocate()
        opacity.deallocate()
    }

    /// A zeroed tile (coverage and marks), from the pool when there is one.
    func take() -> UnsafeMutablePointer<UInt8> {
        if let tile = pool.popLast() { return tile }
        let tile = UnsafeMutablePointer<UInt8>.allocate(capacity: Tile.coverageBytes)
        tile.initialize(repeating: 0, count: Tile.coverageBytes)
        return tile
    }

    /// Takes tile `t` away (its coverage and marks must be zero again).
    func release(_ t: Int) {
        guard let tile = tiles[t] else { return }
        tiles[t] = nil
        owner[t] = 0
        if pool.count < Self.poolLimit {
            pool.append(tile)
        } else {
            tile.deallocate()
        }
    }

    /// Calls `body(r, x0, x1)` (tile-local columns) for each run of marked chunks in each row of
    /// `tile`, optionally unmarking them.
    @inline(__always)
    static func visitMarks(_ tile: UnsafeMutablePointer<UInt8>, clearing: Bool, _ body: (Int, Int, Int) -> Void) {
        let marks = tile + Tile.pixels
        for r in 0..<Tile.size {
            var bits = marks[r]
            if bits == 0 { continue }
            if clearing { marks[r] = 0 }
            while bits != 0 {
                let start = bits.trailingZeroBitCount
                let run = (~(bits >> UInt8(start))).trailingZeroBitCount
                body(r, start << 3, ((start + run) << 3) - 1)
                bits = start + run >= 8 ? 0 : bits & ~(UInt8(truncatingIfNeeded: (1 << run) - 1) << UInt8(start))
            }
        }
    }

    /// Marks the chunks holding tile-local columns x0...x1 (0...63, x0 <= x1) of row r of `tile`.
    ///
    /// Masking shifts (the counts are 1...8 and 0...7 here): with `<<`'s checks for negative and
    /// oversized counts the body was large enough that the optimizer kept it a call in `stamp`,
    /// 30 instructions for each run a stroke raised; now it is inlined, a handful.
    @inline(__always)
    static func mark(_ tile: UnsafeMutablePointer<UInt8>, row r: Int, from x0: Int, through x1: Int) {
        let c0 = x0 &>> 3
        let c1 = x1 &>> 3
        tile[Tile.pixels + r] |= UInt8(truncatingIfNeeded: ((1 &<< (c1 &- c0 &+ 1)) &- 1) &<< c0)
    }
}

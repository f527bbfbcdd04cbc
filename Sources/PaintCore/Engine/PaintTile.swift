/// The canvas is cut into 64 x 64 pixel tiles, so memory follows what is painted, not the canvas
/// size: the stroke image has a tile only where the stroke in progress touched, and the paint
/// layer shares one tile among all the squares that hold the same single value (the unpainted
/// canvas, the white of a loaded picture).
///
/// 64: a coverage tile is one 4 KiB page, a paint tile 16 KiB; a stroke's row crosses a tile
/// edge every 64 pixels, which costs one pointer lookup, far below the per-row geometry.
enum Tile {
    static let shift = 6
    static let size = 1 << shift
    static let mask = size - 1
    static let pixels = size * size
    /// Bytes of a coverage tile: its coverage, then one byte of chunk marks per row (bit k: the
    /// 8-pixel chunk k of that row holds coverage).
    static let coverageBytes = pixels + size

    /// Tiles needed to cover `pixels` along one axis.
    @inline(__always)
    static func count(_ pixels: Int) -> Int { (pixels + mask) >> shift }

    /// Calls `body(tx, from, through)` for each tile column `tx` that pixels x0...x1 of a row
    /// cross, with the part from...through of x0...x1 inside it, left to right.
    @inline(__always)
    static func segments(from x0: Int, through x1: Int, _ body: (Int, Int, Int) -> Void) {
        var x = x0
        while x <= x1 {
            let tx = x >> shift
            let through = min(x1, (tx << shift) + mask)
            body(tx, x, through)
            x = through + 1
        }
    }
}

/// 64 x 64 paint pixels (premultiplied), shared copy-on-write between the engine's paint layer
/// and the history: a snapshot of the whole canvas retains tiles and copies no pixels, and the
/// engine copies a tile only when it is about to write into one that a snapshot still holds.
///
/// A uniform tile (every pixel the same value) holds one row of 64 pixels that stands for all
/// 64 rows: its row stride is 0. The engine never writes into a uniform tile; it writes into a
/// full copy. Once shared, a tile is never written again, which is what makes it safe to hand
/// to another thread.
final class PaintTile: @unchecked Sendable {
    /// 64 x 64 pixels, row-major; or, for a uniform tile, one row of 64.
    let pixels: UnsafeMutablePointer<UInt32>
    /// Whether the tile is one value everywhere (and stores one row).
    let isUniform: Bool

    /// A tile of one value everywhere.
    init(uniform value: UInt32) {
        pixels = .allocate(capacity: Tile.size)
        pixels.initialize(repeating: value, count: Tile.size)
        isUniform = true
    }

    /// A full (writable) copy of `other`.
    init(copying other: PaintTile) {
        pixels = .allocate(capacity: Tile.pixels)
        isUniform = false
        if other.isUniform {
            for r in 0..<Tile.size { (pixels + r * Tile.size).initialize(from: other.pixels, count: Tile.size) }
        } else {
            pixels.initialize(from: other.pixels, count: Tile.pixels)
        }
    }

    /// A full tile whose pixels the caller writes right away.
    init(uninitialized: Void) {
        pixels = .allocate(capacity: Tile.pixels)
        isUniform = false
    }

    deinit { pixels.deallocate() }

    /// Pixels between the starts of two rows: 64, or 0 for a uniform tile.
    var rowStride: Int { isUniform ? 0 : Tile.size }

    /// The first pixel of row `r`.
    @inline(__always)
    func row(_ r: Int) -> UnsafeMutablePointer<UInt32> { pixels + r * rowStride }

    /// The value of a uniform tile; nil for a full one.
    var uniformValue: UInt32? { isUniform ? pixels[0] : nil }

    /// Bytes of pixels held.
    var byteCount: Int { (isUniform ? Tile.size : Tile.pixels) * 4 }

    /// Whether the `count` x `rows` pixels from `start` (row stride `stride`) are one value; that
    /// value, or nil.
    static func uniformValue(of start: UnsafePointer<UInt32>, stride: Int, count: Int, rows: Int) -> UInt32? {
        let v = start[0]
        for r in 0..<rows {
            let row = start + r * stride
            // A row's differences from `v` OR-ed together, looked at once the row is done: a
            // loop with no exit in it, which the compiler vectorizes. The loop that stopped at
            // the first difference ran a pixel at a time, and a picture read from a file is cut
            // through here whole (5 instructions a pixel, 10.7 M for a white 1920 x 1080 PNG).
            var differs: UInt32 = 0
            for i in 0..<count { differs |= row[i] ^ v }
            if differs != 0 { return nil }
        }
        return v
    }
}

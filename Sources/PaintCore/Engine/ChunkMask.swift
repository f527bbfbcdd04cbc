/// Marks which 8-pixel chunks of each row a stroke touched (8: a third of the pixels a 16-pixel
/// chunk merged on release had no coverage at all; 8 makes the merge 0.83x on the 4K benchmark).
///
/// The merge on release and the clearing of the stroke image visit only marked chunks, so their
/// cost follows the stroke's footprint, not its bounding box or the canvas.
struct ChunkMask {
    static let shift = 3
    static let size = 1 << shift

    let wordsPerRow: Int
    let height: Int
    private let words: UnsafeMutableBufferPointer<UInt64>

    init(width: Int, height: Int) {
        let chunks = (width + Self.size - 1) >> Self.shift
        wordsPerRow = max(1, (chunks + 63) >> 6)
        self.height = height
        words = .allocate(capacity: wordsPerRow * max(height, 1))
        words.initialize(repeating: 0)
    }

    func deallocate() { words.deallocate() }

    /// Marks the chunks holding pixels x0...x1 of row y.
    @inline(__always)
    func mark(row y: Int, from x0: Int, through x1: Int) {
        let c0 = x0 >> Self.shift
        let c1 = x1 >> Self.shift
        let base = y * wordsPerRow
        var c = c0
        while c <= c1 {
            let bit = c & 63
            let count = min(64 - bit, c1 - c + 1)
            let bits: UInt64 = count == 64 ? ~0 : ((1 << UInt64(count)) - 1) << UInt64(bit)
            words[base + (c >> 6)] |= bits
            c += count
        }
    }

    /// Calls `body(y, x0, x1)` for every run of marked chunks in rows y0...y1 (clipped to
    /// `width`), then unmarks them.
    @inline(__always)
    func drain(rows y0: Int, through y1: Int, width: Int, _ body: (Int, Int, Int) -> Void) {
        visit(rows: y0, through: y1, width: width, clearing: true, body)
    }

    /// Calls `body(y, x0, x1)` for every run of marked chunks, optionally unmarking them.
    @inline(__always)
    func visit(rows y0: Int, through y1: Int, width: Int, clearing: Bool, _ body: (Int, Int, Int) -> Void) {
        guard y0 <= y1 else { return }
        for y in y0...y1 {
            let base = y * wordsPerRow
            for w in 0..<wordsPerRow {
                var bits = words[base + w]
                if bits == 0 { continue }
                if clearing { words[base + w] = 0 }
                while bits != 0 {
                    let start = bits.trailingZeroBitCount
                    let run = (~(bits >> UInt64(start))).trailingZeroBitCount
                    let c0 = (w << 6) + start
                    let x0 = c0 << Self.shift
                    let x1 = min(width, (c0 + run) << Self.shift) - 1
                    if x0 <= x1 { body(y, x0, x1) }
                    bits = run + start >= 64 ? 0 : bits & ~(((1 << UInt64(run)) - 1) << UInt64(start))
                }
            }
        }
    }
}

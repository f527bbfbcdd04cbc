/// Packs spans of tiled paint into alternating run lengths and values, a bounded number of
/// pixels at a time, so a keyframe of a 4K canvas can be packed in slices between events.
///
/// A run continues across spans. As soon as the runs would not be smaller than the pixels,
/// packing starts over keeping the pixels as they are (`raw`).
struct RunPacker {
    let spans: [Int32]
    /// Pixels in all spans.
    let total: Int
    private(set) var raw = false
    private var words: [UInt32] = []
    /// The next span (index of its first number).
    private var next = 0
    private var count: UInt32 = 0
    private var value: UInt32 = 0

    /// Packed words up to this many (128 KiB) are copied to storage of their own size.
    static let copiedWords = 1 << 15

    init(spans: [Int32]) {
        self.spans = spans
        var total = 0
        for s in Swift.stride(from: 0, to: spans.count, by: 3) { total += Int(spans[s + 2]) }
        self.total = total
        // Room for the worst case from the start (runs stop at the size of the pixels): the
        // words never move while packing, so no slice pays for copying what earlier slices
        // packed. A large reservation is mapped lazily: only the words written are resident.
        words.reserveCapacity(total)
    }

    /// Packs spans until about `budget` pixels are done; returns true when all are.
    mutating func pack(_ reader: TileReader, budget: Int) -> Bool {
        var done = 0
        while next < spans.count && done < budget {
            let y = Int(spans[next])
            let x0 = Int(spans[next + 1])
            let n = Int(spans[next + 2])
            next += 3
            done += n
            if raw {
                reader.visit(y: y, x0: x0, count: n) { pixels, _, k in
                    words.append(contentsOf: UnsafeBufferPointer(start: pixels, count: k))
                }
            } else if !addRuns(reader, y, x0, n) {
                // Runs would take more room than the pixels: keep the pixels instead.
                raw = true
                words.removeAll(keepingCapacity: true)
                next = 0
                count = 0
            }
        }
        return next >= spans.count
    }

    /// Adds the runs of one span; false when the runs reach the size of the raw pixels.
    private mutating func addRuns(_ reader: TileReader, _ y: Int, _ x0: Int, _ n: Int) -> Bool {
        var fits = true
        reader.visit(y: y, x0: x0, count: n) { row, _, k in
            guard fits else { return }
            var x = 0
            while x < k {
                if count > 0 && row[x] == value {
                    // Extend the current run as far as it goes in this piece.
                    var end = x + 1
                    while end < k && row[end] == value { end += 1 }
                    let length = UInt32(truncatingIfNeeded: end - x)
                    if count <= UInt32.max - length {
                        count += length
                        x = end
                        continue
                    }
                }
                if count > 0 {
                    if words.count + 2 >= total {
                        fits = false
                        return
                    }
                    words.append(count)
                    words.append(value)
                }
                value = row[x]
                count = 1
                x += 1
            }
        }
        return fits
    }

    /// The packed words (runs and values, or the raw pixels). Small ones are copied into
    /// storage of their own size (the history keeps thousands); a large one is kept where it
    /// was packed: copying it would be one more slice of milliseconds, and the reserved words
    /// never written are mapped but never resident (the program maps every buffer over 128 KiB
    /// on its own, see main.swift).
    mutating func finish() -> [UInt32] {
        if !raw && count > 0 {
            words.append(count)
            words.append(value)
            count = 0
        }
        return words.count <= Self.copiedWords ? PackedPixels.exactCopy(words) : words
    }
}

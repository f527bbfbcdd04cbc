/// The stroke image under a stroke's provisional pieces, kept so the next sample can take them
/// back: coverage only ever grows by max, so putting these bytes back undoes them exactly.
///
/// Only what the pieces visit is kept: `stamp` hands over each run of a row within one tile
/// just before it raises it (the row, its first column, its bytes), so a thin brush keeps the
/// few pixels of its crescent, not the bounding box of its piece. With several provisional
/// pieces a run may be kept twice; putting the runs back last first leaves what was there
/// before the first.
final class SavedCoverage {
    /// The pixels the provisional pieces can touch (image coordinates); empty when nothing is
    /// kept.
    var rect = IntRect.empty
    /// Per run: row, first column, count.
    private var runs: UnsafeMutablePointer<Int>
    private var runCount = 0
    private var runCapacity = 0
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteCapacity = 0

    init() {
        runs = .allocate(capacity: 0)
        bytes = .allocate(capacity: 0)
    }

    deinit {
        runs.deallocate()
        bytes.deallocate()
    }

    /// Starts keeping the runs of new provisional pieces that can touch `rect`.
    func start(_ rect: IntRect) {
        self.rect = rect
        runCount = 0
        byteCount = 0
    }

    /// Drops what is kept.
    func discard() { start(.empty) }

    /// Keeps the `count` coverage bytes at `source`, pixels x0..<x0 + count of row y of a
    /// coverage tile (1...64 of them, in one row of the tile).
    ///
    /// Copied in whole 8-byte words: the last may read up to 7 bytes past the run, which stay
    /// inside the tile (a row of the tile is followed by the next, the last by the tile's row
    /// marks), and write them into the slack `grow` leaves; the next run overwrites them.
    @inline(__always)
    func keep(_ y: Int, _ x0: Int, _ count: Int, from source: UnsafePointer<UInt8>) {
        if runCount == runCapacity || byteCount + count + 8 > byteCapacity { grow(count) }
        let run = runs + runCount * 3
        run[0] = y
        run[1] = x0
        run[2] = count
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(bytes + byteCount)
        var i = 0
        repeat {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            i += 8
        } while i < count
        runCount += 1
        byteCount += count
    }

    @inline(never)
    private func grow(_ count: Int) {
        if runCount == runCapacity {
            runCapacity = max(64, 2 * runCapacity)
            let moved = UnsafeMutablePointer<Int>.allocate(capacity: runCapacity * 3)
            moved.initialize(from: runs, count: runCount * 3)
            runs.deallocate()
            runs = moved
        }
        if byteCount + count + 8 > byteCapacity {
            byteCapacity = max(1024, 2 * (byteCount + count + 8))
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCapacity)
            moved.initialize(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = moved
        }
    }

    /// How many runs are kept.
    var count: Int { runCount }

    /// Run `i` (in the order kept): its row, first column, count and bytes. Runs are put back
    /// last first; the bytes of run `i` start where those of the runs before it end.
    @inline(__always)
    func run(_ i: Int, endingAt end: Int) -> (y: Int, x0: Int, count: Int, bytes: UnsafePointer<UInt8>) {
        let run = runs + i * 3
        return (run[0], run[1], run[2], UnsafePointer(bytes + end - run[2]))
    }

    /// Bytes kept in all (where the last run's end).
    var byteEnd: Int { byteCount }
}

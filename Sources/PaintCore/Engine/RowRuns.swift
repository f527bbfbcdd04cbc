/// The view pixels one event changed, gathered row by row so each is composited once, after all
/// of the event's pieces are stamped.
///
/// A freehand event stamps several overlapping pieces (the curve's pieces, the provisional piece
/// taken back and stamped again), and compositing each piece's pixels as it was stamped did most
/// of them two or three times, each time through the per-row set-up. Here a row keeps at most
/// two runs (left and right, so the two rims of a wide brush moving along its own width stay
/// apart); a run that overlaps a kept one, or lies within `gap` pixels of it, widens it.
///
/// Only rows `top..<top + rows` are collected; `add` refuses any other (and everything while
/// nothing is collected), and the caller composites such a run at once.
final class RowRuns {
    /// The first row collected.
    private(set) var top = 0
    /// Rows collected (0: none).
    private(set) var rows = 0
    /// Per row: x0, x1 of its first run, then of its second; a run is empty when x0 > x1.
    private var spans: UnsafeMutablePointer<Int>
    private var capacity = 0

    /// Runs this close are composited as one: a few unchanged pixels cost less than a second
    /// pass through the per-run set-up.
    static let gap = 8

    init() { spans = .allocate(capacity: 0) }

    deinit { spans.deallocate() }

    /// Starts collecting rows `top..<top + rows`, none of them holding a run yet.
    func start(top: Int, rows: Int) {
        let count = max(0, rows)
        if count * 4 > capacity {
            spans.deallocate()
            capacity = max(count * 4, 2 * capacity)
            spans = .allocate(capacity: capacity)
        }
        self.top = top
        self.rows = count
        var p = spans
        for _ in 0..<count {
            p[0] = 0
            p[1] = -1
            p[2] = 0
            p[3] = -1
            p += 4
        }
    }

    /// Stops collecting (what was gathered is dropped).
    func stop() { rows = 0 }

    /// Adds pixels x0...x1 (x0 <= x1) of row y; false when row y is not collected.
    @inline(__always)
    func add(_ y: Int, _ x0: Int, _ x1: Int) -> Bool { sink.add(y, x0, x1) }

    /// The rows collected now, as a value: `stamp` reads it once per piece, and its `add`
    /// inlines there, where the class's method stayed a call (43 instructions a run). Valid
    /// until the next `start` or `stop`.
    var sink: Sink { Sink(spans: spans, top: top, rows: rows) }

    /// Adds runs to the rows collected when it was taken (see `sink`).
    struct Sink {
        let spans: UnsafeMutablePointer<Int>
        let top: Int
        let rows: Int

        /// `RowRuns.add`. Transparent (inlined before the optimizer weighs it): `stamp` is too
        /// large for the inliner, and as a call it cost 43 instructions a run.
        @_transparent
        func add(_ y: Int, _ x0: Int, _ x1: Int) -> Bool {
            let i = y &- top
            guard i >= 0, i < rows else { return false }
            let p = spans + i * 4
            if p[0] > p[1] {
                p[0] = x0
                p[1] = x1
            } else if Self.near(p, x0, x1) {
                Self.widen(p, 0, x0, x1)
            } else if p[2] > p[3] {
                p[2] = x0
                p[3] = x1
            } else if Self.near(p + 2, x0, x1) {
                Self.widen(p, 2, x0, x1)
            } else {
                // A third run apart from both: it widens the nearer one.
                let first = x1 < p[0] ? p[0] - x1 : x0 - p[1]
                let second = x1 < p[2] ? p[2] - x1 : x0 - p[3]
                Self.widen(p, first <= second ? 0 : 2, x0, x1)
            }
            return true
        }

        /// Whether x0...x1 overlaps the run at `run` or lies within `gap` of it.
        @inline(__always)
        private static func near(_ run: UnsafeMutablePointer<Int>, _ x0: Int, _ x1: Int) -> Bool {
            x0 <= run[1] + gap && x1 + gap >= run[0]
        }

        /// Widens run `k` (0 or 2) of the row at `p` to take in x0...x1; the row's two runs
        /// become one when that brought them within `gap`.
        @inline(__always)
        private static func widen(_ p: UnsafeMutablePointer<Int>, _ k: Int, _ x0: Int, _ x1: Int) {
            p[k] = min(p[k], x0)
            p[k + 1] = max(p[k + 1], x1)
            guard p[2] <= p[3], near(p, p[2], p[3]) else { return }
            p[0] = min(p[0], p[2])
            p[1] = max(p[1], p[3])
            p[2] = 0
            p[3] = -1
        }
    }

    /// Calls `body(y, x0, x1)` for every run collected.
    @inline(__always)
    func visit(_ body: (Int, Int, Int) -> Void) {
        var p = spans
        for i in 0..<rows {
            if p[0] <= p[1] { body(top + i, p[0], p[1]) }
            if p[2] <= p[3] { body(top + i, p[2], p[3]) }
            p += 4
        }
    }
}

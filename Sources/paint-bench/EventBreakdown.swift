import PaintCore

/// Where a replay's time goes by kind of event (`--breakdown`): presses, moves and releases,
/// moves by brush width, the first moves of a stroke against the rest, moves that reach a tile
/// the stroke had not reached before against those that stay on its tiles, and what the
/// slowest 1 % of events (those at or above the p99) are made of.
///
/// A move "reaches a new tile" when its returned rectangle covers a 64 x 64 square that no
/// earlier rectangle of the same stroke covered: the rectangle is a bound, so this can name a
/// move that claimed no tile, never miss one that did.
struct EventBreakdown {
    /// What one event was.
    struct Kind {
        var name: String
        var test: (Int) -> Bool
    }

    let nanoseconds: [UInt64]
    /// Per event: the index of its stroke.
    let stroke: [Int]
    /// Per event: its place in the stroke (0: the press).
    let place: [Int]
    /// Per event: whether it is the stroke's last (the release; a click's press is its release).
    let last: [Bool]
    /// Per event: whether its rectangle reached a tile the stroke's earlier ones had not.
    let newTile: [Bool]
    let widths: [Double]

    init(file: StrokeFile, nanoseconds: [UInt64], rectangles: [IntRect], times: Int) {
        self.nanoseconds = nanoseconds
        var stroke: [Int] = []
        var place: [Int] = []
        var last: [Bool] = []
        var newTile: [Bool] = []
        stroke.reserveCapacity(nanoseconds.count)
        var event = 0
        for _ in 0..<times {
            for (s, recorded) in file.strokes.enumerated() {
                var reached = Set<Int>()
                let count = recorded.points.count
                for i in 0..<count {
                    stroke.append(s)
                    place.append(i)
                    last.append(i == count - 1)
                    var fresh = false
                    let r = event < rectangles.count ? rectangles[event] : .empty
                    if !r.isEmpty {
                        for ty in (r.y >> 6)...((r.maxY - 1) >> 6) {
                            for tx in (r.x >> 6)...((r.maxX - 1) >> 6)
                            where reached.insert(ty * 65_536 + tx).inserted {
                                fresh = true
                            }
                        }
                    }
                    newTile.append(fresh)
                    event += 1
                }
            }
        }
        self.stroke = stroke
        self.place = place
        self.last = last
        self.newTile = newTile
        widths = file.strokes.map { $0.style.width }
    }

    /// The kinds reported, in order.
    var kinds: [Kind] {
        let move: (Int) -> Bool = { place[$0] > 0 && !last[$0] }
        var list = [
            Kind(name: "press", test: { place[$0] == 0 && !last[$0] }),
            Kind(name: "click", test: { place[$0] == 0 && last[$0] }),
            Kind(name: "move", test: move),
            Kind(name: "release", test: { place[$0] > 0 && last[$0] }),
            Kind(name: "move_first3", test: { move($0) && place[$0] <= 3 }),
            Kind(name: "move_later", test: { move($0) && place[$0] > 3 }),
            Kind(name: "move_new_tile", test: { move($0) && newTile[$0] }),
            Kind(name: "move_same_tiles", test: { move($0) && !newTile[$0] }),
        ]
        for (lo, hi) in [(0.0, 4.0), (4.0, 8.0), (8.0, 16.0), (16.0, 32.0), (32.0, 64.0), (64.0, 1000.0)] {
            let name = "move_w\(Int(lo) + 1)-\(Int(hi))"
            list.append(Kind(name: name, test: { move($0) && widths[stroke[$0]] > lo && widths[stroke[$0]] <= hi }))
        }
        return list
    }

    /// One line per kind: its count, share of events and of time, mean, p99, max, and its
    /// count among the events at or above the p99 of all.
    func lines(prefix: String) -> [String] {
        let all = TimingStats(nanoseconds: nanoseconds)
        let p99 = UInt64(all.p99Microseconds * 1000)
        let total = max(1, Double(all.totalNanoseconds))
        let tail = nanoseconds.indices.filter { nanoseconds[$0] >= p99 }
        var out = ["\(prefix)tail n=\(tail.count) (events at or above p99 \(fixed(all.p99Microseconds, 3)) us)"]
        for kind in kinds {
            let picked = nanoseconds.indices.filter(kind.test)
            let stats = TimingStats(nanoseconds: picked.map { nanoseconds[$0] })
            let inTail = tail.filter(kind.test).count
            out.append(
                "\(prefix)kind=\(kind.name) n=\(stats.count)"
                    + " time_share=\(fixed(Double(stats.totalNanoseconds) / total, 3))"
                    + " mean_us=\(fixed(stats.meanMicroseconds, 3)) p99_us=\(fixed(stats.p99Microseconds, 3))"
                    + " max_us=\(fixed(stats.maxMicroseconds, 3)) in_tail=\(inTail)")
        }
        return out
    }
}

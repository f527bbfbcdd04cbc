import Glibc
import PaintCore

/// `paint-bench shapes STROKES.jsonl`: the cost of a shape preview per event against a brush
/// event of the same area.
///
/// Each recorded stroke is replayed once as a brush stroke and once per shape kind as a drag
/// from its first point through the others (one `updateShape` per point, as the window does).
/// Time per event is divided by the area that event redrew (the returned rectangle), so the
/// ratio answers "does a shape preview cost more than a brush event of the same area?".
func runShapeBench(arguments: [String]) -> Never {
    var reader = ArgumentReader(arguments, usage: "usage: paint-bench shapes STROKES.jsonl")
    var input: String?
    while reader.next() != nil { input = reader.word(replacing: input) }
    guard let input else { reader.reject("no input file") }
    let file = StrokeFile.load(input)
    let engine = StrokeEngine(width: file.canvasWidth, height: file.canvasHeight, background: .color(.white))

    /// Event times (ns) and the area each redrew.
    struct Tally {
        var times: [UInt64] = []
        var area = 0
        mutating func add(_ t: UInt64, _ rect: IntRect) {
            times.append(t)
            area += rect.area
        }
        var total: UInt64 { times.reduce(0, +) }
    }

    var brush = Tally()
    let kinds: [(String, ShapeKind, Bool)] = [
        ("line", .line, false), ("dashed", .dashedLine, false), ("rectangle", .rectangle, false),
        ("ellipse", .ellipse, false), ("filled_rectangle", .rectangle, true), ("filled_ellipse", .ellipse, true),
        ("arrow", .arrow, false),
    ]
    var shapes = [Tally](repeating: Tally(), count: kinds.count)
    for stroke in file.strokes where stroke.points.count >= 2 {
        let points = file.points[stroke.points]
        guard let first = points.first else { continue }
        var t0 = monotonicNanoseconds()
        var dirty = engine.begin(stroke.style, at: first)
        brush.add(monotonicNanoseconds() - t0, dirty)
        for p in points.dropFirst() {
            t0 = monotonicNanoseconds()
            dirty = engine.move(to: p)
            brush.add(monotonicNanoseconds() - t0, dirty)
        }
        engine.cancel()
        for (k, kind) in kinds.enumerated() {
            engine.beginShape(stroke.style)
            for p in points.dropFirst() {
                t0 = monotonicNanoseconds()
                dirty = engine.updateShape(ShapeSpec(kind: kind.1, from: first, to: p, filled: kind.2))
                shapes[k].add(monotonicNanoseconds() - t0, dirty)
            }
            engine.cancel()
        }
    }
    func line(_ name: String, _ t: Tally, against reference: Double?) -> String {
        let sorted = t.times.sorted()
        let mean = Double(t.total) / Double(max(1, sorted.count)) / 1000
        let perPixel = Double(t.total) / Double(max(1, t.area))
        var out =
            "\(name) events=\(sorted.count) mean_us=\(fixed(mean, 3)) p99_us=\(fixed(Double(TimingStats.percentile(sorted, 0.99)) / 1000, 3))"
        out += " ns_per_px=\(fixed(perPixel, 3))"
        if let reference { out += " ratio_to_brush=\(fixed(perPixel / reference, 3))" }
        return out
    }
    let brushPerPixel = Double(brush.total) / Double(max(1, brush.area))
    print(line("brush", brush, against: nil))
    for (k, kind) in kinds.enumerated() { print(line(kind.0, shapes[k], against: brushPerPixel)) }
    exit(0)
}

// paint-bench replay [STROKES.jsonl]
//
// Measures what the replay budget (ReplayBudget) guards: logs of 10,000 stroke + removal pairs
// (each stroke removed right after it is drawn, and all strokes first, then all removed) and
// 300 flood fills, each replayed through History as a reopened file is, with the budget's work
// estimate beside the time, so the work limit can be read in seconds. With a strokes file, its
// strokes (up to 2,000) are measured the same way.

import Glibc
import PaintCore

/// This process's CPU time in seconds: the machine running the bench may be shared, and the
/// CPU time is what the work estimate predicts.
private func cpuSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Replays `operations` onto a fresh canvas as opening a file does; returns wall and CPU
/// seconds.
private func timedReplay(_ operations: [Operation], width: Int, height: Int) -> (wall: Double, cpu: Double) {
    let engine = StrokeEngine(width: width, height: height, background: .color(.white))
    let history = History(base: nil)
    engine.defersComposite = true
    let start = monotonicNanoseconds()
    let cpuStart = cpuSeconds()
    for operation in operations { history.perform(operation, engine: engine) }
    engine.defersComposite = false
    return (Double(monotonicNanoseconds() - start) / 1e9, cpuSeconds() - cpuStart)
}

private func report(_ name: String, _ operations: [Operation], width: Int, height: Int) {
    var budget = ReplayBudget(width: width, height: height)
    for operation in operations { budget.add(operation) }
    let seconds = timedReplay(operations, width: width, height: height)
    let nsPerUnit = seconds.cpu * 1e9 / max(budget.work, 1)
    print(
        "replay: \(name): \(operations.count) operations in \(fixed(seconds.wall, 3)) s "
            + "(CPU \(fixed(seconds.cpu, 3)) s); estimate "
            + "\(fixed(budget.work / 1e9, 3)) G units (\(fixed(nsPerUnit, 3)) ns/unit), "
            + (budget.overrun.map { "over budget: \($0)" } ?? "within budget")
            + "; the limit is \(fixed(budget.limits.work / 1e9, 0)) G units ≈ "
            + "\(fixed(budget.limits.work * nsPerUnit / 1e9, 1)) s at this rate")
}

func runReplayBench(arguments: [String]) -> Never {
    var reader = ArgumentReader(arguments, usage: "usage: paint-bench replay [STROKES.jsonl]")
    var path: String?
    while reader.next() != nil { path = reader.word(replacing: path) }
    let recorded = path.map(StrokeFile.load)
    let style = StrokeStyle(tool: .brush, color: .black, opacity: 1, width: 3)
    let n = 10_000
    var pairs: [Operation] = []
    var thenRemoved: [Operation] = []
    for i in 0..<n {
        let stroke = Operation.stroke(style, points: [Point(x: Double(i % 600) + 0.5, y: Double(i / 600) * 4 + 10.5)])
        pairs.append(stroke)
        pairs.append(.removeStroke(step: 2 * i))
        thenRemoved.append(stroke)
    }
    for i in 0..<n { thenRemoved.append(.removeStroke(step: i)) }
    report("10,000 stroke + removal pairs, 640 x 480", pairs, width: 640, height: 480)
    report("10,000 strokes, then each removed, 640 x 480", thenRemoved, width: 640, height: 480)
    let fills = (0..<300).map { i in
        Operation.fill(
            StrokeStyle(color: Color(r: UInt8(i % 256), g: 0, b: 0)), at: Point(x: 10.5, y: 10.5), tolerance: 0)
    }
    report("300 flood fills, 640 x 480", fills, width: 640, height: 480)
    if let file = recorded {
        let operations = file.strokes.prefix(2000).map { stroke in
            Operation.stroke(stroke.style, points: Array(file.points[stroke.points]))
        }
        report(
            "\(operations.count) recorded strokes, \(file.canvasWidth) x \(file.canvasHeight)", operations,
            width: file.canvasWidth, height: file.canvasHeight)
    }
    exit(0)
}

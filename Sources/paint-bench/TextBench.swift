import Glibc
import PaintCore
import PaintText

/// `paint-bench text`: the cost of one keystroke in a text box, as the program pays it — the
/// whole box set again (HarfBuzz), drawn again (FreeType) and stamped into the stroke image —
/// for boxes growing to `--chars` characters at several sizes on a 4K canvas.
///
/// Typing is simulated a character at a time (a line break every 60), so the figures show how
/// a keystroke's cost grows with what is already in the box.
func runTextBench(arguments: [String]) -> Never {
    var chars = 1000
    var reader = ArgumentReader(arguments, usage: "usage: paint-bench text [--chars N]")
    while let option = reader.next() {
        switch option {
        case "--chars": chars = reader.integer(in: 1...Typesetter.maximumScalars)
        default: reader.unknown()
        }
    }
    guard let typesetter = Typesetter() else { fail("FreeType could not start", code: 1) }
    let engine = StrokeEngine(width: 3840, height: 2160, background: .color(.white))
    let sample = "The quick brown fox jumps over the lazy dog; שלום עולם, 12345. "
    let source = Array(sample)
    print("text: \(chars) characters typed one at a time, 4K canvas; per keystroke: layout + rasterize + stamp")
    for size in [16, 48, 128] {
        let font = TextFont(family: "DejaVu Sans", size: size)
        var text = ""
        var times: [UInt64] = []
        var layoutTimes: [UInt64] = []
        var stampTimes: [UInt64] = []
        engine.beginText(StrokeStyle(color: .black, opacity: 0.8))
        for i in 0..<chars {
            text.append(i > 0 && i % 60 == 0 ? "\n" : source[i % source.count])
            let t0 = monotonicNanoseconds()
            let layout = typesetter.layout(text, font: font)
            let t1 = monotonicNanoseconds()
            let mask = typesetter.rasterize(layout, atX: 20, y: 20, clip: engine.bounds)
            let t15 = monotonicNanoseconds()
            engine.updateText(mask)
            let t2 = monotonicNanoseconds()
            stampTimes.append(t2 - t15)
            layoutTimes.append(t1 - t0)
            times.append(t2 - t0)
        }
        let t0 = monotonicNanoseconds()
        engine.end()
        let merge = Double(monotonicNanoseconds() - t0) / 1e6
        let last = TimingStats(nanoseconds: Array(times.suffix(max(1, chars / 10))))
        let all = TimingStats(nanoseconds: times)
        let shaping = TimingStats(nanoseconds: Array(layoutTimes.suffix(max(1, chars / 10))))
        let stamping = TimingStats(nanoseconds: Array(stampTimes.suffix(max(1, chars / 10))))
        print(
            "  \(size) px: keystroke p50 \(fixed(all.p50Microseconds / 1000, 2)) ms, max \(fixed(all.maxMicroseconds / 1000, 2)) ms;"
                + " last tenth (box of ~\(chars) chars) p50 \(fixed(last.p50Microseconds / 1000, 2)) ms"
                + " (shaping \(fixed(shaping.p50Microseconds / 1000, 2)) ms, stamping \(fixed(stamping.p50Microseconds / 1000, 2)) ms);"
                + " merge \(fixed(merge, 2)) ms")
        engine.clearPaint()
    }
    exit(0)
}

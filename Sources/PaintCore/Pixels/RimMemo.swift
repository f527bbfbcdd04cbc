/// The view pixels `SpanCompositor.compositePixel` worked out for one source, opacity and
/// backdrop color: per coverage value, the last paint pixel it was worked out over and the
/// result.
///
/// A stroke's rim is anti-aliased: every row of a move composites one to a few pixels of
/// partial coverage, one at a time (~60 instructions each). Their inputs repeat: the source,
/// opacity and backdrop are the stroke's, the paint under it is mostly one value for pixels on
/// end (the canvas, an earlier stroke's inside), and the coverage is one of 256 values. So a
/// pixel is looked up first, and worked out only when its paint pixel is not the one held for
/// its coverage: the same function of the same five inputs, so the same bits.
final class RimMemo {
    private(set) var source: UInt32 = 0
    private(set) var opacity: UInt16 = 0
    private(set) var backdrop: UInt32 = 0
    /// Per coverage value: the paint pixel (high 32 bits) and the view pixel (low 32 bits);
    /// 0 when empty (a view pixel is opaque, so never 0).
    private let entries: UnsafeMutablePointer<UInt64>

    init() {
        entries = .allocate(capacity: 256)
        entries.initialize(repeating: 0, count: 256)
    }

    deinit { entries.deallocate() }

    /// The table for `source`, `opacity` and `backdrop`, emptied first when it held another
    /// three (once per stroke).
    @inline(__always)
    func table(source: UInt32, opacity: UInt16, backdrop: UInt32) -> Table {
        if source != self.source || opacity != self.opacity || backdrop != self.backdrop {
            rekey(source: source, opacity: opacity, backdrop: backdrop)
        }
        return Table(entries: entries, source: source, opacity: opacity, backdrop: backdrop)
    }

    @inline(never)
    private func rekey(source: UInt32, opacity: UInt16, backdrop: UInt32) {
        self.source = source
        self.opacity = opacity
        self.backdrop = backdrop
        entries.update(repeating: 0, count: 256)
    }

    /// One key's table, as a value (its lookups inline into the composite loops).
    struct Table {
        let entries: UnsafeMutablePointer<UInt64>
        let source: UInt32
        let opacity: UInt16
        let backdrop: UInt32

        /// `compositePixel(p, source:, coverage: m, opacity:, backdrop:)` for this table's key.
        @inline(__always)
        func pixel(_ p: UInt32, coverage m: UInt8) -> UInt32 {
            let entry = entries[Int(m)]
            let held = UInt32(truncatingIfNeeded: entry)
            if held != 0 && UInt32(truncatingIfNeeded: entry &>> 32) == p { return held }
            let shown = SpanCompositor.compositePixel(
                p, source: source, coverage: m, opacity: opacity, backdrop: backdrop)
            entries[Int(m)] = UInt64(p) &<< 32 | UInt64(shown)
            return shown
        }

        /// `SpanCompositor.composite` for `count` pixels: short runs (a rim's) through the
        /// table, long ones through the vector loop.
        @inline(__always)
        func composite(
            paint: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>,
            view: UnsafeMutablePointer<UInt32>, count: Int
        ) {
            guard count < SpanCompositor.shortRun else {
                SpanCompositor.compositeLong(
                    paint: paint, coverage: coverage, view: view, count: count, source: source, opacity: opacity,
                    backdrop: backdrop)
                return
            }
            var i = 0
            while i < count {
                view[i] = pixel(paint[i], coverage: coverage[i])
                i += 1
            }
        }
    }
}

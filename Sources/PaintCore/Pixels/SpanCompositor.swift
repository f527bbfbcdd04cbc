/// The per-span loops of the stroke engine, written so the optimizer vectorizes them.
///
/// Every channel product `c * a` is at most 255 * 255, and `div255` of it stays below 2^16, so
/// the arithmetic is done in `UInt16`: baseline x86-64 (SSE2) multiplies eight 16-bit lanes per
/// instruction but has no 32-bit lane multiply. The results equal `Pixel.blend` and
/// `Pixel.over` bit for bit (the tests compare them exhaustively).
enum SpanCompositor {
    @inline(__always)
    static func div255(_ x: UInt16) -> UInt16 {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    @inline(__always)
    static func channel(_ p: UInt32, _ shift: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: p &>> shift) & 0xFF
    }

    /// The paint pixel after the stroke: `source` at alpha `coverage * opacity` over `p`.
    @inline(__always)
    static func blend(_ p: UInt32, source s: UInt32, coverage m: UInt8, opacity o: UInt16) -> UInt32 {
        let a = div255(UInt16(m) &* o)
        let ia = 255 &- a
        let b = div255(channel(s, 0) &* a &+ channel(p, 0) &* ia)
        let g = div255(channel(s, 8) &* a &+ channel(p, 8) &* ia)
        let r = div255(channel(s, 16) &* a &+ channel(p, 16) &* ia)
        let al = div255(channel(s, 24) &* a &+ channel(p, 24) &* ia)
        return UInt32(b) | UInt32(g) &<< 8 | UInt32(r) &<< 16 | UInt32(al) &<< 24
    }

    /// `p` flattened onto an opaque backdrop, returned opaque.
    @inline(__always)
    static func over(_ p: UInt32, backdrop d: UInt32) -> UInt32 {
        let ia = 255 &- channel(p, 24)
        let b = channel(p, 0) &+ div255(channel(d, 0) &* ia)
        let g = channel(p, 8) &+ div255(channel(d, 8) &* ia)
        let r = channel(p, 16) &+ div255(channel(d, 16) &* ia)
        return UInt32(b) | UInt32(g) &<< 8 | UInt32(r) &<< 16 | 0xFF00_0000
    }

    /// `div255` of the two 16-bit halves of `x` at once (each at most 255 * 255 + 255, so no
    /// half carries into the other), each result in the low byte of its half.
    @inline(__always)
    static func div255Pair(_ x: UInt32) -> UInt32 {
        let t = x &+ 0x0080_0080
        return ((t &+ ((t &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
    }

    /// `over(blend(p, source: s, coverage: m, opacity: o), backdrop: d)` for one pixel, two
    /// channels per multiply (blue and red in one word, green and alpha in the other): the same
    /// bits with half the arithmetic, for the runs of one to a few pixels at a stroke's rim, too
    /// short for the vector loops to start.
    @inline(__always)
    static func compositePixel(_ p: UInt32, source s: UInt32, coverage m: UInt8, opacity o: UInt16, backdrop d: UInt32)
        -> UInt32
    {
        let a = UInt32(div255(UInt16(m) &* o))
        let ia = 255 &- a
        let blueRed = div255Pair((s & 0x00FF_00FF) &* a &+ (p & 0x00FF_00FF) &* ia)
        let greenAlpha = div255Pair((s &>> 8 & 0x00FF_00FF) &* a &+ (p &>> 8 & 0x00FF_00FF) &* ia)
        let shown = 255 &- (greenAlpha &>> 16)
        let outBlueRed = blueRed &+ div255Pair((d & 0x00FF_00FF) &* shown)
        let outGreen = (greenAlpha & 0xFF) &+ div255Pair((d &>> 8 & 0xFF) &* shown)
        return outBlueRed | outGreen &<< 8 | 0xFF00_0000
    }

    /// Runs shorter than this take `compositePixel` one pixel at a time.
    static let shortRun = 8

    /// View pixels for `count` pixels over one backdrop color.
    @inline(__always)
    static func composite(
        paint: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>, view: UnsafeMutablePointer<UInt32>,
        count: Int, source: UInt32, opacity: UInt16, backdrop: UInt32
    ) {
        if count < shortRun {
            var i = 0
            while i < count {
                view[i] = compositePixel(
                    paint[i], source: source, coverage: coverage[i], opacity: opacity, backdrop: backdrop)
                i += 1
            }
            return
        }
        compositeLong(
            paint: paint, coverage: coverage, view: view, count: count, source: source, opacity: opacity,
            backdrop: backdrop)
    }

    /// `composite`'s vector loop, out of line: inlined, its lane constants were set up in the
    /// caller's loops for every tile of every run, the short runs of a stroke's rim included.
    @inline(never)
    static func compositeLong(
        paint: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>, view: UnsafeMutablePointer<UInt32>,
        count: Int, source: UInt32, opacity: UInt16, backdrop: UInt32
    ) {
        for i in 0..<count {
            view[i] = over(blend(paint[i], source: source, coverage: coverage[i], opacity: opacity), backdrop: backdrop)
        }
    }

    /// View pixels for `count` pixels over a per-pixel backdrop.
    @inline(__always)
    static func composite(
        paint: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>, view: UnsafeMutablePointer<UInt32>,
        count: Int, source: UInt32, opacity: UInt16, backdrops: UnsafePointer<UInt32>
    ) {
        for i in 0..<count {
            view[i] = over(
                blend(paint[i], source: source, coverage: coverage[i], opacity: opacity), backdrop: backdrops[i])
        }
    }

    /// View pixels for `count` pixels without stroke coverage, over one backdrop color: `composite`
    /// with every coverage 0, bit for bit (a blend at alpha 0 gives the paint pixel back).
    @inline(__always)
    static func flatten(
        paint: UnsafeMutablePointer<UInt32>, view: UnsafeMutablePointer<UInt32>, count: Int, backdrop: UInt32
    ) {
        for i in 0..<count { view[i] = over(paint[i], backdrop: backdrop) }
    }

    /// View pixels for `count` pixels without stroke coverage, over a per-pixel backdrop.
    @inline(__always)
    static func flatten(
        paint: UnsafeMutablePointer<UInt32>, view: UnsafeMutablePointer<UInt32>, count: Int,
        backdrops: UnsafePointer<UInt32>
    ) {
        for i in 0..<count { view[i] = over(paint[i], backdrop: backdrops[i]) }
    }

    /// View pixels for `count` pixels that the stroke covers fully, over one backdrop color:
    /// the alpha is the opacity for all of them, so the source's share of each channel is
    /// worked out once, and an opaque source at full opacity is a plain fill. Equal to
    /// `composite` with every coverage 255, bit for bit.
    @inline(__always)
    static func compositeFull(
        paint: UnsafeMutablePointer<UInt32>, view: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
        opacity a: UInt16, backdrop: UInt32, memo: inout FullBlendMemo
    ) {
        if a == 255 && s >> 24 == 255 {
            view.update(repeating: s | 0xFF00_0000, count: count)
            return
        }
        compositeFullBlend(
            paint: paint, view: view, count: count, source: s, opacity: a, backdrop: backdrop, memo: &memo)
    }

    /// `compositeFull` for a source or opacity short of opaque, out of line (see `compositeLong`).
    ///
    /// A view pixel here depends on its paint pixel alone, and under most of a stroke the paint
    /// is one value for pixels on end (the canvas, or an earlier stroke's inside). So a short
    /// run, too short for the vector loop (the few pixels a move adds to each row of a brush's
    /// inside), works each paint value out once and copies it along the pixels that repeat it:
    /// the same function of the same paint pixel, so the same bits. A long run does so only for
    /// its first value, then leaves the rest to the vector loop: over a picture's
    /// every-pixel-different paint (a photo) the repeat test would be slower than that loop.
    ///
    /// A run's first value is looked up in `memo` first: a move adds a few pixels to each of
    /// a brush's rows, one call a row, over paint that is the same value row after row.
    @inline(never)
    static func compositeFullBlend(
        paint: UnsafeMutablePointer<UInt32>, view: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
        opacity a: UInt16, backdrop: UInt32, memo: inout FullBlendMemo
    ) {
        let ia = 255 &- a
        let sb = channel(s, 0) &* a
        let sg = channel(s, 8) &* a
        let sr = channel(s, 16) &* a
        let sa = channel(s, 24) &* a
        @inline(__always) func shown(_ p: UInt32) -> UInt32 {
            let b = div255(sb &+ channel(p, 0) &* ia)
            let g = div255(sg &+ channel(p, 8) &* ia)
            let r = div255(sr &+ channel(p, 16) &* ia)
            let al = div255(sa &+ channel(p, 24) &* ia)
            return over(UInt32(b) | UInt32(g) &<< 8 | UInt32(r) &<< 16 | UInt32(al) &<< 24, backdrop: backdrop)
        }
        let first = paint[0]
        let firstShown: UInt32
        if memo.holds(first, s, a, backdrop) {
            firstShown = memo.shown
        } else {
            firstShown = shown(first)
            memo = FullBlendMemo(paint: first, source: s, backdrop: backdrop, opacity: a, shown: firstShown)
        }
        if count < repeatRun {
            var i = 0
            while i < count {
                let p = paint[i]
                let v = i == 0 ? firstShown : shown(p)
                repeat {
                    view[i] = v
                    i += 1
                } while i < count && paint[i] == p
            }
            return
        }
        // A long run copies while its first paint value repeats (the inside of a wide brush
        // over the canvas), and the vector loop takes the rest from the first other value on.
        var i = 0
        while i < count && paint[i] == first {
            view[i] = firstShown
            i += 1
        }
        for j in i..<count { view[j] = shown(paint[j]) }
    }

    /// The view pixel `compositeFullBlend` worked out last for a run's first paint value, and
    /// everything it was worked out from: the same function of the same inputs gives the same
    /// bits. It starts out holding the pixel for all-zero inputs.
    struct FullBlendMemo {
        var paint: UInt32 = 0
        var source: UInt32 = 0
        var backdrop: UInt32 = 0
        var opacity: UInt16 = 0
        var shown = SpanCompositor.over(0, backdrop: 0)

        @inline(__always)
        func holds(_ paint: UInt32, _ source: UInt32, _ opacity: UInt16, _ backdrop: UInt32) -> Bool {
            self.paint == paint && self.source == source && self.opacity == opacity && self.backdrop == backdrop
        }
    }

    /// Runs shorter than this take `compositeFullBlend`'s repeat loop.
    static let repeatRun = 16

    /// Merges the stroke into the paint for `count` pixels and clears its coverage.
    @inline(__always)
    static func merge(
        paint: UnsafeMutablePointer<UInt32>, coverage: UnsafeMutablePointer<UInt8>, count: Int, source: UInt32,
        opacity: UInt16
    ) {
        for i in 0..<count {
            paint[i] = blend(paint[i], source: source, coverage: coverage[i], opacity: opacity)
            coverage[i] = 0
        }
    }
}

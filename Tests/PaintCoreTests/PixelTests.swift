import TestSupport
import Testing

@testable import PaintCore

/// The packed two-lanes-at-a-time arithmetic must equal the per-channel formula exactly.
@Suite struct PixelTests {
    @Test func div255IsRoundedDivisionForEveryProduct() {
        for x in UInt32(0)...65025 {
            #expect(Pixel.div255(x) == UInt32((Double(x) / 255).rounded()), "x = \(x)")
        }
    }

    @Test func blendMatchesPerChannelFormula() {
        let sources: [UInt32] = [0, Color(r: 255, g: 0, b: 0).pixel, Color(r: 12, g: 200, b: 99).pixel, 0xFFFF_FFFF]
        var dests: [UInt32] = [0, 0xFFFF_FFFF, 0x8040_2010]
        for v in stride(from: 0, through: 255, by: 15) {
            let c = UInt8(v)
            dests.append(Pixel.pack(r: c, g: c / 2, b: 255 - c, a: 255))
            dests.append(Pixel.pack(r: c / 3, g: c / 2, b: c, a: c))  // premultiplied: channels <= alpha
        }
        for s in sources {
            for d in dests {
                for a in UInt32(0)...255 {
                    let out = Pixel.blend(d, source: s, alpha: a)
                    for shift in [0, 8, 16, 24] as [UInt32] {
                        let sc = s >> shift & 0xFF
                        let dc = d >> shift & 0xFF
                        let expected = UInt32((Double(sc * a + dc * (255 - a)) / 255).rounded())
                        #expect(out >> shift & 0xFF == expected)
                    }
                }
            }
        }
    }

    @Test func sixteenBitSpanMathEqualsThePackedFormulas() {
        var rng = SplitMix(seed: 11)
        for _ in 0..<20000 {
            // A premultiplied destination: every channel at most its alpha.
            let alpha = UInt32(rng.next() % 256)
            func channel() -> UInt8 { UInt8(rng.next() % UInt64(alpha + 1)) }
            let dest = Pixel.pack(r: channel(), g: channel(), b: channel(), a: UInt8(alpha))
            let source = Color(r: UInt8(truncatingIfNeeded: rng.next()), g: UInt8(truncatingIfNeeded: rng.next()), b: 7)
                .pixel
            let m = UInt8(truncatingIfNeeded: rng.next())
            let o = UInt16(truncatingIfNeeded: rng.next() % 256)
            let strength = Pixel.div255(UInt32(m) * UInt32(o))
            #expect(
                SpanCompositor.blend(dest, source: source, coverage: m, opacity: o)
                    == Pixel.blend(dest, source: source, alpha: strength))
            #expect(
                SpanCompositor.blend(dest, source: 0, coverage: m, opacity: o)
                    == Pixel.blend(dest, source: 0, alpha: strength))
            let backdrop = Color(r: UInt8(truncatingIfNeeded: rng.next()), g: 9, b: 200).pixel
            #expect(
                SpanCompositor.over(dest, backdrop: backdrop) == Pixel.over(dest, backdrop: backdrop), "alpha \(alpha)")
        }
    }

    /// The one-pixel path of short runs (two channels per multiply) gives the bits of the
    /// channel-by-channel formula for every coverage and opacity, and for any pixels at all,
    /// premultiplied or not.
    @Test func twoChannelsPerMultiplyEqualTheChannelFormula() {
        var rng = SplitMix(seed: 13)
        for round in 0..<24 {
            let paint = UInt32(truncatingIfNeeded: rng.next())
            let source = round % 6 == 5 ? 0 : UInt32(truncatingIfNeeded: rng.next())
            let backdrop = UInt32(truncatingIfNeeded: rng.next())
            for m in 0...255 {
                for o in 0...255 {
                    let expected = SpanCompositor.over(
                        SpanCompositor.blend(paint, source: source, coverage: UInt8(m), opacity: UInt16(o)),
                        backdrop: backdrop)
                    let got = SpanCompositor.compositePixel(
                        paint, source: source, coverage: UInt8(m), opacity: UInt16(o), backdrop: backdrop)
                    guard got == expected else {
                        Issue.record("paint \(paint) source \(source) backdrop \(backdrop) m \(m) o \(o)")
                        return
                    }
                }
            }
        }
        // Short runs and long ones through `composite`: the same pixels either way.
        let count = 21
        var paint = (0..<count).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
        var coverage = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var view = [UInt32](repeating: 0, count: count)
        for n in 1...count {
            paint.withUnsafeMutableBufferPointer { p in
                coverage.withUnsafeMutableBufferPointer { c in
                    view.withUnsafeMutableBufferPointer { v in
                        SpanCompositor.composite(
                            paint: p.baseAddress!, coverage: c.baseAddress!, view: v.baseAddress!, count: n,
                            source: 0xFF80_4020, opacity: 200, backdrop: 0xFFFF_FFFF)
                    }
                }
            }
            for i in 0..<n {
                let blended = SpanCompositor.blend(paint[i], source: 0xFF80_4020, coverage: coverage[i], opacity: 200)
                #expect(view[i] == SpanCompositor.over(blended, backdrop: 0xFFFF_FFFF), "run of \(n), pixel \(i)")
            }
        }
    }

    /// The fully-covered span path (constant alpha, and a plain fill for an opaque source at
    /// full opacity) writes exactly what the general path writes with every coverage 255.
    @Test func fullyCoveredSpansEqualTheGeneralComposite() {
        var rng = SplitMix(seed: 12)
        let count = 37
        // One memo through every round, as the engine keeps one through every stroke.
        var memo = SpanCompositor.FullBlendMemo()
        for round in 0..<3000 {
            let paint = (0..<count).map { _ in Self.randomPremultiplied(&rng) }
            // Brush colors are opaque; the eraser's source is 0. Every fourth round is at 100 %.
            let source: UInt32 =
                round % 5 == 4 ? 0 : Color(r: UInt8(rng.next() & 255), g: UInt8(rng.next() & 255), b: 3).pixel
            let opacity = round % 4 == 0 ? 255 : UInt16(1 + rng.next() % 255)
            let backdrop = Color(r: UInt8(rng.next() & 255), g: 40, b: UInt8(rng.next() & 255)).pixel
            let (general, full) = Self.generalAndFullyCovered(
                paint, count: count, source: source, opacity: opacity, backdrop: backdrop,
                full: { p, v, n, s, o, d in
                    SpanCompositor.compositeFull(
                        paint: p, view: v, count: n, source: s, opacity: o, backdrop: d, memo: &memo)
                })
            #expect(general == full, "round \(round), opacity \(opacity), source \(source)")
        }
    }

    /// A random valid premultiplied pixel: each channel at most its alpha.
    static func randomPremultiplied(_ rng: inout SplitMix) -> UInt32 {
        let alpha = UInt32(rng.next() % 256)
        func channel() -> UInt8 { UInt8(rng.next() % UInt64(alpha + 1)) }
        return Pixel.pack(r: channel(), g: channel(), b: channel(), a: UInt8(alpha))
    }

    /// The view of the first `count` pixels of `paint` made by the general composite with
    /// every coverage 255, and by `full`, a fully-covered path, from copies of the same paint.
    static func generalAndFullyCovered(
        _ paint: [UInt32], count: Int, source: UInt32, opacity: UInt16, backdrop: UInt32,
        full: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, Int, UInt32, UInt16, UInt32) -> Void
    ) -> (general: [UInt32], full: [UInt32]) {
        var general = [UInt32](repeating: 0, count: count)
        var fully = [UInt32](repeating: 0, count: count)
        var forGeneral = paint
        var forFull = paint
        var coverage = [UInt8](repeating: 255, count: count)
        forGeneral.withUnsafeMutableBufferPointer { p in
            coverage.withUnsafeMutableBufferPointer { c in
                general.withUnsafeMutableBufferPointer { v in
                    SpanCompositor.composite(
                        paint: p.baseAddress!, coverage: c.baseAddress!, view: v.baseAddress!, count: count,
                        source: source, opacity: opacity, backdrop: backdrop)
                }
            }
        }
        forFull.withUnsafeMutableBufferPointer { p in
            fully.withUnsafeMutableBufferPointer { v in
                full(p.baseAddress!, v.baseAddress!, count, source, opacity, backdrop)
            }
        }
        return (general, fully)
    }

    /// Fully-covered runs over paint that repeats in stretches, short ones (under `repeatRun`,
    /// where each paint value is worked out once and copied along its repeats) and long ones
    /// (the first value's stretch copied, the rest through the vector loop), write what the
    /// general path writes with every coverage 255.
    @Test func fullyCoveredRunsOverRepeatingPaintEqualTheGeneralComposite() {
        var rng = SplitMix(seed: 31)
        let longest = 2 * SpanCompositor.repeatRun + 8
        var paint = [UInt32](repeating: 0, count: longest)
        var memo = SpanCompositor.FullBlendMemo()
        for round in 0..<4000 {
            // Stretches of one to five equal pixels (to twenty in every third round), from a
            // few values (so the same value also comes back after another one).
            let values = (0..<3).map { _ in Self.randomPremultiplied(&rng) }
            var i = 0
            while i < longest {
                let value = values[Int(rng.next() % 3)]
                for _ in 0..<(1 + Int(rng.next() % (round % 3 == 0 ? 20 : 5))) where i < longest {
                    paint[i] = value
                    i += 1
                }
            }
            let source: UInt32 = round % 5 == 4 ? 0 : Color(r: UInt8(rng.next() & 255), g: 9, b: 200).pixel
            let opacity = UInt16(1 + rng.next() % 254)
            let backdrop = Color(r: 250, g: UInt8(rng.next() & 255), b: 7).pixel
            let count = 1 + round % longest
            let (general, full) = Self.generalAndFullyCovered(
                paint, count: count, source: source, opacity: opacity, backdrop: backdrop,
                full: { p, v, n, s, o, d in
                    SpanCompositor.compositeFullBlend(
                        paint: p, view: v, count: n, source: s, opacity: o, backdrop: d, memo: &memo)
                })
            #expect(general == full, "round \(round), \(count) pixels, opacity \(opacity)")
        }
    }

    /// A fully covered run's first pixel is taken from the memo only when the paint pixel, the
    /// source, the opacity and the backdrop are all the ones it was worked out from: runs that
    /// differ from the one before in one of them, each in turn (and in none, once), short runs
    /// and long, against `compositePixel`. Each change shows in the pixel, so a memo that left
    /// any of the four out would hand back the one before.
    @Test func theFullRunMemoIsTakenOnlyForTheSameInputs() {
        let p0 = Pixel.pack(r: 30, g: 60, b: 90, a: 200)
        let p1 = Pixel.pack(r: 31, g: 60, b: 90, a: 200)
        let s0 = Color(r: 200, g: 10, b: 40).pixel
        let s1 = Color(r: 40, g: 10, b: 200).pixel
        let d0 = Color.white.pixel
        let d1 = Color(r: 0, g: 128, b: 9).pixel
        let inputs: [(paint: UInt32, source: UInt32, opacity: UInt16, backdrop: UInt32)] = [
            (p0, s0, 128, d0), (p0, s0, 128, d0), (p1, s0, 128, d0), (p1, s1, 128, d0), (p1, s1, 60, d0),
            (p1, s1, 60, d1), (p0, s1, 60, d1), (p0, 0, 60, d1), (p0, 0, 0, d1), (p0, 0, 0, 0), (0, 0, 0, 0),
        ]
        var memo = SpanCompositor.FullBlendMemo()
        for count in [1, 3, SpanCompositor.repeatRun + 5] {
            var previous: UInt32?
            for (n, input) in inputs.enumerated() {
                var paint = [UInt32](repeating: input.paint, count: count)
                var view = [UInt32](repeating: 0, count: count)
                paint.withUnsafeMutableBufferPointer { p in
                    view.withUnsafeMutableBufferPointer { v in
                        SpanCompositor.compositeFullBlend(
                            paint: p.baseAddress!, view: v.baseAddress!, count: count, source: input.source,
                            opacity: input.opacity, backdrop: input.backdrop, memo: &memo)
                    }
                }
                let expected = SpanCompositor.compositePixel(
                    input.paint, source: input.source, coverage: 255, opacity: input.opacity,
                    backdrop: input.backdrop)
                #expect(view == [UInt32](repeating: expected, count: count), "\(count) pixels, inputs \(n)")
                if n != 1 { #expect(expected != previous, "inputs \(n) change nothing") }
                previous = expected
            }
        }
        // The memo's start holds the pixel for all-zero inputs (the last of `inputs`).
        var zero: UInt32 = 0
        var shown: UInt32 = 1
        var fresh = SpanCompositor.FullBlendMemo()
        SpanCompositor.compositeFullBlend(
            paint: &zero, view: &shown, count: 1, source: 0, opacity: 0, backdrop: 0, memo: &fresh)
        #expect(shown == SpanCompositor.compositePixel(0, source: 0, coverage: 255, opacity: 0, backdrop: 0))
    }

    @Test func overFlattensOntoBackdrop() {
        let white = Color.white.pixel
        #expect(Pixel.over(0, backdrop: white) == white)
        #expect(Pixel.over(Color.black.pixel, backdrop: white) == Color.black.pixel)
        // Black at alpha 128, premultiplied: channels 0, alpha 128 -> 255 * 127 / 255 = 127.
        let half = Pixel.pack(r: 0, g: 0, b: 0, a: 128)
        #expect(Pixel.over(half, backdrop: white) == Pixel.pack(r: 127, g: 127, b: 127, a: 255))
    }

    @Test func premultiplyRoundTripsOpaqueAndTransparent() {
        let opaque = Pixel.pack(r: 1, g: 2, b: 3, a: 255)
        #expect(Pixel.premultiply(opaque) == opaque)
        #expect(Pixel.unpremultiply(Pixel.premultiply(Pixel.pack(r: 200, g: 100, b: 50, a: 0))) == 0)
        let half = Pixel.premultiply(Pixel.pack(r: 200, g: 100, b: 50, a: 128))
        #expect(Pixel.unpack(half) == (r: 100, g: 50, b: 25, a: 128))
        #expect(Pixel.unpremultiply(half) == Pixel.pack(r: 199, g: 100, b: 50, a: 128))
    }

    @Test func colorHexParsing() {
        #expect(Color(hex: "#e6194b") == Color(r: 0xE6, g: 0x19, b: 0x4B))
        #expect(Color(hex: "E6194B")?.hex == "#e6194b")
        #expect(Color(hex: "#12345") == nil)
        #expect(Color(hex: "#zzzzzz") == nil)
        // The short form doubles each digit, as CSS; it needs its `#` (a file named `bad`).
        #expect(Color(hex: "#f80") == Color(r: 0xFF, g: 0x88, b: 0x00))
        #expect(Color(hex: "#A1c") == Color(r: 0xAA, g: 0x11, b: 0xCC))
        #expect(Color(hex: "f80") == nil && Color(hex: "bad") == nil)
        // UInt32's parser takes a sign; a color code does not.
        #expect(Color(hex: "+12345") == nil && Color(hex: "#+f8") == nil && Color(hex: "#-12345") == nil)
    }
}

import CFreeType
import PaintCore
import Testing

@testable import PaintText

/// The typesetter's coverage against FreeType's own rendering of the same glyphs, done here
/// directly: the same font file, the positions hb-shape gives, FreeType's unhinted outline
/// rendered anti-aliased, glyphs combined by max.
@Suite struct RasterizeTests {
    static let font = ShapingTests.font

    /// FreeType's rendering of `glyphs` (hb-shape's, in 26.6 at 32 px) on a baseline at canvas
    /// y `baseline` from x `left` (26.6), into a `width` x `height` canvas; each glyph's pen x
    /// rounded to the nearest quarter pixel, as the typesetter keeps them.
    static func freeTypeReference(
        _ glyphs: [HBShape.Glyph], left: Int, baseline: Int, width: Int, height: Int
    ) throws -> [UInt8] {
        var library: OpaquePointer?
        try #require(FT_Init_FreeType(&library) == 0)
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        try #require(FT_New_Face(library, HBShape.dejaVuSans, 0, &face) == 0)
        let ftFace = try #require(face)
        defer { FT_Done_Face(ftFace) }
        try #require(FT_Set_Char_Size(ftFace, 0, 32 * 64, 72, 72) == 0)
        var canvas = [UInt8](repeating: 0, count: width * height)
        var pen = left
        for g in glyphs {
            let x = (pen + g.dx + 8) & ~15
            let y = baseline * 64 - g.dy
            pen += g.advance
            let flags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
            try #require(FT_Load_Glyph(ftFace, g.glyph, flags) == 0)
            let slot = try #require(ftFace.pointee.glyph)
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(x & 63), -FT_Pos(y & 63))
            try #require(FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0)
            let bitmap = slot.pointee.bitmap
            guard bitmap.width > 0, bitmap.rows > 0, let buffer = bitmap.buffer else { continue }
            for row in 0..<Int(bitmap.rows) {
                for col in 0..<Int(bitmap.width) {
                    let cx = (x >> 6) + Int(slot.pointee.bitmap_left) + col
                    let cy = (y >> 6) - Int(slot.pointee.bitmap_top) + row
                    guard cx >= 0, cy >= 0, cx < width, cy < height else { continue }
                    let value = buffer[row * Int(bitmap.pitch) + col]
                    canvas[cy * width + cx] = max(canvas[cy * width + cx], value)
                }
            }
        }
        return canvas
    }

    /// The mask laid into a canvas of the given size.
    static func canvas(_ mask: CoverageMask, width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { out[y * width + x] = mask.coverage(atX: x, y: y) }
        }
        return out
    }

    @Test(arguments: ["Hello, Wave!", "שלום", "q\u{301}x ÆØÅ"])
    func coverageEqualsFreeTypesOwnRendering(text: String) throws {
        let typesetter = try #require(Typesetter())
        let layout = typesetter.layout(text, font: Self.font)
        let (w, h) = (320, 60)
        let origin = (x: 7, y: 5)
        let mask = typesetter.rasterize(
            layout, atX: origin.x, y: origin.y, clip: IntRect(x: 0, y: 0, width: w, height: h))
        let ours = Self.canvas(mask, width: w, height: h)
        // The reference starts where the line starts in the box (right-aligned lines too).
        let line = layout.lines[0]
        let left = origin.x * 64 + (line.isRightToLeft ? layout.width * 64 - line.width : 0)
        let reference = try Self.freeTypeReference(
            try HBShape.shape(text), left: left, baseline: origin.y + line.baseline, width: w, height: h)
        let differing = zip(ours, reference).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(w * h) pixels differ from FreeType's rendering")
        // Not a blank picture: real ink, fully covered stems.
        #expect(ours.filter { $0 > 0 }.count > 150)
        #expect(ours.contains(255))
    }

    /// The layout with every glyph moved right by `units` of 1/64 pixel.
    static func shifted(_ layout: TextLayout, by units: Int) -> TextLayout {
        var lines = layout.lines
        for l in lines.indices {
            for g in lines[l].glyphs.indices { lines[l].glyphs[g].x += units }
        }
        return TextLayout(
            font: layout.font, faces: layout.faces, lines: lines, lineHeight: layout.lineHeight,
            ascent: layout.ascent, descent: layout.descent, width: layout.width)
    }

    /// A glyph between pixels is drawn there, not snapped to the pixel: half a pixel to the
    /// right is a different picture with the same ink; a whole pixel is the same picture moved;
    /// less than an eighth of a pixel rounds to the same quarter-pixel rendering.
    @Test func subpixelPositionsAreKept() throws {
        let typesetter = try #require(Typesetter())
        let layout = typesetter.layout("l", font: Self.font)
        let clip = IntRect(x: 0, y: 0, width: 100, height: 100)
        let a = typesetter.rasterize(layout, atX: 10, y: 10, clip: clip)
        #expect(typesetter.rasterize(layout, atX: 11, y: 10, clip: clip) == a.moved(byX: 1, y: 0))
        #expect(typesetter.rasterize(Self.shifted(layout, by: 64), atX: 10, y: 10, clip: clip) == a.moved(byX: 1, y: 0))
        let half = typesetter.rasterize(Self.shifted(layout, by: 32), atX: 10, y: 10, clip: clip)
        #expect(half != a && half != a.moved(byX: 1, y: 0))
        func ink(_ m: CoverageMask) -> Int { m.bytes.reduce(0) { $0 + Int($1) } }
        #expect(abs(ink(half) - ink(a)) * 100 < ink(a))
        #expect(typesetter.rasterize(Self.shifted(layout, by: 7), atX: 10, y: 10, clip: clip) == a)
        // Its stem's edges fall inside pixels: partial coverage there.
        #expect(a.bytes.contains { $0 > 0 && $0 < 255 })
    }

    @Test func clipBoundsTheMask() throws {
        let typesetter = try #require(Typesetter())
        let layout = typesetter.layout("Hello\nWorld", font: Self.font)
        let whole = typesetter.rasterize(layout, atX: 0, y: 0, clip: IntRect(x: 0, y: 0, width: 500, height: 500))
        let top = IntRect(x: 0, y: 0, width: 500, height: layout.lineHeight)
        let part = typesetter.rasterize(layout, atX: 0, y: 0, clip: top)
        #expect(part.bounds.maxY <= layout.lineHeight)
        #expect(part == whole.trimmed(to: top))
        #expect(typesetter.rasterize(layout, atX: 0, y: 0, clip: IntRect(x: 600, y: 0, width: 10, height: 10)).isBlank)
        // Text far off the canvas draws nothing and costs nothing.
        #expect(typesetter.rasterize(layout, atX: -1_000_000, y: 0, clip: top).width == 0)
    }

    @Test func boldInksMoreThanRegular() throws {
        let typesetter = try #require(Typesetter())
        let clip = IntRect(x: 0, y: 0, width: 400, height: 80)
        func ink(_ font: TextFont) -> Int {
            let mask = typesetter.rasterize(typesetter.layout("Bold", font: font), atX: 2, y: 2, clip: clip)
            return mask.bytes.reduce(0) { $0 + Int($1) }
        }
        var bold = Self.font
        bold.bold = true
        #expect(ink(bold) > ink(Self.font) * 5 / 4)
    }
}

import PaintCore
import Testing

@testable import PaintText

/// Shaping through HarfBuzz with FriBidi runs, compared with `hb-shape` and with the order and
/// positions the Unicode bidirectional algorithm prescribes.
@Suite struct ShapingTests {
    /// At 32 px, DejaVu Sans' 2,048 units per em are 26.6 units: hb-shape's numbers exactly.
    static let font = TextFont(family: "DejaVu Sans", size: 32)

    static func typesetter() throws -> Typesetter { try #require(Typesetter()) }

    /// A line's glyphs in hb-shape's terms: offsets from the pen, y up, and advances.
    static func hbGlyphs(_ layout: TextLayout, line index: Int = 0) -> [HBShape.Glyph] {
        let line = layout.lines[index]
        var pen = line.isRightToLeft ? layout.width * 64 - line.width : 0
        return line.glyphs.map { g in
            defer { pen += g.advance }
            return HBShape.Glyph(
                glyph: g.glyph, cluster: g.cluster, dx: g.x - pen, dy: line.baseline * 64 - g.y, advance: g.advance)
        }
    }

    @Test func latinMatchesHBShape() throws {
        let layout = try Self.typesetter().layout("Hello, Wave!", font: Self.font)
        #expect(layout.faceFamilies == ["DejaVu Sans"])
        #expect(Self.hbGlyphs(layout) == (try HBShape.shape("Hello, Wave!")))
    }

    /// Hebrew reads right to left: the last letter comes first on screen, clusters descend, and
    /// the line is a right-to-left paragraph.
    @Test func hebrewIsShapedRightToLeft() throws {
        let text = "שלום"
        let layout = try Self.typesetter().layout(text, font: Self.font)
        let glyphs = Self.hbGlyphs(layout)
        #expect(glyphs == (try HBShape.shape(text)))
        #expect(glyphs.map(\.cluster) == [3, 2, 1, 0])
        #expect(layout.lines[0].isRightToLeft)
        // The caret starts at the right edge and moves left letter by letter.
        let carets = layout.lines[0].carets
        #expect(carets.first == layout.width * 64)
        #expect(zip(carets, carets.dropFirst()).allSatisfy { $0 > $1 })
        #expect(carets.last == layout.width * 64 - layout.lines[0].width)
    }

    /// Arabic joins: the lam and alef become one ligature glyph, the letters take their
    /// initial, medial and final forms, as hb-shape shapes them.
    @Test func arabicJoinsAndLigates() throws {
        let text = "سلام"
        let layout = try Self.typesetter().layout(text, font: Self.font)
        let glyphs = Self.hbGlyphs(layout)
        #expect(glyphs == (try HBShape.shape(text)))
        #expect(glyphs.count == 3)
        #expect(glyphs.map(\.cluster) == [3, 1, 0])
    }

    /// A combining accent on a letter with no precomposed form is a second glyph in the same
    /// cluster, moved onto the letter by the font's mark positioning (a non-zero offset, no
    /// advance of its own).
    @Test func combiningMarkAttachesToItsLetter() throws {
        let text = "q\u{301}x"
        let layout = try Self.typesetter().layout(text, font: Self.font)
        let glyphs = Self.hbGlyphs(layout)
        #expect(glyphs == (try HBShape.shape(text)))
        #expect(glyphs.map(\.cluster) == [0, 0, 2])
        #expect(glyphs[1].advance == 0 && glyphs[1].dx != 0)
        // The mark sits over the q: its origin lies inside the q's advance.
        let q = layout.lines[0].glyphs[0]
        let mark = layout.lines[0].glyphs[1]
        #expect(mark.x > q.x && mark.x < q.x + q.advance)
        // No caret stop between the letter and its accent moves past the q.
        #expect(layout.lines[0].carets[2] == q.advance)
    }

    /// Hebrew inside an English line: one right-to-left run between left-to-right ones, its
    /// letters reversed, the spaces around it left to right (rule N1).
    @Test func mixedDirectionLineIsReorderedByRuns() throws {
        let text = "abc שלום def"
        let layout = try Self.typesetter().layout(text, font: Self.font)
        let line = layout.lines[0]
        #expect(!line.isRightToLeft)
        #expect(line.glyphs.map(\.cluster) == [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11])
        // The Hebrew run is shaped exactly as on its own.
        let hebrew = Self.hbGlyphs(layout).filter { (4...7).contains($0.cluster) }
        #expect(hebrew.map(\.glyph) == (try HBShape.shape("שלום")).map(\.glyph))
        #expect(hebrew.map(\.advance) == (try HBShape.shape("שלום")).map(\.advance))
        // Pen positions follow each other with no gap.
        let glyphs = line.glyphs
        for (a, b) in zip(glyphs, glyphs.dropFirst()) { #expect(a.x + a.advance == b.x) }
    }

    /// A line that starts with Hebrew is a right-to-left paragraph: the English in it sits to
    /// the left of the Hebrew, and the line hugs the box's right edge.
    @Test func rightToLeftParagraphWithEnglish() throws {
        let typesetter = try Self.typesetter()
        let layout = typesetter.layout("שלום abc\nabcdefghijkl", font: Self.font)
        let line = layout.lines[0]
        #expect(line.isRightToLeft)
        #expect(line.glyphs.map(\.cluster) == [5, 6, 7, 4, 3, 2, 1, 0])
        let last = try #require(line.glyphs.last)
        #expect(last.x + last.advance == layout.width * 64)
        #expect(!layout.lines[1].isRightToLeft)
        #expect(layout.lines[1].glyphs.first?.x == 0)
    }

    @Test func linesStackByTheLineHeight() throws {
        let layout = try Self.typesetter().layout("A\n\nB", font: Self.font)
        #expect(layout.lines.count == 3)
        #expect(layout.lines[1].count == 0)
        #expect(layout.lines.map(\.baseline) == [0, 1, 2].map { $0 * layout.lineHeight + layout.ascent })
        #expect(layout.height == 3 * layout.lineHeight)
        // DejaVu Sans: hhea ascender 1901, descender -483 (units of 1/2048 em).
        #expect(layout.ascent == 30 && layout.descent == 8)
        #expect(layout.caret(line: 2, offset: 1).x == Double(layout.lines[2].width) / 64)
    }

    /// Letters the chosen font lacks come from a font that has them (DejaVu Serif has no
    /// Hebrew; DejaVu Sans does), shaped with that font.
    @Test func missingLettersFallBackToAnotherFont() throws {
        let serif = TextFont(family: "DejaVu Serif", size: 32)
        let layout = try Self.typesetter().layout("Aשלום", font: serif)
        #expect(layout.faceFamilies.first == "DejaVu Serif")
        #expect(layout.faceFamilies.count == 2)
        let glyphs = layout.lines[0].glyphs
        #expect(glyphs.filter { $0.cluster >= 1 }.allSatisfy { $0.face == 1 })
        #expect(glyphs.filter { $0.cluster >= 1 }.map(\.glyph) == (try HBShape.shape("שלום")).map(\.glyph))
    }

    /// A click lands the caret at the nearest letter boundary.
    @Test func clickFindsTheNearestCaret() throws {
        let layout = try Self.typesetter().layout("Hello\nWorld", font: Self.font)
        let second = layout.lines[1]
        let between = Double(second.carets[2] + second.carets[3]) / 128 - 1
        #expect(layout.offset(nearX: between, y: Double(layout.lineHeight) + 3) == (1, 2))
        #expect(layout.offset(nearX: -50, y: -50) == (0, 0))
        #expect(layout.offset(nearX: 5000, y: 5000) == (1, 5))
    }

    /// Text longer than the box's limit is cut, not shaped without bound.
    @Test func textIsCutAtTheLimit() throws {
        let long = String(repeating: "ab ", count: Typesetter.maximumScalars)
        let layout = try Self.typesetter().layout(long, font: TextFont(family: "DejaVu Sans", size: 8))
        #expect(layout.lines[0].count == Typesetter.maximumScalars)
    }
}

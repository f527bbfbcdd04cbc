import PaintCore

/// One glyph placed in a text box.
public struct PlacedGlyph: Hashable, Sendable {
    /// Which of the layout's fonts draws it (0 is the chosen font, others are fallbacks).
    public var face: Int
    /// The glyph id in that font.
    public var glyph: UInt32
    /// The offset in its line of the first scalar this glyph draws (HarfBuzz's cluster).
    public var cluster: Int
    /// Where its origin (on the baseline) lies, in 1/64 pixels from the box's top-left, y down.
    public var x: Int
    public var y: Int
    /// How far it moves the pen, in 1/64 pixels.
    public var advance: Int
}

/// One line of a text box: its glyphs left to right as they appear, and where the caret goes
/// before each of its scalars.
public struct TextLine: Sendable {
    /// How many Unicode scalars the line holds.
    public var count: Int
    /// Whether the line reads right to left (it is then aligned to the box's right edge).
    public var isRightToLeft: Bool
    /// The glyphs in visual order, positioned in the box.
    public var glyphs: [PlacedGlyph]
    /// The caret's x (1/64 pixel, from the box's left) before scalar 0...count: the leading
    /// edge of that scalar's glyphs in its own direction, and after the last one at the end.
    public var carets: [Int]
    /// The sum of the advances, 1/64 pixel.
    public var width: Int
    /// The line's top and baseline, whole pixels from the box's top.
    public var top: Int
    public var baseline: Int
}

/// A shaped text box: lines of placed glyphs, with the box's size and caret geometry. Made by
/// `Typesetter.layout`, drawn by `Typesetter.rasterize`.
public struct TextLayout {
    /// The font asked for.
    public let font: TextFont
    /// The fonts the glyphs use: the match for `font` first, then fallbacks for letters it lacks.
    let faces: [FontFace]
    /// The lines, top to bottom.
    public let lines: [TextLine]
    /// Distance between baselines, whole pixels.
    public let lineHeight: Int
    /// Height of the caret and the ink above the baseline, whole pixels.
    public let ascent: Int
    public let descent: Int
    /// The box: as wide as the widest line, as tall as the lines, whole pixels.
    public let width: Int
    public var height: Int { lines.count * lineHeight }

    /// The family each face comes from (the chosen one first), for showing a substitute.
    public var faceFamilies: [String] { faces.map(\.file.family) }

    /// The caret before scalar `offset` of line `line` (both clamped): its x in pixels from
    /// the box's left, and its top and bottom.
    public func caret(line: Int, offset: Int) -> (x: Double, top: Int, bottom: Int) {
        guard !lines.isEmpty else { return (0, 0, ascent + descent) }
        let l = lines[min(max(line, 0), lines.count - 1)]
        let x = l.carets[min(max(offset, 0), l.count)]
        let top = l.baseline - ascent
        return (Double(x) / 64, top, l.baseline + descent)
    }

    /// The line and scalar offset whose caret lies nearest to (x, y), box pixels: where a click
    /// puts the caret.
    public func offset(nearX x: Double, y: Double) -> (line: Int, offset: Int) {
        guard !lines.isEmpty, lineHeight > 0 else { return (0, 0) }
        let line = min(max(Int((y / Double(lineHeight)).rounded(.down)), 0), lines.count - 1)
        let target = x * 64
        var best = 0
        var bestDistance = Double.infinity
        for (i, c) in lines[line].carets.enumerated() where abs(Double(c) - target) < bestDistance {
            bestDistance = abs(Double(c) - target)
            best = i
        }
        return (line, best)
    }
}

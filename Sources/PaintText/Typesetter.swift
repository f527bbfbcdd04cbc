import CFreeType
import CHarfBuzz
import PaintCore

/// Sets text: finds the fonts (fontconfig), splits each line into bidi, script and font runs
/// (FriBidi, HarfBuzz's Unicode data), shapes the runs (HarfBuzz) and draws the glyphs
/// (FreeType, see `rasterize`).
///
/// Holds a FreeType library and the faces it has opened; not for sharing between threads.
public final class Typesetter {
    /// The font list and matcher this typesetter uses.
    public let catalog: FontCatalog
    private let library: FreeTypeLibrary
    private var faces: [FaceKey: FontFace] = [:]
    /// Glyphs already rendered (see `rasterize`).
    var glyphCache = GlyphCache()

    private struct FaceKey: Hashable {
        var file: FontFile
        var size: Int
    }

    /// The most scalars one text box holds; longer text is cut there (every keystroke sets
    /// the whole box again, so its work is bounded by this).
    public static let maximumScalars = 10_000

    /// Starts FreeType; nil when it cannot (out of memory).
    public init?(catalog: FontCatalog = FontCatalog()) {
        guard let library = FreeTypeLibrary() else { return nil }
        self.library = library
        self.catalog = catalog
    }

    /// The face for `file` at `size` pixels, opened once.
    func face(_ file: FontFile, size: Int) -> FontFace? {
        let key = FaceKey(file: file, size: size)
        if let known = faces[key] { return known }
        guard let opened = FontFace(file: file, size: size, library: library) else { return nil }
        // Each size of each font is a face; a user trying sizes must not pile them up.
        if faces.count >= 32 { faces.removeAll() }
        faces[key] = opened
        return opened
    }

    /// Shapes `text` (lines split at "\n") in `font`; the chosen font's substitute when it is
    /// not installed, per-letter fallbacks for letters it lacks. An empty layout (no lines)
    /// only when no outline font is installed at all.
    public func layout(_ text: String, font: TextFont) -> TextLayout {
        var fonts: [FontFace] = []
        guard let file = catalog.match(font), let primary = face(file, size: font.size) else {
            return TextLayout(font: font, faces: [], lines: [], lineHeight: 0, ascent: 0, descent: 0, width: 0)
        }
        fonts.append(primary)
        let ascent = Int((Double(primary.ascender) / 64).rounded(.up))
        let descent = Int((Double(-primary.descender) / 64).rounded(.up))
        let lineHeight = max(1, ascent + descent + Int((Double(primary.lineGap) / 64).rounded()))
        let scalars = text.unicodeScalars.prefix(Self.maximumScalars).map(\.value)
        var lines: [TextLine] = []
        var rightToLeft = false
        for (index, line) in scalars.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let shaped = shapeLine(Array(line), font: font, faces: &fonts, rightToLeftByDefault: rightToLeft)
            rightToLeft = shaped.isRightToLeft
            var placed = shaped
            placed.top = index * lineHeight
            placed.baseline = placed.top + ascent
            lines.append(placed)
        }
        let width = lines.map { ($0.width + 63) >> 6 }.max() ?? 0
        // Place the glyphs on their baselines; right-to-left lines against the right edge.
        for i in lines.indices {
            let shift = lines[i].isRightToLeft ? width * 64 - lines[i].width : 0
            let baseline = lines[i].baseline * 64
            for g in lines[i].glyphs.indices {
                lines[i].glyphs[g].x += shift
                lines[i].glyphs[g].y += baseline
            }
            for c in lines[i].carets.indices { lines[i].carets[c] += shift }
        }
        return TextLayout(
            font: font, faces: fonts, lines: lines, lineHeight: lineHeight, ascent: ascent, descent: descent,
            width: width)
    }

    /// One line shaped from x = 0 on a baseline at y = 0; adds the fallback faces it needs.
    private func shapeLine(
        _ scalars: [UInt32], font: TextFont, faces fonts: inout [FontFace], rightToLeftByDefault: Bool
    ) -> TextLine {
        let (levels, rightToLeft) = TextItemizer.bidiLevels(scalars, rightToLeftByDefault: rightToLeftByDefault)
        guard !scalars.isEmpty else {
            return TextLine(
                count: 0, isRightToLeft: rightToLeft, glyphs: [], carets: [0], width: 0, top: 0, baseline: 0)
        }
        let scripts = TextItemizer.scripts(scalars)
        let faceOfScalar = chooseFaces(scalars, font: font, faces: &fonts)
        let runs = TextItemizer.runs(levels: levels, scripts: scripts, faces: faceOfScalar)
        var glyphs: [PlacedGlyph] = []
        var carets = [Int](repeating: 0, count: scalars.count + 1)
        var pen = 0
        for r in TextItemizer.visualOrder(runs) {
            let run = runs[r]
            let shaped = shape(run, of: scalars, with: fonts[run.face], penX: pen)
            Self.placeCarets(of: run, edges: shaped.edges, lineCount: scalars.count, into: &carets)
            glyphs += shaped.glyphs
            pen = shaped.penX
        }
        return TextLine(
            count: scalars.count, isRightToLeft: rightToLeft, glyphs: glyphs, carets: carets, width: pen, top: 0,
            baseline: 0)
    }

    /// The face for each scalar: the chosen font when it has the letter, else a fallback that
    /// has it; marks and format characters (accents, joiners, variation selectors) stay with
    /// the letter they belong to so they can attach to it.
    private func chooseFaces(_ scalars: [UInt32], font: TextFont, faces fonts: inout [FontFace]) -> [Int] {
        let funcs = hb_unicode_funcs_get_default()
        var out = [Int](repeating: 0, count: scalars.count)
        for (i, s) in scalars.enumerated() {
            let category = hb_unicode_general_category(funcs, s)
            let attaches =
                category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_FORMAT
            if attaches && i > 0 {
                out[i] = out[i - 1]
                continue
            }
            if fonts[0].hasGlyph(for: s) || s < 0x20 { continue }
            guard let file = catalog.fallback(for: s, like: font), let fallback = face(file, size: font.size) else {
                continue
            }
            if let known = fonts.firstIndex(where: { $0 === fallback }) {
                out[i] = known
            } else {
                fonts.append(fallback)
                out[i] = fonts.count - 1
            }
        }
        return out
    }

    /// Shapes one run with HarfBuzz, the whole line given as context; glyphs from `penX` on.
    /// Also returns the left and right pen positions of each cluster (the pen, not the offset
    /// glyph origins, bounds a cluster: marks sit inside it).
    private func shape(_ run: TextRun, of scalars: [UInt32], with face: FontFace, penX: Int) -> (
        glyphs: [PlacedGlyph], penX: Int, edges: [Int: (left: Int, right: Int)]
    ) {
        guard let buffer = hb_buffer_create() else { return ([], penX, [:]) }
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_codepoints(
                buffer, text.baseAddress, Int32(text.count), UInt32(run.range.lowerBound), Int32(run.range.count))
        }
        hb_buffer_set_direction(buffer, run.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, run.script)
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(face.hbFont, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return ([], penX, [:]) }
        var glyphs: [PlacedGlyph] = []
        var edges: [Int: (left: Int, right: Int)] = [:]
        glyphs.reserveCapacity(Int(count))
        var pen = penX
        let faceIndex = run.face
        for i in 0..<Int(count) {
            let p = positions[i]
            // Synthetic bold widens each spacing glyph as much as it thickens it.
            let advance = Int(p.x_advance) + (p.x_advance != 0 ? face.emboldenStrength : 0)
            glyphs.append(
                PlacedGlyph(
                    face: faceIndex, glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                    x: pen + Int(p.x_offset), y: -Int(p.y_offset), advance: advance))
            let cluster = Int(infos[i].cluster)
            let e = edges[cluster] ?? (pen, pen + advance)
            edges[cluster] = (min(e.left, pen), max(e.right, pen + advance))
            pen += advance
        }
        return (glyphs, pen, edges)
    }

    /// The caret before each scalar of `run`: the leading edge of its cluster in the run's
    /// direction, split evenly inside a cluster of several scalars (a ligature). The run that
    /// ends the line also sets the caret after it: the trailing edge of its last cluster.
    private static func placeCarets(
        of run: TextRun, edges: [Int: (left: Int, right: Int)], lineCount: Int, into carets: inout [Int]
    ) {
        let starts = edges.keys.sorted()
        for (k, start) in starts.enumerated() {
            guard let e = edges[start] else { continue }
            let end = k + 1 < starts.count ? starts[k + 1] : run.range.upperBound
            let n = max(1, end - start)
            let last = end == lineCount ? end : end - 1
            guard start <= last else { continue }
            for j in start...last where j < carets.count {
                let part = (e.right - e.left) * (j - start) / n
                carets[j] = run.isRightToLeft ? e.right - part : e.left + part
            }
        }
    }
}

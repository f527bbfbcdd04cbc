import CFreeType
import CHarfBuzz

/// One font file at one pixel size: HarfBuzz shapes with it, FreeType draws its outlines. Both
/// read the same bytes, loaded once.
///
/// HarfBuzz uses its own OpenType functions at a scale of 64 units a pixel, so glyph positions
/// come out in FreeType's 26.6 fixed point and do not depend on any hinting.
final class FontFace {
    /// What fontconfig matched.
    let file: FontFile
    /// The em size in pixels.
    let size: Int
    /// How far synthetic bold thickens each outline, in 26.6 (0 without synthetic bold):
    /// FreeType's own FT_GlyphSlot_Embolden strength, an em / 24.
    let emboldenStrength: Int
    /// Ascender, descender (negative, below the baseline) and line gap, 26.6.
    let ascender: Int32
    let descender: Int32
    let lineGap: Int32

    private let blob: OpaquePointer
    let hbFont: OpaquePointer
    let ftFace: FT_Face
    /// Kept alive by every face it made: a layout can outlive its typesetter.
    private let library: FreeTypeLibrary

    /// Opens `file` at `size` pixels; nil when the file is missing or not a font FreeType can
    /// draw as outlines.
    init?(file: FontFile, size: Int, library: FreeTypeLibrary) {
        guard let blob = hb_blob_create_from_file_or_fail(file.path) else { return nil }
        let length = Int(hb_blob_get_length(blob))
        var face: FT_Face?
        guard length > 0, let data = hb_blob_get_data(blob, nil),
            FT_New_Memory_Face(
                library.handle, UnsafeRawPointer(data).assumingMemoryBound(to: FT_Byte.self), length,
                FT_Long(file.index), &face) == 0,
            let face
        else {
            hb_blob_destroy(blob)
            return nil
        }
        guard cft_is_scalable(face) != 0, FT_Set_Char_Size(face, 0, FT_F26Dot6(size * 64), 72, 72) == 0,
            let hbFace = hb_face_create(blob, UInt32(file.index)), let hbFont = hb_font_create(hbFace)
        else {
            FT_Done_Face(face)
            hb_blob_destroy(blob)
            return nil
        }
        hb_face_destroy(hbFace)
        hb_font_set_scale(hbFont, Int32(size * 64), Int32(size * 64))
        var extents = hb_font_extents_t()
        if hb_font_get_h_extents(hbFont, &extents) == 0 || extents.ascender <= extents.descender {
            // No usable metrics: a common default (80% above the baseline, 20% below).
            extents.ascender = Int32(size * 64 * 4 / 5)
            extents.descender = -Int32(size * 64 / 5)
            extents.line_gap = 0
        }
        ascender = extents.ascender
        descender = extents.descender
        lineGap = max(0, extents.line_gap)
        emboldenStrength = file.embolden ? size * 64 / 24 : 0
        self.file = file
        self.size = size
        self.blob = blob
        self.hbFont = hbFont
        self.ftFace = face
        self.library = library
    }

    deinit {
        FT_Done_Face(ftFace)
        hb_font_destroy(hbFont)
        hb_blob_destroy(blob)
    }

    /// Whether the font has its own glyph for `scalar` (no .notdef box).
    func hasGlyph(for scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 && glyph != 0
    }
}

/// A FreeType library instance, closed when the typesetter and every face it opened are gone.
final class FreeTypeLibrary {
    let handle: OpaquePointer

    init?() {
        var library: OpaquePointer?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}

// FreeType: glyph outlines rasterized to 8-bit anti-aliased coverage (the text tool).
//
// FreeType's headers are named through macros (FT_FREETYPE_H), and its load flags and face tests
// are function-like macros Swift does not import; the few the text tool needs are wrapped here
// with a `cft_` prefix.
#ifndef SWIFTPAINT_CFREETYPE_SHIM_H
#define SWIFTPAINT_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

/// The text tool's load flags: outlines at their design shape (no hinting, so no grid-fitting
/// that differs between FreeType versions or settings), never the embedded bitmaps some fonts
/// carry for small sizes, anti-aliased grayscale target.
static inline FT_Int32 cft_load_flags(void) {
    return FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_TARGET_NORMAL;
}

/// FT_IS_SCALABLE is a macro.
static inline int cft_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }
#endif

// HarfBuzz: text shaping (glyphs, positions, clusters) with its own OpenType font functions.
#ifndef SWIFTPAINT_CHARFBUZZ_SHIM_H
#define SWIFTPAINT_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>

/// HB_TAG is a macro: the four-byte OpenType tag for `s` (script and language tags).
static inline hb_tag_t chb_tag(char a, char b, char c, char d) { return HB_TAG(a, b, c, d); }
#endif

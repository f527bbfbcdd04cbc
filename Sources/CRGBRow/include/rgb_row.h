// One row of opaque 8-bit RGB (a PNG's three bytes a pixel, as libspng hands them over) into
// packed opaque pixels, with SSSE3 where the CPU has it.
#ifndef SWIFTPAINT_RGB_ROW_H
#define SWIFTPAINT_RGB_ROW_H

#include <stddef.h>
#include <stdint.h>

/// Writes `count` pixels to `out`, each 0xFFRRGGBB from the three bytes R, G, B at `rgb`
/// (3 x `count` bytes, read and nothing past them).
void swiftpaint_rgb_row(const uint8_t *rgb, uint32_t *out, size_t count);

#endif

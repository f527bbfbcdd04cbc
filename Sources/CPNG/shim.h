// libpng's simplified API (png_image_*) and zlib's crc32. Only the simplified API is used:
// libpng reports errors by longjmp, and only png_image_* keeps that jump inside libpng.
#ifndef SWIFTPAINT_CPNG_SHIM_H
#define SWIFTPAINT_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>

/// PNG_IMAGE_FAILED is a macro.
static inline int cpng_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }
#endif

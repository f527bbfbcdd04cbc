// libpng's simplified API (png_image_*). Only the simplified API is used: libpng reports errors
// by longjmp, and only png_image_* keeps that jump inside libpng.
#ifndef SWIFTPAINT_CPNG_SHIM_H
#define SWIFTPAINT_CPNG_SHIM_H
#include <png.h>

/// PNG_IMAGE_FAILED is a macro.
static inline int cpng_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }
#endif

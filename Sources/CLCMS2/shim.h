// Little CMS 2 (https://www.littlecms.com): colour profiles of opened pictures converted to
// sRGB. lcms2's pixel formats (TYPE_RGBA_16 ...) are macros built from function-like macros,
// which Swift does not import; the ones SwiftPaint uses are spelled out here as constants.
#ifndef SWIFTPAINT_CLCMS2_SHIM_H
#define SWIFTPAINT_CLCMS2_SHIM_H
#include <lcms2.h>

static const cmsUInt32Number clcms_TYPE_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number clcms_TYPE_RGB_16 = TYPE_RGB_16;
static const cmsUInt32Number clcms_TYPE_GRAY_16 = TYPE_GRAY_16;
static const cmsUInt32Number clcms_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number clcms_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
#endif

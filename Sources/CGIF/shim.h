// giflib (https://giflib.sourceforge.net): the first frame of a GIF, read record by record
// (never DGifSlurp, which would decode every frame of an animation into memory).
#ifndef SWIFTPAINT_CGIF_SHIM_H
#define SWIFTPAINT_CGIF_SHIM_H
#include <gif_lib.h>
#endif

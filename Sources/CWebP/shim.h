// libwebp (https://developers.google.com/speed/webp): WebP decoding (the first frame of an
// animation through the demuxer) and encoding, lossless or lossy.
#ifndef SWIFTPAINT_CWEBP_SHIM_H
#define SWIFTPAINT_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#endif

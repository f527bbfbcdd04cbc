// libspng (https://libspng.org): SwiftPaint's PNG reader and writer. Chosen over libpng by
// measurement (BENCHMARKS.md): the same conformance, faster decoding, errors as return codes
// instead of longjmp, and limits on what ancillary chunks may cost.
#ifndef SWIFTPAINT_CSPNG_SHIM_H
#define SWIFTPAINT_CSPNG_SHIM_H
#include <spng.h>
#endif

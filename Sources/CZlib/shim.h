// zlib: deflate for the history's cold snapshots and the PNG history chunk, CRC-32 for the
// journal and PNG chunks.
#ifndef SWIFTPAINT_CZLIB_SHIM_H
#define SWIFTPAINT_CZLIB_SHIM_H
#include <zlib.h>
#endif

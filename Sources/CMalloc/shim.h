// glibc's malloc tuning (mallopt): the program sets a fixed mmap threshold so large buffers go
// back to the kernel when freed (see Sources/swiftpaint/main.swift). Part of libc: nothing to
// link. Swift's Glibc module does not include <malloc.h>.
#ifndef SWIFTPAINT_CMALLOC_SHIM_H
#define SWIFTPAINT_CMALLOC_SHIM_H
#include <malloc.h>
#endif

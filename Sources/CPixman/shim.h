// pixman: the separable-convolution filters that scale a picture (the same resampling the X
// server and cairo use). https://pixman.org
#ifndef SWIFTPAINT_CPIXMAN_SHIM_H
#define SWIFTPAINT_CPIXMAN_SHIM_H
#include <pixman.h>
#endif

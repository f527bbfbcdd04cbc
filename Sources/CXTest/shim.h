// XTest, for the end-to-end tests and benchmarks that drive the real program.
#ifndef SWIFTPAINT_CXTEST_SHIM_H
#define SWIFTPAINT_CXTEST_SHIM_H
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#endif

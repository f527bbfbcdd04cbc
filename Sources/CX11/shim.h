// Xlib, MIT-SHM and Xft for Swift. Swift does not import C function-like macros, so the few
// that the X layer needs are wrapped here as static inline functions with a `cx_` prefix.
#ifndef SWIFTPAINT_CX11_SHIM_H
#define SWIFTPAINT_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/cursorfont.h>
#include <X11/extensions/XShm.h>
#include <X11/Xft/Xft.h>
#include <sys/ipc.h>
#include <sys/shm.h>

/// XDestroyImage is a macro calling the image's destroy hook.
static inline int cx_destroy_image(XImage *image) { return XDestroyImage(image); }

/// XGetPixel is a macro calling the image's get_pixel hook.
static inline unsigned long cx_get_pixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }

/// shmat's failure value is (void *)-1, which Swift cannot spell as a constant.
static inline int cx_shmat_failed(const void *address) { return address == (void *)-1; }

#endif

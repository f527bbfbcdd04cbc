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
#include <X11/XKBlib.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/Xrender.h>
#include <X11/Xcursor/Xcursor.h>
#include <X11/Xlib-xcb.h>
#include <xcb/present.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>

/// XDestroyImage is a macro calling the image's destroy hook.
static inline int cx_destroy_image(XImage *image) { return XDestroyImage(image); }

/// XGetPixel is a macro calling the image's get_pixel hook.
static inline unsigned long cx_get_pixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }

/// The serial the next request will get (NextRequest): the display's own counter, read
/// without XNextRequest's lock and unlock (only the window's thread makes X calls).
static inline unsigned long cx_next_request(Display *display) { return NextRequest(display); }

/// shmat's failure value is (void *)-1, which Swift cannot spell as a constant.
static inline int cx_shmat_failed(const void *address) { return address == (void *)-1; }

// MARK: Input method (XIM). XGetIMValues, XCreateIC and XSetICValues take NULL-terminated
// name/value lists (varargs), which Swift cannot call; each use gets a fixed-argument twin.

/// The input styles the input method supports (XNQueryInputStyle); free with XFree.
static inline XIMStyles *cx_im_styles(XIM im) {
    XIMStyles *styles = NULL;
    if (XGetIMValues(im, XNQueryInputStyle, &styles, NULL) != NULL) return NULL;
    return styles;
}

/// Asks to hear when the input method goes away (its server exits), so the window can stop
/// using the dead context.
static inline void cx_im_set_destroy_callback(XIM im, XIMCallback *callback) {
    XSetIMValues(im, XNDestroyCallback, callback, NULL);
}

/// An input context for `window` with no preedit window of ours (root or none styles).
static inline XIC cx_create_ic(XIM im, Window window, XIMStyle style) {
    return XCreateIC(im, XNInputStyle, style, XNClientWindow, window, XNFocusWindow, window, NULL);
}

/// Over-the-spot: the input method draws the preedit itself, at `spot` in `window`; some
/// servers need a font set for it.
static inline XIC cx_create_ic_spot(XIM im, Window window, XIMStyle style, XPoint spot, XFontSet fonts) {
    XVaNestedList preedit = fonts ? XVaCreateNestedList(0, XNSpotLocation, &spot, XNFontSet, fonts, NULL)
                                  : XVaCreateNestedList(0, XNSpotLocation, &spot, NULL);
    XIC ic = XCreateIC(im, XNInputStyle, style, XNClientWindow, window, XNFocusWindow, window,
                       XNPreeditAttributes, preedit, NULL);
    XFree(preedit);
    return ic;
}

/// On-the-spot: the input method hands the preedit text to these callbacks and the window
/// draws it in its own text field.
static inline XIC cx_create_ic_callbacks(XIM im, Window window, XIMStyle style, XIMCallback *start,
                                         XIMCallback *done, XIMCallback *draw, XIMCallback *caret) {
    XVaNestedList preedit = XVaCreateNestedList(0, XNPreeditStartCallback, start, XNPreeditDoneCallback, done,
                                                XNPreeditDrawCallback, draw, XNPreeditCaretCallback, caret, NULL);
    XIC ic = XCreateIC(im, XNInputStyle, style, XNClientWindow, window, XNFocusWindow, window,
                       XNPreeditAttributes, preedit, NULL);
    XFree(preedit);
    return ic;
}

/// Moves the over-the-spot preedit to `spot` (the text cursor, window coordinates).
static inline void cx_ic_set_spot(XIC ic, XPoint spot) {
    XVaNestedList preedit = XVaCreateNestedList(0, XNSpotLocation, &spot, NULL);
    XSetICValues(ic, XNPreeditAttributes, preedit, NULL);
    XFree(preedit);
}

/// The events the input method needs the window to select (XNFilterEvents), e.g. KeyRelease.
static inline long cx_ic_filter_events(XIC ic) {
    long mask = 0;
    if (XGetICValues(ic, XNFilterEvents, &mask, NULL) != NULL) return 0;
    return mask;
}

/// The XKB group a core event state carries (bits 13-14; XkbGroupForCoreState is a macro).
static inline int cx_xkb_group(unsigned int state) { return XkbGroupForCoreState(state); }

/// The four-character XKB name of `keycode` ("AB01" is the key left of the bottom row's first
/// letter on every layout), or an empty string.
static inline void cx_xkb_key_name(XkbDescPtr xkb, unsigned int keycode, char out[5]) {
    out[0] = 0;
    if (!xkb || !xkb->names || !xkb->names->keys || keycode < xkb->min_key_code || keycode > xkb->max_key_code)
        return;
    for (int i = 0; i < 4; i++) out[i] = xkb->names->keys[keycode].name[i];
    out[4] = 0;
}

/// How many groups `keycode` has and how many levels each of them (macros in XKBstr.h).
static inline int cx_xkb_key_groups(XkbDescPtr xkb, unsigned int keycode) {
    if (!xkb || !xkb->map || keycode < xkb->min_key_code || keycode > xkb->max_key_code) return 0;
    return XkbKeyNumGroups(xkb, keycode);
}
static inline int cx_xkb_key_width(XkbDescPtr xkb, unsigned int keycode, int group) {
    if (!xkb || !xkb->map || keycode < xkb->min_key_code || keycode > xkb->max_key_code) return 0;
    return XkbKeyGroupWidth(xkb, keycode, group);
}
static inline KeySym cx_xkb_keysym(XkbDescPtr xkb, unsigned int keycode, int group, int level) {
    if (!xkb || !xkb->map || keycode < xkb->min_key_code || keycode > xkb->max_key_code) return NoSymbol;
    if (group >= XkbKeyNumGroups(xkb, keycode) || level >= XkbKeyGroupWidth(xkb, keycode, group)) return NoSymbol;
    return XkbKeySymEntry(xkb, keycode, level, group);
}

// MARK: XInput 2 (XISetMask and XIMaskIsSet are macros)

/// Sets bit `event` in an XI2 event mask.
static inline void cx_xi_set_mask(unsigned char *mask, int event) { XISetMask(mask, event); }

/// Whether bit `bit` is set in an XI2 mask (event, button or valuator mask).
static inline int cx_xi_mask_is_set(const unsigned char *mask, int bit) { return XIMaskIsSet(mask, bit) != 0; }

// MARK: Present (the display's vertical blanks). Xlib does not know the extension: its requests
// go through the connection's XCB side, and its events to a queue of their own, which Xlib's
// event queue never sees (as Mesa does it).

/// Asks for `window`'s vertical-blank notifications; returns their queue, or NULL when the
/// server has no Present extension.
static inline xcb_special_event_t *cx_present_watch(Display *display, Window window) {
    xcb_connection_t *c = XGetXCBConnection(display);
    const xcb_query_extension_reply_t *extension = xcb_get_extension_data(c, &xcb_present_id);
    if (!extension || !extension->present) return NULL;
    xcb_present_query_version_reply_t *version =
        xcb_present_query_version_reply(c, xcb_present_query_version(c, 1, 0), NULL);
    if (!version) return NULL;
    free(version);
    uint32_t eid = xcb_generate_id(c);
    xcb_special_event_t *queue = xcb_register_for_special_xge(c, &xcb_present_id, eid, NULL);
    if (!queue) return NULL;
    xcb_present_select_input(c, eid, window, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    return queue;
}

/// Asks to hear of `window`'s vertical blank number `msc` (at once when it is past).
static inline void cx_present_notify_msc(Display *display, Window window, uint32_t serial, uint64_t msc) {
    xcb_present_notify_msc(XGetXCBConnection(display), window, serial, msc, 0, 0);
}

/// Takes the vertical-blank notifications that arrived (the connection was read by Xlib);
/// returns 1 with the newest one's time (`ust`, microseconds) and number (`msc`), 0 when none came.
static inline int cx_present_take(Display *display, xcb_special_event_t *queue, uint64_t *ust, uint64_t *msc) {
    xcb_connection_t *c = XGetXCBConnection(display);
    xcb_generic_event_t *event;
    int got = 0;
    while ((event = xcb_poll_for_special_event(c, queue)) != NULL) {
        const xcb_present_generic_event_t *generic = (const xcb_present_generic_event_t *)event;
        if (generic->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
            const xcb_present_complete_notify_event_t *complete = (const xcb_present_complete_notify_event_t *)event;
            if (complete->kind == XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC) {
                *ust = complete->ust;
                *msc = complete->msc;
                got = 1;
            }
        }
        free(event);
    }
    return got;
}

#endif

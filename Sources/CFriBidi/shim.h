// GNU FriBidi: the Unicode bidirectional algorithm, so a line mixing left-to-right and
// right-to-left text is cut into runs of one direction in visual order.
//
// FriBidi spells its paragraph types and level tests as macros over macros, which Swift does
// not import; the two the text tool needs are wrapped here with a `cfribidi_` prefix.
#ifndef SWIFTPAINT_CFRIBIDI_SHIM_H
#define SWIFTPAINT_CFRIBIDI_SHIM_H
#include <fribidi.h>

/// The paragraph type that lets the first strong character decide the direction (rule P2),
/// right to left when there is none and `rtl` is set (a line of digits after a Hebrew line).
static inline FriBidiParType cfribidi_par_weak(int rtl) { return rtl ? FRIBIDI_PAR_WRTL : FRIBIDI_PAR_WLTR; }

/// Whether a resolved paragraph type is right to left.
static inline int cfribidi_par_is_rtl(FriBidiParType type) { return FRIBIDI_IS_RTL(type) ? 1 : 0; }
#endif

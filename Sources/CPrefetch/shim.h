// Cache prefetch hints for the stroke engine's row loops, which Swift has no spelling for. A
// prefetch never faults, whatever the address, and changes no value: only when a cache line
// arrives. Static inline: the optimizer inlines each to one instruction.
#ifndef SWIFTPAINT_CPREFETCH_SHIM_H
#define SWIFTPAINT_CPREFETCH_SHIM_H

/// Asks for the cache line holding `p` ahead of a read.
static inline void swiftpaint_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Asks for the cache line holding `p` ahead of a write.
static inline void swiftpaint_prefetch_for_write(const void *p) { __builtin_prefetch(p, 1, 3); }

#endif

// One row of opaque 8-bit RGB into packed opaque pixels (`RowStore`, the usual PNG).
//
// Four pixels a step with SSSE3's byte shuffle: 12 bytes in, the three bytes of each pixel put
// in place under an alpha of 255. The Swift loop took one word a pixel, 11 instructions each
// (22.9 M for a 1920 x 1080 picture, on the thread the window waits for); Swift cannot ask for
// SSSE3 in one function only, and the program must still run on a CPU without it (the loop
// below, pixel by pixel, does then).
#include "rgb_row.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdatomic.h>
#include <tmmintrin.h>

__attribute__((target("ssse3"))) static size_t rgb_row_ssse3(const uint8_t *rgb, uint32_t *out, size_t count) {
    // Byte i of the result is byte `order[i]` of the 16 read (-1: zero), then or-ed with alpha.
    const __m128i order = _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    size_t x = 0;
    // Each step reads 16 bytes for the 12 it uses: it stops while those stay within the row.
    for (; x + 6 <= count; x += 4) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(rgb + 3 * x));
        _mm_storeu_si128((__m128i *)(out + x), _mm_or_si128(_mm_shuffle_epi8(bytes, order), alpha));
    }
    return x;
}

/// Whether the CPU has SSSE3: asked once (1 yes, 0 no, -1 not asked yet; any thread may be
/// first, and each would find the same).
static int has_ssse3(void) {
    static atomic_int known = -1;
    int answer = atomic_load_explicit(&known, memory_order_relaxed);
    if (answer < 0) {
        unsigned a, b, c, d;
        answer = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) ? 1 : 0;
        atomic_store_explicit(&known, answer, memory_order_relaxed);
    }
    return answer;
}
#endif

void swiftpaint_rgb_row(const uint8_t *rgb, uint32_t *out, size_t count) {
    size_t x = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (has_ssse3()) x = rgb_row_ssse3(rgb, out, count);
#endif
    for (; x < count; x++) {
        const uint8_t *p = rgb + 3 * x;
        out[x] = 0xFF000000u | (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    }
}

// Compares libpng's full API and libspng as SwiftPaint's PNG decoder: conformance on the
// reference suite (Tests/Fixtures/png_suite.py) and the time to decode a photo-like PNG.
// Both decode row by row into straight RGBA (16 bits per sample for 16-bit files, else 8) and
// round to 8 bits, the way PaintIO uses them; Adam7 passes are scattered by the caller.
//
//   cc -O2 -o /tmp/png_decoders Tests/Fixtures/png_decoders.c $(pkg-config --cflags --libs libpng spng)
//   /tmp/png_decoders suite SUITE_DIR          conformance (colour-managed files excluded)
//   /tmp/png_decoders time FILE.png RUNS       best-of-RUNS decode CPU time of each decoder
//
// Used once to choose the decoder; the figures are in BENCHMARKS.md.
#define _GNU_SOURCE  // memmem
#include <png.h>
#include <setjmp.h>
#include <spng.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { unsigned char *data; size_t size; } blob;

static blob slurp(const char *path) {
    blob b = {0, 0};
    FILE *f = fopen(path, "rb");
    if (!f) return b;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.data = malloc(n > 0 ? n : 1);
    b.size = fread(b.data, 1, n, f);
    fclose(f);
    return b;
}

static const int adam7[7][4] = {{0, 0, 8, 8}, {0, 4, 8, 8}, {4, 0, 8, 4}, {0, 2, 4, 4},
                                {2, 0, 4, 2}, {0, 1, 2, 2}, {1, 0, 2, 1}};

static inline uint8_t round16(uint16_t v) { return (uint8_t)(((uint32_t)v * 255 + 32767) / 65535); }

// Stores one decoded row (rgba8 or rgba16) of `pass` (-1: not interlaced) into out (RGBA8).
// libpng hands a pass's pixels packed (`spread` 0), libspng at their places in the row (1).
static void scatter(uint8_t *out, int width, int y, int pass, const void *row, int wide, int count, int spread) {
    int x0 = 0, dx = 1;
    if (pass >= 0) { x0 = adam7[pass][1]; dx = adam7[pass][3]; }
    for (int i = 0; i < count; i++) {
        size_t x = x0 + (size_t)i * dx, from = spread ? x : (size_t)i;
        uint8_t *o = out + ((size_t)y * width + x) * 4;
        if (wide) {
            const uint16_t *s = (const uint16_t *)row + from * 4;
            for (int c = 0; c < 4; c++) o[c] = round16(s[c]);
        } else {
            memcpy(o, (const uint8_t *)row + from * 4, 4);
        }
    }
}

// ---- libpng, full API ----------------------------------------------------------------------

typedef struct { const unsigned char *p; size_t left; jmp_buf jump; char message[128]; } pngio;

static void png_fail(png_structp png, png_const_charp msg) {
    pngio *io = png_get_error_ptr(png);
    snprintf(io->message, sizeof io->message, "%s", msg);
    longjmp(io->jump, 1);
}
static void png_quiet(png_structp png, png_const_charp msg) { (void)png; (void)msg; }
static void png_read_mem(png_structp png, png_bytep out, size_t n) {
    pngio *io = png_get_io_ptr(png);
    if (n > io->left) png_error(png, "read beyond end of data");
    memcpy(out, io->p, n);
    io->p += n;
    io->left -= n;
}

static uint8_t *decode_libpng(blob b, int *w, int *h, char *why) {
    pngio io = {b.data, b.size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &io, png_fail, png_quiet);
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile out = NULL;
    void *volatile row = NULL;
    if (setjmp(io.jump)) {
        free(out);
        free(row);
        png_destroy_read_struct(&png, &info, NULL);
        snprintf(why, 128, "%s", io.message);
        return NULL;
    }
    png_set_read_fn(png, &io, png_read_mem);
    png_set_user_limits(png, 32768, 32768);
    png_set_chunk_malloc_max(png, 8 << 20);
    png_read_info(png, info);
    int width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info), color = png_get_color_type(png, info);
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xFFFF, PNG_FILLER_AFTER);
    if (depth == 16) png_set_swap(png);
    png_read_update_info(png, info);
    int wide = depth == 16;
    out = malloc((size_t)width * height * 4);
    row = malloc((size_t)width * (wide ? 8 : 4));
    for (int pass = 0; pass < (interlaced ? 7 : 1); pass++) {
        int y0 = interlaced ? adam7[pass][0] : 0, dy = interlaced ? adam7[pass][2] : 1;
        int x0 = interlaced ? adam7[pass][1] : 0, dx = interlaced ? adam7[pass][3] : 1;
        int count = width > x0 ? (width - x0 + dx - 1) / dx : 0;
        if (count == 0 || height <= y0) continue;
        for (int y = y0; y < height; y += dy) {
            png_read_row(png, row, NULL);
            scatter(out, width, y, interlaced ? pass : -1, row, wide, count, 0);
        }
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    *w = width;
    *h = height;
    return out;
}

// ---- libspng -------------------------------------------------------------------------------

static uint8_t *decode_spng(blob b, int *w, int *h, char *why) {
    spng_ctx *ctx = spng_ctx_new(0);
    spng_set_image_limits(ctx, 32768, 32768);
    spng_set_chunk_limits(ctx, 8 << 20, 32 << 20);
    spng_set_png_buffer(ctx, b.data, b.size);
    struct spng_ihdr ihdr;
    uint8_t *out = NULL, *row = NULL;
    int err = spng_get_ihdr(ctx, &ihdr);
    if (err) goto fail;
    int wide = ihdr.bit_depth == 16;
    int fmt = wide ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;
    size_t rowbytes = (size_t)ihdr.width * (wide ? 8 : 4);
    err = spng_decode_image(ctx, NULL, 0, fmt, SPNG_DECODE_TRNS | SPNG_DECODE_PROGRESSIVE);
    if (err) goto fail;
    out = malloc((size_t)ihdr.width * ihdr.height * 4);
    row = malloc(rowbytes);
    struct spng_row_info ri;
    do {
        err = spng_get_row_info(ctx, &ri);
        if (err) break;
        err = spng_decode_row(ctx, row, rowbytes);
        int pass = ihdr.interlace_method ? ri.pass : -1;
        int count = pass >= 0 ? ((int)ihdr.width - adam7[pass][1] + adam7[pass][3] - 1) / adam7[pass][3] : (int)ihdr.width;
        if (!err || err == SPNG_EOI) scatter(out, ihdr.width, ri.row_num, pass, row, wide, count, 1);
    } while (!err);
    if (err != SPNG_EOI) goto fail;
    err = spng_decode_chunks(ctx);  // reads to IEND: the last IDAT CRC, trailing chunks
    if (err) goto fail;
    free(row);
    spng_ctx_free(ctx);
    *w = ihdr.width;
    *h = ihdr.height;
    return out;
fail:
    snprintf(why, 128, "%s", spng_strerror(err));
    free(out);
    free(row);
    spng_ctx_free(ctx);
    return NULL;
}

typedef uint8_t *(*decoder)(blob, int *, int *, char *);
static const char *names[2] = {"libpng", "libspng"};
static decoder decoders[2] = {decode_libpng, decode_spng};

static int suite(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    blob m = slurp(path);
    if (!m.data) { fprintf(stderr, "no manifest\n"); return 2; }
    int wrong[2] = {0, 0}, checked = 0;
    // Not a JSON parser: every entry has "name": "..." and either "refuse" or "width".
    for (char *p = strstr((char *)m.data, "\"name\": \""); p; p = strstr(p + 1, "\"name\": \"")) {
        char name[256];
        sscanf(p + 9, "%255[^\"]", name);
        char *end = strchr(p, '}');
        int refuse = end && memmem(p, end - p, "\"refuse\"", 8) != NULL;
        int managed = end && memmem(p, end - p, "\"managed\"", 9) != NULL;
        if (managed) continue;
        snprintf(path, sizeof path, "%s/%s.png", dir, name);
        blob b = slurp(path);
        snprintf(path, sizeof path, "%s/%s.rgba", dir, name);
        blob want = refuse ? (blob){0, 0} : slurp(path);
        checked++;
        for (int d = 0; d < 2; d++) {
            int w = 0, h = 0;
            char why[128] = "";
            uint8_t *got = decoders[d](b, &w, &h, why);
            int ok = refuse ? got == NULL : got && (size_t)w * h * 4 == want.size && !memcmp(got, want.data, want.size);
            if (!ok) {
                wrong[d]++;
                printf("%-8s %-32s %s%s\n", names[d], name, refuse ? "accepted a corrupt file" : "wrong pixels",
                       got ? "" : why);
            } else if (refuse) {
                printf("%-8s %-32s refused: %s\n", names[d], name, why);
            }
            free(got);
        }
        free(b.data);
        free(want.data);
    }
    printf("%d files: libpng %d wrong, libspng %d wrong\n", checked, wrong[0], wrong[1]);
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);  // CPU time: steadier on a shared machine
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc >= 3 && !strcmp(argv[1], "suite")) return suite(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "time")) {
        blob b = slurp(argv[2]);
        int runs = argc > 3 ? atoi(argv[3]) : 5;
        for (int d = 0; d < 2; d++) {
            double best = 1e9;
            for (int r = 0; r < runs; r++) {
                int w, h;
                char why[128];
                double t0 = now();
                uint8_t *px = decoders[d](b, &w, &h, why);
                double t = now() - t0;
                if (!px) { printf("%s failed: %s\n", names[d], why); break; }
                free(px);
                if (t < best) best = t;
            }
            printf("%-8s best of %d: %.1f ms\n", names[d], runs, best * 1e3);
        }
        return 0;
    }
    fprintf(stderr, "usage: png_decoders suite DIR | time FILE [RUNS]\n");
    return 2;
}

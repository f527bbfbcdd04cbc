// See cjpeg.h: libjpeg with every setjmp/longjmp kept inside this file.
#include "cjpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/// libjpeg's error manager plus where to jump and what went wrong.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int truncated;
} error_state;

static void on_error(j_common_ptr cinfo) {
    error_state *state = (error_state *)cinfo->err;
    cinfo->err->format_message(cinfo, state->message);
    longjmp(state->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    // Level -1 is a warning. Most are harmless (extraneous bytes before a marker, which many
    // cameras write); a premature end of file is not: libjpeg would fill the rest with gray.
    if (level == -1 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
        ((error_state *)cinfo->err)->truncated = 1;
    }
}

static void errors_init(error_state *state) {
    jpeg_std_error(&state->pub);
    state->pub.error_exit = on_error;
    state->pub.emit_message = on_message;
    state->message[0] = 0;
    state->truncated = 0;
}

// ---- reading through a stream -----------------------------------------------------------------

/// A source that asks `fill` for each next chunk of the file (libjpeg.txt, "Compressed data
/// handling"): libjpeg reads the chunk in place and asks again when it has used it up.
typedef struct {
    struct jpeg_source_mgr pub;
    cjpeg_fill fill;
    void *user;
} stream_source;

static void stream_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean stream_fill(j_decompress_ptr cinfo) {
    stream_source *src = (stream_source *)cinfo->src;
    const unsigned char *data = NULL;
    size_t n = src->fill(src->user, &data);
    if (n == 0 || !data) {
        // As libjpeg's memory source does at the end of its buffer: a warning (which marks the
        // file cut short, see on_message) and a made-up end-of-image marker.
        static const JOCTET end_of_image[2] = {0xFF, JPEG_EOI};
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->pub.next_input_byte = end_of_image;
        src->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    src->pub.next_input_byte = data;
    src->pub.bytes_in_buffer = n;
    return TRUE;
}

static void stream_skip(j_decompress_ptr cinfo, long num_bytes) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (num_bytes <= 0) return;
    while (num_bytes > (long)src->bytes_in_buffer) {
        num_bytes -= (long)src->bytes_in_buffer;
        (void)src->fill_input_buffer(cinfo);
    }
    src->next_input_byte += (size_t)num_bytes;
    src->bytes_in_buffer -= (size_t)num_bytes;
}

static void stream_term(j_decompress_ptr cinfo) { (void)cinfo; }

struct cjpeg_reader {
    struct jpeg_decompress_struct cinfo;
    stream_source source;
    error_state errors;
    struct jpeg_progress_mgr progress;
    int max_scans;
    int created;
    cjpeg_should_stop should_stop;
    void *stop_user;
};

static void on_progress(j_common_ptr cinfo) {
    cjpeg_reader *reader = (cjpeg_reader *)((char *)cinfo - offsetof(cjpeg_reader, cinfo));
    if (cinfo->is_decompressor && reader->cinfo.input_scan_number > reader->max_scans) {
        snprintf(reader->errors.message, sizeof reader->errors.message, "it has more than %d scans",
                 reader->max_scans);
        longjmp(reader->errors.jump, 1);
    }
    // libjpeg calls this once per row of every scan it reads and per row it hands out: the
    // points where a decode nobody waits for can end.
    if (reader->should_stop && reader->should_stop(reader->stop_user)) {
        snprintf(reader->errors.message, sizeof reader->errors.message, "the decode was stopped");
        longjmp(reader->errors.jump, 1);
    }
}

void cjpeg_reader_set_stop(cjpeg_reader *reader, cjpeg_should_stop should_stop, void *user) {
    reader->should_stop = should_stop;
    reader->stop_user = user;
}

/// A reader of the `size` bytes at `data`, or (`fill` given) of the chunks `fill` gives.
static cjpeg_reader *reader_new(const unsigned char *data, size_t size, cjpeg_fill fill, void *user, long max_memory,
                                int max_scans) {
    cjpeg_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->cinfo.err = &reader->errors.pub;
    errors_init(&reader->errors);
    reader->max_scans = max_scans;
    if (setjmp(reader->errors.jump)) {
        // Creating can only fail for lack of memory; the reader reports it on first use.
        return reader;
    }
    jpeg_create_decompress(&reader->cinfo);
    reader->created = 1;
    reader->cinfo.mem->max_memory_to_use = max_memory;
    reader->progress.progress_monitor = on_progress;
    reader->cinfo.progress = &reader->progress;
    if (!fill) {
        jpeg_mem_src(&reader->cinfo, data, (unsigned long)size);
    } else {
        reader->source.pub.init_source = stream_init;
        reader->source.pub.fill_input_buffer = stream_fill;
        reader->source.pub.skip_input_data = stream_skip;
        reader->source.pub.resync_to_restart = jpeg_resync_to_restart;
        reader->source.pub.term_source = stream_term;
        reader->source.fill = fill;
        reader->source.user = user;
        reader->cinfo.src = &reader->source.pub;
    }
    return reader;
}

cjpeg_reader *cjpeg_reader_new(const unsigned char *data, size_t size, long max_memory, int max_scans) {
    return reader_new(data, size, NULL, NULL, max_memory, max_scans);
}

cjpeg_reader *cjpeg_reader_new_stream(cjpeg_fill fill, void *user, long max_memory, int max_scans) {
    return reader_new(NULL, 0, fill, user, max_memory, max_scans);
}

int cjpeg_read_header(cjpeg_reader *reader, cjpeg_info *info) {
    if (!reader->created) return 0;
    if (setjmp(reader->errors.jump)) return 0;
    if (jpeg_read_header(&reader->cinfo, TRUE) != JPEG_HEADER_OK) {
        snprintf(reader->errors.message, sizeof reader->errors.message, "it holds no picture");
        return 0;
    }
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    // libjpeg-turbo writes straight into SwiftPaint's pixel layout (bytes B, G, R, A) and
    // expands gray itself; CMYK has no conversion in libjpeg, the caller makes it.
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->rgb = !cmyk;
    info->adobe = cinfo->saw_Adobe_marker;
    info->progressive = jpeg_has_multiple_scans(cinfo);
    info->arithmetic = cinfo->arith_code;
    return 1;
}

int cjpeg_start(cjpeg_reader *reader, long max_memory) {
    if (!reader->created) return 0;
    if (setjmp(reader->errors.jump)) return 0;
    // Read when the coefficient buffers are made, in jpeg_start_decompress.
    reader->cinfo.mem->max_memory_to_use = max_memory;
    jpeg_start_decompress(&reader->cinfo);
    if (reader->errors.truncated) {
        snprintf(reader->errors.message, sizeof reader->errors.message, "the data ends before the picture does");
        // A progressive file read its scans here: once its first scan is whole, those the data
        // held give the whole picture, coarser (libjpeg leaves out what the missing scans would
        // have added). Its rows are read as usual; the caller keeps the picture, told it is
        // incomplete. Cut inside its first scan, it has nothing whole to show.
        if (reader->cinfo.input_scan_number <= 1) return 0;
        reader->errors.truncated = 0;
        return 2;
    }
    return 1;
}

int cjpeg_read_row(cjpeg_reader *reader, unsigned char *row) {
    if (!reader->created) return 0;
    if (setjmp(reader->errors.jump)) return 0;
    JSAMPROW rows[1] = {row};
    if (jpeg_read_scanlines(&reader->cinfo, rows, 1) != 1 || reader->errors.truncated) {
        reader->errors.truncated = 1;
        snprintf(reader->errors.message, sizeof reader->errors.message, "the data ends before the picture does");
        return 0;
    }
    return 1;
}

const char *cjpeg_reader_message(const cjpeg_reader *reader) {
    return reader->created ? reader->errors.message : "out of memory";
}

int cjpeg_reader_truncated(const cjpeg_reader *reader) { return reader->errors.truncated; }

void cjpeg_reader_free(cjpeg_reader *reader) {
    if (!reader) return;
    // jpeg_destroy is safe in any state, also after an error (libjpeg.txt, "Error handling").
    if (reader->created) jpeg_destroy_decompress(&reader->cinfo);
    free(reader);
}

// ---- encoding -------------------------------------------------------------------------------

/// A destination that grows a buffer this file owns, so that an error part-way frees it
/// (libjpeg's own memory destination would leak its latest buffer on an error exit).
typedef struct {
    struct jpeg_destination_mgr pub;
    unsigned char *buffer;
    size_t capacity;
} growing_destination;

static void destination_init(j_compress_ptr cinfo) {
    growing_destination *dest = (growing_destination *)cinfo->dest;
    dest->capacity = 1 << 16;
    dest->buffer = malloc(dest->capacity);
    if (!dest->buffer) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean destination_grow(j_compress_ptr cinfo) {
    growing_destination *dest = (growing_destination *)cinfo->dest;
    size_t used = dest->capacity;  // empty_output_buffer is called when the buffer is full
    unsigned char *bigger = realloc(dest->buffer, dest->capacity * 2);
    if (!bigger) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    dest->buffer = bigger;
    dest->capacity *= 2;
    dest->pub.next_output_byte = bigger + used;
    dest->pub.free_in_buffer = dest->capacity - used;
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) { (void)cinfo; }

/// Everything an encoding needs, on the heap: what changes after setjmp must not live in
/// automatic variables, whose values are indeterminate after the longjmp.
typedef struct {
    struct jpeg_compress_struct cinfo;
    error_state errors;
    growing_destination dest;
} encoder;

int cjpeg_encode(const unsigned char *pixels, unsigned width, unsigned height, size_t stride, int quality,
                 int luma_h, int luma_v, unsigned dpi_x, unsigned dpi_y, unsigned char **out, size_t *size,
                 char *message, size_t message_size) {
    encoder *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(message, message_size, "out of memory");
        return 0;
    }
    e->cinfo.err = &e->errors.pub;
    errors_init(&e->errors);
    if (setjmp(e->errors.jump)) {
        snprintf(message, message_size, "%s", e->errors.message);
        jpeg_destroy_compress(&e->cinfo);
        free(e->dest.buffer);
        free(e);
        return 0;
    }
    struct jpeg_compress_struct *cinfo = &e->cinfo;
    jpeg_create_compress(cinfo);
    e->dest.pub.init_destination = destination_init;
    e->dest.pub.empty_output_buffer = destination_grow;
    e->dest.pub.term_destination = destination_term;
    cinfo->dest = &e->dest.pub;
    cinfo->image_width = width;
    cinfo->image_height = height;
    // libjpeg-turbo reads SwiftPaint's pixels (bytes B, G, R, A) as they are.
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    // The sampling asked for (the opened JPEG's own, as GIMP keeps it), the chroma at 1 x 1 as
    // cjpeg's -sample writes it. Else, at quality 90 and above the color keeps every pixel
    // (4:4:4), as GIMP's default export and Photoshop's high qualities do: a thin red line or
    // colored text on white stays sharp rather than fringed. Below 90 the color is halved both
    // ways (4:2:0, libjpeg's default), for a smaller file, which is what a lower quality is
    // chosen for.
    if (luma_h > 0 && luma_v > 0) {
        for (int i = 0; i < cinfo->num_components; i++) {
            cinfo->comp_info[i].h_samp_factor = i == 0 ? luma_h : 1;
            cinfo->comp_info[i].v_samp_factor = i == 0 ? luma_v : 1;
        }
    } else if (quality >= 90) {
        for (int i = 0; i < cinfo->num_components; i++) {
            cinfo->comp_info[i].h_samp_factor = 1;
            cinfo->comp_info[i].v_samp_factor = 1;
        }
    }
    cinfo->optimize_coding = TRUE;
    if (dpi_x > 0 && dpi_y > 0 && dpi_x <= 65535 && dpi_y <= 65535) {
        cinfo->density_unit = 1;  // dots per inch
        cinfo->X_density = (UINT16)dpi_x;
        cinfo->Y_density = (UINT16)dpi_y;
    }
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    *size = e->dest.capacity - e->dest.pub.free_in_buffer;
    *out = e->dest.buffer;
    jpeg_destroy_compress(cinfo);
    free(e);
    return 1;
}

void cjpeg_free(void *buffer) { free(buffer); }

// JPEG through libjpeg-turbo's libjpeg API, behind functions that keep its setjmp/longjmp inside C.
//
// libjpeg reports fatal errors by calling error_exit, which must not return; the usual answer is
// longjmp. A longjmp across Swift frames is undefined behaviour, so every function here that calls
// into libjpeg sets its own jump point first and turns a fatal error into a zero return plus a
// message (`cjpeg_reader_message`). Nothing jumps out of this file.
// See libjpeg.txt, "Error handling", and libjpeg-turbo's example.c.
#ifndef SWIFTPAINT_CJPEG_H
#define SWIFTPAINT_CJPEG_H

#include <stddef.h>

/// A JPEG being read from memory. Opaque; made by cjpeg_reader_new, freed by cjpeg_reader_free.
typedef struct cjpeg_reader cjpeg_reader;

/// What the header says.
typedef struct {
    unsigned width;
    unsigned height;
    /// 1: rows come out as 4-byte B, G, R, A (A = 255) pixels, gray expanded.
    /// 0: the file is CMYK or YCCK; rows come out as 4-byte C, M, Y, K.
    int rgb;
    /// The file has an Adobe marker: its CMYK is stored inverted (as Photoshop writes it).
    int adobe;
    /// The file is progressive (or otherwise multi-scan).
    int progressive;
    /// The file is arithmetic-coded rather than Huffman-coded.
    int arithmetic;
} cjpeg_info;

/// A reader of the `size` bytes at `data`, which must stay valid until cjpeg_reader_free.
/// libjpeg may use at most `max_memory` bytes of its own while reading the header (see
/// cjpeg_start for the pixels), and a file with more than `max_scans` scans is refused (a progressive JPEG can otherwise
/// make each scan cost a pass over the whole picture). NULL only when out of memory.
cjpeg_reader *cjpeg_reader_new(const unsigned char *data, size_t size, long max_memory, int max_scans);

/// Gives the next chunk of a JPEG file: sets `*data` to its first byte and returns its length;
/// 0 at the end of the file. The chunk stays valid until the next call.
typedef size_t (*cjpeg_fill)(void *user, const unsigned char **data);

/// A reader of the bytes `fill` gives, chunk after chunk (called with `user`), read once from
/// the start: the file is never held whole. The same limits as cjpeg_reader_new; a file that
/// ends early is cut short in the same words.
cjpeg_reader *cjpeg_reader_new_stream(cjpeg_fill fill, void *user, long max_memory, int max_scans);

/// Asks `should_stop(user)` at every step of the decode (a row of a scan, a row out): once it
/// answers nonzero, the call under way fails with the message "the decode was stopped" (a
/// paste nobody waits for any more). NULL asks nothing.
typedef int (*cjpeg_should_stop)(void *user);
void cjpeg_reader_set_stop(cjpeg_reader *reader, cjpeg_should_stop should_stop, void *user);

/// Reads the header. 1 on success; 0 on error (see cjpeg_reader_message).
int cjpeg_read_header(cjpeg_reader *reader, cjpeg_info *info);

/// Starts decompressing (for a progressive file this reads every scan), with libjpeg allowed
/// `max_memory` bytes of its own from here on. 1 on success, 2 when the data ended after the
/// first of a progressive file's scans (its rows are the scans read, coarser), else 0.
int cjpeg_start(cjpeg_reader *reader, long max_memory);

/// Decompresses the next row into `row` (width * 4 bytes). 1 on success, 0 on error,
/// including a file that ends before its last row.
int cjpeg_read_row(cjpeg_reader *reader, unsigned char *row);

/// The reason of the last failure, NUL-terminated.
const char *cjpeg_reader_message(const cjpeg_reader *reader);

/// Whether the last failure was the data running out (the file is cut short).
int cjpeg_reader_truncated(const cjpeg_reader *reader);

/// Frees the reader and everything libjpeg allocated for it. NULL is fine.
void cjpeg_reader_free(cjpeg_reader *reader);

/// Encodes `height` rows of `width` pixels (4 bytes each, B, G, R and an ignored byte, rows
/// `stride` bytes apart) as a baseline JPEG of `quality` 1...100 with optimized Huffman tables,
/// the color at full resolution (4:4:4) from quality 90 up and halved both ways (4:2:0) below,
/// unless `luma_h` and `luma_v` are above 0: then the luma has those sampling factors (1 to 4,
/// their product at most 8) and the chroma 1 x 1 (2 and 2 is 4:2:0, 2 and 1 4:2:2). `dpi_x` and `dpi_y`, when both are above 0, are written as the JFIF density in dots per inch.
/// On success returns 1 and sets `*out` (free it with cjpeg_free) and `*size`; on error returns
/// 0 and writes the reason into `message` (`message_size` bytes).
int cjpeg_encode(const unsigned char *pixels, unsigned width, unsigned height, size_t stride, int quality,
                 int luma_h, int luma_v, unsigned dpi_x, unsigned dpi_y, unsigned char **out, size_t *size,
                 char *message, size_t message_size);

/// Frees an encoded buffer.
void cjpeg_free(void *buffer);

#endif

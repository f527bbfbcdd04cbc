/* Writes a YCCK JPEG (Adobe APP14, transform 2) of inverted CMYK samples, as Photoshop stores
 * CMYK: Pillow can write CMYK JPEGs but not YCCK, so jpeg_bands.py compiles this once to make
 * its YCCK fixtures. Built by hand only (cc ycck_encode.c -ljpeg), never by a test.
 *
 * Usage: ycck_encode WIDTH HEIGHT QUALITY PROGRESSIVE EXIF_FILE < cmyk > out.jpg
 * (cmyk: WIDTH * HEIGHT * 4 bytes, 255 meaning no ink; EXIF_FILE: an APP1 body, "Exif\0\0"...) */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(int argc, char **argv) {
    if (argc != 6) return 2;
    int width = atoi(argv[1]), height = atoi(argv[2]), quality = atoi(argv[3]), progressive = atoi(argv[4]);
    size_t size = (size_t)width * height * 4;
    unsigned char *pixels = malloc(size);
    if (!pixels || fread(pixels, 1, size, stdin) != size) return 3;
    unsigned char exif[65533];
    FILE *f = fopen(argv[5], "rb");
    if (!f) return 4;
    size_t exif_size = fread(exif, 1, sizeof exif, f);
    fclose(f);
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr errors;
    cinfo.err = jpeg_std_error(&errors);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, stdout);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, JCS_YCCK); /* writes the Adobe marker with transform 2 */
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    jpeg_write_marker(&cinfo, JPEG_APP0 + 1, exif, (unsigned int)exif_size);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = pixels + (size_t)cinfo.next_scanline * width * 4;
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(pixels);
    return 0;
}

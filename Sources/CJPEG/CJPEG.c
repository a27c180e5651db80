#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

// libjpeg's default error handler exits the process; this one jumps back with the message.
struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *error;
    size_t error_size;
    int warned;
};

static void fail(j_common_ptr info) {
    struct failure *failure = (struct failure *)info->err;
    char message[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, message);
    snprintf(failure->error, failure->error_size, "%s", message);
    longjmp(failure->jump, 1);
}

static void note(j_common_ptr info, int level) {
    struct failure *failure = (struct failure *)info->err;
    // Level -1 is a warning: corrupt or truncated data libjpeg papered over.
    if (level < 0 && !failure->warned) {
        char message[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, message);
        snprintf(failure->error, failure->error_size, "%s", message);
        failure->warned = 1;
    }
}

static void quiet(j_common_ptr info) { (void)info; }

static void prepare(struct jpeg_decompress_struct *info, struct failure *failure, char *error, size_t error_size) {
    info->err = jpeg_std_error(&failure->manager);
    failure->manager.error_exit = fail;
    failure->manager.emit_message = note;
    failure->manager.output_message = quiet;
    failure->error = error;
    failure->error_size = error_size;
    failure->warned = 0;
}

// Reads the header and sets the scale; called under the caller's setjmp, to which errors jump.
static void open_scaled(struct jpeg_decompress_struct *info, const uint8_t *data, size_t size, int denominator) {
    jpeg_create_decompress(info);
    jpeg_mem_src(info, data, (unsigned long)size);
    jpeg_read_header(info, TRUE);
    info->scale_num = 1;
    info->scale_denom = (unsigned int)denominator;
}

int markerpaint_jpeg_scaled_size(const uint8_t *data, size_t size, int denominator, int *width, int *height, char *error, size_t error_size) {
    struct jpeg_decompress_struct info;
    struct failure failure;
    prepare(&info, &failure, error, error_size);
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        return 1;
    }
    open_scaled(&info, data, size, denominator);
    jpeg_calc_output_dimensions(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    jpeg_destroy_decompress(&info);
    return 0;
}

int markerpaint_jpeg_decode_rows_into(
    const uint8_t *data, size_t size, int denominator, int first_row, uint8_t *buffer, size_t stride, int width, int rows, char *error,
    size_t error_size) {
    struct jpeg_decompress_struct info;
    struct failure failure;
    prepare(&info, &failure, error, error_size);
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&info);
        return 1;
    }
    open_scaled(&info, data, size, denominator);
    // Blue, green, red, alpha in memory: a little-endian Cairo ARGB32 pixel, opaque so already premultiplied.
    info.out_color_space = JCS_EXT_BGRA;
    jpeg_start_decompress(&info);
    if ((int)info.output_width != width || first_row < 0 || rows < 0 || (JDIMENSION)first_row + (JDIMENSION)rows > info.output_height ||
        stride < (size_t)width * 4) {
        snprintf(
            error, error_size, "decodes to %ux%u, not rows %d-%d of %d wide asked", info.output_width, info.output_height, first_row,
            first_row + rows, width);
        jpeg_destroy_decompress(&info);
        return 1;
    }
    // Rows outside are skipped: still read, so a file that ends early is caught, but neither
    // transformed nor converted, which is most of the work.
    if (first_row > 0) jpeg_skip_scanlines(&info, (JDIMENSION)first_row);
    while (info.output_scanline < (JDIMENSION)(first_row + rows)) {
        JSAMPROW row = buffer + stride * (info.output_scanline - (JDIMENSION)first_row);
        if (jpeg_read_scanlines(&info, &row, 1) != 1) break;
    }
    // libjpeg skips straight to the end without reading what is left, so skip to the last row and
    // read that: a file that ends early is caught after the rows asked for too.
    if (info.output_scanline + 1 < info.output_height) jpeg_skip_scanlines(&info, info.output_height - 1 - info.output_scanline);
    if (info.output_scanline < info.output_height) {
        JSAMPARRAY last = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE, info.output_width * 4, 1);
        jpeg_read_scanlines(&info, last, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return failure.warned ? 1 : 0;
}

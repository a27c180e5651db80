#ifndef MARKERPAINT_CJPEG_H
#define MARKERPAINT_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// The size a JPEG decodes to at 1/`denominator` (1 for its own size), from its header,
/// decoding nothing. 0 on success; otherwise a sentence in `error`.
int markerpaint_jpeg_scaled_size(const uint8_t *data, size_t size, int denominator, int *width, int *height, char *error, size_t error_size);

/// Decodes rows `first_row` to `first_row + rows` of a JPEG at 1/`denominator` of its size (1, 2, 4
/// or 8: libjpeg's DCT scaling, so a large photo is never held whole) straight into `buffer` (rows
/// `stride` bytes apart, `width` as `markerpaint_jpeg_scaled_size` gave it) as opaque BGRA (Cairo's
/// ARGB32 on a little-endian machine). The other rows are read but not decoded. 0 on success;
/// otherwise a sentence in `error`, also for a file that ends early (libjpeg's warning that it
/// filled the rest with grey).
int markerpaint_jpeg_decode_rows_into(
    const uint8_t *data, size_t size, int denominator, int first_row, uint8_t *buffer, size_t stride, int width, int rows, char *error,
    size_t error_size);

#endif

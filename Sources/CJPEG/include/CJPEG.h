#ifndef MARKERPAINT_CJPEG_H
#define MARKERPAINT_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// The size a JPEG decodes to at 1/`denominator` (1 for its own size), from its header,
/// decoding nothing. 0 on success; otherwise a sentence in `error`.
int markerpaint_jpeg_scaled_size(const uint8_t *data, size_t size, int denominator, int *width, int *height, char *error, size_t error_size);

/// Decodes a JPEG at 1/`denominator` of its size (1, 2, 4 or 8: libjpeg's DCT scaling, so a large
/// photo is never held whole) straight into `buffer` (rows `stride` bytes apart), which must hold
/// the `width` × `height` that `markerpaint_jpeg_scaled_size` gave, as opaque BGRA (Cairo's ARGB32
/// on a little-endian machine). 0 on success; otherwise a sentence in `error`, also for a file that
/// ends early (libjpeg's warning that it filled the rest with grey).
int markerpaint_jpeg_decode_into(
    const uint8_t *data, size_t size, int denominator, uint8_t *buffer, size_t stride, int width, int height, char *error, size_t error_size);

#endif

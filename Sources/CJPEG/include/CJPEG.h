#ifndef MARKERPAINT_CJPEG_H
#define MARKERPAINT_CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// Reads a JPEG's width and height from its header, decoding nothing. 0 on success; otherwise
/// a sentence in `error`.
int markerpaint_jpeg_size(const uint8_t *data, size_t size, int *width, int *height, char *error, size_t error_size);

/// Decodes a JPEG at 1/`denominator` of its size (1, 2, 4 or 8: libjpeg's DCT scaling, so a large
/// photo is never held whole) into opaque RGBA, 4 bytes a pixel, in `*pixels` (free it with
/// `markerpaint_jpeg_free`). 0 on success; otherwise a sentence in `error`, also for a file that
/// ends early (libjpeg's warning that it filled the rest with grey).
int markerpaint_jpeg_decode(
    const uint8_t *data, size_t size, int denominator, uint8_t **pixels, int *width, int *height, char *error, size_t error_size);

void markerpaint_jpeg_free(uint8_t *pixels);

#endif

// zlib, for the gzip that PMTiles directories and metadata are compressed with. Its init functions
// are macros (they pass the library's version and the stream's size), which Swift cannot call: the
// two inline functions below call them.
#ifndef MARKERPAINT_CZLIB_SHIM_H
#define MARKERPAINT_CZLIB_SHIM_H
#include <zlib.h>

/// A deflate stream that writes a gzip member (window bits 15, +16 for the gzip wrapper).
static inline int markerpaint_gzip_deflate_init(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// An inflate stream that reads gzip only (window bits 15, +16).
static inline int markerpaint_gzip_inflate_init(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif

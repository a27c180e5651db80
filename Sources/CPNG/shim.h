// The PNG codecs: libspng to decode PNGs bit-exactly, libdeflate for the zlib and gzip streams.
#ifndef MARKERPAINT_CPNG_SHIM_H
#define MARKERPAINT_CPNG_SHIM_H
#include <spng.h>
#include <libdeflate.h>

#endif

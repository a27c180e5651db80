// The C surface markerpaint draws and encodes with: Cairo and Pango for pixels and text,
// libspng to decode PNGs bit-exactly, libdeflate for the fast PNG encoder.
#ifndef MARKERPAINT_CPANGOCAIRO_SHIM_H
#define MARKERPAINT_CPANGOCAIRO_SHIM_H
#include <fcntl.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
#include <spng.h>
#include <libdeflate.h>

// glibc declares renameat2 only under _GNU_SOURCE, which would change system headers under the
// other modules' feet; its prototype and flag are stable Linux ABI.
extern int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

// Swaps two paths in one step (RENAME_EXCHANGE), so a finished output folder replaces the
// previous one with no moment at which neither exists.
static inline int markerpaint_exchange_paths(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, 1u << 1);
}
#endif

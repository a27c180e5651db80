// expat, the streaming XML parser GPX files are read with: strict, small, and safe on hostile
// bytes (no network or file access of its own, entity-amplification limits, a salted hash table).
#ifndef MARKERPAINT_CEXPAT_SHIM_H
#define MARKERPAINT_CEXPAT_SHIM_H
#include <expat.h>
#endif

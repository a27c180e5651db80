// GEOS, the geometry engine behind PostGIS and Shapely: the offline corridor is the union of the
// route's buffers, which it computes robustly (snapping, noding, valid output) where a union
// written here would not be. Only its reentrant C API (the _r functions) is used.
#ifndef MARKERPAINT_CGEOS_SHIM_H
#define MARKERPAINT_CGEOS_SHIM_H
#define USE_UNSTABLE_GEOS_CPP_API 0
#include <geos_c.h>
#endif

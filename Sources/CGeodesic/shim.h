// Karney's geodesic algorithms, GeographicLib's own C implementation as PROJ ships it:
// accurate to 15 nm for every pair of points on the ellipsoid, antipodal ones included.
#ifndef MARKERPAINT_CGEODESIC_SHIM_H
#define MARKERPAINT_CGEODESIC_SHIM_H
#include <geodesic.h>
#endif

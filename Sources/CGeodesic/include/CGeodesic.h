// Karney's geodesics on the WGS84 ellipsoid from GeographicLib (Debian's libgeographiclib),
// behind three C functions: accurate to 15 nm for every pair of points, antipodal ones included.
#ifndef MARKERPAINT_CGEODESIC_H
#define MARKERPAINT_CGEODESIC_H

#ifdef __cplusplus
extern "C" {
#endif

/// The inverse problem: metres along the geodesic, and the azimuths (degrees clockwise from north)
/// at both ends in the direction of travel. Every output is NaN if GeographicLib fails.
void markerpaint_geodesic_inverse(double lat1, double lon1, double lat2, double lon2, double *s12, double *azi1, double *azi2);

/// The inverse problem's distance alone, in metres (NaN if GeographicLib fails).
double markerpaint_geodesic_distance(double lat1, double lon1, double lat2, double lon2);

/// The direct problem: the point `s12` metres from (lat1, lon1) leaving at azimuth `azi1`.
void markerpaint_geodesic_direct(double lat1, double lon1, double azi1, double s12, double *lat2, double *lon2);

#ifdef __cplusplus
}
#endif

#endif

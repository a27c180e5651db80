// GeographicLib's C++ Geodesic behind a C interface: Swift sees only the three functions in
// CGeodesic.h. No exception crosses into Swift; a failure reads as NaN.
#include "CGeodesic.h"

#include <GeographicLib/Geodesic.hpp>
#include <limits>

namespace {
const double notANumber = std::numeric_limits<double>::quiet_NaN();
}

extern "C" void markerpaint_geodesic_inverse(double lat1, double lon1, double lat2, double lon2, double *s12, double *azi1, double *azi2) {
    try {
        GeographicLib::Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, *s12, *azi1, *azi2);
    } catch (...) {
        *s12 = *azi1 = *azi2 = notANumber;
    }
}

extern "C" double markerpaint_geodesic_distance(double lat1, double lon1, double lat2, double lon2) {
    try {
        double s12;
        GeographicLib::Geodesic::WGS84().Inverse(lat1, lon1, lat2, lon2, s12);
        return s12;
    } catch (...) {
        return notANumber;
    }
}

extern "C" void markerpaint_geodesic_direct(double lat1, double lon1, double azi1, double s12, double *lat2, double *lon2) {
    try {
        GeographicLib::Geodesic::WGS84().Direct(lat1, lon1, azi1, s12, *lat2, *lon2);
    } catch (...) {
        *lat2 = *lon2 = notANumber;
    }
}

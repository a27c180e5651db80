// GEOS, the geometry engine behind PostGIS and Shapely: the offline corridor is the union of the
// route's buffers, which it computes robustly (snapping, noding, valid output) where a union
// written here would not be. Only its reentrant C API (the _r functions) is used.
//
// libgeos_c is opened when a corridor is first made, not linked: GEOS and the C++ library under it
// are thousands of symbols for the dynamic loader to bind, which every run of markerpaint paid for,
// one marker's run too.
#ifndef MARKERPAINT_CGEOS_H
#define MARKERPAINT_CGEOS_H
#define USE_UNSTABLE_GEOS_CPP_API 0
#include <geos_c.h>

/// The GEOS functions markerpaint calls, from libgeos_c.so.1.
typedef struct {
    __typeof__(GEOS_init_r) *_Nonnull start;
    __typeof__(GEOS_finish_r) *_Nonnull finish;
    __typeof__(GEOSContext_setErrorMessageHandler_r) *_Nonnull setErrorMessageHandler;
    __typeof__(GEOSCoordSeq_copyFromBuffer_r) *_Nonnull coordSeqCopyFromBuffer;
    __typeof__(GEOSCoordSeq_copyToBuffer_r) *_Nonnull coordSeqCopyToBuffer;
    __typeof__(GEOSCoordSeq_getSize_r) *_Nonnull coordSeqGetSize;
    __typeof__(GEOSGeom_createLineString_r) *_Nonnull createLineString;
    __typeof__(GEOSGeom_createCollection_r) *_Nonnull createCollection;
    __typeof__(GEOSGeom_destroy_r) *_Nonnull destroy;
    __typeof__(GEOSGeom_getCoordSeq_r) *_Nonnull getCoordSeq;
    __typeof__(GEOSBufferWithStyle_r) *_Nonnull bufferWithStyle;
    __typeof__(GEOSSimplify_r) *_Nonnull simplify;
    __typeof__(GEOSUnaryUnion_r) *_Nonnull unaryUnion;
    __typeof__(GEOSClipByRect_r) *_Nonnull clipByRect;
    __typeof__(GEOSGeomTypeId_r) *_Nonnull geomTypeId;
    __typeof__(GEOSGetExteriorRing_r) *_Nonnull getExteriorRing;
    __typeof__(GEOSGetNumInteriorRings_r) *_Nonnull getNumInteriorRings;
    __typeof__(GEOSGetInteriorRingN_r) *_Nonnull getInteriorRingN;
    __typeof__(GEOSGetNumGeometries_r) *_Nonnull getNumGeometries;
    __typeof__(GEOSGetGeometryN_r) *_Nonnull getGeometryN;
} MarkerpaintGEOS;

/// The functions, opening libgeos_c.so.1 on the first call (thread-safe); NULL if it cannot be
/// opened or lacks one, with why in `failure` when given.
const MarkerpaintGEOS *_Nullable markerpaint_geos(const char *_Nullable *_Nullable failure);

#endif

#include "CGEOS.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static MarkerpaintGEOS functions;
static int opened = 0;
static char failureMessage[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_geos(void) {
    void *library = dlopen("libgeos_c.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failureMessage, sizeof failureMessage, "GEOS is not installed (%s)", why ? why : "libgeos_c.so.1 cannot be opened");
        return;
    }
#define BIND(field, symbol)                                                                                      \
    do {                                                                                                         \
        void *found = dlsym(library, #symbol);                                                                   \
        if (found == NULL) {                                                                                     \
            snprintf(failureMessage, sizeof failureMessage, "libgeos_c.so.1 has no %s (GEOS 3.10 or later is needed)", #symbol); \
            return;                                                                                              \
        }                                                                                                        \
        memcpy(&functions.field, &found, sizeof found);                                                          \
    } while (0)
    BIND(start, GEOS_init_r);
    BIND(finish, GEOS_finish_r);
    BIND(setErrorMessageHandler, GEOSContext_setErrorMessageHandler_r);
    BIND(coordSeqCopyFromBuffer, GEOSCoordSeq_copyFromBuffer_r);
    BIND(coordSeqCopyToBuffer, GEOSCoordSeq_copyToBuffer_r);
    BIND(coordSeqGetSize, GEOSCoordSeq_getSize_r);
    BIND(createLineString, GEOSGeom_createLineString_r);
    BIND(createCollection, GEOSGeom_createCollection_r);
    BIND(destroy, GEOSGeom_destroy_r);
    BIND(getCoordSeq, GEOSGeom_getCoordSeq_r);
    BIND(bufferWithStyle, GEOSBufferWithStyle_r);
    BIND(simplify, GEOSSimplify_r);
    BIND(unaryUnion, GEOSUnaryUnion_r);
    BIND(clipByRect, GEOSClipByRect_r);
    BIND(geomTypeId, GEOSGeomTypeId_r);
    BIND(getExteriorRing, GEOSGetExteriorRing_r);
    BIND(getNumInteriorRings, GEOSGetNumInteriorRings_r);
    BIND(getInteriorRingN, GEOSGetInteriorRingN_r);
    BIND(getNumGeometries, GEOSGetNumGeometries_r);
    BIND(getGeometryN, GEOSGetGeometryN_r);
#undef BIND
    opened = 1;
}

const MarkerpaintGEOS *markerpaint_geos(const char **failure) {
    pthread_once(&once, open_geos);
    if (!opened) {
        if (failure) *failure = failureMessage;
        return NULL;
    }
    return &functions;
}

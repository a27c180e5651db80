#include <librsvg/rsvg.h>

/// A GError's message, read here so that Swift need not see GError's fields (glib's types belong
/// to the module that first includes glib).
static inline const char *markerpaint_error_message(const GError *error) { return error != NULL ? error->message : NULL; }

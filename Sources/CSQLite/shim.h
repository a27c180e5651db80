// SQLite, which MBTiles files are: the pack writes one and a source may be one.
#ifndef MARKERPAINT_CSQLITE_SHIM_H
#define MARKERPAINT_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type markerpaint_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif

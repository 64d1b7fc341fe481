#ifndef ALBUM_CSQLITE_SHIM_H
#define ALBUM_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro that Swift cannot import: SQLite copies the bytes before the call returns. */
static inline int album_sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

static inline int album_sqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}
/* sqlite3_db_config is varargs: SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE takes an int and an int* (sqlite.org/c3ref/c_dbconfig_defensive.html). */
static inline int album_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    int set = 0;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &set);
}
/* sqlite3_config is varargs. SQLITE_CONFIG_MEMSTATUS 0: no global allocation statistics, whose one mutex every
 * sqlite3_malloc of every connection takes (sqlite.org/c3ref/c_config_covering_index_scan.html). Only before
 * sqlite3_initialize; SQLITE_MISUSE after it. */
static inline int album_sqlite3_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif

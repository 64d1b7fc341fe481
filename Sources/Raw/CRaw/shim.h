#ifndef ALBUM_CRAW_SHIM_H
#define ALBUM_CRAW_SHIM_H
/* libraw's C API, from libraw_r: the thread-safe build, since album's workers each open their own RAW at once. */
#include <libraw/libraw.h>

/* libraw's default handlers print data and memory errors to stderr; album reads the return code of the call
   instead (libraw_strerror), so a damaged RAW's words go to the photo's step, not to the terminal. */
static void album_raw_ignore_data_error(void *data, const char *file, const int offset) {
    (void)data; (void)file; (void)offset;
}
static void album_raw_ignore_memory_error(void *data, const char *file, const char *where) {
    (void)data; (void)file; (void)where;
}

/* A libraw handle whose errors are returned, never printed. NULL only when libraw cannot allocate it. */
static inline libraw_data_t *album_raw_init(void) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) return NULL;
    libraw_set_dataerror_handler(raw, album_raw_ignore_data_error, NULL);
    libraw_set_memerror_handler(raw, album_raw_ignore_memory_error, NULL);
    return raw;
}
#endif

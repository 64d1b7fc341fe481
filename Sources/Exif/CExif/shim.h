#ifndef ALBUM_CEXIF_SHIM_H
#define ALBUM_CEXIF_SHIM_H
#include <stddef.h>
#include <libexif/exif-data.h>

/* An EXIF block loaded as written: without FOLLOW_SPECIFICATION libexif adds no mandatory entries with made-up
   values, and without IGNORE_UNKNOWN_TAGS it keeps tags it has no name for (newer ones such as OffsetTimeOriginal).
   NULL only when libexif cannot allocate. */
static inline ExifData *album_exif_load(const unsigned char *bytes, unsigned int size) {
    ExifData *data = exif_data_new();
    if (!data) return NULL;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_load_data(data, bytes, size);
    return data;
}

/* `data->ifd` is a C array Swift sees as a tuple: one entry of one IFD, or NULL. */
static inline ExifEntry *album_exif_entry(ExifData *data, ExifIfd ifd, ExifTag tag) {
    if (ifd < 0 || ifd >= EXIF_IFD_COUNT || !data->ifd[ifd]) return NULL;
    return exif_content_get_entry(data->ifd[ifd], tag);
}
#endif

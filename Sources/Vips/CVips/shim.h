#ifndef ALBUM_CVIPS_SHIM_H
#define ALBUM_CVIPS_SHIM_H
/*
 * libvips' public API is varargs: optional arguments are NULL-terminated name/value pairs, which Swift cannot call.
 * Each shim below fixes one call's optional arguments, so Swift sees a plain C function. They add no logic:
 * every return code is checked by the Swift caller (Sources/Vips/Wrapper), which copies and clears the error buffer.
 */
#include <vips/vips.h>
#include <malloc.h>

/* ---- Loading ------------------------------------------------------------------------------------------------- */

/* Opens an image from memory. Only the header is read until pixels are asked for. option_string goes to the
 * loader libvips picks, e.g. "shrink=4" for jpegload's shrink-on-load ("" for none). */
static inline VipsImage *album_vips_new_from_buffer(const void *bytes, size_t length, const char *option_string,
                                                    int sequential, int fail_on) {
    return vips_image_new_from_buffer(bytes, length, option_string,
        "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
        "fail_on", (VipsFailOn) fail_on,
        NULL);
}

/* Shrink-on-load thumbnail from memory: DCT scaling for JPEG, then Lanczos3, EXIF orientation applied.
 * export_profile may be NULL: no colour transform is done then (the input is already sRGB or has no profile).
 * load_options goes to the loader as its option string, e.g. "fail_on=truncated": libvips 8.14's
 * thumbnail_buffer does not pass its own "fail_on" argument on to the loader (checked on this machine: a
 * truncated JPEG then saves without error), but it does honour the option string. */
static inline int album_vips_thumbnail_buffer(const void *bytes, size_t length, VipsImage **out,
                                              int width, int height, int size, int crop, int no_rotate,
                                              const char *load_options, const char *export_profile) {
    if (export_profile)
        return vips_thumbnail_buffer((void *) bytes, length, out, width,
            "height", height, "size", (VipsSize) size, "crop", (VipsInteresting) crop, "no_rotate", no_rotate,
            "option_string", load_options, "export_profile", export_profile, NULL);
    return vips_thumbnail_buffer((void *) bytes, length, out, width,
        "height", height, "size", (VipsSize) size, "crop", (VipsInteresting) crop, "no_rotate", no_rotate,
        "option_string", load_options, NULL);
}

/* The same, on an image already open (used to resize an image within a pipeline). */
static inline int album_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int size, int crop,
                                             int no_rotate) {
    return vips_thumbnail_image(in, out, width,
        "height", height, "size", (VipsSize) size, "crop", (VipsInteresting) crop, "no_rotate", no_rotate, NULL);
}

/* vips_resize's two passes on their own, as vips_resize calls them for a reduction (Lanczos3, its gap of 2.0): for
 * resizing only the window a crop keeps (ThumbnailPlan+CropFirst.swift). */
static inline int album_vips_reducev(VipsImage *in, VipsImage **out, double shrink) {
    return vips_reducev(in, out, shrink, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
}

static inline int album_vips_reduceh(VipsImage *in, VipsImage **out, double shrink) {
    return vips_reduceh(in, out, shrink, "kernel", VIPS_KERNEL_LANCZOS3, "gap", 2.0, NULL);
}

/* One page, not packed (RAD/LABQ): what vips_thumbnail_image resizes as a plain image. */
static inline int album_vips_is_plain(VipsImage *in) {
    return in->Coding == VIPS_CODING_NONE && vips_image_get_page_height(in) == in->Ysize;
}

static inline int album_vips_extract_area(VipsImage *in, VipsImage **out, int left, int top, int width, int height) {
    return vips_extract_area(in, out, left, top, width, height, NULL);
}

/* Crops to width x height, keeping the part `interesting` chooses (vips_thumbnail's own crop). */
static inline int album_vips_smartcrop(VipsImage *in, VipsImage **out, int width, int height, int interesting) {
    return vips_smartcrop(in, out, width, height, "interesting", (VipsInteresting) interesting, NULL);
}

/* An image whose rows a decoder of album's own makes (CJPEG's album_jpeg_decoder: issue 35), as jpeg2vips.c makes
 * jpegload's: a generate callback asked for whole rows, in order, a strip of 8 at a time behind vips_sequential,
 * at the decoder's width × height, then cut to cut_width × cut_height. Its fields are copied from `header` (jpegload's
 * image of the same file, at any shrink: EXIF, XMP, ICC, orientation, resolution; jpeg2vips.c sets none of them
 * from the shrink). read returns 0 or a nonzero code (the decoder
 * keeps its words); release frees state when the image closes. The decoder's code is reached only through these two
 * pointers, so this module needs none of its headers. Returns 0 or -1 (libvips' error buffer says why; state has
 * been released then). */
typedef int (*album_rows_fn)(void *state, int top, int height, unsigned char *buffer, size_t stride);
typedef void (*album_release_fn)(void *state);

typedef struct {
    album_rows_fn read;
    album_release_fn release;
    void *state;
} album_rows_source;

static inline void album_rows_close(VipsImage *image, void *source) {
    (void) image;
    album_rows_source *rows = (album_rows_source *) source;
    rows->release(rows->state);
    g_free(rows);
}

static inline int album_rows_generate(VipsRegion *region, void *sequence, void *a, void *b, gboolean *stop) {
    (void) sequence; (void) b; (void) stop;
    album_rows_source *rows = (album_rows_source *) a;
    VipsRect *r = &region->valid;
    if (r->left != 0 || r->width != region->im->Xsize) {
        vips_error("album_rows", "%s", "a region narrower than the image was asked for");
        return -1;
    }
    int status = rows->read(rows->state, r->top, r->height, (unsigned char *) VIPS_REGION_ADDR(region, 0, r->top),
                            (size_t) VIPS_REGION_LSKIP(region));
    if (status) {
        vips_error("album_rows", "the decoder stopped at line %d (code %d)", r->top, status);
        return -1;
    }
    return 0;
}

static inline int album_vips_rows_image(VipsImage *header, int width, int height, int cut_width, int cut_height,
                                        album_rows_fn read, album_release_fn release, void *state, VipsImage **out) {
    *out = NULL;
    album_rows_source *rows = g_new0(album_rows_source, 1);
    rows->read = read;
    rows->release = release;
    rows->state = state;
    VipsImage *full = vips_image_new();
    g_signal_connect(full, "close", G_CALLBACK(album_rows_close), rows);
    if (vips_image_pipelinev(full, VIPS_DEMAND_STYLE_FATSTRIP, header, NULL)) {
        g_object_unref(full);
        return -1;
    }
    full->Xsize = width;
    full->Ysize = height;
    VipsImage *strips = NULL;
    int status = vips_image_generate(full, NULL, album_rows_generate, NULL, rows, NULL) ||
        vips_sequential(full, &strips, "tile_height", 8, NULL) ||
        vips_extract_area(strips, out, 0, 0, cut_width, cut_height, NULL);
    if (strips) g_object_unref(strips);
    g_object_unref(full);  /* the cut holds it, through the operations that made it */
    return status ? -1 : 0;
}

/* ---- Colour and geometry ------------------------------------------------------------------------------------- */

static inline int album_vips_autorot(VipsImage *in, VipsImage **out) {
    return vips_autorot(in, out, NULL);
}

/* Transforms to sRGB through the embedded profile (or libvips' default for the colour space when there is none). */
static inline int album_vips_icc_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_icc_transform(in, out, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL);
}

/* Converts sRGB pixels to a device space through a profile ("cmyk", "p3", "srgb" built in, or a file), and
 * attaches that profile to the result. Profile to profile (sRGB's, then the target's), through lcms: libvips 8.14's
 * vips_icc_export on sRGB pixels goes through its own D65 Lab instead and does not invert vips_icc_transform
 * (sRGB 40,160,90 came back as 15,160,89 from P3 here). */
static inline int album_vips_icc_export(VipsImage *in, VipsImage **out, const char *profile) {
    return vips_icc_transform(in, out, profile, "input_profile", "srgb", "embedded", FALSE,
        "intent", VIPS_INTENT_RELATIVE, NULL);
}

static inline int album_vips_colourspace(VipsImage *in, VipsImage **out, int space) {
    return vips_colourspace(in, out, (VipsInterpretation) space, NULL);
}

static inline int album_vips_cast(VipsImage *in, VipsImage **out, int format) {
    return vips_cast(in, out, (VipsBandFormat) format, NULL);
}

static inline int album_vips_recomb(VipsImage *in, VipsImage **out, VipsImage *matrix) {
    return vips_recomb(in, out, matrix, NULL);
}

static inline int album_vips_linear(VipsImage *in, VipsImage **out, const double *a, const double *b, int n) {
    return vips_linear(in, out, (double *) a, (double *) b, n, NULL);
}

static inline int album_vips_extract_band(VipsImage *in, VipsImage **out, int band, int n) {
    return vips_extract_band(in, out, band, "n", n, NULL);
}

static inline int album_vips_bandjoin2(VipsImage *a, VipsImage *b, VipsImage **out) {
    return vips_bandjoin2(a, b, out, NULL);
}

static inline int album_vips_resize(VipsImage *in, VipsImage **out, double scale) {
    return vips_resize(in, out, scale, NULL);
}

/* The mean of every pixel: reads the whole image, so every pixel is decoded (`Image.decodeEveryPixel`). */
static inline int album_vips_avg(VipsImage *in, double *out) {
    return vips_avg(in, out, NULL);
}

static inline int album_vips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

/* A copy that claims another colour space: pixels untouched, only the label changes. */
static inline int album_vips_copy_interpretation(VipsImage *in, VipsImage **out, int space) {
    return vips_copy(in, out, "interpretation", (VipsInterpretation) space, NULL);
}

static inline int album_vips_maplut(VipsImage *in, VipsImage **out, VipsImage *lut) {
    return vips_maplut(in, out, lut, NULL);
}

static inline int album_vips_multiply(VipsImage *a, VipsImage *b, VipsImage **out) {
    return vips_multiply(a, b, out, NULL);
}

static inline int album_vips_add(VipsImage *a, VipsImage *b, VipsImage **out) {
    return vips_add(a, b, out, NULL);
}

static inline int album_vips_exp(VipsImage *in, VipsImage **out) {
    return vips_math(in, out, VIPS_OPERATION_MATH_EXP, NULL);
}

/* Composites alpha over white: JPEG has no alpha, and a photo's transparent parts read best as paper. */
static inline int album_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = { 255.0, 255.0, 255.0 };
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int status = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

/* A grid of images, `across` per row, cells as large as the largest image, `gap` pixels apart, on white. */
static inline int album_vips_arrayjoin(VipsImage **images, int count, VipsImage **out, int across, int gap) {
    double white[3] = { 255.0, 255.0, 255.0 };
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int status = vips_arrayjoin(images, out, count, "across", across, "shim", gap, "background", background,
        "halign", VIPS_ALIGN_CENTRE, "valign", VIPS_ALIGN_CENTRE, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

/* ---- Filters' building blocks ------------------------------------------------------------------------------- */

/* Unsharp masking on lightness only (libvips converts to LabS and back); sigma in pixels. */
static inline int album_vips_sharpen(VipsImage *in, VipsImage **out, double sigma) {
    return vips_sharpen(in, out, "sigma", sigma, NULL);
}

/* Gaussian blur; sigma in pixels. uchar in, uchar out (libvips' integer precision for 8-bit input). */
static inline int album_vips_gaussblur(VipsImage *in, VipsImage **out, double sigma) {
    return vips_gaussblur(in, out, sigma, NULL);
}

/* A two-band int image whose pixels are their own coordinates (x, y). */
static inline int album_vips_xyz(VipsImage **out, int width, int height) {
    return vips_xyz(out, width, height, NULL);
}

/* One-band float Gaussian noise. libvips 8.14 derives each pixel from (seed, x, y), so the same seed gives the same
 * noise whatever the tile order or thread count. */
static inline int album_vips_gaussnoise(VipsImage **out, int width, int height, double sigma, double mean, int seed) {
    return vips_gaussnoise(out, width, height, "sigma", sigma, "mean", mean, "seed", seed, NULL);
}

/* ---- Saving ------------------------------------------------------------------------------------------------- */

static inline int album_vips_jpegsave_buffer(VipsImage *in, void **bytes, size_t *length, int quality, int strip) {
    return vips_jpegsave_buffer(in, bytes, length, "Q", quality, "strip", strip, "optimize_coding", TRUE, NULL);
}

static inline int album_vips_pngsave_buffer(VipsImage *in, void **bytes, size_t *length, int strip) {
    return vips_pngsave_buffer(in, bytes, length, "strip", strip, NULL);
}

static inline int album_vips_webpsave_buffer(VipsImage *in, void **bytes, size_t *length, int quality, int strip) {
    return vips_webpsave_buffer(in, bytes, length, "Q", quality, "strip", strip, NULL);
}

static inline int album_vips_avifsave_buffer(VipsImage *in, void **bytes, size_t *length, int quality, int strip) {
    return vips_heifsave_buffer(in, bytes, length, "Q", quality, "strip", strip,
        "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
}

static inline int album_vips_tiffsave_buffer(VipsImage *in, void **bytes, size_t *length, int strip) {
    return vips_tiffsave_buffer(in, bytes, length, "strip", strip, "compression", VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE, NULL);
}

/* Any saver, picked by libvips from a suffix that may carry options: ".heic[compression=hevc]", ".gif",
 * ".png[palette]". For formats album reads but does not export, e.g. to build test fixtures. */
static inline int album_vips_write_to_buffer(VipsImage *in, const char *suffix, void **bytes, size_t *length) {
    return vips_image_write_to_buffer(in, suffix, bytes, length, NULL);
}

/* liborc's run-time SIMD code generation on or off (vips/vector.h is not part of vips/vips.h in 8.14). */
#include <vips/vector.h>
static inline void album_vips_set_vector_enabled(int enabled) {
    vips_vector_set_enabled(enabled ? TRUE : FALSE);
}

/* glibc malloc tuning for libvips' threads: a few arenas, and a fixed mmap threshold so that large decode buffers
 * are returned to the system when freed. Call before any thread starts. */
static inline void album_malloc_tune(int arenas, int mmap_threshold) {
    mallopt(M_ARENA_MAX, arenas);
    mallopt(M_MMAP_THRESHOLD, mmap_threshold);
}

/* ---- Setup -------------------------------------------------------------------------------------------------- */

/* vips_init is a macro around vips__init that also checks the ABI of the headers against the library. */
static inline int album_vips_init(const char *argv0) {
    return VIPS_INIT(argv0);
}

/* Routes GLib messages of the "VIPS" domain (and GLib's own) to one handler. Returns the handler ids (or 0). */
static inline void album_vips_set_log_handler(GLogFunc handler) {
    GLogLevelFlags levels = (GLogLevelFlags) (G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION);
    g_log_set_handler("VIPS", levels, handler, NULL);
    g_log_set_handler("GLib", levels, handler, NULL);
    g_log_set_handler("GLib-GObject", levels, handler, NULL);
    g_log_set_handler(NULL, levels, handler, NULL);
}

#endif

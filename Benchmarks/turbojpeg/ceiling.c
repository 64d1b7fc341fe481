/* The TurboJPEG ceiling: album's JPEG thumbnail pipeline with libvips' jpegload against the same pipeline fed by
 * tjDecompress2 at the same DCT scale. One process, one thread, files read into memory first, nothing written
 * (unless CEILING_OUT names a folder: see below).
 *
 * Used for Benchmarks/INVESTIGATION.md section 12, and by `make bench` (Benchmarks/run.py, issue 35) in its `vips`
 * mode, built with -DCEILING_NO_TJ: "libvips' own pipeline in one process", the row album's whole job is judged
 * against, and (with CEILING_OUT) the reference thumbnails of the bench's quality check. Build (needs libturbojpeg0-dev):
 *   gcc -O2 -g -o /tmp/ceiling Benchmarks/turbojpeg/ceiling.c $(pkg-config --cflags --libs vips libturbojpeg)
 *   (without libturbojpeg0-dev: gcc -O2 -g -DCEILING_NO_TJ -o /tmp/ceiling Benchmarks/turbojpeg/ceiling.c $(pkg-config --cflags --libs vips))
 *   ceiling MODE ROUNDS FILE...       (a FILE written @LIST: the names in LIST, NUL-separated, as `xargs -0` reads)
 * MODE: vips | tj | vipsdecode | tjdecode | crop | cropcubic | all (every mode, order reversed every other round);
 *       compare: crop-first against album's thumbnail, pixel differences per photo (ROUNDS ignored).
 * One untimed round runs first (CEILING_NO_WARMUP=1 skips it, for callgrind). album's allocator settings (1 malloc
 * arena, a fixed 128 KiB mmap threshold) are applied unless CEILING_GLIBC_MALLOC is set. CPU seconds on stderr.
 * CEILING_OUT=DIR: the vips and tj modes also write each thumbnail to DIR/NAME (NAME: the file's own base name), for
 * a pixel comparison; a run that writes is no measurement of the pipeline alone.
 *
 * vips:       jpegload_buffer(shrink=s, fail_on=truncated, sequential) -> thumbnail_image(240, crop centre)
 *             -> icc_transform to sRGB when a profile is embedded -> jpegsave_buffer(Q=70, strip)   (album's path)
 * tj:         tjDecompress2(scale 1/s, RGB or grey) -> new_from_memory, orientation + ICC copied from the header
 *             -> the same thumbnail_image, icc_transform, jpegsave_buffer
 * *decode:    the decode step alone (vips: jpegload_buffer + vips_image_wio_input).
 * crop, cropcubic: vips decode, then autorot, the centre square cut first and vips_resize (Lanczos3 or cubic) to
 *             240, as Pillow's ImageOps.fit resizes only its crop box; then the same colour and encode.
 * s is vips_thumbnail's own: min(w/240, h/240) >= 16 -> 8, >= 8 -> 4, >= 4 -> 2, else 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <malloc.h>
#include <vips/vips.h>
#ifdef CEILING_NO_TJ
/* Built without libturbojpeg0-dev (-DCEILING_NO_TJ): the libvips modes only; tj and tjdecode stop with an error. */
typedef void *tjhandle;
#define tjInitDecompress() NULL
#define tjDestroy(tj) ((void) (tj))
#else
#include <turbojpeg.h>
#endif

typedef struct { unsigned char *data; size_t size; const char *name; } File;

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int shrink_for(int w, int h) {
    double f = (double) w / 240 < (double) h / 240 ? (double) w / 240 : (double) h / 240;
    return f >= 16 ? 8 : f >= 8 ? 4 : f >= 4 ? 2 : 1;
}

static void die(const char *what) {
    fprintf(stderr, "%s: %s\n", what, vips_error_buffer());
    exit(1);
}

/* Writes one thumbnail to CEILING_OUT/NAME when CEILING_OUT is set. */
static void save(const File *f, const void *data, size_t len) {
    const char *folder = getenv("CEILING_OUT");
    if (!folder) return;
    const char *slash = strrchr(f->name, '/');
    gchar *path = g_build_filename(folder, slash ? slash + 1 : f->name, NULL);
    GError *error = NULL;
    if (!g_file_set_contents(path, data, len, &error)) { fprintf(stderr, "write %s: %s\n", path, error->message); exit(1); }
    g_free(path);
}

/* The rest of album's pipeline after the decode: thumbnail_image, colour, encode. */
static size_t finish(VipsImage *decoded, const File *f) {
    VipsImage *thumb, *srgb;
    if (vips_thumbnail_image(decoded, &thumb, 240, "height", 240, "crop", VIPS_INTERESTING_CENTRE, NULL))
        die("thumbnail_image");
    if (vips_image_get_typeof(thumb, VIPS_META_ICC_NAME)) {
        if (vips_icc_transform(thumb, &srgb, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL))
            die("icc_transform");
        g_object_unref(thumb);
    } else
        srgb = thumb;
    void *out;
    size_t len;
    if (vips_jpegsave_buffer(srgb, &out, &len, "Q", 70, "strip", TRUE, NULL))
        die("jpegsave");
    save(f, out, len);
    g_free(out);
    g_object_unref(srgb);
    return len;
}

/* The same, but cropped to the box's aspect before the resize (as Pillow's ImageOps.fit resizes only its crop box),
 * with a given kernel: how much of the resize cost is the whole-image resize, how much the kernel. */
static size_t finish_cropped(VipsImage *decoded, VipsKernel kernel) {
    VipsImage *autorot, *square, *small, *srgb;
    if (vips_autorot(decoded, &autorot, NULL)) die("autorot");
    int side = autorot->Xsize < autorot->Ysize ? autorot->Xsize : autorot->Ysize;
    if (vips_extract_area(autorot, &square, (autorot->Xsize - side) / 2, (autorot->Ysize - side) / 2, side, side, NULL))
        die("extract_area");
    g_object_unref(autorot);
    if (vips_resize(square, &small, 240.0 / side, "kernel", kernel, NULL)) die("resize");
    g_object_unref(square);
    if (vips_image_get_typeof(small, VIPS_META_ICC_NAME)) {
        if (vips_icc_transform(small, &srgb, "srgb", "embedded", TRUE, "intent", VIPS_INTENT_RELATIVE, NULL))
            die("icc_transform");
        g_object_unref(small);
    } else
        srgb = small;
    void *out;
    size_t len;
    if (vips_jpegsave_buffer(srgb, &out, &len, "Q", 70, "strip", TRUE, NULL)) die("jpegsave");
    g_free(out);
    g_object_unref(srgb);
    return len;
}

static VipsImage *vips_decode(File *f);

/* compare: album's thumbnail (resize, then crop) against crop-first Lanczos3, before colour and encode: the largest
 * difference in levels, the mean, and the share of values more than 2 levels apart, per photo. */
static void compare(File *files, int n) {
    for (int i = 0; i < n; i++) {
        VipsImage *a = vips_decode(&files[i]), *b = vips_decode(&files[i]), *ta, *autorot, *square, *tb, *diff, *absd, *over;
        if (vips_thumbnail_image(a, &ta, 240, "height", 240, "crop", VIPS_INTERESTING_CENTRE, NULL)) die("thumbnail_image");
        if (vips_autorot(b, &autorot, NULL)) die("autorot");
        int side = autorot->Xsize < autorot->Ysize ? autorot->Xsize : autorot->Ysize;
        if (vips_extract_area(autorot, &square, (autorot->Xsize - side) / 2, (autorot->Ysize - side) / 2, side, side, NULL) ||
            vips_resize(square, &tb, 240.0 / side, NULL)) die("crop first");
        VipsImage *ma, *mb;  /* in memory: the statistics below read each image more than once */
        if (!(ma = vips_image_copy_memory(ta)) || !(mb = vips_image_copy_memory(tb))) die("copy_memory");
        g_object_unref(ta); g_object_unref(tb); ta = ma; tb = mb;
        double max, mean, share;
        if (ta->Xsize != tb->Xsize || ta->Ysize != tb->Ysize) { printf("photo %d: sizes differ %dx%d %dx%d\n", i, ta->Xsize, ta->Ysize, tb->Xsize, tb->Ysize); continue; }
        if (vips_subtract(ta, tb, &diff, NULL) || vips_abs(diff, &absd, NULL) || vips_max(absd, &max, NULL) ||
            vips_avg(absd, &mean, NULL) || vips_more_const1(absd, &over, 2, NULL) || vips_avg(over, &share, NULL)) die("compare");
        printf("photo %d %dx%d shrunk: max %.0f levels, mean %.3f, values > 2 levels apart %.3f %%\n", i, a->Xsize, a->Ysize, max, mean, share / 255 * 100);
        g_object_unref(a); g_object_unref(b); g_object_unref(ta); g_object_unref(autorot); g_object_unref(square);
        g_object_unref(tb); g_object_unref(diff); g_object_unref(absd); g_object_unref(over);
    }
}

static VipsImage *vips_decode(File *f) {
    VipsImage *header, *image;
    if (!(header = vips_image_new_from_buffer(f->data, f->size, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL)))
        die("header");
    int s = shrink_for(header->Xsize, header->Ysize);
    g_object_unref(header);
    if (vips_jpegload_buffer(f->data, f->size, &image, "shrink", s, "access", VIPS_ACCESS_SEQUENTIAL,
                             "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL))
        die("jpegload");
    return image;
}

static VipsImage *tj_decode(tjhandle tj, File *f, unsigned char **pixels) {
#ifdef CEILING_NO_TJ
    (void) tj; (void) f; (void) pixels;
    fprintf(stderr, "built with -DCEILING_NO_TJ: no TurboJPEG modes\n");
    exit(1);
#else
    int w, h, subsamp, colorspace;
    if (tjDecompressHeader3(tj, f->data, f->size, &w, &h, &subsamp, &colorspace))
        die(tjGetErrorStr2(tj));
    int s = shrink_for(w, h);
    int sw = TJSCALED(w, ((tjscalingfactor) {1, s})), sh = TJSCALED(h, ((tjscalingfactor) {1, s}));
    int grey = colorspace == TJCS_GRAY, bands = grey ? 1 : 3;
    *pixels = malloc((size_t) sw * sh * bands);
    if (tjDecompress2(tj, f->data, f->size, *pixels, sw, 0, sh, grey ? TJPF_GRAY : TJPF_RGB, 0))
        fprintf(stderr, "tj: %s (%d)\n", tjGetErrorStr2(tj), tjGetErrorCode(tj));
    VipsImage *image = vips_image_new_from_memory(*pixels, (size_t) sw * sh * bands, sw, sh, bands, VIPS_FORMAT_UCHAR);
    image->Type = grey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    /* Orientation and ICC as the header read gives them (album reads this header anyway). */
    VipsImage *header = vips_image_new_from_buffer(f->data, f->size, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    int orientation = vips_image_get_orientation(header);
    vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    const void *icc;
    size_t icc_len;
    if (vips_image_get_typeof(header, VIPS_META_ICC_NAME) &&
        !vips_image_get_blob(header, VIPS_META_ICC_NAME, &icc, &icc_len))
        vips_image_set_blob_copy(image, VIPS_META_ICC_NAME, icc, icc_len);
    g_object_unref(header);
    return image;
#endif
}

static double run(const char *mode, tjhandle tj, File *files, int n) {
    double start = cpu();
    size_t bytes = 0;
    for (int i = 0; i < n; i++) {
        unsigned char *pixels = NULL;
        if (!strncmp(mode, "crop", 4)) {
            VipsImage *image = vips_decode(&files[i]);
            bytes += finish_cropped(image, !strcmp(mode, "cropcubic") ? VIPS_KERNEL_CUBIC : VIPS_KERNEL_LANCZOS3);
            g_object_unref(image);
        } else if (!strcmp(mode, "vips") || !strcmp(mode, "vipsdecode")) {
            VipsImage *image = vips_decode(&files[i]);
            if (mode[4] == 'd') {
                if (vips_image_wio_input(image)) die("wio");
            } else
                bytes += finish(image, &files[i]);
            g_object_unref(image);
        } else {
            VipsImage *image = tj_decode(tj, &files[i], &pixels);
            if (mode[2] != 'd') bytes += finish(image, &files[i]);
            g_object_unref(image);
            free(pixels);
        }
    }
    double seconds = cpu() - start;
    fprintf(stderr, "  %-11s %7.3f s CPU  %.2f ms/photo  (%zu bytes out)\n", mode, seconds, 1000 * seconds / n, bytes);
    return seconds;
}

int main(int argc, char **argv) {
    /* album's allocator settings (Vips.start: 1 arena, a fixed 128 KiB mmap threshold), unless CEILING_GLIBC_MALLOC. */
    if (!getenv("CEILING_GLIBC_MALLOC")) { mallopt(M_ARENA_MAX, 1); mallopt(M_MMAP_THRESHOLD, 128 * 1024); }
    if (VIPS_INIT(argv[0])) die("init");
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    if (argc < 4) { fprintf(stderr, "usage: %s MODE ROUNDS FILE... (or @LIST)\n", argv[0]); return 2; }
    const char *mode = argv[1];
    int rounds = atoi(argv[2]);
    GPtrArray *names = g_ptr_array_new();
    for (int i = 3; i < argc; i++) {
        if (argv[i][0] != '@') { g_ptr_array_add(names, argv[i]); continue; }
        gchar *list;
        gsize length;
        GError *error = NULL;
        if (!g_file_get_contents(argv[i] + 1, &list, &length, &error)) { fprintf(stderr, "read %s: %s\n", argv[i] + 1, error->message); return 1; }
        for (gsize at = 0; at < length; at += strlen(list + at) + 1)
            if (list[at]) g_ptr_array_add(names, list + at);
    }
    int n = names->len;
    File *files = calloc(n, sizeof(File));
    for (int i = 0; i < n; i++) {
        gchar *data;
        gsize size;
        const char *name = g_ptr_array_index(names, i);
        if (!g_file_get_contents(name, &data, &size, NULL)) { fprintf(stderr, "read %s\n", name); return 1; }
        files[i].data = (unsigned char *) data;
        files[i].size = size;
        files[i].name = name;
    }
    tjhandle tj = tjInitDecompress();
    if (!strcmp(mode, "compare")) { compare(files, n); return 0; }
#ifdef CEILING_NO_TJ
    /* Without TurboJPEG, `all` is the libvips modes only. */
    const char *all[] = {"vipsdecode", "vips", "crop", "cropcubic"};
    int count = 4;
#else
    const char *all[] = {"vipsdecode", "tjdecode", "vips", "tj", "crop", "cropcubic"};
    int count = 6;
#endif
    /* One untimed round first, so that no mode pays the first touch of the files and libvips' first-use set-up. */
    if (getenv("CEILING_NO_WARMUP")) ;
    else if (!strcmp(mode, "all")) for (int k = 0; k < count; k++) { int saved = dup(2); freopen("/dev/null", "w", stderr); run(all[k], tj, files, n); fflush(stderr); dup2(saved, 2); close(saved); }
    else { int saved = dup(2); freopen("/dev/null", "w", stderr); run(mode, tj, files, n); fflush(stderr); dup2(saved, 2); close(saved); }
    for (int r = 0; r < rounds; r++) {
        fprintf(stderr, "round %d\n", r + 1);
        if (strcmp(mode, "all")) { run(mode, tj, files, n); continue; }
        for (int k = 0; k < count; k++) run(all[r % 2 ? count - 1 - k : k], tj, files, n);
    }
    tjDestroy(tj);
    return 0;
}

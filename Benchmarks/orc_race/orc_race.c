/* The liborc race of Benchmarks/INVESTIGATION.md section 7, alone: THREADS threads each build a small resize
 * pipeline (libvips 8.14 compiles an ORC program for reducev when it builds one), compute it, and release it (which
 * frees the program), ITERATIONS times, with ORC on. MODE says which moments hold one process-wide mutex: "none",
 * "build" (only the builds), "release" (only the releases) or "lock" (both, as album's ProgramLock does:
 * Sources/Vips/Wrapper/ProgramLock.swift); the pixels are always computed outside it.
 *
 * Build: cc -O2 -o /tmp/orc_race Benchmarks/orc_race/orc_race.c $(pkg-config --cflags --libs vips) -lpthread
 * Run:   /tmp/orc_race THREADS ITERATIONS [MODE]      (prints "ok" and exits 0 unless it crashes)
 */
#include <vips/vips.h>
#include <vips/vector.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int iterations;
static int lock_builds, lock_releases;
static pthread_mutex_t program_lock = PTHREAD_MUTEX_INITIALIZER;

static void build_lock(void) { if (lock_builds) pthread_mutex_lock(&program_lock); }
static void build_unlock(void) { if (lock_builds) pthread_mutex_unlock(&program_lock); }
static void release_lock(void) { if (lock_releases) pthread_mutex_lock(&program_lock); }
static void release_unlock(void) { if (lock_releases) pthread_mutex_unlock(&program_lock); }

static void *worker(void *arg) {
    long seed = (long) arg;
    for (int i = 0; i < iterations; i++) {
        VipsImage *black = NULL, *image = NULL, *small = NULL;
        double mean;
        int width = 48 + (int) ((seed * 7 + i) % 40), height = 40 + (int) ((seed * 13 + i) % 30);
        build_lock();
        if (vips_black(&black, width, height, "bands", 3, NULL) ||
            vips_linear1(black, &image, 1.0, (double) (i % 200), "uchar", TRUE, NULL) ||
            /* a different factor each time: a new mask, so a new ORC program */
            vips_resize(image, &small, 0.31 + (i % 17) * 0.01, NULL)) {
            build_unlock();
            fprintf(stderr, "build failed: %s\n", vips_error_buffer());
            exit(2);
        }
        build_unlock();
        if (vips_avg(small, &mean, NULL)) { fprintf(stderr, "avg failed: %s\n", vips_error_buffer()); exit(2); }
        release_lock();
        g_object_unref(small);
        g_object_unref(image);
        g_object_unref(black);
        release_unlock();
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s THREADS ITERATIONS [lock]\n", argv[0]); return 2; }
    int threads = atoi(argv[1]);
    iterations = atoi(argv[2]);
    const char *mode = argc > 3 ? argv[3] : "none";
    lock_builds = !strcmp(mode, "lock") || !strcmp(mode, "build");
    lock_releases = !strcmp(mode, "lock") || !strcmp(mode, "release");
    if (VIPS_INIT(argv[0])) return 2;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_vector_set_enabled(TRUE);
    pthread_t t[64];
    for (long k = 0; k < threads && k < 64; k++) pthread_create(&t[k], NULL, worker, (void *) k);
    for (int k = 0; k < threads && k < 64; k++) pthread_join(t[k], NULL);
    printf("ok: %d threads x %d pipelines, lock: %s\n", threads, iterations, mode);
    return 0;
}

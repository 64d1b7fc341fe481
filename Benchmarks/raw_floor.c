/* libraw's own share of a RAW's preview thumbnail step, in C: what album's step asks of libraw, and nothing else.
 *
 * The step identifies the RAW twice (the format sniff, which tells a DNG or a Nikon from a plain TIFF, then the
 * decoder), unpacks the embedded JPEG preview and copies it once into memory of album's own; libvips then decodes
 * that copy exactly as it decodes a JPEG file of the preview's size. So the RAW step costs the JPEG step plus these
 * calls. Measured in a fresh process, as a one-photo `album run` meets them: the file already in memory (import read
 * it), album's allocator settings (one malloc arena, a fixed 128 KiB mmap threshold), every page touched for the
 * first time. Run by Benchmarks/embedded_sources.py beside the RAW row (Benchmarks/INVESTIGATION.md section 19).
 *   gcc -O2 -o raw_floor Benchmarks/raw_floor.c -lraw_r && raw_floor FILE.dng
 * Prints: sniff_ms decoder_ms (the identify alone; identify + unpack + one copy), one line.
 */
#include <libraw/libraw.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: raw_floor FILE\n"); return 2; }
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc(size);
    if (!bytes || fread(bytes, 1, size, f) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    fclose(f);

    double start = now_ms();
    libraw_data_t *sniff = libraw_init(0);
    if (!sniff || libraw_open_buffer(sniff, bytes, size) != LIBRAW_SUCCESS) { fprintf(stderr, "identify failed\n"); return 1; }
    libraw_close(sniff);
    double sniffed = now_ms();

    libraw_data_t *raw = libraw_init(0);
    if (!raw || libraw_open_buffer(raw, bytes, size) != LIBRAW_SUCCESS || libraw_unpack_thumb(raw) != LIBRAW_SUCCESS
        || raw->thumbnail.tformat != LIBRAW_THUMBNAIL_JPEG) {
        fprintf(stderr, "no JPEG preview\n");
        return 1;
    }
    size_t length = raw->thumbnail.tlength;
    char *copy = malloc(length);
    if (!copy) return 1;
    memcpy(copy, raw->thumbnail.thumb, length);
    libraw_close(raw);
    double done = now_ms();

    printf("%.3f %.3f\n", sniffed - start, done - sniffed);
    free(copy);
    free(bytes);
    return 0;
}

/* SSIM of two images of one size, as Tests/AlbumTests/Support/PixelComparison.swift computes it: Wang et al.
 * 2004 with C1 = (0.01*255)^2 and C2 = (0.03*255)^2, on each of R, G and B over 8x8 windows every 4 pixels, averaged
 * over windows and channels; also the mean absolute difference in levels. Both images are decoded by libvips to
 * 8-bit sRGB, 3 bands.
 *
 *   cc -O2 -o ssim ssim.c $(pkg-config --cflags --libs vips)
 *   ./ssim REFERENCE OTHER        prints "ssim 0.99712 mean 0.41"
 */
#include <stdio.h>
#include <stdlib.h>
#include <vips/vips.h>

static unsigned char *rgb(const char *path, int *width, int *height) {
    VipsImage *in = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL), *srgb = NULL, *three = NULL;
    if (!in || vips_colourspace(in, &srgb, VIPS_INTERPRETATION_sRGB, NULL) ||
        vips_extract_band(srgb, &three, 0, "n", 3, NULL))
        vips_error_exit("%s", path);
    size_t size;
    unsigned char *pixels = vips_image_write_to_memory(three, &size);
    if (!pixels) vips_error_exit("%s", path);
    *width = three->Xsize;
    *height = three->Ysize;
    g_object_unref(three); g_object_unref(srgb); g_object_unref(in);
    return pixels;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0]) || argc != 3) { fprintf(stderr, "usage: %s REFERENCE OTHER\n", argv[0]); return 2; }
    int w, h, w2, h2;
    unsigned char *a = rgb(argv[1], &w, &h), *b = rgb(argv[2], &w2, &h2);
    if (w != w2 || h != h2) { fprintf(stderr, "sizes differ: %dx%d and %dx%d\n", w, h, w2, h2); return 1; }
    const double c1 = 6.5025, c2 = 58.5225;
    double sum = 0, total = 0;
    long windows = 0;
    for (long i = 0; i < (long) w * h * 3; i++) total += abs(a[i] - b[i]);
    for (int top = 0; top + 8 <= h; top += 4)
        for (int left = 0; left + 8 <= w; left += 4)
            for (int c = 0; c < 3; c++) {
                double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
                for (int y = top; y < top + 8; y++)
                    for (int x = left; x < left + 8; x++) {
                        double p = a[((long) y * w + x) * 3 + c], q = b[((long) y * w + x) * 3 + c];
                        sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q;
                    }
                double ma = sa / 64, mb = sb / 64;
                double va = saa / 64 - ma * ma, vb = sbb / 64 - mb * mb, cov = sab / 64 - ma * mb;
                sum += (2 * ma * mb + c1) * (2 * cov + c2) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
                windows++;
            }
    printf("ssim %.5f mean %.2f\n", windows ? sum / windows : 1.0, total / ((double) w * h * 3));
    return 0;
}

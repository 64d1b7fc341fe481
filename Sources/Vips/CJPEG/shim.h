#ifndef ALBUM_CJPEG_SHIM_H
#define ALBUM_CJPEG_SHIM_H
/*
 * libjpeg's own check of a JPEG's data, the one libvips 8.14 does not make (Sources/Vips/Wrapper/JPEGCheck.swift).
 *
 * libvips' jpegload never calls jpeg_finish_decompress ("it just checks the tail of the file and who cares about
 * that", jpeg2vips.c), so the warnings libjpeg raises there are never raised at all: a scan whose damage decodes as
 * other pixels, leaving "Corrupt JPEG data: 119 extraneous bytes before marker 0xd9", or a file with no end-of-image
 * marker, loads with no word. And the warnings it does raise go into libvips' one process-wide error buffer.
 *
 * So album decodes the file once more with libjpeg itself, as djpeg does: its own error manager and source (fed as
 * djpeg's is), on the caller's stack, so every message is this file's; all of its entropy-coded data at 1/8 scale
 * (every row but the last skipped: entropy-decoded, not transformed), then jpeg_finish_decompress, which reads up to
 * the end-of-image marker.
 * The first warning stops it: djpeg, too, prints only the first.
 *
 * libjpeg reports errors by calling error_exit, which must not return; its own examples (example.txt) longjmp back.
 * Swift cannot call setjmp, so the whole decode is this one C function, and it adds no other logic.
 */
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include <stdlib.h>

/* album_jpeg_check's outcomes. */
#define ALBUM_JPEG_SOUND 0      /* decoded to the end-of-image marker with no warning */
#define ALBUM_JPEG_WARNING 1    /* libjpeg warned (corrupt data, premature end, extraneous bytes, ...) */
#define ALBUM_JPEG_ERROR 2      /* libjpeg stopped with an error */
#define ALBUM_JPEG_NO_MEMORY 3  /* libjpeg could not allocate: the machine, not the file */

/* The message buffer album_jpeg_check fills: libjpeg's recommended size. */
#define ALBUM_JPEG_MESSAGE_LENGTH JMSG_LENGTH_MAX

typedef struct {
    struct jpeg_error_mgr pub;  /* first, so libjpeg's err pointer is this struct's */
    jmp_buf jump;
    char *message;
    int outcome;
} album_jpeg_errors;

static inline void album_jpeg_stop(j_common_ptr cinfo, int outcome) {
    album_jpeg_errors *errors = (album_jpeg_errors *) cinfo->err;
    (*cinfo->err->format_message)(cinfo, errors->message);
    errors->outcome = outcome;
    longjmp(errors->jump, 1);
}

static inline void album_jpeg_error_exit(j_common_ptr cinfo) {
    album_jpeg_stop(cinfo, cinfo->err->msg_code == JERR_OUT_OF_MEMORY ? ALBUM_JPEG_NO_MEMORY : ALBUM_JPEG_ERROR);
}

/* msg_level -1 is a warning; 0 and above are trace messages, which are not reports on the data. */
static inline void album_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level < 0) album_jpeg_stop(cinfo, ALBUM_JPEG_WARNING);
}

/* A source that hands libjpeg the bytes 4096 at a time, as djpeg's stdio source (jdatasrc.c) and libvips' own
 * source do, and at the end a fake end-of-image marker after JWRN_JPEG_EOF, as jdatasrc.c does. Not jpeg_mem_src:
 * with the whole file in its buffer, libjpeg-turbo takes its fast Huffman path nearly everywhere, and that path
 * decodes a bad code as zero without a word, where djpeg says "Corrupt JPEG data: bad Huffman code". */
#define ALBUM_JPEG_CHUNK 4096

typedef struct {
    struct jpeg_source_mgr pub;  /* first, so libjpeg's src pointer is this struct's */
    const JOCTET *data;
    size_t length;
    size_t offset;
} album_jpeg_source;

static inline void album_jpeg_init_source(j_decompress_ptr cinfo) { (void) cinfo; }
static inline void album_jpeg_term_source(j_decompress_ptr cinfo) { (void) cinfo; }

static inline boolean album_jpeg_fill_input_buffer(j_decompress_ptr cinfo) {
    static const JOCTET eoi[2] = { (JOCTET) 0xFF, (JOCTET) JPEG_EOI };
    album_jpeg_source *source = (album_jpeg_source *) cinfo->src;
    if (source->offset >= source->length) {
        if (source->length == 0) ERREXIT(cinfo, JERR_INPUT_EMPTY);
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->pub.next_input_byte = eoi;
        source->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    size_t count = source->length - source->offset;
    if (count > ALBUM_JPEG_CHUNK) count = ALBUM_JPEG_CHUNK;
    source->pub.next_input_byte = source->data + source->offset;
    source->pub.bytes_in_buffer = count;
    source->offset += count;
    return TRUE;
}

static inline void album_jpeg_skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    while (count > (long) source->bytes_in_buffer) {
        count -= (long) source->bytes_in_buffer;
        (void) (*source->fill_input_buffer)(cinfo);
    }
    source->next_input_byte += (size_t) count;
    source->bytes_in_buffer -= (size_t) count;
}

/* Decodes every scanline of a JPEG in memory and reads it to its end-of-image marker. Returns an ALBUM_JPEG_*
 * outcome; message (ALBUM_JPEG_MESSAGE_LENGTH bytes) receives libjpeg's words for anything but SOUND. */
static inline int album_jpeg_check(const void *bytes, size_t length, char *message) {
    struct jpeg_decompress_struct cinfo;
    album_jpeg_errors errors;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&errors.pub);
    errors.pub.error_exit = album_jpeg_error_exit;
    errors.pub.emit_message = album_jpeg_emit_message;
    errors.message = message;
    errors.outcome = ALBUM_JPEG_SOUND;
    message[0] = '\0';
    if (setjmp(errors.jump)) {
        /* Safe on a partly created decompressor: it frees only what its memory manager holds. */
        jpeg_destroy_decompress(&cinfo);
        return errors.outcome;
    }
    jpeg_create_decompress(&cinfo);
    album_jpeg_source source;
    source.pub.init_source = album_jpeg_init_source;
    source.pub.fill_input_buffer = album_jpeg_fill_input_buffer;
    source.pub.skip_input_data = album_jpeg_skip_input_data;
    source.pub.resync_to_restart = jpeg_resync_to_restart;
    source.pub.term_source = album_jpeg_term_source;
    source.pub.next_input_byte = NULL;
    source.pub.bytes_in_buffer = 0;
    source.data = (const JOCTET *) bytes;
    source.length = length;
    source.offset = 0;
    cinfo.src = &source.pub;
    jpeg_read_header(&cinfo, TRUE);
    cinfo.scale_num = 1;
    cinfo.scale_denom = 8;
    cinfo.dct_method = JDCT_IFAST;
    cinfo.do_fancy_upsampling = FALSE;
    cinfo.do_block_smoothing = FALSE;
    jpeg_start_decompress(&cinfo);
    JSAMPARRAY row = (*cinfo.mem->alloc_sarray)((j_common_ptr) &cinfo, JPOOL_IMAGE,
                                                cinfo.output_width * cinfo.output_components, 1);
    /* Every row but the last is skipped: libjpeg-turbo's jpeg_skip_scanlines still entropy-decodes each MCU of a
     * single-scan file (decode_mcu with no output block: the same Huffman decoder and its warnings), or has read a
     * multi-scan file whole in jpeg_start_decompress, and leaves out the inverse DCT, upsampling and colour
     * conversion. The last row is read, not skipped: skipping to the end marks the input finished unread. Arithmetic-
     * coded files are read row by row, as before. */
    if (!cinfo.arith_code && cinfo.output_height > 1)
        jpeg_skip_scanlines(&cinfo, cinfo.output_height - 1);
    while (cinfo.output_scanline < cinfo.output_height)
        jpeg_read_scanlines(&cinfo, row, 1);
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return ALBUM_JPEG_SOUND;
}

/* ---- One decode that both makes the pixels and checks the data (issue 35) ------------------------------------- *
 *
 * album_jpeg_check above decodes a JPEG a second time, beside libvips' jpegload. The decoder below is the same
 * libjpeg decode (the same source, fed 4096 bytes at a time, and the same error manager, so the warnings and their
 * words are the check's) made once: it produces the rows jpegload would (the same libjpeg, scale_denom, and the
 * libjpeg defaults jpegload keeps: JDCT_ISLOW, fancy upsampling, block smoothing, the default output colour space),
 * handed to libvips by album_vips_rows_image (CVips' shim: a generate callback behind vips_sequential, as
 * jpeg2vips.c does); then album_jpeg_decoder_finish entropy-decodes the rows the pipeline did not ask for (skipped,
 * as the check does) and calls jpeg_finish_decompress, so the verdict covers the file to its end-of-image marker.
 *
 * Only 3-component YCbCr and 1-component greyscale files that are not arithmetic-coded are taken; the rest
 * (CMYK, YCCK, RGB-coded, arithmetic) stay on jpegload with the check.
 *
 * libjpeg's errors longjmp: every entry point below sets its own jump point and leaves libjpeg only through it, so
 * no jump crosses a libvips frame. The first warning or error is kept (outcome and message): every later call
 * returns it without touching libjpeg again.
 */
#define ALBUM_JPEG_UNSUPPORTED 4  /* album_jpeg_decoder_open: a file this decoder leaves to jpegload */
#define ALBUM_JPEG_OUT_OF_ORDER 5 /* album_jpeg_decoder_rows: rows asked for out of order (never, behind vips_sequential) */

typedef struct {
    struct jpeg_decompress_struct cinfo;
    album_jpeg_errors errors;
    album_jpeg_source source;
    int finished;      /* album_jpeg_decoder_finish has run: no more rows */
    char message[ALBUM_JPEG_MESSAGE_LENGTH];
} album_jpeg_decoder;

/* Frees the decoder (libvips calls it when the image closes). */
static inline void album_jpeg_decoder_release(void *state) {
    album_jpeg_decoder *decoder = (album_jpeg_decoder *) state;
    if (!decoder) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

/* Reads rows top..top+height-1 (the next ones: top must be where the decode is) into buffer, stride bytes apart.
 * Returns 0, or an ALBUM_JPEG_* outcome: the first warning or error, kept with its words. */
static inline int album_jpeg_decoder_rows(void *state, int top, int height, unsigned char *buffer, size_t stride) {
    album_jpeg_decoder *decoder = (album_jpeg_decoder *) state;
    if (decoder->errors.outcome != ALBUM_JPEG_SOUND) return decoder->errors.outcome;
    if (decoder->finished || top < 0 || (JDIMENSION) top != decoder->cinfo.output_scanline) return ALBUM_JPEG_OUT_OF_ORDER;
    if (setjmp(decoder->errors.jump)) return decoder->errors.outcome;
    for (int y = 0; y < height; y++) {
        JSAMPROW row = (JSAMPROW) (buffer + (size_t) y * stride);
        jpeg_read_scanlines(&decoder->cinfo, &row, 1);
    }
    return ALBUM_JPEG_SOUND;
}

/* Opens `bytes` (which must outlive the decoder) for a decode at 1/shrink, up to its first scanline (a multi-scan
 * file is read whole here). On SOUND, *decoder_out is the decoder, and size[] holds libjpeg's output width and
 * height (rounded up), its components, the size jpegload gives (image size / shrink, rounded down) and the image
 * size; on
 * UNSUPPORTED nothing is made; on WARNING, ERROR or NO_MEMORY, message holds libjpeg's words. */
static inline int album_jpeg_decoder_open(const void *bytes, size_t length, int shrink, album_jpeg_decoder **decoder_out,
                                          int size[7], char *message) {
    *decoder_out = NULL;
    message[0] = '\0';
    album_jpeg_decoder *decoder = (album_jpeg_decoder *) calloc(1, sizeof(album_jpeg_decoder));
    if (!decoder) {
        snprintf(message, ALBUM_JPEG_MESSAGE_LENGTH, "Insufficient memory (the decoder's state)");
        return ALBUM_JPEG_NO_MEMORY;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    decoder->cinfo.err = jpeg_std_error(&decoder->errors.pub);
    decoder->errors.pub.error_exit = album_jpeg_error_exit;
    decoder->errors.pub.emit_message = album_jpeg_emit_message;
    decoder->errors.message = decoder->message;
    decoder->errors.outcome = ALBUM_JPEG_SOUND;
    if (setjmp(decoder->errors.jump)) {
        int outcome = decoder->errors.outcome;
        memcpy(message, decoder->message, ALBUM_JPEG_MESSAGE_LENGTH);
        album_jpeg_decoder_release(decoder);
        return outcome;
    }
    jpeg_create_decompress(cinfo);
    decoder->source.pub.init_source = album_jpeg_init_source;
    decoder->source.pub.fill_input_buffer = album_jpeg_fill_input_buffer;
    decoder->source.pub.skip_input_data = album_jpeg_skip_input_data;
    decoder->source.pub.resync_to_restart = jpeg_resync_to_restart;
    decoder->source.pub.term_source = album_jpeg_term_source;
    decoder->source.pub.next_input_byte = NULL;
    decoder->source.pub.bytes_in_buffer = 0;
    decoder->source.data = (const JOCTET *) bytes;
    decoder->source.length = length;
    decoder->source.offset = 0;
    cinfo->src = &decoder->source.pub;
    jpeg_read_header(cinfo, TRUE);
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int) shrink;
    jpeg_calc_output_dimensions(cinfo);
    int plain = (cinfo->jpeg_color_space == JCS_YCbCr && cinfo->num_components == 3 && cinfo->out_color_space == JCS_RGB) ||
        (cinfo->jpeg_color_space == JCS_GRAYSCALE && cinfo->num_components == 1 && cinfo->out_color_space == JCS_GRAYSCALE);
    if (!plain || cinfo->arith_code || cinfo->data_precision != 8 || shrink < 1) {
        album_jpeg_decoder_release(decoder);
        return ALBUM_JPEG_UNSUPPORTED;
    }
    jpeg_start_decompress(cinfo);
    size[0] = (int) cinfo->output_width;
    size[1] = (int) cinfo->output_height;
    size[2] = cinfo->output_components;
    size[3] = (int) (cinfo->image_width / (JDIMENSION) shrink);
    size[4] = (int) (cinfo->image_height / (JDIMENSION) shrink);
    size[5] = (int) cinfo->image_width;
    size[6] = (int) cinfo->image_height;
    *decoder_out = decoder;
    return ALBUM_JPEG_SOUND;
}

/* The first warning or error met so far (ALBUM_JPEG_SOUND if none), with its words: what made a pipeline fail. */
static inline int album_jpeg_decoder_outcome(const album_jpeg_decoder *decoder, char *message) {
    memcpy(message, decoder->message, ALBUM_JPEG_MESSAGE_LENGTH);
    if (decoder->errors.outcome == ALBUM_JPEG_SOUND) message[0] = '\0';
    return decoder->errors.outcome;
}

/* The verdict on the whole file, once the pipeline has the rows it wanted: the first warning or error met so far,
 * else the rows the pipeline left, entropy-decoded (skipped as album_jpeg_check skips them), then
 * jpeg_finish_decompress up to the end-of-image marker. Returns an ALBUM_JPEG_* outcome; message receives libjpeg's
 * words for anything but SOUND. Call it after the last pixel was asked for, while the decoder exists. */
static inline int album_jpeg_decoder_finish(album_jpeg_decoder *decoder, char *message) {
    message[0] = '\0';
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (decoder->errors.outcome == ALBUM_JPEG_SOUND && !decoder->finished) {
        decoder->finished = 1;
        if (setjmp(decoder->errors.jump) == 0) {
            JDIMENSION left = cinfo->output_height - cinfo->output_scanline;
            if (!cinfo->arith_code && left > 1)
                jpeg_skip_scanlines(cinfo, left - 1);
            if (cinfo->output_scanline < cinfo->output_height) {
                JSAMPARRAY row = (*cinfo->mem->alloc_sarray)((j_common_ptr) cinfo, JPOOL_IMAGE,
                                                            cinfo->output_width * cinfo->output_components, 1);
                while (cinfo->output_scanline < cinfo->output_height)
                    jpeg_read_scanlines(cinfo, row, 1);
            }
            jpeg_finish_decompress(cinfo);
        }
    }
    if (decoder->errors.outcome != ALBUM_JPEG_SOUND)
        memcpy(message, decoder->message, ALBUM_JPEG_MESSAGE_LENGTH);
    return decoder->errors.outcome;
}

#endif

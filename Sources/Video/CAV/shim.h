#ifndef ALBUM_CAV_SHIM_H
#define ALBUM_CAV_SHIM_H
/* FFmpeg's libraries (Debian 12: FFmpeg 5.1): the demuxer, the decoders, the scaler, and the display matrix. */
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/error.h>

/* AVERROR codes are macros Swift cannot import. */
static inline int album_av_error_eof(void) { return AVERROR_EOF; }
static inline int album_av_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int album_av_error_enomem(void) { return AVERROR(ENOMEM); }
static inline int album_av_error_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int album_av_error_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int album_av_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }

/* FFmpeg's words for an error code (what av_err2str gives, a macro with a compound literal). */
static inline void album_av_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "error %d", code);
}

/* FFmpeg logs to stderr by default; album reads return codes instead, so a damaged file's words go to its step. */
static inline void album_av_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

/* AV_NOPTS_VALUE and AV_TIME_BASE are macros with casts. */
static inline int64_t album_av_nopts(void) { return AV_NOPTS_VALUE; }
static inline int album_av_time_base(void) { return AV_TIME_BASE; }
#endif

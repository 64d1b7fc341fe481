internal import CAV

/// One video opened by FFmpeg from its path, read-only: its container's header and its best video stream's decoder
/// at once (`avformat_open_input`, `avformat_find_stream_info`, `av_find_best_stream`), a frame decoded on request.
///
/// It owns one `AVFormatContext` and one `AVCodecContext` and frees them in `deinit`. Not `Sendable`: FFmpeg's
/// contexts are used by one thread at a time (each worker opens its own). The decoder runs on one thread: album's
/// workers are its parallelism.
public final class VideoFile {
    /// The largest frame side album accepts from a header; a larger one is refused, as image bombs are.
    public static let maximumSide = 16384
    /// The longest duration album accepts from a header, in seconds (24 hours).
    public static let maximumDuration = 24.0 * 3600

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private let streamIndex: Int32
    private let path: String
    /// What the header says.
    public let facts: VideoFacts

    /// FFmpeg's version, as its libraries name it ("5.1.4-0+deb12u1").
    public static var version: String { String(cString: av_version_info()) }

    private static let quiet: Void = album_av_quiet()

    /// How much of a video `init(path:reading:)` reads before its first frame.
    public enum Reading: Sendable {
        /// Every fact: `avformat_find_stream_info` reads packets (and for H.264 decodes the first frame) to
        /// complete the stream's parameters and frame rate.
        case facts
        /// The container's header alone when it gives the stream's codec and frame size (QuickTime and MP4 do):
        /// enough to decode frames, for a poster; `facts.frameRate` may be 0.
        case header
    }

    /// Opens the video at `path` (a regular file only, as a plain file: `openInput`) and its best video stream's
    /// decoder.
    /// - Throws: `VideoError` naming the call, the file and FFmpeg's words: not a container FFmpeg knows, no video
    ///   stream, no decoder for it, or a header album refuses (a side over `maximumSide`, a duration over
    ///   `maximumDuration`).
    public init(path: String, reading: Reading = .facts) throws {
        VideoFile.quiet
        self.path = path
        var opened: UnsafeMutablePointer<AVFormatContext>? = try VideoFile.openInput(path)
        let format = opened!
        let stream: (Int32, UnsafeMutablePointer<AVCodecContext>, VideoFacts)
        do {
            stream = try VideoFile.openStream(format, path, reading: reading)
        } catch {
            avformat_close_input(&opened)
            throw error
        }
        self.format = format
        (self.streamIndex, self.codec, self.facts) = stream
    }

    deinit {
        if codec != nil { avcodec_free_context(&codec) }
        if format != nil { avformat_close_input(&format) }
    }

    private static func openStream(_ format: UnsafeMutablePointer<AVFormatContext>, _ path: String, reading: Reading) throws
        -> (Int32, UnsafeMutablePointer<AVCodecContext>, VideoFacts) {
        var status: Int32 = 0
        if reading == .facts || !hasVideoParameters(format) {
            status = avformat_find_stream_info(format, nil)
            guard status >= 0 else { throw error("avformat_find_stream_info", status, path) }
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = format.pointee.streams[Int(index)],
              let parameters = stream.pointee.codecpar else {
            throw error("av_find_best_stream", index >= 0 ? album_av_error_decoder_not_found() : index, path)
        }
        let facts = VideoFile.facts(format, stream, parameters)
        guard facts.width > 0, facts.height > 0 else {
            throw VideoError(call: VideoError.header, code: 0, message: "the video stream has no frame size", file: path)
        }
        guard facts.width <= maximumSide, facts.height <= maximumSide else {
            throw VideoError(call: VideoError.header, code: 0, message: "a frame of \(facts.width)×\(facts.height) is over "
                             + "album's limit of \(maximumSide) pixels a side", file: path)
        }
        guard facts.duration.isFinite, facts.duration <= maximumDuration else {
            throw VideoError(call: VideoError.header, code: 0, message: "a duration of \(Int(facts.duration)) s is over "
                             + "album's limit of 24 hours", file: path)
        }
        guard let context = avcodec_alloc_context3(decoder) else {
            throw error("avcodec_alloc_context3", album_av_error_enomem(), path)
        }
        status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.thread_count = 1
            status = avcodec_open2(context, decoder, nil)
        }
        guard status >= 0 else {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freed)
            throw error("avcodec_open2", status, path)
        }
        return (index, context, facts)
    }

    /// The first frame at or after `seconds` from the start: a seek to the key frame before it
    /// (`AVSEEK_FLAG_BACKWARD`), then decoding up to it, converted to packed RGB by `sws_scale`; nil past the end.
    /// - Parameters:
    ///   - squarePixels: the width scaled by the sample aspect ratio in the same `sws_scale` (a 2:1 frame of
    ///     320×240 comes out 640×240), so the pixels are square.
    ///   - shrink: both sides divided by this in the same `sws_scale`, averaging (`SWS_AREA`): what a JPEG's DCT
    ///     scaling is to a photo, for a rendering that needs a fraction of the frame (1: the whole frame).
    /// - Throws: `VideoError` in FFmpeg's words when the stream cannot be read or decoded (damaged or truncated).
    public func frame(at seconds: Double, squarePixels: Bool = false, shrink: Int = 1) throws -> VideoFrame? {
        guard let format, let codec, let (target, start, unit) = try seek(to: seconds) else { return nil }
        return try withPacketAndFrame { packet, frame in
            var ended = false
            while true {
                if !ended {
                    let read = av_read_frame(format, packet)
                    if read == album_av_error_eof() {
                        ended = true
                        try check("avcodec_send_packet", avcodec_send_packet(codec, nil))
                    } else {
                        try check("av_read_frame", read)
                        let mine = packet.pointee.stream_index == streamIndex
                        let sent = mine ? avcodec_send_packet(codec, packet) : 0
                        av_packet_unref(packet)
                        if !mine { continue }
                        try check("avcodec_send_packet", sent)
                    }
                }
                while true {
                    let received = avcodec_receive_frame(codec, frame)
                    if received == album_av_error_eagain() { break }
                    if received == album_av_error_eof() { return nil }
                    try check("avcodec_receive_frame", received)
                    defer { av_frame_unref(frame) }
                    let pts = frame.pointee.best_effort_timestamp
                    if pts == album_av_nopts() || pts >= target {
                        let time = pts == album_av_nopts() ? seconds : Double(pts - start) * unit
                        return try converted(frame, time: time, squarePixels: squarePixels, shrink: shrink)
                    }
                }
            }
        }
    }

    /// The key frame at or before `seconds`, decoded alone: a seek to it (`AVSEEK_FLAG_BACKWARD`), its packet sent,
    /// then the decoder drained, so no frame after it is decoded (a decoder that reorders frames would otherwise
    /// ask for several more packets before it gives the first). nil past the end. The frame's `time` says which
    /// one it is; converted as `frame(at:squarePixels:shrink:)` converts.
    /// - Throws: `VideoError` in FFmpeg's words when the stream cannot be read or decoded.
    public func keyFrame(atOrBefore seconds: Double, squarePixels: Bool = false, shrink: Int = 1) throws -> VideoFrame? {
        guard let format, let codec, let (_, start, unit) = try seek(to: seconds) else { return nil }
        return try withPacketAndFrame { packet, frame in
            while true {
                let read = av_read_frame(format, packet)
                if read == album_av_error_eof() { return nil }
                try check("av_read_frame", read)
                let mine = packet.pointee.stream_index == streamIndex
                let sent = mine ? avcodec_send_packet(codec, packet) : 0
                av_packet_unref(packet)
                if mine {
                    try check("avcodec_send_packet", sent)
                    break
                }
            }
            try check("avcodec_send_packet", avcodec_send_packet(codec, nil))
            let received = avcodec_receive_frame(codec, frame)
            if received == album_av_error_eof() || received == album_av_error_eagain() {
                throw VideoError(call: "avcodec_receive_frame", code: received,
                                 message: "the key frame at \(seconds) s gives no picture", file: path)
            }
            try check("avcodec_receive_frame", received)
            defer { av_frame_unref(frame) }
            let pts = frame.pointee.best_effort_timestamp
            return try converted(frame, time: pts == album_av_nopts() ? seconds : Double(pts - start) * unit,
                                 squarePixels: squarePixels, shrink: shrink)
        }
    }

    /// Checks that the file holds every frame its container's index places in it: a QuickTime or MP4 file cut short
    /// after its header (a copy that stopped, a card pulled out) still opens and may decode its first frames, so
    /// a poster alone would not show the loss. Containers without an index pass.
    /// - Throws: `VideoError` saying how many bytes the file has and where its index's last frame ends.
    public func checkComplete() throws {
        guard let format, let stream = format.pointee.streams[Int(streamIndex)], let io = format.pointee.pb else { return }
        let count = avformat_index_get_entries_count(stream)
        guard count > 0, let last = avformat_index_get_entry(stream, count - 1) else { return }
        let end = last.pointee.pos + Int64(last.pointee.size)
        let size = avio_size(io)
        guard size >= 0 else { throw VideoFile.error("avio_size", Int32(truncatingIfNeeded: size), path) }
        if end > size {
            throw VideoError(call: "avformat_index_get_entry", code: 0,
                             message: "the file ends at byte \(size), before its last frame's data does (at byte \(end)): "
                             + "it was cut short", file: path)
        }
    }

    /// `body` with a packet and a frame FFmpeg allocates for it, freed after.
    private func withPacketAndFrame<T>(
        _ body: (UnsafeMutablePointer<AVPacket>, UnsafeMutablePointer<AVFrame>) throws -> T) throws -> T {
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard let packet, let frame else { throw VideoFile.error("av_frame_alloc", album_av_error_enomem(), path) }
        return try body(packet, frame)
    }

    /// Seeks the video stream to the key frame at or before `seconds` and empties the decoder: the target in the
    /// stream's time base, the stream's start and its time unit in seconds; nil when nothing is open.
    private func seek(to seconds: Double) throws -> (target: Int64, start: Int64, unit: Double)? {
        guard let format, let codec, let stream = format.pointee.streams[Int(streamIndex)] else { return nil }
        let base = stream.pointee.time_base
        let unit = base.num > 0 && base.den > 0 ? Double(base.num) / Double(base.den) : 1 / Double(album_av_time_base())
        let start = stream.pointee.start_time == album_av_nopts() ? 0 : stream.pointee.start_time
        let target = start + Int64((max(0, seconds) / unit).rounded(.down))
        try check("av_seek_frame", av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD))
        avcodec_flush_buffers(codec)
        return (target, start, unit)
    }

    /// `frame` as packed RGB24, by `sws_scale` with the stream's YUV matrix and range; its width stretched by the
    /// sample aspect ratio when `squarePixels`, both sides divided by `shrink` (averaging). A PQ or HLG frame (an iPhone HDR clip) is scaled to 16 bits a sample
    /// and tone-mapped to SDR (`ToneMap`), so its poster is not washed out.
    private func converted(_ frame: UnsafeMutablePointer<AVFrame>, time: Double, squarePixels: Bool,
                           shrink: Int) throws -> VideoFrame {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let (num, den) = facts.sampleAspect
        let shown = squarePixels && num > 0 && den > 0 && num != den
            ? min(VideoFile.maximumSide, max(1, Int((Double(width) * Double(num) / Double(den)).rounded()))) : width
        let divisor = max(1, shrink)
        let outWidth = max(1, (shown + divisor / 2) / divisor), outHeight = max(1, (height + divisor / 2) / divisor)
        guard width > 0, height > 0, width <= VideoFile.maximumSide, height <= VideoFile.maximumSide,
              frame.pointee.format >= 0 else {
            throw VideoError(call: "avcodec_receive_frame", code: 0,
                             message: "a decoded frame of \(width)×\(height) in no pixel format album can convert", file: path)
        }
        let toneMap = self.toneMap(of: frame)
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        let target = toneMap == nil ? AV_PIX_FMT_RGB24 : VideoFile.rgb48
        let method = divisor > 1 ? SWS_AREA : SWS_BILINEAR
        guard let scaler = sws_getContext(Int32(width), Int32(height), source, Int32(outWidth), Int32(outHeight),
                                          target, method, nil, nil, nil) else {
            throw VideoError(call: "sws_getContext", code: 0,
                             message: "no conversion from \(av_get_pix_fmt_name(source).map { String(cString: $0) } ?? "its format") to RGB", file: path)
        }
        defer { sws_freeContext(scaler) }
        try setMatrix(of: frame, on: scaler, required: toneMap != nil)
        var bytes = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        if let toneMap {
            var wide = [UInt16](repeating: 0, count: outWidth * outHeight * 3)
            try wide.withUnsafeMutableBytes { try scale(frame, scaler, into: $0, rowBytes: outWidth * 6, rows: outHeight) }
            wide.withUnsafeBufferPointer { wide in
                bytes.withUnsafeMutableBufferPointer { out in
                    toneMap.apply(wide.baseAddress!, into: out.baseAddress!, count: outWidth * outHeight)
                }
            }
        } else {
            try bytes.withUnsafeMutableBytes { try scale(frame, scaler, into: $0, rowBytes: outWidth * 3, rows: outHeight) }
        }
        return VideoFrame(width: outWidth, height: outHeight, bytes: bytes, time: time)
    }

    /// Packed 16-bit RGB in the machine's byte order (what `ToneMap` reads).
    private static let rgb48 = UInt16(1).littleEndian == 1 ? AV_PIX_FMT_RGB48LE : AV_PIX_FMT_RGB48BE

    /// The tone map a frame needs: PQ (`smpte2084`) or HLG (`arib-std-b67`), as the frame says, else as its stream's
    /// header says; nil for SDR.
    private func toneMap(of frame: UnsafeMutablePointer<AVFrame>) -> ToneMap? {
        let parameters = format?.pointee.streams[Int(streamIndex)]?.pointee.codecpar
        var transfer = frame.pointee.color_trc
        if transfer == AVCOL_TRC_UNSPECIFIED, let parameters { transfer = parameters.pointee.color_trc }
        var primaries = frame.pointee.color_primaries
        if primaries == AVCOL_PRI_UNSPECIFIED, let parameters { primaries = parameters.pointee.color_primaries }
        switch transfer {
        case AVCOL_TRC_SMPTE2084: return ToneMap(.pq, bt2020: primaries == AVCOL_PRI_BT2020)
        case AVCOL_TRC_ARIB_STD_B67: return ToneMap(.hlg, bt2020: primaries == AVCOL_PRI_BT2020)
        default: return nil
        }
    }

    /// Tells the scaler the frame's YUV matrix (BT.709, BT.2020, …; BT.601 when it says none) and range
    /// (`sws_setColorspaceDetails`). It fails only for a conversion it has no matrix for (an RGB frame): that is an
    /// error for an HDR frame, whose BT.2020 matrix the tone map needs; an SDR frame keeps swscale's default.
    private func setMatrix(of frame: UnsafeMutablePointer<AVFrame>, on scaler: OpaquePointer, required: Bool) throws {
        let space = Int32(frame.pointee.colorspace.rawValue)
        let known = space == SWS_CS_ITU709 || space == SWS_CS_BT2020 || space == Int32(AVCOL_SPC_BT2020_CL.rawValue)
            || space == SWS_CS_SMPTE240M || space == SWS_CS_FCC
        let coefficients = sws_getCoefficients(known ? space : SWS_CS_DEFAULT)
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let status = sws_setColorspaceDetails(scaler, coefficients, fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                              0, 1 << 16, 1 << 16)
        if status < 0, required {
            throw VideoError(call: "sws_setColorspaceDetails", code: status,
                             message: "swscale cannot use this HDR frame's colour matrix", file: path)
        }
    }

    /// Converts `frame` by `sws_scale` into `out`, `rows` rows of `rowBytes`.
    private func scale(_ frame: UnsafeMutablePointer<AVFrame>, _ scaler: OpaquePointer, into out: UnsafeMutableRawBufferPointer,
                       rowBytes: Int, rows expected: Int) throws {
        let height = Int(frame.pointee.height)
        var planes = frame.pointee.data
        var strides = frame.pointee.linesize
        let rows = withUnsafePointer(to: &planes) { planes in
            withUnsafePointer(to: &strides) { strides in
                planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides -> Int32 in
                        let destination: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
                        let stride: [Int32] = [Int32(rowBytes), 0, 0, 0]
                        return sws_scale(scaler, planes, strides, 0, Int32(height), destination, stride)
                    }
                }
            }
        }
        guard rows == Int32(expected) else {
            throw VideoError(call: "sws_scale", code: rows < 0 ? rows : 0,
                             message: rows < 0 ? VideoFile.words(rows) : "converted \(rows) of \(expected) rows", file: path)
        }
    }

    /// Whether the container's header gave a video stream's codec and frame size.
    private static func hasVideoParameters(_ format: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        (0..<Int(format.pointee.nb_streams)).contains { index in
            guard let parameters = format.pointee.streams[index]?.pointee.codecpar else { return false }
            return parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO && parameters.pointee.codec_id != AV_CODEC_ID_NONE
                && parameters.pointee.width > 0 && parameters.pointee.height > 0
        }
    }

    private func check(_ call: String, _ status: Int32) throws {
        guard status >= 0 else { throw VideoFile.error(call, status, path) }
    }

    static func error(_ call: String, _ status: Int32, _ path: String) -> VideoError {
        VideoError(call: call, code: status, message: words(status), file: path)
    }

    /// FFmpeg's words for an error code (`av_strerror`).
    private static func words(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        album_av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The header's facts: the stream's size, rotation, aspect, rate and codec; the container's tags.
    private static func facts(_ format: UnsafeMutablePointer<AVFormatContext>, _ stream: UnsafeMutablePointer<AVStream>,
                              _ parameters: UnsafeMutablePointer<AVCodecParameters>) -> VideoFacts {
        let aspect = av_guess_sample_aspect_ratio(format, stream, nil)
        let rate = av_guess_frame_rate(format, stream, nil)
        var duration = 0.0
        if format.pointee.duration != album_av_nopts(), format.pointee.duration > 0 {
            duration = Double(format.pointee.duration) / Double(album_av_time_base())
        } else if stream.pointee.duration != album_av_nopts(), stream.pointee.duration > 0, stream.pointee.time_base.den > 0 {
            duration = Double(stream.pointee.duration) * Double(stream.pointee.time_base.num) / Double(stream.pointee.time_base.den)
        }
        func tag(_ names: [String]) -> String? {
            for dictionary in [format.pointee.metadata, stream.pointee.metadata] {
                for name in names {
                    if let entry = av_dict_get(dictionary, name, nil, 0), let value = entry.pointee.value {
                        let text = String(cString: value).trimmingSpaces
                        if !text.isEmpty { return text }
                    }
                }
            }
            return nil
        }
        return VideoFacts(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height),
            rotation: rotation(stream, tag: tag(["rotate"])),
            sampleAspect: aspect.num > 0 && aspect.den > 0 ? (Int(aspect.num), Int(aspect.den)) : (1, 1),
            duration: duration, codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)),
            frameRate: rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0,
            creationTime: tag(["com.apple.quicktime.creationdate", "creation_time"]),
            make: tag(["com.apple.quicktime.make", "make"]), model: tag(["com.apple.quicktime.model", "model"]),
            location: tag(["com.apple.quicktime.location.ISO6709", "location"]))
    }

    /// Degrees clockwise, 0/90/180/270: the display matrix's rotation (counter-clockwise in FFmpeg's terms), else
    /// the `rotate` tag's.
    private static func rotation(_ stream: UnsafeMutablePointer<AVStream>, tag: String?) -> Int {
        var size: Int = 0
        var degrees: Double?
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 {
            let angle = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
            if angle.isFinite { degrees = -angle }
        }
        if degrees == nil, let tag, let value = Double(tag) { degrees = value }
        guard let degrees else { return 0 }
        let quarter = Int((degrees / 90).rounded()) * 90
        return ((quarter % 360) + 360) % 360
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

import Foundation
import XCTest

/// Videos end to end through the built binary, on real FFmpeg, libvips and SQLite, with clips the `ffmpeg` command
/// makes here: H.264 and HEVC in MP4 and MOV each import as `mp4` or `mov` with the frame size they are shown at
/// (a 90° display rotation is portrait, a 2:1 sample aspect ratio twice as wide) and get a poster thumbnail of that
/// shape; a clip that starts black gets a poster from after the black; the capture time and camera come from the
/// QuickTime tags; a truncated clip is a failure in FFmpeg's words and the run goes on.
final class VideoTests: XCTestCase {
    /// Makes a clip with the `ffmpeg` command (fixtures only: album never runs it).
    private func ffmpeg(_ arguments: [String], in folder: String) throws {
        try Probe.require("ffmpeg", package: "ffmpeg")
        let result = try Tool.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments)
        XCTAssertEqual(result.status, 0, "ffmpeg \(arguments): \(result.stderr)")
    }

    /// A 320×240 test pattern (moving colour bars and a clock) of `seconds`, 10 frames a second.
    private let pattern = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10"]

    @discardableResult
    private func run(in folder: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 240x240, fit: contain}
            """, to: "job.yml", in: folder)
        return try TestSupport.album(["run", "job.yml"], in: folder)
    }

    /// The newest run's step of `stage` for the file named `name`: "status: message".
    private func step(_ name: String, _ stage: String = "thumbnail", in folder: String) throws -> String {
        try Probe.rows(folder + "/album", """
            SELECT status || ': ' || coalesce(error, '') FROM steps WHERE stage = '\(stage)' AND path LIKE '%/\(name)'
            AND run = (SELECT max(id) FROM runs)
            """).first ?? "no step"
    }

    /// The mean grey of a picture, read by Pillow.
    private func meanGrey(_ path: String) throws -> Double {
        let out = try Independent.python("""
            import sys
            from PIL import Image, ImageStat
            print(ImageStat.Stat(Image.open(sys.argv[1]).convert('L')).mean[0])
            """, [path])
        return try XCTUnwrap(Double(out.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    func testEveryClipGetsAnUprightPosterThumbnailOfTheShapeItIsShownWith() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let yuv = ["-pix_fmt", "yuv420p"]
        try ffmpeg(pattern + ["-t", "3"] + yuv + ["-c:v", "libx264", photos + "/h264.mp4"], in: folder)
        try ffmpeg(pattern + ["-t", "2"] + yuv + ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                              photos + "/hevc.mov"], in: folder)
        try ffmpeg(pattern + ["-t", "2"] + yuv + ["-c:v", "libx264", "-metadata", "com.apple.quicktime.creationdate=2024-05-06T09:08:09+0200",
                              "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15",
                              "-movflags", "use_metadata_tags", photos + "/tagged.mov"], in: folder)
        try ffmpeg(pattern + ["-t", "2"] + yuv + ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                              "-metadata", "creation_time=2023-01-02T03:04:05Z", photos + "/hevc.mp4"], in: folder)
        try ffmpeg(["-i", photos + "/h264.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", photos + "/rotated.mov"], in: folder)
        try ffmpeg(pattern + ["-t", "2", "-vf", "setsar=2/1"] + yuv + ["-c:v", "libx264", photos + "/wide.mp4"], in: folder)
        try ffmpeg(["-f", "lavfi", "-i", "color=black:size=320x240:rate=10:duration=2", "-f", "lavfi",
                    "-i", "testsrc2=size=320x240:rate=10:duration=2", "-filter_complex", "[0:v][1:v]concat=n=2:v=1[v]",
                    "-map", "[v]"] + yuv + ["-c:v", "libx264", photos + "/blackstart.mp4"], in: folder)

        let result = try run(in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, 11) || ' ' || format || ' ' || width || 'x' || height || ' ' || coalesce(taken, '-') || ' '
            || coalesce(camera, '-') FROM photos ORDER BY path
            """), ["blackstart.mp4 mp4 320x240 - -",
                   "h264.mp4 mp4 320x240 - -",
                   "hevc.mov mov 320x240 - -",
                   "hevc.mp4 mp4 320x240 2023-01-02T03:04:05+00:00 -",
                   "rotated.mov mov 240x320 - -",
                   "tagged.mov mov 320x240 2024-05-06T09:08:09+02:00 Apple iPhone 15",
                   "wide.mp4 mp4 640x240 - -"])
        let shapes = ["blackstart.mp4": (240, 180), "h264.mp4": (240, 180), "hevc.mov": (240, 180), "hevc.mp4": (240, 180),
                      "rotated.mov": (180, 240), "tagged.mov": (240, 180), "wide.mp4": (240, 90)]
        for (name, (width, height)) in shapes {
            let thumbnail = try Probe.newestThumbnail(folder + "/album", original: photos + "/" + name)
            let header = try Probe.header(thumbnail)
            XCTAssertEqual("\(header.width)x\(header.height)", "\(width)x\(height)", name)
            XCTAssertGreaterThan(try meanGrey(thumbnail), 30, "\(name): a picture, not a black frame")
        }
        // The poster's time is the step's message: the black clip's 10 % and 25 % candidates are black, its 50 % is not.
        XCTAssertEqual(try step("blackstart.mp4", in: folder), "done: poster frame at 2 s")
        XCTAssertEqual(try step("h264.mp4", in: folder), "done: poster frame at 0 s")
    }

    /// A thumbnail needs a fraction of a 1280×720 frame, so the poster is converted at 640×360 (a shrink of 2 in
    /// `sws_scale`, as a JPEG shrinks on load), and the thumbnail has the look of one made from the whole frame:
    /// against album's thumbnail of the full-size poster exported (by a job of its own, so no decode is shared) and
    /// imported as a JPEG photo (shrunk on load by 2 in libjpeg), each 30×30 block's mean colour within 5 levels and
    /// SSIM ≥ 0.95, landscape and turned 90°. The two differ as two shrink-on-loads do, area averaging against DCT
    /// scaling, on a test pattern's sharp bars and digits: measured 4.0 levels and SSIM 0.955–0.962 (without the
    /// shrink, 1.5–2 levels and 0.95). The export is the whole frame, upright.
    func testAThumbnailConvertsALargePosterSmallerWithTheLookOfTheWholeFrame() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for job in ["thumbnail", "export", "photo"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(job)/photos", withIntermediateDirectories: true)
        }
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=10", "-t", "2", "-pix_fmt", "yuv420p", "-c:v", "libx264",
                    folder + "/thumbnail/photos/wide.mp4"], in: folder)
        try ffmpeg(["-i", folder + "/thumbnail/photos/wide.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90",
                    folder + "/thumbnail/photos/turned.mov"], in: folder)
        for name in ["wide.mp4", "turned.mov"] {
            try FileManager.default.copyItem(atPath: "\(folder)/thumbnail/photos/\(name)", toPath: "\(folder)/export/photos/\(name)")
        }
        func run(_ job: String, _ stage: String) throws {
            try TestSupport.write("""
                version: 1
                catalogue: album
                stages:
                  - import: {from: photos}
                  - \(stage)
                """, to: "job.yml", in: "\(folder)/\(job)")
            let result = try TestSupport.album(["run", "job.yml"], in: "\(folder)/\(job)")
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        }
        try run("thumbnail", "thumbnail: {size: 240x240}")
        try run("export", "export: {to: \"out/{name}.jpg\", quality: 100}")
        for name in ["wide", "turned"] {
            // A copy of the bytes: album imports no file it tagged as its own export.
            try Data(contentsOf: URL(fileURLWithPath: "\(folder)/export/out/\(name).jpg"))
                .write(to: URL(fileURLWithPath: "\(folder)/photo/photos/\(name).jpg"))
        }
        try run("photo", "thumbnail: {size: 240x240}")
        for (name, original, size) in [("wide", "wide.mp4", "1280x720"), ("turned", "turned.mov", "720x1280")] {
            let poster = "\(folder)/photo/photos/\(name).jpg"
            let header = try Probe.header(poster)
            XCTAssertEqual("\(header.width)x\(header.height)", size, "\(name): the export is the whole frame, upright")
            let ours = try Probe.decodeJPEG(try Probe.newestThumbnail(folder + "/thumbnail/album",
                                                                       original: "\(folder)/thumbnail/photos/\(original)"))
            let whole = try Probe.decodeJPEG(try Probe.newestThumbnail(folder + "/photo/album", original: poster))
            XCTAssertEqual([ours.width, ours.height], [240, 240], name)
            XCTAssertEqual([whole.width, whole.height], [240, 240], name)
            guard ours.rgb.count == whole.rgb.count else { continue }
            let comparison = PixelComparison(ours.rgb, whole.rgb, width: 240, height: 240)
            let said = "\(name): block means \(comparison.blockMeans), SSIM \(comparison.ssim), mean \(comparison.mean)"
            XCTAssertLessThanOrEqual(comparison.blockMeans, 5, said)
            XCTAssertGreaterThanOrEqual(comparison.ssim, 0.95, said)
        }
    }

    /// The mean red, green and blue of a picture, read by Pillow.
    private func meanRGB(_ path: String) throws -> [Double] {
        let out = try Independent.python("""
            import sys
            from PIL import Image, ImageStat
            print(' '.join(str(v) for v in ImageStat.Stat(Image.open(sys.argv[1]).convert('RGB')).mean))
            """, [path])
        return out.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// iPhone-like HDR clips (HEVC 10-bit, BT.2020) are tone-mapped to SDR: the same mid-grey (sRGB 128) turned into
    /// PQ and into HLG by FFmpeg's `zscale` (203 nits for SDR's white, BT.2408's reference) gets a poster that is the
    /// SDR clip's grey within 5 levels, where the samples shown as they are would be 108 (PQ) and 118 (HLG), flat
    /// and dim; a grey whose PQ code is the SDR clip's (about 92 nits) comes out lighter than it, and still grey.
    func testAnHDRClipsPosterIsToneMappedToTheSDRClipsGrey() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let grey = ["-f", "lavfi", "-i", "color=0x808080:size=160x120:rate=10:duration=1"]
        let hevc10 = ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1"]
        func hdr(_ transfer: String) -> [String] {
            ["-color_trc", transfer, "-color_primaries", "bt2020", "-colorspace", "bt2020nc"]
        }
        func zscale(_ transfer: String) -> [String] {
            ["-vf", "zscale=tin=iec61966-2-1:pin=bt709:min=bt709:rin=full:t=\(transfer):p=bt2020:m=bt2020nc:r=limited:npl=203,"
                + "format=yuv420p10le"]
        }
        try ffmpeg(grey + ["-pix_fmt", "yuv420p", "-c:v", "libx264", photos + "/sdr.mp4"], in: folder)
        try ffmpeg(grey + zscale("smpte2084") + hevc10 + hdr("smpte2084") + [photos + "/pq.mp4"], in: folder)
        try ffmpeg(grey + zscale("arib-std-b67") + hevc10 + hdr("arib-std-b67") + [photos + "/hlg.mov"], in: folder)
        try ffmpeg(grey + ["-pix_fmt", "yuv420p10le"] + hevc10 + hdr("smpte2084") + [photos + "/pq-tagged.mp4"], in: folder)

        let result = try run(in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        func poster(_ name: String) throws -> [Double] {
            let rgb = try meanRGB(try Probe.newestThumbnail(folder + "/album", original: photos + "/" + name))
            XCTAssertEqual(rgb.count, 3, name)
            XCTAssertEqual(rgb.max()! - rgb.min()!, 0, accuracy: 3, "\(name): a grey stays grey, \(rgb)")
            return rgb
        }
        let sdr = try poster("sdr.mp4")
        XCTAssertEqual(sdr[1], 128, accuracy: 3)
        for name in ["pq.mp4", "hlg.mov"] {
            XCTAssertEqual(try poster(name)[1], sdr[1], accuracy: 5, "\(name): the SDR clip's grey, not washed out")
        }
        let lighter = try poster("pq-tagged.mp4")
        XCTAssertGreaterThan(lighter[1], sdr[1] + 20, "92 nits is lighter than SDR's mid-grey")
        XCTAssertLessThan(lighter[1], 230, "and not blown out")
    }

    /// A video is never read whole: a clip made 2.2 GB long (its `moov` first, then a sparse tail of zeros past the
    /// 2 GiB that `FileBytes` holds at most) imports, hashed as a stream (its hash is `sha256sum`'s), with its whole
    /// size, and gets its poster, and `verify` finds it whole; a FIFO named like a clip beside it is passed over
    /// without blocking the run.
    func testAVideoOverTwoGiBImportsHashedAsAStream() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        let big = photos + "/big.mp4"
        try ffmpeg(pattern + ["-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-movflags", "+faststart", big], in: folder)
        let size = (1 << 31) + 200_000_000
        XCTAssertEqual(truncate(big, off_t(size)), 0, "a sparse tail")
        XCTAssertEqual(mkfifo(photos + "/fifo.mov", 0o644), 0)

        let result = try run(in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let sum = try Tool.run(["sha256sum", big])
        let hash = String(sum.stdout.prefix(64))
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT hash || ' ' || bytes FROM photos WHERE path LIKE '%/big.mp4'"),
                       ["\(hash) \(size)"])
        XCTAssertEqual(try step("big.mp4", in: folder), "done: poster frame at 0 s")
        XCTAssertNoThrow(try Probe.newestThumbnail(folder + "/album", original: big))
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE path LIKE '%/fifo.mov'"), ["0"])
        let verified = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verified.status, 0, "verify hashes it as a stream too: \(verified.stdout)\(verified.stderr)")
    }

    /// `mode: copy` copies a video whole (import holds only its head), byte for byte, and its poster is made.
    func testCopyModeCopiesAVideoWhole() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        // About 450 KB: several times the 64 KiB head import holds.
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x480:rate=10", "-t", "3", "-pix_fmt", "yuv420p", "-c:v", "libx264",
                    "-qp", "10", photos + "/clip.mov"], in: folder)
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: photos + "/clip.mov")[.size] as? Int ?? 0, 4 * 65536)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos, mode: copy}
              - thumbnail: {size: 64}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let stored = try XCTUnwrap(try Probe.rows(folder + "/album", "SELECT stored_path FROM photos").first)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/album/" + stored)),
                       try Data(contentsOf: URL(fileURLWithPath: photos + "/clip.mov")))
        XCTAssertEqual(try step("clip.mov", in: folder), "done: poster frame at 0 s")
    }

    /// A clip cut to its first 40 % (its `moov` box, written last, is gone) fails its import with FFmpeg's words,
    /// naming the file; a clip whose `moov` comes first (`+faststart`) cut to its first 12 % imports from its header
    /// and is a damaged photo (`ls --json`'s `damage`): FFmpeg's index places frames past the file's end, though
    /// its first key frame, the poster, decodes. The other clip and the photo beside them go on, and the run's
    /// status is a failed photo's.
    func testATruncatedClipFailsInFFmpegsWordsAndTheRunGoesOn() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try ffmpeg(pattern + ["-t", "3", "-pix_fmt", "yuv420p", "-c:v", "libx264", photos + "/whole.mp4"], in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: photos + "/whole.mp4"))
        try FormatFixture.write(Array(whole.prefix(whole.count * 4 / 10)), to: "photos/truncated.mp4", in: folder)
        try ffmpeg(pattern + ["-t", "3", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-movflags", "+faststart",
                              folder + "/faststart.mp4"], in: folder)
        let faststart = try Data(contentsOf: URL(fileURLWithPath: folder + "/faststart.mp4"))
        try FormatFixture.write(Array(faststart.prefix(faststart.count * 12 / 100)), to: "photos/cut.mp4", in: folder)
        let good = try Fixture.jpeg(at: photos + "/good.jpg")

        let result = try run(in: folder)
        XCTAssertEqual(result.status, 1, "failed photos: \(result.stdout)\(result.stderr)")
        let failed = try step("truncated.mp4", "import", in: folder)
        XCTAssert(failed.hasPrefix("failed: cannot decode its header: damaged video: FFmpeg 5.1"), failed)
        XCTAssert(failed.hasSuffix("avformat_open_input: Invalid data found when processing input"), failed)
        XCTAssert(result.stderr.contains("\(photos)/truncated.mp4: cannot decode its header: damaged video: FFmpeg"), result.stderr)
        XCTAssertEqual(try step("whole.mp4", in: folder), "done: poster frame at 0 s")
        XCTAssertEqual(try step("cut.mp4", "import", in: folder), "done:", "its header is whole")
        let damaged = try step("cut.mp4", in: folder)
        XCTAssert(damaged.hasPrefix("failed: damaged video: FFmpeg 5.1"), damaged)
        XCTAssert(damaged.contains("avformat_index_get_entry: the file ends at byte \(faststart.count * 12 / 100), before "
                                   + "its last frame's data does"), damaged)
        let listed = try TestSupport.album(["ls", "--json", "--catalogue", "album"], in: folder)
        let photosListed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let cut = try XCTUnwrap(photosListed.first { ($0["path"] as? String)?.hasSuffix("/cut.mp4") == true })
        XCTAssertEqual(cut["state"] as? String, "damaged")
        XCTAssertEqual(cut["damage"] as? String, String(damaged.dropFirst("failed: ".count)))
        XCTAssertEqual(try step("good.jpg", in: folder), "done:")
        XCTAssertNoThrow(try Probe.newestThumbnail(folder + "/album", original: good))
    }

    /// A clip whose header claims a frame over 16384 pixels a side (a PNG-coded MOV of 16400×16, 2 KB) is refused
    /// from its header, in album's words, as image bombs are; no frame of it is decoded.
    func testAnAbsurdFrameSizeIsRefusedFromTheHeader() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try ffmpeg(["-f", "lavfi", "-i", "color=gray:size=16400x16:rate=1:duration=1", "-c:v", "png", photos + "/bomb.mov"], in: folder)
        try ffmpeg(pattern + ["-t", "1", "-pix_fmt", "yuv420p", "-c:v", "libx264", photos + "/fine.mp4"], in: folder)

        let result = try run(in: folder)
        XCTAssertEqual(result.status, 1, "failed photos: \(result.stdout)\(result.stderr)")
        XCTAssertEqual(try step("bomb.mov", "import", in: folder),
                       "failed: its header is refused: a frame of 16400×16 is over album's limit of 16384 pixels a side")
        XCTAssertEqual(try step("fine.mp4", in: folder), "done: poster frame at 0 s")
    }
}

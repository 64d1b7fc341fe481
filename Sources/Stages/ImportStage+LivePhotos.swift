import Catalogue
import Media

/// Live Photos among the files import found (docs/catalogue.md, "Live Photos"): in one folder, a HEIC or JPEG and a
/// MOV with the same name but for the extension (case-insensitive: `IMG_1.HEIC` and `IMG_1.MOV`) are one photo whose
/// still renders and whose movie is its second original, its motion part. `pair: separate` pairs nothing.
extension ImportStage {
    /// `files` with each Live Photo's movie taken out, and `seconds` with each still → its movie added. The movies
    /// are those among `files` (a movie format the `include` patterns take) and `movies` (the scan's others). A
    /// still already paired (a RAW+JPEG pair's file) takes no movie, and a name with more than one still or more
    /// than one movie pairs none: each file stays what it is alone.
    public static func livePhotos(_ files: ScannedPaths, movies: [String], seconds: [String: String],
                                  pair: Pair) -> (files: ScannedPaths, seconds: [String: String]) {
        guard pair != .separate else { return (files, seconds) }
        // The movies' names first, then only the stills that share one: a library of photos and a few clips keeps
        // no entry per photo (the scan's peak memory at 10^5 photos was 22 MB of these).
        var stills: [String: [String]] = [:], clips: [String: [String]] = [:]
        // The extension read from each name's bytes: a path is made only for a movie.
        let found = files.indices.lazy.filter { ImageFormat.liveMovieExtensions.contains(files.fileExtension(at: $0)) }.map { files[$0] }
        for file in Array(found) + movies where hasPairExtension(file, in: ImageFormat.liveMovieExtensions) {
            guard let (key, _) = pairKey(of: file) else { continue }
            clips[key, default: []].append(file)
        }
        guard !clips.isEmpty else { return (files, seconds) }
        for list in [AnyRandomAccessCollection(files), AnyRandomAccessCollection(movies)] {
            for file in list {
                guard let (key, ext) = pairKey(of: file), clips[key] != nil, ImageFormat.pairedPictureExtensions.contains(ext) else { continue }
                stills[key, default: []].append(file)
            }
        }
        var paired = seconds, taken = Set<String>()
        for (key, clip) in clips {
            guard clip.count == 1, let still = stills[key], still.count == 1, paired[still[0]] == nil else { continue }
            paired[still[0]] = clip[0]
            taken.insert(clip[0])
        }
        return (taken.isEmpty ? files : files.kept { !taken.contains($0) }, paired)
    }
}

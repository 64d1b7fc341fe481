import Catalogue
import Media

extension PhotoRecord {
    /// A video's header facts on its row (`duration`, `codec`, `frame_rate`, `latitude`, `longitude`); nil for a
    /// still clears them.
    mutating func setVideoFacts(_ video: VideoMetadata?) {
        duration = video?.duration
        codec = video?.codec
        frameRate = video?.frameRate
        latitude = video?.place?.latitude
        longitude = video?.place?.longitude
    }

    /// `candidate`'s video facts, read now from the same bytes: a video imported before schema 10 gains them when
    /// it is next read (`album run --force`), and `hasGPS` follows its place.
    mutating func takeVideoFacts(of candidate: PhotoRecord) {
        guard candidate.codec != nil else { return }
        duration = candidate.duration
        codec = candidate.codec
        frameRate = candidate.frameRate
        latitude = candidate.latitude
        longitude = candidate.longitude
        hasGPS = candidate.hasGPS
    }
}

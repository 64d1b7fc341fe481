import System
import Vips
import Media

extension Scheduler {
    /// How much of a new file is read to find its JPEG frame header: past an EXIF block, an XMP packet and an ICC
    /// profile of the usual sizes. These are bytes its import reads next anyway.
    static let frameHeaderSearchBytes = 256 << 10

    /// The whole-image memory a new file's decode will reserve from the budget (`LookRenderer.reservation`), from
    /// its frame header: a progressive JPEG's coefficient buffer; 0 for anything else, or when it is not known.
    ///
    /// Only a file the catalogue does not know at its path is asked: a known one is usually up to date, and reading
    /// its first bytes would cost a no-op rerun a read per photo. A file unreadable here needs 0, and its import
    /// says why. The lookup is the one the photo's chain makes next, kept for it: the probe's where the run probes
    /// (`probesFiles`), import's whole row elsewhere.
    func decodeNeed(_ item: Item) -> Int {
        guard case .file(let path, _, _) = item, !knowsPhoto(atPath: path),
              let start = try? FileBytes(path: path, firstBytes: Scheduler.frameHeaderSearchBytes),
              let bytes = Image.decoderBufferBytes(fromStartOf: start) else { return 0 }
        return LookRenderer.reservation(decoderBytes: bytes)
    }

    private func knowsPhoto(atPath path: String) -> Bool {
        guard let snapshot = snapshot.withLock({ $0 }) else { return false }
        return (try? probesFiles ? snapshot.probedPhoto(atPath: path) : snapshot.photo(atPath: path)) != nil
    }
}

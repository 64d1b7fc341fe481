import System
import Vips
import Media
import Catalogue

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
    /// - Parameter known: the worker's slot for the probe's lookup, which the probe of the same file takes.
    func decodeNeed(_ item: Item, known: KnownPhoto = KnownPhoto()) -> Int {
        guard case .file(let path, _, _) = item, !knowsPhoto(atPath: path, keeping: known),
              let start = try? FileBytes(path: path, firstBytes: Scheduler.frameHeaderSearchBytes),
              let bytes = Image.decoderBufferBytes(fromStartOf: start) else { return 0 }
        return LookRenderer.reservation(decoderBytes: bytes)
    }

    private func knowsPhoto(atPath path: String, keeping known: KnownPhoto) -> Bool {
        guard let snapshot = snapshot.withLock({ $0 }) else { return false }
        guard probesFiles else { return (try? snapshot.photo(atPath: path)) != nil }
        do {
            let photo = try snapshot.probedPhoto(atPath: path)
            known.keep(photo, at: path)
            return photo != nil
        } catch {
            return false  // a failed read is kept for no one: the probe asks again, then the chain, which says what failed
        }
    }
}

/// A worker's last probe lookup (`CatalogueSnapshot.probedPhoto`), made by `decodeNeed` as the worker takes a file and
/// taken by the same file's `probe`: one lookup a file, kept where only that worker sees it (no lock, no cache shared
/// between the workers, whose cache lines would bounce between processors). Used by its worker's thread alone.
package final class KnownPhoto {
    private var path: String?
    private var photo: PhotoRecord?

    package init() {}

    /// Keeps `photo` (nil: none) as what the catalogue records at `path`.
    func keep(_ photo: PhotoRecord?, at path: String) {
        (self.path, self.photo) = (path, photo)
    }

    /// What was kept for `path`, and then no longer kept; nil when the last lookup was of another file, or failed.
    func take(at path: String) -> PhotoRecord?? {
        guard self.path == path else { return nil }
        defer { (self.path, self.photo) = (nil, nil) }
        return .some(photo)
    }
}

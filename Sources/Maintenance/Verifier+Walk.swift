import Core
import Catalogue

extension Verifier {
    /// How many photos of a walk are chosen at a time: the memory of a deep check holds at most this many keys.
    static let walkBatch = 4096

    /// The next photos of `walk` after the key `cursor` (from the start when nil), at most `limit` of them, in the
    /// walk's order, and whether another photo of the walk follows them. Read in one pass over the photos' ids that
    /// keeps at most twice `limit` keys: in id order the primary key's range after `cursor`, stopped after `limit`
    /// + 1; in a seed's order every id, keeping the smallest keys after `cursor`. `recentRuns`: with `walk.since`,
    /// the runs started on or after its day (a photo with a rendition one of them wrote is in the walk).
    func nextPhotos(of walk: VerifyWalk, after cursor: String?, limit: Int, recentRuns: Set<Int64>) throws
        -> (photos: [(key: String, id: String)], more: Bool) {
        func inWalk(_ id: String, added: String) throws -> Bool {
            guard let since = walk.since else { return true }
            if since.contains(Timestamp.local(added)) { return true }
            return try catalogue.renditionRuns(photo: id).contains(where: recentRuns.contains)
        }
        var chosen: [(key: String, id: String)] = []
        var more = false
        guard walk.seed != nil else {
            try catalogue.forEachPhotoID(after: cursor) { id, added in
                guard try inWalk(id, added: added) else { return true }
                if chosen.count == limit {
                    more = true
                    return false
                }
                chosen.append((id, id))
                return true
            }
            return (chosen, more)
        }
        try catalogue.forEachPhotoID(after: nil) { id, added in
            let key = walk.key(of: id)
            guard cursor.map({ key > $0 }) ?? true, try inWalk(id, added: added) else { return true }
            chosen.append((key, id))
            if chosen.count >= 2 * limit + 1 {
                chosen.sort { $0.key < $1.key }
                chosen.removeLast(chosen.count - limit)
                more = true
            }
            return true
        }
        chosen.sort { $0.key < $1.key }
        if chosen.count > limit {
            chosen.removeLast(chosen.count - limit)
            more = true
        }
        return (chosen, more)
    }
}

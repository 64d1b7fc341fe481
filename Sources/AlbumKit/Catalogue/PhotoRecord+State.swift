import System

extension PhotoRecord {
    /// This photo's state, from the facts: whether a newer version replaces it (`superseded`, from the catalogue's
    /// rows), whether its file is still at its path with the recorded bytes, and the damage a run recorded.
    ///
    /// The file is the user's (`path`), in both import modes: a catalogue's own copy (`mode: copy`) is verify's to
    /// check. Its bytes are hashed only when its stat (size, inode, mtime) differs from the recorded one, so a
    /// library where nothing changed is stat-ed, never read; a file only touched is `ok` again.
    /// - Parameter isSuperseded: whether another photo of the catalogue `replaces` this one.
    public func condition(isSuperseded: Bool) -> PhotoCondition {
        if isSuperseded { return PhotoCondition(.superseded) }
        let status: FileStatus
        do {
            status = try FileStatus(path, followingLinks: true)
        } catch {
            // A file that cannot be stat-ed for another reason (a permission) is not gone: its run fails and says why.
            if error.notFound { return PhotoCondition(.missing) }
            return damage.map { PhotoCondition(.damaged, reason: $0) } ?? .ok
        }
        if !status.isRegular { return PhotoCondition(.missing) }
        if !FileIdentity(status).isUnchanged(since: self) {
            if status.size != bytes { return PhotoCondition(.changed) }
            if let read = try? FileBytes(path: path).sha256(), read != hash { return PhotoCondition(.changed) }
        }
        return damage.map { PhotoCondition(.damaged, reason: $0) } ?? .ok
    }

    /// The state of each of `photos`, by id; `photos` is the whole catalogue (superseded is decided from its rows).
    public static func conditions(of photos: [PhotoRecord]) -> [String: PhotoCondition] {
        let replaced = Set(photos.compactMap(\.replaces))
        return Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0.condition(isSuperseded: replaced.contains($0.id))) })
    }
}

extension Catalogue {
    /// Records that `photo`'s pixels could not be decoded, and why (`nil` clears it: `--retry-damaged` decoded them).
    public func setDamage(photo: String, reason: String?) throws {
        try database.run("UPDATE photos SET damage = ? WHERE id = ?", [.text(reason), .text(photo)])
    }
}

import System
import Core

extension PhotoRecord {
    /// This photo's state, from the facts: whether a newer version replaces it (`superseded`, from the catalogue's
    /// rows), whether its file is still at its path with the recorded bytes, and the damage a run recorded.
    ///
    /// The file is the user's (`path`), in both import modes: a catalogue's own copy (`mode: copy`) is verify's to
    /// check. Its bytes are hashed only when its stat (size, inode, mtime) differs from the recorded one, so a
    /// library where nothing changed is stat-ed, never read; a file only touched is `ok` again.
    ///
    /// A photo whose own file is gone while one of its `aliases` is still there (the same bytes under another
    /// name, unchanged since it was recorded) is not missing: the next run makes that name its path
    /// (docs/catalogue.md, "Aliases"), and `album prune` must not forget it.
    /// - Parameter isSuperseded: whether another photo of the catalogue `replaces` this one, or its file now holds
    ///   another photo's bytes (`PhotoRecord.supersededIDs`).
    ///
    /// With `seconds` (its second originals, a pair's other file), a photo whose own file is unchanged is `changed`
    /// too when one of them is (its stat and, read only then, its bytes not the recorded ones): the next run records
    /// that file's new version (docs/catalogue.md, "Pairs").
    public func condition(isSuperseded: Bool, aliases: [PhotoAlias] = [], seconds: [SecondOriginal] = []) -> PhotoCondition {
        if isSuperseded { return PhotoCondition(.superseded) }
        let status: FileStatus
        do {
            status = try FileStatus(path, followingLinks: true)
        } catch {
            // A file that cannot be stat-ed for another reason (a permission) is not gone: its run fails and says why.
            if error.notFound { return heldByAlias(aliases) ? unmissed : PhotoCondition(.missing) }
            return unmissed
        }
        if !status.isRegular { return heldByAlias(aliases) ? unmissed : PhotoCondition(.missing) }
        if !FileIdentity(status).isUnchanged(since: self) {
            if status.size != bytes { return PhotoCondition(.changed) }
            if let read = try? FileBytes.sha256(ofFileAt: path), read != hash { return PhotoCondition(.changed) }
        }
        if seconds.contains(where: \.isChanged) { return PhotoCondition(.changed) }
        return unmissed
    }

    /// The state of a photo whose file is there (or held by an alias): damaged when a run recorded damage, else ok.
    private var unmissed: PhotoCondition {
        damage.map { PhotoCondition(.damaged, reason: $0) } ?? .ok
    }

    /// Whether one of `aliases` still holds this photo's bytes: its file there, a regular file, and its stat
    /// unchanged or, when only touched, its bytes hashing to the photo's (the rule the photo's own path follows).
    package func heldByAlias(_ aliases: [PhotoAlias]) -> Bool {
        aliases.contains { alias in
            guard let status = try? FileStatus(alias.path, followingLinks: true), status.isRegular else { return false }
            if FileIdentity(status).isUnchanged(since: alias) { return true }
            return status.size == bytes && (try? FileBytes.sha256(ofFileAt: alias.path)) == hash
        }
    }

    /// The state of each of `photos`, by id; `photos` is the whole catalogue (superseded is decided from its rows),
    /// `aliases` every alias it records.
    public static func conditions(of photos: [PhotoRecord], aliases: [PhotoAlias] = [], seconds: [SecondOriginal] = []) -> [String: PhotoCondition] {
        let replaced = supersededIDs(photos, aliases: aliases, seconds: seconds)
        let byPhoto = Dictionary(grouping: aliases, by: \.photo)
        let secondsByPhoto = Dictionary(grouping: seconds, by: \.photo)
        return Dictionary(uniqueKeysWithValues: photos.map {
            ($0.id, $0.condition(isSuperseded: replaced.contains($0.id), aliases: byPhoto[$0.id] ?? [], seconds: secondsByPhoto[$0.id] ?? []))
        })
    }
}

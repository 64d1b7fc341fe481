extension PhotoRecord {
    /// The current photos among `photos`, in their order: every photo that no other photo replaces.
    ///
    /// A file whose bytes changed is imported as a new photo that `replaces` the one before (docs/catalogue.md).
    /// The superseded photo keeps its row, its renditions and its history, but it is no longer what its file
    /// holds, so it never joins a run: neither `album run` nor `album plan` takes it through a stage.
    public static func current(_ photos: [PhotoRecord]) -> [PhotoRecord] {
        let superseded = Set(photos.compactMap(\.replaces))
        return photos.filter { !superseded.contains($0.id) }
    }

    /// The catalogue photos a run is done with once import hands on this one: itself, and the version of its file
    /// it replaces. Neither joins the run again after import (phase 2).
    public var settled: [String] {
        if let replaces { return [id, replaces] }
        return [id]
    }
}

extension PhotoRecord {
    /// Adds what import handing on `photo` settles to `settled`, and says whether `photo` itself was unsettled:
    /// only then does it go on through its chain (two files with the same bytes are one photo, and a superseded
    /// photo never joins the run). The scheduler's phase 1 and the plan both settle through this.
    public static func settle(_ photo: PhotoRecord, in settled: inout Set<String>) -> Bool {
        let first = !settled.contains(photo.id)
        settled.formUnion(photo.settled)
        return first
    }
}

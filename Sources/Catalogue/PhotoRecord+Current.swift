import System

extension PhotoRecord {
    /// The current photos among `photos`, in their order: every photo that no other photo replaces.
    ///
    /// A file whose bytes changed is imported as a new photo that `replaces` the one before (docs/catalogue.md).
    /// The superseded photo keeps its row, its renditions and its history, but it is no longer what its file
    /// holds, so it never joins a run: neither `album run` nor `album plan` takes it through a stage.
    /// With `aliases`, a photo whose own file now holds another photo's bytes is superseded too (`supersededIDs`).
    /// With `seconds`, a photo whose own file is now another photo's second original is superseded too (`pairedIDs`).
    public static func current(_ photos: [PhotoRecord], aliases: [PhotoAlias] = [], seconds: [SecondOriginal] = []) -> [PhotoRecord] {
        let superseded = supersededIDs(photos, aliases: aliases, seconds: seconds)
        return photos.filter { !superseded.contains($0.id) }
    }

    /// The photos among `photos` that are `superseded`: each one a newer version `replaces`, and each whose own
    /// path now holds another photo's bytes, recorded there by import as that photo's alias (among `aliases`; the
    /// file still with the alias's stat, no longer with the photo's). `cp a.jpg b.jpg` makes b.jpg a's alias, and
    /// the photo b.jpg held superseded: its name, and its export, are a's now (`ExportStage.abandonedExport`). Only
    /// the aliases at a photo's path are stat-ed.
    ///
    /// ```
    /// photo b (b.jpg), photo a with alias b.jpg, b.jpg holding a's bytes → b superseded
    /// the same after b's bytes were copied back (b.jpg no longer has the alias's stat) → b current again
    /// ```
    ///
    /// With `seconds`, also each photo whose own path is recorded as another photo's second original (`pairedIDs`).
    public static func supersededIDs(_ photos: [PhotoRecord], aliases: [PhotoAlias], seconds: [SecondOriginal] = []) -> Set<String> {
        Set(photos.compactMap(\.replaces)).union(displacedIDs(photos, aliases: aliases)).union(pairedIDs(photos, seconds: seconds))
    }

    /// The photos among `photos` whose own path is now another photo's second original: a file imported alone, then
    /// paired (`pair:` from `separate` to `jpeg`, or from `jpeg` to `raw` and back) belongs to the pair's photo from
    /// then on (docs/catalogue.md, "Pairs"). Import keeps a path one thing at a time, so of two photos each holding
    /// the other's path, only the one import paired last has it recorded.
    public static func pairedIDs(_ photos: [PhotoRecord], seconds: [SecondOriginal]) -> Set<String> {
        guard !seconds.isEmpty else { return [] }
        var byPath: [String: Set<String>] = [:]
        for second in seconds { byPath[second.path, default: []].insert(second.photo) }
        return Set(photos.filter { photo in byPath[photo.path].map { !$0.subtracting([photo.id]).isEmpty } ?? false }.map(\.id))
    }

    /// The photos among `photos` whose own path now holds another photo's bytes, as `aliases` record them: the
    /// second kind of `supersededIDs`, and the only one a run's phase 1 can add (`Scheduler`, `Planner`).
    public static func displacedIDs(_ photos: [PhotoRecord], aliases: [PhotoAlias]) -> Set<String> {
        var displaced = Set<String>()
        guard !aliases.isEmpty else { return displaced }
        let byPath = Dictionary(grouping: photos, by: \.path)
        for alias in aliases {
            for photo in byPath[alias.path] ?? [] where photo.id != alias.photo && !displaced.contains(photo.id) {
                guard let status = try? FileStatus(alias.path, followingLinks: true), status.isRegular else { continue }
                let identity = FileIdentity(status)
                if identity.isUnchanged(since: alias), !identity.isUnchanged(since: photo) { displaced.insert(photo.id) }
            }
        }
        return displaced
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

/// The photos a run's (or a plan's) phase 1 has settled (`PhotoRecord.settle`), kept small: an id in the form album
/// makes (a UUID: 36 lowercase hex digits and dashes) as its 16 bytes, any other id as itself. The same answers as a
/// `Set<String>` of the ids (the form is read back exactly), in a table of its own: this set grows with the photos a
/// run meets (Benchmarks/INVESTIGATION.md, sections 25 and 37). A `Set` of the 16 bytes fills at most 3/4 of a
/// power of two of slots, and keeps the old slots beside the new as it grows (6.3 MB at 10^5 photos); this table
/// fills up to 7/8 (open addressing, linear probing: a UUID's bits are random), 2 MB at 10^5 and 3 as it grows.
public struct SettledPhotos: Sendable, ExpressibleByArrayLiteral {
    private struct Packed: Hashable, Sendable {
        var high: UInt64
        var low: UInt64

        static let empty = Packed(high: 0, low: 0)
    }

    /// The packed ids, `Packed.empty` where none is: a power of two of them, or none.
    private var slots: [Packed] = []
    /// How many of `slots` hold an id.
    private var used = 0
    /// Whether the id whose 16 bytes are all zero (`Packed.empty`, kept outside `slots`) is in the set.
    private var hasZero = false
    private var others = Set<String>()

    public init() {}

    public init(arrayLiteral ids: String...) {
        for id in ids { insert(id) }
    }

    /// `id`'s 16 bytes when it is a lowercase UUID, else nil.
    private static func packed(_ id: String) -> Packed? {
        guard id.utf8.count == 36 else { return nil }
        // Read from the string's contiguous UTF-8 (a copy of the string shares its storage): walking the UTF-8
        // view with `enumerated()` was most of this, asked under the run's state lock and for every id of phase 2.
        var id = id
        return id.withUTF8 { bytes -> Packed? in
            var high: UInt64 = 0, low: UInt64 = 0, digits = 0
            for offset in 0..<36 {
                let byte = bytes[offset]
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
                digits += 1
            }
            return Packed(high: high, low: low)
        }
    }

    public func contains(_ id: String) -> Bool {
        guard let packed = SettledPhotos.packed(id) else { return others.contains(id) }
        if packed == .empty { return hasZero }
        guard !slots.isEmpty else { return false }
        return slots[slot(of: packed, in: slots)] == packed
    }

    /// Adds `id`; says whether it was not there yet.
    @discardableResult
    public mutating func insert(_ id: String) -> Bool {
        guard let packed = SettledPhotos.packed(id) else { return others.insert(id).inserted }
        if packed == .empty {
            defer { hasZero = true }
            return !hasZero
        }
        if (used + 1) * 8 > slots.count * 7 { grow() }
        let slot = slot(of: packed, in: slots)
        guard slots[slot] != packed else { return false }
        slots[slot] = packed
        used += 1
        return true
    }

    public var count: Int { used + (hasZero ? 1 : 0) + others.count }

    /// Where `packed` is in `slots`, or the empty slot where it would go (`slots` never full).
    private func slot(of packed: Packed, in slots: [Packed]) -> Int {
        let mask = slots.count - 1
        // A UUID's bits are random but for its version and variant digits; mixed, so the low bits are too.
        var slot = Int(truncatingIfNeeded: ((packed.high ^ packed.low) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while slots[slot] != packed, slots[slot] != .empty { slot = (slot + 1) & mask }
        return slot
    }

    /// Twice the slots (64 at first), every id put in its new place.
    private mutating func grow() {
        let old = slots
        slots = [Packed](repeating: .empty, count: max(64, old.count * 2))
        for packed in old where packed != .empty { slots[slot(of: packed, in: slots)] = packed }
    }
}

extension PhotoRecord {
    /// `settle(_:in:)` into the compact set the scheduler and the planner keep.
    public static func settle(_ photo: PhotoRecord, in settled: inout SettledPhotos) -> Bool {
        // `photo.settled`, its id first, without making the array (this runs under the run's state lock).
        let first = settled.insert(photo.id)
        if let replaces = photo.replaces { settled.insert(replaces) }
        return first
    }
}

import Core
import Stages

/// One chunk's share of a distributed run, `chunk-K.json`: the files it imports (with their whole chains) and the
/// catalogue photos it takes through the stages after import (phase 2), as the planner assigned them
/// (`ChunkAssignment`). Folders the planner's scan could not list go to chunk 0, which records them as failed
/// import steps, as a one-machine run does.
public struct ChunkManifest: Sendable, Equatable {
    public var chunk: Int
    public var files: [String] = []
    public var photos: [String] = []
    public var unreadableFolders: [UnreadableFolder] = []
    /// The XMP sidecar of each of `files` that has one, as the planner's scan found it.
    public var sidecars: [String: String] = [:]
    /// The second original of each pair among `files` (`ImportScan.seconds`): the chunk records it with its photo.
    public var seconds: [String: String] = [:]

    /// How many items the chunk has: its share of the run's work.
    public var count: Int { files.count + photos.count + unreadableFolders.count }

    package var json: JSONValue {
        .object([
            ("chunk", .int(chunk)),
            ("files", .array(files.map(JSONValue.string))),
            ("photos", .array(photos.map(JSONValue.string))),
            ("unreadable_folders", .array(unreadableFolders.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })),
            ("sidecars", .object(sidecars.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("seconds", .object(seconds.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])
    }

    package init(chunk: Int) { self.chunk = chunk }

    /// Chunk `chunk`'s manifest in `folder`.
    package static func read(_ folder: RunFolder, chunk: Int) throws -> ChunkManifest {
        let file = folder.manifest(chunk)
        guard let text = RunFolder.text(of: file) else {
            throw DistributedError("cannot read \(file): is the run folder's file system mounted on this node?", exitCode: .retry)
        }
        guard let json = JSONValue(parsing: text), json["chunk"]?.intValue == chunk,
              let files = json["files"]?.arrayValue, let photos = json["photos"]?.arrayValue else {
            throw DistributedError("\(file) is not chunk \(chunk)'s manifest", exitCode: .usage)
        }
        var manifest = ChunkManifest(chunk: chunk)
        manifest.files = files.compactMap(\.stringValue)
        manifest.photos = photos.compactMap(\.stringValue)
        manifest.unreadableFolders = (json["unreadable_folders"]?.arrayValue ?? []).compactMap { folder in
            guard let path = folder["path"]?.stringValue, let reason = folder["reason"]?.stringValue else { return nil }
            return UnreadableFolder(path: path, reason: reason)
        }
        if case .object(let pairs)? = json["sidecars"] {
            for (file, sidecar) in pairs { if let sidecar = sidecar.stringValue { manifest.sidecars[file] = sidecar } }
        }
        for (file, second) in json["seconds"]?.objectValue ?? [] {
            if let second = second.stringValue { manifest.seconds[file] = second }
        }
        return manifest
    }
}

/// Which chunk an item belongs to: a stable hash (64-bit FNV-1a of its UTF-8 bytes, then MurmurHash3's 64-bit
/// finaliser, so that names differing only in their last characters spread over every chunk) of the original's path for a
/// file, of the photo's id for a catalogue photo, modulo the number of chunks. The same item lands in the same
/// chunk on every machine and in every plan with as many chunks, whatever else the folder holds.
public enum ChunkAssignment {
    public static func chunk(of key: String, chunks: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash &*= 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int(hash % UInt64(max(1, chunks)))
    }
}

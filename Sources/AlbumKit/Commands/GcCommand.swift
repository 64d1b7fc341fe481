import Foundation
import System

/// `album gc`: deletes files in the catalogue's own folders that no row needs.
struct GcCommand: Command {
    static let configuration = CommandConfiguration(
        name: "gc",
        abstract: "Delete derived files no row refers to (never originals, never outside the catalogue).",
        discussion: """
            Looks only in the catalogue's thumbnails/, filtered/ and originals/ folders, without following or
            removing symbolic links, and deletes the regular files that no rendition or photo row refers to (left by `album rm`, by runs that
            were killed before recording them, or by older parameters), and album's unfinished temporary files
            (.NAME.album-XXXXXX). Files anywhere else, exports and the user's originals are never touched, nor a
            file whose export tag names another catalogue.
            Prints each file it deletes, with why; --json prints one object instead (docs/json.md, "gc").
            """,
        options: [SharedOptions.catalogue, dryRunOption, jsonOption, SharedOptions.wait])

    static let dryRunOption = SharedOptions.dryRun.helped("print what would be deleted, and delete nothing")
    static let jsonOption = SharedOptions.json.helped("one JSON object: each file (path, reason, bytes), the totals, dry_run")

    var catalogue: String
    var dryRun: Bool
    var json: Bool

    init(_ arguments: Arguments) throws {
        catalogue = try arguments.value(of: SharedOptions.catalogue)
        dryRun = try arguments.value(of: GcCommand.dryRunOption)
        json = try arguments.value(of: GcCommand.jsonOption)
    }

    func run() throws -> ExitCode {
        let catalogue = try Catalogue(folder: self.catalogue, create: false, writing: true)
        defer { catalogue.close() }
        try catalogue.requireNoOpenDistributedRun("album gc")
        var removed = 0, bytes = 0, failed = false
        var folders = Set<String>()
        var files: [JSONValue] = [], kept: [JSONValue] = [], failures: [JSONValue] = []
        for file in try catalogue.garbage() {
            let path = catalogue.folder + "/" + file.relativePath
            if let other = try Catalogue.otherOwner(of: path, in: catalogue) {
                Console.err("album: kept \(file.relativePath.shown): another catalogue exported it (id \(other))")
                kept.append(.object([("path", .string(file.relativePath)), ("owner", .string(other))]))
                continue
            }
            if !dryRun {
                do {
                    try FileSystem.remove(path)
                } catch where !error.notFound {
                    Console.error("cannot delete \(path.shown): \(error.reason)")
                    failures.append(.object([("path", .string(file.relativePath)), ("message", .string(error.reason))]))
                    failed = true
                    continue
                } catch {}
                folders.insert((file.relativePath as NSString).deletingLastPathComponent)
            }
            if json {
                files.append(.object([("path", .string(file.relativePath)), ("reason", .string(file.reason.name)), ("bytes", .int(file.bytes))]))
            } else {
                Console.out("\(dryRun ? "would remove" : "removed") \(file.relativePath.shown) (\(file.reason.rawValue))")
            }
            removed += 1
            bytes += file.bytes
        }
        // Shard folders left empty go too; the area folders themselves stay.
        for folder in folders.sorted(by: >) where folder.contains("/") {
            try? FileSystem.removeEmptyFolder(catalogue.folder + "/" + folder)  // fails harmlessly when not empty
        }
        if json {
            Console.out(JSONValue.object([
                ("catalogue", .string(catalogue.folder)), ("dry_run", .bool(dryRun)), ("files", .array(files)),
                ("removed", .int(removed)), ("bytes", .int(bytes)), ("kept", .array(kept)), ("failed", .array(failures)),
            ]).prettyText)
        }
        let what = "\(removed) file\(removed == 1 ? "" : "s"), \(bytes) bytes"
        Console.err("album: gc \(dryRun ? "would remove" : "removed") \(what) from \(catalogue.folder)")
        return failed ? .failures : .ok
    }
}

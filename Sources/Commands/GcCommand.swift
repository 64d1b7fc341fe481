import Foundation
import System
import Core
import Catalogue
import JobFile
import Maintenance

/// `album gc`: deletes files in the catalogue's own folders that no row needs.
struct GcCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "gc",
        abstract: "Delete derived files no row refers to (never originals; exports only album's own leftovers).",
        discussion: """
            Looks in the catalogue's thumbnails/, filtered/ and originals/ folders, without following or
            removing symbolic links, and deletes the regular files that no rendition or photo row refers to (left by `album rm`, by runs that
            were killed before recording them, or by older parameters), and album's unfinished temporary files
            (.NAME.album-XXXXXX). Given a JOBFILE, it also looks under the job's export roots (its catalogue is the
            job's unless -c says another), and deletes only album's own leftovers there: its temporary files, and
            exports tagged by this catalogue that no row records (a run killed, or cut by a power loss, between the
            file and its row). Other files, recorded exports and the user's originals are never touched, nor a
            file whose export tag names another catalogue.
            Prints each file it deletes, with why; --json prints one object instead (docs/json.md, "gc").
            """)

    @Positionals("[JOBFILE]") var given: [String]
    @Option(SharedOptions.jobCatalogue.helped(
        "the catalogue folder", defaultHelp: "the job's catalogue:, else $\(CatalogueLocation.environmentVariable), else a config file's catalogue:, else ./album"))
    var catalogue: String?
    @Option(SharedOptions.set) var variables: [String: String]
    @Option(SharedOptions.dryRun.helped("print what would be deleted, and delete nothing")) var dryRun: Bool
    @Option(SharedOptions.json.helped("one JSON object: each file (path, reason, bytes), the totals, dry_run")) var json: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    func validate() throws {
        guard given.count <= 1 else { throw UsageError("gc takes at most one job file") }
    }

    func run() throws -> ExitCode {
        var folder: String, roots: [String] = []
        if let jobPath = given.first {
            let job = try JobLoader.load(path: jobPath, set: variables)
            folder = try CatalogueLocation.folder(given: self.catalogue, for: job)
            roots = job.derivedFiles.exportRoots
        } else {
            folder = try CatalogueLocation.resolve(given: self.catalogue).folder
        }
        let catalogue = try Catalogue(folder: folder, create: false, writing: true)
        defer { catalogue.close() }
        try catalogue.requireNoOpenDistributedRun("album gc")
        var removed = 0, bytes = 0, failed = false
        var folders = Set<String>()
        var files: [JSONValue] = [], kept: [JSONValue] = [], failures: [JSONValue] = []
        let collector = GarbageCollector(catalogue)
        for file in try collector.garbage() + collector.exportGarbage(roots: roots) {
            let inExports = file.relativePath.hasPrefix("/")
            let path = inExports ? file.relativePath : catalogue.folder + "/" + file.relativePath
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
                if !inExports { folders.insert((file.relativePath as NSString).deletingLastPathComponent) }
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

import Foundation
import System
import Core
import Catalogue

/// `album rm PHOTO...`: forgets photos and deletes the files album derived from them; originals are never touched.
struct RmCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "rm",
        abstract: "Forget photos and delete their derived files; originals are untouched.",
        discussion: """
            Each PHOTO is the path of a photo's original (anything holding a / or naming an existing file is a
            path), or its id or any unique start of it, as `album show` takes it. album removes the photos' rows
            and their renditions' rows, then deletes the files: filtered images and thumbnails in the catalogue,
            and recorded exports unless they changed since album wrote them or another catalogue's export replaced
            them (those are kept and named). Originals, and the catalogue's copies of them (mode: copy), are left
            alone; `album gc` deletes copies that no photo needs. Steps stay in the history without a photo. With
            --dry-run, album prints each photo and each of its files as it would delete or keep them, and changes
            nothing.
            """)

    @Positionals("PHOTO...") var named: [String]
    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.dryRun.helped("print the photos and files that would be removed, and remove nothing")) var dryRun: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    func validate() throws {
        guard !named.isEmpty else { throw UsageError("rm needs at least one photo: its id or its path") }
    }

    func run() throws -> ExitCode {
        let writer = dryRun ? nil : try Catalogue(folder: self.catalogue, create: false, writing: true)
        let catalogue = try writer ?? CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        try catalogue.requireNoOpenDistributedRun("album rm")
        var photos: [PhotoRecord] = []
        for argument in named {
            let photo = try PhotoArgument.resolve(argument, in: catalogue)  // every photo is found before anything is removed
            if !photos.contains(where: { $0.id == photo.id }) { photos.append(photo) }
        }
        let renditions = try photos.map { try catalogue.renditions(photo: $0.id) }
        guard let writer else { return try RmCommand.preview(photos, renditions, catalogue: catalogue) }
        try writer.remove(photos: photos.map(\.id))
        var failed = false
        for (photo, renditions) in zip(photos, renditions) {
            var deleted = 0
            for rendition in renditions {
                switch try RmCommand.delete(rendition, catalogue: writer) {
                case .deleted: deleted += 1
                case .gone: break
                case .kept(let reason):
                    Console.err("album: kept \(rendition.path.shown): \(reason.shown)")
                case .failed(let reason):
                    Console.error("cannot delete \(rendition.path.shown): \(reason.shown)")
                    failed = true
                }
            }
            Console.out("removed \(photo.id.prefix(8)) \(photo.path.shown): \(deleted) file\(deleted == 1 ? "" : "s") deleted")
        }
        return failed ? .failures : .ok
    }

    /// `rm --dry-run`: each photo that would be removed, then each of its files, as deleted or kept and why.
    /// The rows being removed are still there, so "another photo's rendition" counts only the other photos' rows.
    private static func preview(_ photos: [PhotoRecord], _ renditions: [[Rendition]], catalogue: CatalogueReader) throws -> ExitCode {
        let removed = Set(photos.map(\.id))
        for (photo, renditions) in zip(photos, renditions) {
            var lines: [String] = []
            var deleted = 0
            for rendition in renditions {
                let others = try catalogue.photos(recording: rendition.path).filter { !removed.contains($0) }
                switch others.isEmpty ? try verdict(rendition, catalogue: catalogue) : .kept("another photo's rendition") {
                case .deleted:
                    deleted += 1
                    lines.append("  would delete \(rendition.path)")
                case .gone: lines.append("  already gone: \(rendition.path)")
                case .kept(let reason), .failed(let reason): lines.append("  would keep \(rendition.path.shown): \(reason.shown)")
                }
            }
            Console.out("would remove \(photo.id.prefix(8)) \(photo.path.shown): \(deleted) file\(deleted == 1 ? "" : "s") to delete")
            lines.forEach { Console.out($0) }
        }
        Console.err("dry run: nothing removed")
        return .ok
    }

    enum Outcome { case deleted, gone, kept(String), failed(String) }

    /// Deletes one rendition's file, unless another photo's row still records it, its tag names another catalogue,
    /// or it is an export outside the catalogue that no longer holds what album wrote.
    static func delete(_ rendition: Rendition, catalogue: Catalogue) throws -> Outcome {
        if try catalogue.isRecorded(path: rendition.path) { return .kept("another photo's rendition") }
        let verdict = try verdict(rendition, catalogue: catalogue)
        if case .kept = verdict, !rendition.path.hasPrefix(catalogue.folder + "/"),
           ExportTag.of(rendition.path)?.catalogue == (try catalogue.identity()) {
            // Kept and no longer recorded: the user's file now, not a leftover for `gc JOBFILE` to delete.
            ExportTag.remove(from: rendition.path)
        }
        guard case .deleted = verdict else { return verdict }
        do {
            try FileSystem.remove(rendition.path)
        } catch {
            return error.notFound ? .gone : .failed(error.reason)
        }
        return .deleted
    }

    /// What `delete` would do with the rendition's file, its rows aside: `.deleted` when it may go.
    static func verdict(_ rendition: Rendition, catalogue: CatalogueReader) throws -> Outcome {
        guard let info = try? FileStatus(rendition.path, followingLinks: false) else { return .gone }
        guard info.isRegular else { return .kept("not a regular file") }
        if let other = try Catalogue.otherOwner(of: rendition.path, in: catalogue) {
            return .kept("another catalogue exported it since (id \(other))")
        }
        if !rendition.path.hasPrefix(catalogue.folder + "/") {
            guard let bytes = try? FileBytes(path: rendition.path), bytes.count == rendition.bytes,
                  try bytes.sha256() == rendition.fileHash else {
                return .kept("it changed since album exported it")
            }
        }
        return .deleted
    }
}

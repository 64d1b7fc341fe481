import Foundation
import System

/// `album rm ID...`: forgets photos and deletes the files album derived from them; originals are never touched.
struct RmCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rm",
        abstract: "Forget photos and delete their derived files; originals are untouched.",
        arguments: "ID...",
        discussion: """
            Each ID is a photo's id or any unique start of it. album removes the photos' rows and their renditions'
            rows, then deletes the files: filtered images and thumbnails in the catalogue, and recorded exports
            unless they changed since album wrote them or another catalogue's export replaced them (those are kept
            and named). Originals, and the catalogue's
            copies of them (mode: copy), are left alone; `album gc` deletes copies that no photo needs. Steps stay
            in the history without a photo.
            """,
        options: [SharedOptions.catalogue])

    var catalogue: String
    var ids: [String]

    init(_ arguments: Arguments) throws {
        catalogue = try arguments.value(of: SharedOptions.catalogue)
        ids = arguments.positionals
    }

    func validate() throws {
        guard !ids.isEmpty else { throw UsageError("rm needs at least one photo id") }
    }

    func run() throws -> ExitCode {
        let catalogue = try Catalogue(folder: self.catalogue, create: false, writing: true)
        defer { catalogue.close() }
        try catalogue.requireNoOpenDistributedRun("album rm")
        var photos: [PhotoRecord] = []
        for id in ids {
            let photo = try PhotoArgument.resolve(id, in: catalogue)  // every id is checked before anything is removed
            if !photos.contains(where: { $0.id == photo.id }) { photos.append(photo) }
        }
        let renditions = try photos.map { try catalogue.renditions(photo: $0.id) }
        try catalogue.remove(photos: photos.map(\.id))
        var failed = false
        for (photo, renditions) in zip(photos, renditions) {
            var deleted = 0
            for rendition in renditions {
                switch try RmCommand.delete(rendition, catalogue: catalogue) {
                case .deleted: deleted += 1
                case .gone: break
                case .kept(let reason):
                    Console.err("album: kept \(rendition.path): \(reason)")
                case .failed(let reason):
                    Console.error("cannot delete \(rendition.path): \(reason)")
                    failed = true
                }
            }
            Console.out("removed \(photo.id.prefix(8)) \(photo.path): \(deleted) file\(deleted == 1 ? "" : "s") deleted")
        }
        return failed ? .failures : .ok
    }

    enum Outcome { case deleted, gone, kept(String), failed(String) }

    /// Deletes one rendition's file, unless another photo's row still records it, its tag names another catalogue,
    /// or it is an export outside the catalogue that no longer holds what album wrote.
    static func delete(_ rendition: Rendition, catalogue: Catalogue) throws -> Outcome {
        if try catalogue.isRecorded(path: rendition.path) { return .kept("another photo's rendition") }
        guard let info = try? FileStatus(rendition.path, followingLinks: false) else { return .gone }
        guard info.isRegular else { return .kept("not a regular file") }
        if let other = try Catalogue.otherOwner(of: rendition.path, in: catalogue) {
            return .kept("another catalogue exported it since (id \(other))")
        }
        if !rendition.path.hasPrefix(catalogue.folder + "/") {
            guard let bytes = try? FileBytes(path: rendition.path), bytes.count == rendition.bytes,
                  bytes.sha256() == rendition.fileHash else {
                return .kept("it changed since album exported it")
            }
        }
        do {
            try FileSystem.remove(rendition.path)
        } catch {
            return error.notFound ? .gone : .failed(error.reason)
        }
        return .deleted
    }
}

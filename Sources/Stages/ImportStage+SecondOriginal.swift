import Foundation
import System
import Core
import Catalogue
import Media

extension ImportStage {
    /// A pair's second original as import read it: its file's stat and, when read, its hash; a Live Photo's movie's
    /// duration.
    struct ReadSecond: Sendable {
        var path: String
        var identity: FileIdentity
        var hash: String
        var duration: Double?

        /// The row it makes for `photo`.
        func record(for photo: String, added: String) -> SecondOriginal {
            SecondOriginal(photo: photo, path: path, format: ImageFormat.pairedFormatName(fileExtension: ImportStage.fileExtension(of: path)),
                           hash: hash, bytes: identity.bytes, mtimeNanoseconds: identity.mtimeNanoseconds, inode: identity.inode,
                           added: added, duration: duration)
        }
    }

    /// Reads the second original at `path` once: its stat, then its bytes' SHA-256, and for a Live Photo's movie the
    /// duration its header gives (FFmpeg reads no frame; nil when it cannot open it: the movie is paired all the same).
    /// Never decoded (the photo renders from its other file) and never written. Nil for an entry import never opens (a
    /// link not followed, not a regular file): the photo is imported without it, as if it were not there.
    func readSecond(_ path: String) throws -> ReadSecond? {
        switch entry(atPath: path) {
        case .skipped:
            return nil
        case .failed(let reason):
            throw StageError("cannot read its second original \(path): \(reason)")
        case .file(let identity):
            do {
                let hash = try FileBytes.sha256(ofFileAt: path)
                let duration = ImageFormat.isLiveMovie(path: path) ? VideoDecoder.duration(ofMovieAt: path) : nil
                return ReadSecond(path: path, identity: identity, hash: hash, duration: duration)
            } catch let error as FileBytesError {
                throw StageError("cannot read its second original \(path): \(error.reason)")
            }
        }
    }

    /// Import's step for a photo whose rendered file is unchanged since it was imported and whose pair's other file
    /// is `secondPath`: skipped, reading nothing, when the second original is recorded with the file's stat; when
    /// only touched (the same bytes), its stat is recorded and the step is skipped; when new or edited, it is
    /// recorded (its new version) and the step is done, from the recorded hash to the new one.
    func importSecond(_ secondPath: String, of photo: PhotoRecord, context: StageContext) throws -> StepResult {
        let recorded = try context.secondOriginals(of: photo.id).first { $0.path == secondPath }
        if let recorded, !context.force, case .file(let identity) = entry(atPath: secondPath), identity.isUnchanged(since: recorded) {
            try ImportStage.fillDuration(of: recorded, context: context)
            return .skipped("unchanged since it was imported", input: photo.hash, output: photo.hash)
        }
        guard let read = try readSecond(secondPath) else {
            return .skipped("unchanged since it was imported", input: photo.hash, output: photo.hash)
        }
        var updated = (recorded.map { $0.with(read.identity, hash: read.hash) }) ?? read.record(for: photo.id, added: Timestamp.now())
        updated.duration = read.duration
        let second = updated
        try context.write { catalogue in try ImportStage.keep(second, catalogue: catalogue) }
        if let recorded, recorded.hash == read.hash {
            return .skipped("unchanged since it was imported (its second original \(secondPath) touched)", input: photo.hash, output: photo.hash)
        }
        return StepResult(status: .done, inputHash: recorded?.hash ?? photo.hash, outputHash: read.hash,
                          message: ImportStage.recordedSecond(secondPath, isNew: recorded == nil))
    }

    /// Records the duration of an unchanged Live Photo movie recorded with none (paired before schema 10), from its
    /// header alone: the step stays skipped. A movie FFmpeg cannot open keeps none, and is asked again next run.
    static func fillDuration(of recorded: SecondOriginal, context: StageContext) throws {
        guard recorded.duration == nil, ImageFormat.isLiveMovie(path: recorded.path),
              let duration = VideoDecoder.duration(ofMovieAt: recorded.path) else { return }
        var filled = recorded
        filled.duration = duration
        let second = filled
        try context.write { catalogue in try catalogue.record(second) }
    }

    /// The done import step's message for a second original recorded at `path`: new to the photo, or a new version.
    static func recordedSecond(_ path: String, isNew: Bool) -> String {
        isNew ? "paired with \(path): recorded as its second original" : "its second original \(path) changed: recorded as its new version"
    }

    /// Records `second` as its photo's second original: a path is one thing at a time, so whatever else recorded
    /// it as a second original (another photo, an earlier version) forgets it.
    static func keep(_ second: SecondOriginal, catalogue: Catalogue) throws {
        try catalogue.forgetSecondOriginals(path: second.path, keeping: second.photo)
        try catalogue.record(second)
    }
}

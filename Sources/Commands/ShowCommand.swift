import Foundation
import Core
import Catalogue
import Media

/// `album show PHOTO`: one photo's metadata, its renditions, and its history (every step that changed it or failed)
/// with the job and parameters of each.
struct ShowCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show a photo: its metadata, renditions and full history.",
        discussion: """
            PHOTO is the path of the photo's original (anything holding a / or naming an existing file is a path,
            from the current folder), or its id or any unique start of it, as `album ls` shows them (8 characters
            are plenty). A path names the newest photo imported from it, or the photo whose bytes it holds under
            another name; an earlier version of an edited file is named by its id.
            The history lists every step recorded for the photo, oldest first: when, which run and job, the stage,
            its status (done or failed), how long it took, its parameters, and its error. What changed the photo
            and what failed are recorded; a step that was skipped (up to date) is no row, only a count on its run
            (album runs), so nights that change nothing add nothing here. album caption records each call, changed
            or not (skipped), and steps an older album recorded may be skipped ones.
            """)

    @Positionals("PHOTO") var given: [String]
    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.json.helped("one JSON object: photo, renditions, history")) var json: Bool

    var photo: String { given[0] }

    func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "show needs a photo: its id or its path" : "show takes one photo, got \(given.count)") }
    }

    func run() throws -> ExitCode {
        let catalogue = try CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        let photo = try PhotoArgument.resolve(self.photo, in: catalogue)
        let renditions = try catalogue.renditions(photo: photo.id)
        let history = try catalogue.history(photo: photo.id)
        let aliases = try catalogue.aliases(photo: photo.id)
        let seconds = try catalogue.secondOriginals(photo: photo.id)
        let condition = photo.condition(isSuperseded: try catalogue.isSuperseded(photo), aliases: aliases, seconds: seconds)
        if json {
            Console.out(JSONValue.object([
                ("photo", photo.json(kind: photo.json(condition, aliases: aliases, seconds: seconds))), ("renditions", .array(renditions.map(\.json))),
                ("history", .array(history.map(ShowCommand.json))),
            ]).prettyText)
            return .ok
        }
        var about = TextTable(["photo", photo.id])
        about.append(["path", photo.path])
        for alias in aliases { about.append(["alias", alias.path]) }
        for second in seconds {
            let facts = [second.format] + (second.shownDuration.map { [$0] } ?? []) + ["\(second.bytes) bytes", second.hash]
            about.append(["second", "\(second.path) (\(facts.joined(separator: ", ")))"])
        }
        about.append(["state", condition.reason.map { "\(condition.state.rawValue): \($0)" } ?? condition.state.rawValue])
        if let stored = photo.storedPath { about.append(["copy", catalogue.folder + "/" + stored]) }
        about.append(["hash", photo.hash])
        about.append(["kind", photo.mediaKind.rawValue])
        about.append(["image", "\(photo.format), \(photo.width)x\(photo.height), \(photo.bytes) bytes, orientation \(photo.orientation)"])
        if let video = photo.videoFacts { about.append(["video", video]) }
        about.append(["taken", photo.taken.map(Timestamp.taken) ?? "-"])
        about.append(["added", Timestamp.local(photo.added)])
        about.append(["camera", photo.camera ?? "-"])
        about.append(["lens", photo.lens ?? "-"])
        about.append(["gps", photo.gpsText])
        about.append(["caption", photo.caption ?? "-"])
        // XMP's facts (a sidecar's over the embedded packet's), each line only when there is something to say.
        if let title = photo.title { about.append(["title", title]) }
        if let rating = photo.rating { about.append(["rating", String(rating)]) }
        if let label = photo.label { about.append(["label", label]) }
        if !photo.keywords.isEmpty { about.append(["keywords", photo.keywords.joined(separator: ", ")]) }
        if let sidecar = photo.sidecar { about.append(["sidecar", sidecar]) }
        if let problem = photo.xmpProblem { about.append(["xmp", "warning: \(problem)"]) }
        if let offset = photo.motionOffset, let length = photo.motionLength {
            about.append(["motion", "Motion Photo: a movie of \(length) bytes at byte \(offset) of the original"])
        }
        about.append(["filter", photo.filter == "none" ? "none" : "\(photo.filter) \(photo.filterRecipe)"])
        if let replaces = photo.replaces { about.append(["replaces", replaces]) }
        var lines = about.lines

        lines += ["", "renditions (\(renditions.count))"]
        if !renditions.isEmpty {
            var table = TextTable(["kind", "size", "bytes", "run", "path"], rightAligned: [2, 3])
            for rendition in renditions {
                table.append([rendition.kind.rawValue, "\(rendition.width)x\(rendition.height)", String(rendition.bytes),
                              String(rendition.run), rendition.path])
            }
            lines += table.lines.map { "  " + $0 }
        }

        lines += ["", "history (\(history.count) step\(history.count == 1 ? "" : "s"), oldest first)"]
        if !history.isEmpty {
            var table = TextTable(["time", "run", "job", "stage", "status", "ms"], rightAligned: [1, 5])
            for entry in history {
                table.append([Timestamp.local(entry.time), String(entry.run), entry.job, entry.stage, entry.status,
                              String(format: "%.1f", entry.milliseconds)])
            }
            let rows = table.lines
            lines.append("  " + rows[0])
            for (entry, row) in zip(history, rows.dropFirst()) {
                lines.append("  " + row)
                lines.append("      parameters \(entry.parameters.shown)")
                if let error = entry.error {
                    lines.append("      \(entry.status == "failed" ? "error     " : "reason    ") \(error.shown)")
                }
            }
        }
        Console.out(lines.joined(separator: "\n"))
        return .ok
    }

    static func json(_ entry: HistoryEntry) -> JSONValue {
        .object([
            ("time", .string(Timestamp.utc(entry.time))), ("run", .int(Int(entry.run))), ("job", .string(entry.job)),
            ("job_path", .string(entry.jobPath)), ("stage", .string(entry.stage)), ("status", .string(entry.status)),
            ("error", .string(entry.error)), ("ms", .double(entry.milliseconds)),
            ("parameters", JSONValue(parsing: entry.parameters) ?? .string(entry.parameters)),
            ("input_hash", .string(entry.inputHash)), ("output_hash", .string(entry.outputHash)),
        ])
    }
}

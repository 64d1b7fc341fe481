import Foundation
import Core
import Catalogue
import Media
import JobFile

/// `album ls`: the catalogue's photos, newest added first, as a table or JSON.
struct LsCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "ls",
        abstract: "List the catalogue's photos, newest added first.",
        discussion: """
            The selectors are the job file's select: keys, ANDed. The count goes to stderr. -q prints the photos'
            full ids only, one a line, and no count; --json --renditions adds each photo's rendition files
            (absolute paths, sizes, hashes), a manifest for a website build (docs/json.md).
            """)

    @Option(SharedOptions.catalogueLocation) var location: CatalogueLocation
    @Option(SharedOptions.json.helped("a JSON array, one object per photo")) var json: Bool
    @Flag("--quiet", aliases: ["-q"], help: "the photos' ids only, one a line") var quiet: Bool
    @Flag("--renditions", help: "with --json: each photo's rendition files (kind, path, size, hashes)") var withRenditions: Bool
    @Option(.value("--taken", "RANGE", help: "capture day, month, year or range: 2008-04-20, 2008-04, 2008,\n2008-04-01..2008-04-30, 2008-03..2008-04, 2008-04-01.., ..2008-04-30",
                   default: nil, convert: { try LsCommand.range($0, "--taken") }))
    var taken: DateRange?
    @Option(.value("--added", "RANGE", help: "import day, month, year or range, the same forms", default: nil,
                   convert: { try LsCommand.range($0, "--added") }))
    var added: DateRange?
    @Option(.text("--filter", "NAME", help: "the applied preset (none, sepia, noir, vivid, or a job's own)")) var filter: String?
    @Option(.value("--path", "GLOB", help: "a glob on the original's path, relative to the current folder; ** is any folders,\nand a glob with no / matches the file's name in any folder",
                   default: nil, convert: { written in
                       if written.isEmpty { throw UsageError(JobBuilder.emptyPath("--path")) }
                       return written
                   }))
    var path: String?
    @Option(.text("--caption", "TEXT", help: "captions containing TEXT (any case)")) var caption: String?
    @Option(.text("--camera", "TEXT", help: "cameras containing TEXT (any case)")) var camera: String?
    @Option(.selector("--format", ImageFormat.self, valueName: "FORMAT", help: ImageFormat.namesInWords)) var format: ImageFormat?
    @Option(.selector("--kind", MediaKind.self, help: "photos (stills, RAWs, Live and Motion Photos) or videos")) var kind: MediaKind?
    @Option(SharedOptions.rating) var rating: RatingComparison?
    @Option(SharedOptions.keyword) var keywords: [String]
    @Option(SharedOptions.label) var label: String?
    @Option(.selector("--missing", Selection.Missing.self, help: "photos with no thumbnail (or export) whose file is still there"))
    var missing: Selection.Missing?
    @Option(.selector("--failed", Selection.Failed.self, help: "photos with a failed step in the newest job run")) var failed: Selection.Failed?
    @Option(.choice("--state", PhotoState.self, help: "photos in this state (docs/catalogue.md, \"A photo's life: states\")")) var state: PhotoState?

    /// The selectors as a job file's `select:` would give them.
    var selection: Selection {
        var selection = Selection()
        selection.taken = taken
        selection.added = added
        selection.filter = filter
        if let path {
            selection.path = Selection.pathPattern(path)
            selection.pathSource = PatternSource(written: path, key: "--path")
        }
        selection.caption = caption
        selection.camera = camera
        selection.format = format?.rawValue
        selection.kind = kind.map(ImageFormat.selecting)
        selection.missing = missing
        selection.failed = failed
        return SharedOptions.narrowed(selection, rating: rating, keywords: keywords, label: label)
    }

    /// A `--taken` or `--added` value; a malformed range is a usage error in the job file's words (`select.taken: …`).
    @Sendable static func range(_ text: String, _ name: String) throws -> DateRange {
        do { return try DateRange(parsing: text) } catch let error as StageError { throw UsageError(JobBuilder.badRange(name, error)) }
    }

    func validate() throws {
        if quiet, json { throw UsageError("-q/--quiet prints ids and --json prints JSON: give one of them") }
        if withRenditions, !json { throw UsageError("--renditions goes with --json: album ls --json --renditions") }
    }

    /// Reads the photos one at a time and writes each as it is read (`CatalogueReader.forEachPhoto`): `-q` and
    /// `--json` hold one photo and its own rows, whatever the catalogue's size (issue 34); the table holds its cells,
    /// whose widths it needs before its first line. A photo's state is decided from its own rows, looked up by index
    /// (`isSuperseded(_:)`, its aliases and second originals), as `PhotoRecord.conditions` decides it from all of them.
    func run() throws -> ExitCode {
        try location.requireCatalogue()  // says every place it looked
        let catalogue = try CatalogueReader(folder: location.folder)
        defer { catalogue.close() }
        let selection = try self.selection.resolved(in: catalogue)
        for warning in try LsCommand.warnings(selection, in: catalogue) { Console.err(warning) }
        let wanted = state
        let needsState = !quiet || wanted != nil
        var ids = OutputLines(), items = JSONArrayLines()
        var table = TextTable(["id", "taken", "added", "size", "format", "kind", "filter", "state", "rating", "label", "keywords", "caption", "path"])
        var count = 0
        try catalogue.forEachPhoto { photo in
            guard selection.matches(photo) else { return true }
            var seconds: [SecondOriginal] = [], aliases: [PhotoAlias] = [], condition = PhotoCondition.ok
            if needsState {
                seconds = try catalogue.secondOriginals(photo: photo.id)
                aliases = try catalogue.aliases(photo: photo.id)
                condition = photo.condition(isSuperseded: try catalogue.isSuperseded(photo), aliases: aliases, seconds: seconds)
                if let wanted, condition.state != wanted { return true }
            }
            count += 1
            if quiet {
                ids.append(photo.id)
                return ids.isOpen
            }
            if json {
                items.append(photo.json(kind: photo.json(condition, aliases: aliases, seconds: seconds,
                                                         renditions: withRenditions ? try catalogue.renditions(photo: photo.id) : nil)))
                return items.isOpen
            }
            table.append(LsCommand.cells(photo, condition, seconds: seconds))
            return true
        }
        if quiet {
            ids.flush()
        } else if json {
            items.finish()
        } else {
            Console.out(table.rendered)
            Console.err("\(count) photo\(count == 1 ? "" : "s")")
        }
        return .ok
    }

    /// The warnings for a `--path` that matches no photo and a `--label` or `--keyword` no photo has, read from the
    /// catalogue only when such a selector is given.
    static func warnings(_ selection: Selection, in catalogue: CatalogueReader) throws -> [String] {
        var warnings: [String] = []
        if selection.path != nil, let warning = selection.unmatchedPathWarning(among: try catalogue.photoPaths()) {
            warnings.append(warning)
        }
        if selection.label != nil || !(selection.keywords ?? []).isEmpty {
            warnings += FactWarnings.of(selection, among: try catalogue.allPhotos(), label: "--label", keyword: "--keyword")
        }
        return warnings
    }

    /// One photo's line of the table.
    static func cells(_ photo: PhotoRecord, _ condition: PhotoCondition, seconds: [SecondOriginal]) -> [String] {
        let taken = photo.taken.map(Timestamp.taken) ?? "-"
        let caption = photo.caption.map { TextTable.clipped($0, to: 30) } ?? "-"
        let keywords = photo.keywords.isEmpty ? "-" : TextTable.clipped(photo.keywords.joined(separator: ", "), to: 30)
        return [String(photo.id.prefix(8)), taken, Timestamp.local(photo.added), "\(photo.width)x\(photo.height)",
                photo.format, photo.kindCell, photo.filter, condition.state.rawValue, photo.rating.map(String.init) ?? "-", photo.label ?? "-",
                keywords, caption, LsCommand.shownPath(photo, seconds: seconds)]
    }

    /// The `path` cell: the photo's original, then each second original of a pair, by its name when it is in the
    /// same folder (`/photos/IMG_1.JPG + IMG_1.CR2`), else by its path; a Live Photo's movie with its duration
    /// (`/photos/IMG_1.HEIC + IMG_1.MOV (2.5 s)`).
    static func shownPath(_ photo: PhotoRecord, seconds: [SecondOriginal]) -> String {
        let folder = photo.path.lastIndex(of: "/").map { String(photo.path[...$0]) } ?? ""
        return ([photo.path] + seconds.map { second in
            let path = second.path.hasPrefix(folder) && !second.path.dropFirst(folder.count).contains("/")
                ? String(second.path.dropFirst(folder.count)) : second.path
            return second.shownDuration.map { "\(path) (\($0))" } ?? path
        }).joined(separator: " + ")
    }
}

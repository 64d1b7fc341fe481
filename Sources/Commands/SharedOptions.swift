import Core
import Catalogue
import JobFile

/// The options several commands share, declared once (swift-argument-parser's `@OptionGroup`): the same name,
/// value, checks and default wherever they appear. A command that means a little more by one says so with
/// `helped(_:)`, which keeps everything but the help line.
enum SharedOptions {
    /// `--help`, `-h`: every command answers it with the help made from its declarations.
    static let help: Option<Bool> = .flag("--help", aliases: ["-h"], help: "show this help")

    /// `--catalogue DIR`, `-c DIR`: the catalogue folder, made absolute; when not given, `ALBUM_CATALOGUE`, the
    /// config files' `catalogue:`, then `./album` (`CatalogueLocation`).
    static let catalogue = Option<String>(declaration: catalogueDeclaration) { given in
        try CatalogueLocation.resolve(given: given.last).folder
    }

    /// The same option read as where the catalogue was found, with every place looked at (`ls` says them when there
    /// is no catalogue there).
    static let catalogueLocation = Option<CatalogueLocation>(declaration: catalogueDeclaration) { given in
        try CatalogueLocation.resolve(given: given.last)
    }

    private static let catalogueDeclaration = OptionDeclaration(
        name: "--catalogue", aliases: ["-c"], valueName: "DIR", help: "the catalogue folder",
        defaultHelp: "$\(CatalogueLocation.environmentVariable), else a config file's catalogue:, else ./album")

    /// `--catalogue DIR`, `-c DIR`, for a command that runs a job: overrides the job's `catalogue:`, nil when not given.
    static let jobCatalogue: Option<String?> = .value("--catalogue", "DIR", aliases: ["-c"], help: "use this catalogue folder instead of the job's 'catalogue:'",
                                                      default: nil, convert: folder)

    /// `--wait[=SECONDS]`, for a command that writes the catalogue: when another album holds the catalogue's lock,
    /// wait for it (up to SECONDS; no value: as long as it takes) instead of stopping at once (exit 3). The value
    /// is only ever after `=`, as `--progress[=plain]`'s.
    static let wait: Option<LockWait?> = .optionalValue("--wait", "SECONDS", alone: LockWait(seconds: nil),
                                                        help: "when another album holds the catalogue, wait for it (up to SECONDS) instead of exiting 3") { text in
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
            throw UsageError("--wait takes a number of seconds (0 or more) after '=', got '\(text)'")
        }
        return LockWait(seconds: seconds)
    }

    /// `--json`: the command's answer as JSON on stdout instead of a table.
    static let json: Option<Bool> = .flag("--json", help: "JSON on stdout")

    /// `--dry-run`, `-n`: say what would be done, and do nothing.
    static let dryRun: Option<Bool> = .flag("--dry-run", aliases: ["-n"], help: "print what would be done, and do nothing")

    /// `--force`: every selected step to do, even those already up to date.
    static let force: Option<Bool> = .flag("--force", help: "redo every selected step, even those already up to date")

    /// `--verbose`, `-v`: every step, and libvips' warnings.
    static let verbose: Option<Bool> = .flag("--verbose", aliases: ["-v"], help: "print every step, and libvips' warnings")

    /// `--allow-empty`: an import folder that gives no photos, where the catalogue knows some from it, is meant to be
    /// empty (not an unmounted share): run, import or plan anyway.
    static let allowEmpty: Option<Bool> = .flag("--allow-empty", help: "go on when an import folder is empty where the catalogue knows photos from it")

    /// `--retry-damaged`: take photos a run found damaged through the stages again (they are left alone otherwise
    /// until their bytes change); one that decodes now has its damage cleared.
    static let retryDamaged: Option<Bool> = .flag("--retry-damaged", help: "take damaged photos through the stages again (by default they wait for new bytes)")

    /// `--workers N`, `-j N` (make's spelling): photos processed at once.
    static let workers: Option<Int?> = .number("--workers", aliases: ["-j"], in: 1...256, help: "photos processed at once",
                                               defaultHelp: "the number of cores")

    /// `--set NAME=VALUE`, repeatable: job variables, the last definition of a name winning.
    static let set = Option<[String: String]>(
        declaration: OptionDeclaration(name: "--set", valueName: "NAME=VALUE", help: "define or override a job variable, used as ${NAME}",
                                       repeats: true)
    ) { given in
        var variables: [String: String] = [:]
        for definition in given {
            guard let equals = definition.firstIndex(of: "="), equals != definition.startIndex else {
                throw UsageError("--set takes NAME=VALUE, got '\(definition)'")
            }
            variables[String(definition[..<equals])] = String(definition[definition.index(after: equals)...])
        }
        return variables
    }

    /// A `--catalogue` value: an absolute folder path. Empty is no folder at all (it would mean the working
    /// directory), so it is refused like a missing value.
    @Sendable static func folder(_ text: String) throws -> String {
        guard !text.isEmpty else { throw UsageError("--catalogue needs a value") }
        return Paths.absolute(text)
    }
}

extension SharedOptions {
    /// `--rating CMP`: XMP's rating compared, as `select: {rating: …}` (`ls`, `plan`).
    static let rating: Option<RatingComparison?> = .value(
        "--rating", "CMP", help: "XMP rating compared: '>= 4', '5', '< 0' (rejected); unrated counts as 0",
        default: nil, convert: { text in
            do { return try RatingComparison(parsing: text) } catch { throw UsageError(JobBuilder.badRating("--rating", error)) }
        })

    /// `--keyword WORD`, any number of times: XMP keywords the photo has, every one (`select: {keywords: […]}`).
    static let keyword: Option<[String]> = .repeated(
        "--keyword", "WORD", help: "an XMP keyword the photo has (any case; a level of a hierarchical one,\nsuch as Paris in Places|Europe|Paris); repeat for each one it must have",
        convert: { text in
            if text.isEmpty { throw UsageError("--keyword is empty; write a keyword such as beach") }
            return text
        })

    /// `--label NAME`: XMP's label, any case (`select: {label: …}`).
    static let label: Option<String?> = .value(
        "--label", "NAME", help: "XMP label, any case: Red, Yellow, Green, Blue, Purple or the writer's own",
        default: nil, convert: { text in
            if text.isEmpty { throw UsageError("--label is empty; write a label such as Red") }
            return text
        })

    /// The selection `--rating`, `--keyword` and `--label` make, over `selection`.
    static func narrowed(_ selection: Selection, rating: RatingComparison?, keywords: [String], label: String?) -> Selection {
        var narrowed = selection
        if let rating { narrowed.rating = rating }
        if !keywords.isEmpty { narrowed.keywords = (selection.keywords ?? []) + keywords }
        if let label { narrowed.label = label }
        return narrowed
    }
}

import Foundation
import Core
import YAML
import Catalogue
import JobFile

/// Which catalogue a command works on: the one rule every command that takes `--catalogue` follows
/// (docs/catalogue.md, "Which catalogue").
///
/// The first of these that is set wins:
/// 1. `--catalogue DIR` (`-c DIR`), relative to the current folder;
/// 2. for `run` and `plan`, the job file's own `catalogue:`;
/// 3. the `ALBUM_CATALOGUE` environment variable (empty is unset), relative to the current folder;
/// 4. `catalogue:` in `./album.yml`, then in `$XDG_CONFIG_HOME/album/config.yml` (`~/.config/album/config.yml`
///    when `XDG_CONFIG_HOME` is unset), read with album's YAML parser, relative to that file's folder;
/// 5. `album` in the current folder, for every command: `album run job.yml && album ls` agree. For `run` and `plan`
///    of a job whose catalogue an earlier album made beside the job file (earlier versions' default), that one, with a
///    note, while the current folder has none.
///
/// ```
/// // ALBUM_CATALOGUE=/photos/album, no --catalogue:
/// try CatalogueLocation.resolve(given: nil).folder   // "/photos/album"
/// ```
struct CatalogueLocation: Sendable, Equatable {
    /// The catalogue folder, absolute.
    let folder: String
    /// Each place looked at, in order, with what it held: the lines of the message when no catalogue is there.
    let looked: [String]
    /// A line for stderr about how the catalogue was found, when it is not the way the docs give first: a job's
    /// catalogue found where album's default used to be.
    var notice: String? = nil

    private static func holdsCatalogue(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/" + Catalogue.databaseName)
    }

    /// The environment variable naming the catalogue.
    static let environmentVariable = "ALBUM_CATALOGUE"

    /// The catalogue for a command: `given` is `--catalogue`'s value (nil when absent), `job` the job of `run` or
    /// `plan`, whose `catalogue:` comes second.
    /// - Throws: `UsageError` for an empty `--catalogue` or a config file whose `catalogue:` is not a path;
    ///   `DiagnosticList` for a config file that is not YAML.
    static func resolve(given: String?, job: Job? = nil,
                        environment: [String: String] = ProcessInfo.processInfo.environment,
                        currentFolder: String = FileManager.default.currentDirectoryPath) throws -> CatalogueLocation {
        var looked: [String] = []
        if let given {
            guard !given.isEmpty else { throw UsageError("--catalogue needs a value") }
            return CatalogueLocation(folder: Paths.absolute(given, relativeTo: currentFolder), looked: ["--catalogue \(given)"])
        }
        looked.append("--catalogue: not given")
        if let job {
            if !job.catalogueIsDefault { return CatalogueLocation(folder: job.catalogue, looked: looked + ["the job's catalogue: \(job.catalogue)"]) }
            looked.append("the job's catalogue: not set")
        }
        if let value = environment[environmentVariable], !value.isEmpty {
            return CatalogueLocation(folder: Paths.absolute(value, relativeTo: currentFolder), looked: looked + ["\(environmentVariable)=\(value)"])
        }
        looked.append("\(environmentVariable): not set")
        for file in configFiles(environment: environment, currentFolder: currentFolder) {
            guard let text = try configured(in: file) else {
                looked.append("\(file): \(FileManager.default.fileExists(atPath: file) ? "no catalogue: key" : "no such file")")
                continue
            }
            let folder = Paths.absolute(text, relativeTo: (file as NSString).deletingLastPathComponent)
            return CatalogueLocation(folder: folder, looked: looked + ["\(file): catalogue: \(text)"])
        }
        let folder = Paths.absolute("album", relativeTo: currentFolder)
        // Before the catalogue was found the same way by every command, a job's default was `album` beside its
        // file. A catalogue there is still used, and said so, until the job names it or one exists here.
        if let job, job.catalogue != folder, !holdsCatalogue(folder), holdsCatalogue(job.catalogue) {
            return CatalogueLocation(folder: job.catalogue, looked: looked + ["the default, album in the current folder: \(folder): none there",
                                                                              "album beside the job file, where earlier versions put a job's catalogue: \(job.catalogue)"],
                                     notice: "album: note: using the catalogue beside the job file, \(job.catalogue) (where earlier versions of album put it); "
                                         + "add 'catalogue: album' to the job to keep using it, as album now looks in the current folder")
        }
        return CatalogueLocation(folder: folder, looked: looked + ["the default, album in the current folder: \(folder)"])
    }

    /// The catalogue folder for running or planning `job`, its notice (if any) said on stderr.
    static func folder(given: String?, for job: Job) throws -> String {
        let location = try resolve(given: given, job: job)
        if let notice = location.notice { Console.err(notice) }
        return location.folder
    }

    /// The config files, in the order they are read: `./album.yml`, then the user's.
    static func configFiles(environment: [String: String], currentFolder: String) -> [String] {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? Paths.absolute("~/.config")
        return [Paths.absolute("album.yml", relativeTo: currentFolder), base + "/album/config.yml"]
    }

    /// The `catalogue:` text in the config file at `path`, nil when there is no file or no such key.
    private static func configured(in path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read the config file \(path); make it readable or remove it")
        }
        let root = try YAMLParser.parse(Array(data), file: path)
        guard let node = root["catalogue"] else { return nil }
        guard let text = node.stringValue, !text.isEmpty else {
            throw UsageError("\(path):\(node.location.line):\(node.location.column): catalogue: takes a folder path")
        }
        return text
    }

    /// Throws when the folder holds no catalogue, naming every place looked at, in order.
    /// - Throws: `CatalogueError` "no catalogue at DIR. album looked, in order, at: …".
    func requireCatalogue() throws {
        guard !FileManager.default.fileExists(atPath: folder + "/" + Catalogue.databaseName) else { return }
        throw missing
    }

    /// "No catalogue at DIR" with the places looked at, for a command that found `error`'s folder without
    /// `--catalogue`: the message `ls` gives, for every command. Any other error is returned as it is.
    /// A folder that holds a catalogue in its `.album` or `album` (`-c /photos` for `/photos/.album`) is named, as
    /// "did you mean".
    static func explained(_ error: CatalogueError) -> CatalogueError {
        guard let folder = error.missingFolder else { return error }
        var explained = error
        if let location = try? resolve(given: nil), location.folder == folder { explained = location.missing }
        if let inside = [".album", "album"].map({ folder + "/" + $0 }).first(where: holdsCatalogue) {
            explained.message += "\n\(inside) holds a catalogue: did you mean --catalogue \(inside)?"
        }
        return explained
    }

    /// The error for no catalogue at `folder`, naming every place looked at, in order.
    private var missing: CatalogueError {
        let places = looked.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        return CatalogueError("""
            no catalogue at \(folder). album looked, in order, at:
            \(places)
            Run a job or `album import` to create one, or pass --catalogue DIR (or set \(CatalogueLocation.environmentVariable))
            """, missingFolder: folder)
    }
}

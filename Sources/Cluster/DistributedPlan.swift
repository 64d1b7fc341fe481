import Foundation
import System
import Core
import Run
import Catalogue

/// What `album run --distribute` planned, as `run.json` in the run folder holds it: everything a chunk needs to
/// run its share as the planning machine would have, and what `album merge` checks chunks against.
public struct DistributedPlan: Sendable, Equatable {
    /// The format of `run.json`; a reader refuses a newer one.
    package static let format = 1

    /// The parent run's id in the catalogue.
    public var run: Int64
    public var engine: DistributedEngine
    public var chunks: Int
    public var maxParallel: Int
    /// The catalogue folder, absolute, as the planner saw it (every node mounts it at the same path).
    public var catalogue: String
    /// The job file, absolute, its SHA-256 when planned, and its `--set` variables.
    public var jobPath: String
    public var jobHash: String?
    public var variables: [String: String]
    /// The planner's album and libvips versions: a chunk made by other versions is not merged.
    public var album: String
    public var vips: String
    public var created: String
    /// The run's options that change what a chunk does (`RunOptions`); `workers` is per chunk, nil for the cores
    /// its allocation has (`ChunkWorkers`).
    public var force = false
    public var retryDamaged = false
    public var pixelBudgetMegapixels = RunOptions().pixelBudgetMegapixels
    public var workers: Int? = nil
    /// `catalogue.db` as the planner left it, when the chunks read it in place (its state, which they check before
    /// and after their run); nil when they read the run's snapshot (`snapshot.db`) instead.
    public var readsCatalogue: FileIdentity? = nil

    package var json: JSONValue {
        .object([
            ("format", .int(DistributedPlan.format)),
            ("run", .int(Int(run))),
            ("engine", .string(engine.rawValue)),
            ("chunks", .int(chunks)),
            ("max_parallel", .int(maxParallel)),
            ("catalogue", .string(catalogue)),
            ("job", .string(jobPath)),
            ("job_hash", .string(jobHash)),
            ("variables", .object(variables.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("album", .string(album)),
            ("vips", .string(vips)),
            ("created", .string(created)),
            ("force", .bool(force)),
            ("retry_damaged", .bool(retryDamaged)),
            ("memory_budget", .int(pixelBudgetMegapixels)),
            ("workers", .int(workers)),
            ("reads_catalogue", readsCatalogue.map { state in
                .object([("bytes", .int(state.bytes)), ("inode", .int(state.inode)), ("mtime_ns", .int(state.mtimeNanoseconds))])
            } ?? .null),
        ])
    }

    /// Reads `run.json` back; nil with `problem` set when it is not one this album wrote.
    package init?(json: JSONValue, problem: inout String) {
        guard let format = json["format"]?.intValue else { problem = "it has no format number"; return nil }
        guard format <= DistributedPlan.format else {
            problem = "it was written by a newer album (format \(format); this album reads \(DistributedPlan.format))"
            return nil
        }
        guard let run = json["run"]?.intValue, let engine = json["engine"]?.stringValue.flatMap(DistributedEngine.init(rawValue:)),
              let chunks = json["chunks"]?.intValue, chunks > 0, let maxParallel = json["max_parallel"]?.intValue,
              let catalogue = json["catalogue"]?.stringValue, let jobPath = json["job"]?.stringValue,
              let album = json["album"]?.stringValue, let vips = json["vips"]?.stringValue,
              let created = json["created"]?.stringValue, let variables = json["variables"]?.objectValue else {
            problem = "a member is missing or of the wrong kind"
            return nil
        }
        self.run = Int64(run)
        self.engine = engine
        self.chunks = chunks
        self.maxParallel = maxParallel
        self.catalogue = catalogue
        self.jobPath = jobPath
        self.jobHash = json["job_hash"]?.stringValue
        self.variables = Dictionary(variables.compactMap { key, value in value.stringValue.map { (key, $0) } }, uniquingKeysWith: { a, _ in a })
        self.album = album
        self.vips = vips
        self.created = created
        force = json["force"]?.boolValue ?? false
        retryDamaged = json["retry_damaged"]?.boolValue ?? false
        pixelBudgetMegapixels = json["memory_budget"]?.intValue ?? RunOptions().pixelBudgetMegapixels
        workers = json["workers"]?.intValue
        if let state = json["reads_catalogue"], let bytes = state["bytes"]?.intValue, let inode = state["inode"]?.intValue,
           let modified = state["mtime_ns"]?.intValue {
            readsCatalogue = FileIdentity(bytes: bytes, inode: inode, mtimeNanoseconds: modified)
        }
    }

    package init(run: Int64, engine: DistributedEngine, chunks: Int, maxParallel: Int, catalogue: String, jobPath: String,
         jobHash: String?, variables: [String: String], software: Software, created: String) {
        self.run = run
        self.engine = engine
        self.chunks = chunks
        self.maxParallel = maxParallel
        self.catalogue = catalogue
        self.jobPath = jobPath
        self.jobHash = jobHash
        self.variables = variables
        album = software.album
        vips = software.vips
        self.created = created
    }

    /// The plan in `folder`, or why it cannot be read. On a node (`album chunk`, `onNode`), a plan that cannot be
    /// read is an environment problem (the shared folder is not mounted there, or not yet visible), which the chunk
    /// answers with exit 75. Elsewhere (`album merge`, `album dist`) a folder with no `run.json` is not a run folder:
    /// a usage error (exit 2); one that cannot be read is exit 3.
    package static func read(_ folder: RunFolder, onNode: Bool = false) throws -> DistributedPlan {
        guard let text = RunFolder.text(of: folder.plan) else {
            if !onNode, FileStatus.of(folder.plan) == nil {
                throw DistributedError("\(folder.path) is not a distributed run folder: it has no run.json (a run folder is CATALOGUE/dist/run-N, as album run --distribute names it)", exitCode: .usage)
            }
            throw DistributedError("cannot read \(folder.plan): is the run folder's file system mounted on this node (\(ProcessInfo.processInfo.hostName))?", exitCode: onNode ? .retry : .environment)
        }
        var problem = "it is not JSON"
        guard let json = JSONValue(parsing: text), let plan = DistributedPlan(json: json, problem: &problem) else {
            throw DistributedError("\(folder.plan) is not a distributed run album can read: \(problem)", exitCode: .usage)
        }
        return plan
    }

    /// The file each chunk's view links: `catalogue.db` itself when the chunks read it in place, else the run's
    /// snapshot in `folder`.
    package func seed(in folder: RunFolder) -> String {
        readsCatalogue == nil ? folder.snapshot : catalogue + "/" + Catalogue.databaseName
    }

    /// Throws exit 3 when the chunks read `catalogue.db` in place and it is no longer the file the planner left:
    /// something wrote it (or put another file in its place), so what a chunk reads may not be the catalogue as
    /// planned, and nothing made of it may be merged. `doing` says who checks ("chunk 3").
    package func requireCatalogueUnchanged(_ doing: String, folder: RunFolder) throws {
        guard let planned = readsCatalogue else { return }
        let file = catalogue + "/" + Catalogue.databaseName
        let now = FileIdentity(file: file)
        guard now != planned else { return }
        throw DistributedError("""
            \(doing): \(file) was written since distributed run \(run) was planned (planned: \(planned.description); now: \(now?.description ?? "missing")), \
            while its chunks read it in place; what they read may not be the catalogue as planned, so nothing of theirs is merged. \
            Give the run up with `album dist abandon \(folder.path)` and run the job again
            """, exitCode: .environment)
    }

    /// The options a chunk runs with.
    var runOptions: RunOptions {
        var options = RunOptions()
        options.force = force
        options.retryDamaged = retryDamaged
        options.pixelBudgetMegapixels = pixelBudgetMegapixels
        options.workers = workers
        options.allowEmpty = true  // the planner checked the roots against the catalogue; a chunk checks its node's
        return options
    }
}

/// A distributed run's problem, with the exit status it means (75 for the environment: try again, elsewhere).
public struct DistributedError: Error, CustomStringConvertible {
    public var message: String
    public var exitCode: ExitCode
    public init(_ message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }
    public var description: String { message }
}

import Foundation
import Core
import YAML
import Catalogue
import Cluster

/// `album chunk RUNDIR [K]`: processes one chunk of a distributed run (docs/distributed.md); what Slurm's job array
/// and Kubernetes' Indexed Job run on each node.
struct ChunkCommand: Command {
    static let configuration = CommandConfiguration(
        name: "chunk",
        abstract: "Process one chunk of a distributed run (what each node of a Slurm or Kubernetes run does).",
        discussion: """
            K defaults to SLURM_ARRAY_TASK_ID, then JOB_COMPLETION_INDEX (Kubernetes' Indexed Job). The chunk runs
            the job over its share of photos with its own catalogue database, RUNDIR/chunk-K.db, under the lock
            RUNDIR/chunk-K.lock: a second copy of the same chunk waits, then finds it finished and exits 0, and a
            chunk run again after a kill resumes. Exit status: 0 when the chunk finished, even with failed photos
            (they are recorded; `album merge` carries them into the catalogue); 75 for trouble on this node (a
            catalogue, run folder or import root missing or empty, as an unmounted share is; another album or
            libvips version), so that the engine runs it again, elsewhere if it can; 2 for a job-file error.
            Workers default to the cores the allocation has (SLURM_CPUS_PER_TASK, SLURM_CPUS_ON_NODE, the pod's CPU limit).
            """)

    @Positionals("RUNDIR [K]") var given: [String]
    @Option(SharedOptions.workers.helped("photos processed at once", defaultHelp: "the run's --workers, else the allocation's cores"))
    var workers: Int?
    @Option(RunCommand.logFormat) var logFormat: LogFormat?
    @Option(SharedOptions.verbose) var verbose: Bool

    var folder: String { given.first ?? "" }

    /// K: the second argument, else SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX; nil when the one found is no
    /// chunk number (or none is there).
    var chunk: Int? {
        if given.count == 2 { return Int(given[1]).flatMap { $0 >= 0 ? $0 : nil } }
        let environment = ProcessInfo.processInfo.environment
        for name in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
            guard let text = environment[name] else { continue }
            return Int(text).flatMap { $0 >= 0 ? $0 : nil }
        }
        return nil
    }

    /// What the chunk prints, and where.
    var output: RunOutput {
        var output = RunOutput()
        if let logFormat { output.logFormat = logFormat }
        output.verbose = verbose
        return output
    }

    func validate() throws {
        guard (1...2).contains(given.count) else {
            throw UsageError(given.isEmpty ? "chunk needs a run folder" : "chunk takes a run folder and a chunk number, got \(given.count) arguments")
        }
        if given.count == 2, chunk == nil { throw UsageError("'\(given[1])' is not a chunk number (0, 1, 2, …)") }
        guard chunk != nil else {
            let environment = ProcessInfo.processInfo.environment
            for name in ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] {
                if let text = environment[name] { throw UsageError("\(name)=\(text) is not a chunk number") }
            }
            throw UsageError("chunk needs K: give it after the run folder, or run it as a Slurm array task (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job pod (JOB_COMPLETION_INDEX)")
        }
    }

    static let checksItsOutput = true

    func run() throws -> ExitCode {
        guard let chunk else { return .usage }
        let output = self.output
        let run = ChunkRun(folder: RunFolder(folder), chunk: chunk, workers: workers, observer: { output.reporters(for: $0) },
                           mainStreams: output.mainStreams, verbose: output.verbose)
        do {
            return try run.run()
        } catch let error as DistributedError {
            Console.error(error.message)
            return error.exitCode
        } catch let error as DiagnosticList {
            throw error
        } catch let error as CatalogueError {
            Console.error(error.message + " (chunk \(chunk); the engine may run it again)")
            return .retry
        } catch let error as SourceError {
            Console.error(error.message)
            return .retry
        } catch {
            Console.error("chunk \(chunk) of \(folder): \(error)")
            return .retry
        }
    }
}

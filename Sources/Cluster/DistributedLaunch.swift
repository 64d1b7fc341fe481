import Foundation
import System
import Core
import Catalogue
import Run

/// Hands a planned distributed run to its engine (docs/distributed.md):
/// - `local`: the chunk processes, `--max-parallel` at a time, each logging to `engine/chunk-K.log`; a chunk that
///   exits 75 is run again (twice at most); then the merge, in this process.
/// - `slurm`: `sbatch --array=0-(C-1)%M` of `album chunk`, then `sbatch --dependency=afterany:ID` of `album merge`.
/// - `k8s`: the Indexed Job and the merge Job written to `engine/`, and with `--apply` given to `kubectl apply`.
public struct DistributedLaunch {
    public var planned: DistributedPlanner.Planned
    /// Workers per chunk (`--workers`): nil for the cores each chunk's allocation has.
    public var workers: Int?
    /// Kubernetes: the container image, and whether to apply the manifests.
    public var image = "album:latest"
    public var apply = false
    /// Export roots and import roots, for the Kubernetes volumes.
    public var importRoots: [String] = []
    public var exportRoots: [String] = []
    public var jobName = "album"

    public init(planned: DistributedPlanner.Planned, workers: Int?) {
        self.planned = planned
        self.workers = workers
    }

    /// The album executable the engine runs: this one (every node sees it at the same path, as it sees the catalogue).
    package static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Launches the run and returns the exit status `album run` ends with.
    public func launch() throws -> ExitCode {
        let folder = planned.folder
        try Directory.create(folder.engineFolder)
        Console.err("album: distributed run \(planned.plan.run): \(planned.plan.chunks) chunks in \(folder.path) (\(planned.manifests.map(\.count).reduce(0, +)) items)")
        switch planned.plan.engine {
        case .local: return try runLocally()
        case .slurm: return try submitToSlurm()
        case .k8s: return try writeKubernetes()
        }
    }

    /// `album chunk RUNDIR [K] [--workers W]`. Locally a chunk runs one worker unless `--workers` says otherwise:
    /// `--max-parallel` chunks at once already share the cores.
    private func chunkArguments(_ chunk: Int?) -> [String] {
        let workers = self.workers ?? (planned.plan.engine == .local ? 1 : nil)
        return ["chunk", planned.folder.path] + (chunk.map { [String($0)] } ?? []) + (workers.map { ["--workers", String($0)] } ?? [])
    }

    // MARK: local

    private func runLocally() throws -> ExitCode {
        let plan = planned.plan, folder = planned.folder
        var pending = (0..<plan.chunks).filter { ChunkOutcome.read(folder, chunk: $0) == nil }
        let pool = ProcessPool(limit: plan.maxParallel)
        let total = plan.chunks
        for attempt in 1...3 where !pending.isEmpty {
            let lists = pending.map(chunkArguments)
            let logs = pending.map { folder.engineFolder + "/chunk-\($0).log" }
            let chunks = pending
            let already = total - pending.count
            let statuses = pool.run(DistributedLaunch.executable, lists, logs: logs) { index, status, succeeded in
                let what = status == 0 ? "finished" : "exited \(status)"
                Console.err("album: chunk \(chunks[index]) \(what) (\(already + succeeded)/\(total) chunks done)")
            }
            if let signal = statuses.compactMap({ $0 }).first(where: { $0 == 130 || $0 == 143 }) {
                Console.err("album: stopped; distributed run \(plan.run) stays open. Run the same command again to resume it, or `album dist abandon \(folder.path)`")
                return signal == 130 ? .interrupted : .terminated
            }
            pending = zip(chunks, statuses).compactMap { chunk, status in status == 0 ? nil : chunk }
            let retried = zip(chunks, statuses).filter { $0.1 == ExitCode.retry.rawValue }.map(\.0)
            if retried.count != pending.count { break }  // a chunk that failed otherwise will fail again
            if !pending.isEmpty, attempt < 3 { Console.err("album: running chunks \(ChunkList.text(pending)) again (they met environment trouble)") }
        }
        guard pending.isEmpty else {
            let logs = pending.prefix(3).map { folder.engineFolder + "/chunk-\($0).log" }.joined(separator: ", ")
            throw DistributedError("chunks \(ChunkList.text(pending)) did not finish (see \(logs)); distributed run \(plan.run) stays open: run the same command again to resume it", exitCode: .environment)
        }
        let outcome = try DistributedMerge(folder: folder).merge()
        MergeSummary.print(outcome, folder: folder)
        return outcome.failedPhotos > 0 ? .failures : .ok
    }

    // MARK: Slurm

    private func submitToSlurm() throws -> ExitCode {
        let plan = planned.plan, folder = planned.folder, engine = folder.engineFolder
        let album = DistributedLaunch.executable
        let chunkScript = engine + "/chunk.sbatch", mergeScript = engine + "/merge.sbatch"
        let name = "album-run-\(plan.run)"
        let tasks = SlurmLimits.read().arrayTasks(chunks: plan.chunks)
        let throttle = plan.maxParallel < tasks ? "%\(plan.maxParallel)" : ""
        let arrayID: String
        do {
            try RunFolder.write(DistributedLaunch.chunkScript(album: album, folder: folder.path, options: Array(chunkArguments(nil).dropFirst(2)),
                                                              chunks: plan.chunks, tasks: tasks),
                                to: chunkScript)
            try RunFolder.write("""
                #!/bin/sh
                # album merge, after every chunk has ended (afterany): it merges nothing while a chunk has not finished.
                exec \(ShellQuote.quote(album)) merge \(ShellQuote.quote(folder.path))

                """, to: mergeScript)
            var chunkJob = ["sbatch", "--parsable", "--job-name", name, "--array", "0-\(tasks - 1)\(throttle)",
                            "--requeue", "--output", engine + "/chunk-%a.log", "--chdir", folder.path]
            if let workers { chunkJob += ["--cpus-per-task", String(workers)] }
            arrayID = try EngineCommand.submit(chunkJob + [chunkScript])
        } catch {
            throw abandoning(after: error)
        }
        let mergeJob = ["sbatch", "--parsable", "--job-name", name + "-merge", "--dependency", "afterany:\(arrayID)",
                        "--output", engine + "/merge.log", "--chdir", folder.path, mergeScript]
        let mergeID: String
        do {
            mergeID = try EngineCommand.submit(mergeJob)
        } catch {
            // The chunks are queued: the run stays open for them, and the user hears how to merge or give it up.
            try? RunFolder.write(JSONValue.object([("array_job", .string(arrayID))]).text + "\n", to: engine + "/slurm.json")
            throw DistributedError("""
                \(DistributedLaunch.message(of: error)); the chunks are submitted (array job \(arrayID)) but not their merge, \
                so distributed run \(plan.run) stays open: submit the merge with `\(mergeJob.map(ShellQuote.quote).joined(separator: " "))` \
                (or run `album merge \(folder.path)` once the chunks have ended), or give the run up with \
                `scancel \(arrayID)` and then `album dist abandon \(folder.path)`
                """, exitCode: .environment)
        }
        try RunFolder.write(JSONValue.object([("array_job", .string(arrayID)), ("merge_job", .string(mergeID))]).text + "\n",
                            to: engine + "/slurm.json")
        Console.out("slurm array job \(arrayID) (\(plan.chunks) chunks\(tasks < plan.chunks ? " in \(tasks) tasks" : ""), \(throttle.isEmpty ? "as many at a time as the cluster gives" : "\(plan.maxParallel) at a time")), merge job \(mergeID)")
        Console.err("album: follow it with `album dist status \(folder.path)`; the merge job merges when every chunk has ended")
        return .ok
    }

    /// `engine/chunk.sbatch`: `album chunk RUNDIR` with K from `SLURM_ARRAY_TASK_ID` when every chunk has its own
    /// array task; else task T runs chunks T, T + `tasks`, T + 2 `tasks`, … one after another, and stops at the first
    /// that does not finish (its exit status is the task's: 75 is for `RequeueExit=75`, and a requeued task runs
    /// again the chunks it had finished, which exit 0 at once).
    package static func chunkScript(album: String, folder: String, options: [String], chunks: Int, tasks: Int) -> String {
        let command = ([album, "chunk", folder]).map(ShellQuote.quote).joined(separator: " ")
        let rest = options.map { " " + ShellQuote.quote($0) }.joined()
        guard tasks < chunks else {
            return """
                #!/bin/sh
                # album chunk K, with K from SLURM_ARRAY_TASK_ID; exit 75 (environment trouble) is for RequeueExit=75.
                echo "album: chunk ${SLURM_ARRAY_TASK_ID:-?} on node ${SLURMD_NODENAME:-?}, attempt $((${SLURM_RESTART_COUNT:-0} + 1))" >&2
                exec \(command)\(rest)

                """
        }
        return """
            #!/bin/sh
            # \(chunks) chunks over \(tasks) array tasks (Slurm's MaxArraySize and MaxJobCount): task T runs chunks T, T + \(tasks), …
            # exit 75 (environment trouble) is for RequeueExit=75; a requeued task's finished chunks exit 0 at once.
            k=${SLURM_ARRAY_TASK_ID:?album: SLURM_ARRAY_TASK_ID is not set}
            while [ "$k" -lt \(chunks) ]; do
                echo "album: chunk $k (task ${SLURM_ARRAY_TASK_ID}) on node ${SLURMD_NODENAME:-?}, attempt $((${SLURM_RESTART_COUNT:-0} + 1))" >&2
                \(command) "$k"\(rest) || exit $?
                k=$((k + \(tasks)))
            done

            """
    }

    /// What a submission that failed before any job was queued ends with: the run is abandoned here (`album dist
    /// abandon`), so the catalogue takes other writers again; when that cannot be done, the message says what to run.
    private func abandoning(after error: any Error) -> DistributedError {
        let folder = planned.folder, run = planned.plan.run
        let message = DistributedLaunch.message(of: error)
        do {
            _ = try DistributedMerge.abandon(folder)
            return DistributedError("\(message); nothing was submitted, so distributed run \(run) is abandoned and the catalogue takes other writers again",
                                    exitCode: .environment)
        } catch {
            return DistributedError("\(message); nothing was submitted, but distributed run \(run) stays open (\(DistributedLaunch.message(of: error))): "
                                    + "give it up with `album dist abandon \(folder.path)` before other writers can use the catalogue",
                                    exitCode: .environment)
        }
    }

    /// An error's words: a `DistributedError`'s message, a catalogue error's, or its description.
    package static func message(of error: any Error) -> String {
        switch error {
        case let error as DistributedError: error.message
        case let error as CatalogueError: error.message
        default: String(describing: error)
        }
    }

    // MARK: Kubernetes

    private func writeKubernetes() throws -> ExitCode {
        let plan = planned.plan, folder = planned.folder
        var manifests = KubernetesManifests(name: KubernetesManifests.name(job: jobName, run: Int(plan.run)), runFolder: folder.path,
                                            chunks: plan.chunks, maxParallel: plan.maxParallel,
                                            mounts: KubernetesManifests.mounts(catalogue: plan.catalogue, imports: importRoots,
                                                                               exports: exportRoots))
        manifests.image = image
        if let workers { manifests.cpusPerChunk = workers }
        let written = try manifests.write(into: folder.path)
        let files = [written.chunks, written.merge]
        for file in files { Console.out(file) }
        guard apply else {
            Console.err("album: apply them with `kubectl apply -f \(files.joined(separator: " -f "))`; the merge Job waits for every chunk (album merge --wait)")
            return .ok
        }
        let result = try EngineCommand.output(["kubectl", "apply"] + files.flatMap { ["-f", $0] })
        Console.err(result)
        return .ok
    }
}

/// Running the engines' command-line tools: `sbatch --parsable` answers the job id on stdout.
enum EngineCommand {
    /// Runs `command` and returns its trimmed stdout; throws with its stderr when it fails or cannot start.
    package static func output(_ command: [String]) throws -> String {
        let result: (status: Int32, stdout: String, stderr: String)
        do {
            result = try ProcessPool.capture(command)
        } catch {
            throw DistributedError("cannot run \(command[0]): \(error.localizedDescription); is it installed on this machine?", exitCode: .environment)
        }
        guard result.status == 0 else {
            throw DistributedError("\(command[0]) failed (exit \(result.status)): \(result.stderr.isEmpty ? result.stdout : result.stderr)", exitCode: .environment)
        }
        return result.stdout
    }

    /// Submits with `sbatch --parsable` and returns the job id (the part before a `;cluster`).
    static func submit(_ command: [String]) throws -> String {
        let answer = try output(command)
        let id = answer.split(separator: ";").first.map(String.init) ?? answer
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw DistributedError("sbatch answered '\(answer)', not a job id", exitCode: .environment)
        }
        return id
    }
}

/// A word for a POSIX shell script: single-quoted unless it is plain.
enum ShellQuote {
    package static func quote(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+=:,@".contains($0)) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

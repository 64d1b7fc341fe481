import Foundation
import Core

/// What a Slurm cluster lets one distributed run submit, from `scontrol show config` (docs/distributed.md, "Slurm"):
/// `MaxArraySize` bounds an array's indices (0 to `MaxArraySize - 1`), and `MaxJobCount` the jobs the controller
/// holds at once, where every array task counts as one. When a run has more chunks than its array may have tasks,
/// one array task runs several chunks (`arrayTasks(chunks:)`, the loop in `engine/chunk.sbatch`).
package struct SlurmLimits: Sendable, Equatable {
    /// Slurm's own defaults, for a controller that cannot be asked.
    package var maxArraySize = 1001
    package var maxJobCount = 10_000

    package init(maxArraySize: Int = 1001, maxJobCount: Int = 10_000) {
        self.maxArraySize = maxArraySize
        self.maxJobCount = maxJobCount
    }

    /// The limits in `scontrol show config`'s text (`Name = value` lines); Slurm's defaults for what it does not say.
    package init(config text: String) {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Int(parts[1].split(separator: " ").first ?? ""), value > 0 else { continue }
            switch parts[0] {
            case "MaxArraySize": maxArraySize = value
            case "MaxJobCount": maxJobCount = value
            default: break
            }
        }
    }

    /// The cluster's limits, asked with `scontrol show config`; Slurm's defaults, with a warning, when it cannot answer.
    package static func read() -> SlurmLimits {
        do {
            return SlurmLimits(config: try EngineCommand.output(["scontrol", "show", "config"]))
        } catch {
            Console.err("album: warning: cannot read Slurm's MaxArraySize and MaxJobCount (\(DistributedLaunch.message(of: error))); assuming Slurm's defaults, \(SlurmLimits().maxArraySize) and \(SlurmLimits().maxJobCount)")
            return SlurmLimits()
        }
    }

    /// How many array tasks run `chunks` chunks: one a chunk while the array may have that many, else as many as it
    /// may (indices below `MaxArraySize`, and at most half of `MaxJobCount`, so that one run never fills the
    /// controller's table: other jobs, and this run's merge job, count too). Task T then runs chunks T, T + tasks, …
    package func arrayTasks(chunks: Int) -> Int {
        max(1, min(chunks, maxArraySize, max(1, maxJobCount / 2)))
    }
}

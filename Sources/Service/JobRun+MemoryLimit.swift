import System
import Foundation
import Vips
import Core
import Run

extension JobRun {
    /// The run's options with the workers and memory budget that fit under the address-space limit
    /// (`MemoryLimit`), and a note on stderr when they are fewer than asked for. Unchanged when there is no limit.
    /// Asked once libvips and the catalogue are open, so that what they mapped is counted.
    /// - Throws: `MemoryLimitError` (exit 3) when not even one worker fits.
    func affordable() throws -> RunOptions {
        guard let limit = AddressSpace.limit, let inUse = AddressSpace.inUse else { return options }
        let memory = MemoryLimit(limit: limit, inUse: inUse, threadStack: AddressSpace.threadStackBytes)
        let workers = max(1, options.workers ?? job.workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let plan = try memory.plan(workers: workers, megapixels: options.pixelBudgetMegapixels)
        if verbose || plan.workers < workers || plan.megapixels < options.pixelBudgetMegapixels {
            Console.err("album: \(AddressSpace.limitDescription ?? ""), \(AddressSpace.megabytes(inUse)) mapped at start: "
                + "running \(plan.workers) worker\(plan.workers == 1 ? "" : "s") (of \(workers)) with a memory budget of "
                + "\(plan.megapixels) MP (of \(options.pixelBudgetMegapixels))")
        }
        var options = options
        options.workers = plan.workers
        options.pixelBudgetMegapixels = plan.megapixels
        return options
    }
}

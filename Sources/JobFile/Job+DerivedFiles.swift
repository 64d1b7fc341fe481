import Stages

extension Job {
    /// The files this job's own stages make, which its import never takes: its catalogue folder and the root of
    /// each export template (`PathTemplate.root`, the folder the export stage writes under), plus any file with
    /// album's export tag (`DerivedFiles`).
    public var derivedFiles: DerivedFiles {
        DerivedFiles(catalogue: catalogue, exportRoots: stages.compactMap(\.outputRoot))
    }

    /// Import's scan for this job, derived files left out: the one scan both `Scheduler.runAll` and `Planner` use
    /// (through `Run`'s `importScanInParallel`, which walks subfolders on the scheduler's threads).
    public func importScan(parallel: ParallelIndices? = nil) -> ImportScan {
        importStage?.scan(skipping: derivedFiles, parallel: parallel) ?? ImportScan()
    }
}

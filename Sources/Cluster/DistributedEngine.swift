/// Where a distributed run's chunks run (`album run --distribute ENGINE`).
public enum DistributedEngine: String, Sendable, CaseIterable {
    /// Chunk processes spawned by `album run` itself, `--max-parallel` at a time, then the merge: one big machine.
    case local
    /// A Slurm job array of `album chunk`, then a merge job that depends on it (`afterany`).
    case slurm
    /// A Kubernetes Indexed Job of `album chunk` and a merge Job, written (and with `--apply` applied).
    case k8s
}

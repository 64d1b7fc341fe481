import System

/// The Kubernetes objects of a distributed run: an Indexed Job of its chunks and the Job that merges them, each one
/// YAML document written into the run folder for `kubectl apply -f`.
///
/// A chunk's pod mounts the catalogue, the import roots and the export roots from persistent volume claims at the
/// same absolute paths as on the planning machine, so the paths in the run folder's snapshot and manifests mean the
/// same in a pod; the merge's pod mounts the read-write ones. The chunk Job runs `album chunk RUNDIR` once per index (Kubernetes sets `JOB_COMPLETION_INDEX`); an
/// exit status of 2 (a job-file error) fails that index at once, any other failure (75, environment trouble) is
/// retried in a new pod up to `backoffLimitPerIndex` times. The merge Job runs `album merge RUNDIR --wait`.
/// ```
/// let manifests = KubernetesManifests(
///     name: KubernetesManifests.name(job: job.name, run: 7), runFolder: catalogue + "/dist/run-7",
///     chunks: 16, maxParallel: 4,
///     mounts: KubernetesManifests.mounts(catalogue: catalogue, imports: roots, exports: exportRoots))
/// let paths = try manifests.write(into: manifests.runFolder)   // RUNDIR/k8s/chunks-job.yaml, merge-job.yaml
/// ```
/// Field names and their rules: the batch/v1 Job reference (kubernetes.io, "Jobs": `backoffLimitPerIndex` needs
/// `completionMode: Indexed`; `podFailurePolicy` needs `restartPolicy: Never`; `FailIndex` needs
/// `backoffLimitPerIndex`).
struct KubernetesManifests: Sendable, Equatable {
    /// A persistent volume claim mounted at the same absolute path as on the planning machine.
    struct Mount: Sendable, Equatable {
        /// The claim's name; also the pod's volume name, so it must be a DNS-1123 label.
        var claim: String
        /// The absolute path it is mounted at.
        package var path: String
        /// Mounted read-only (import roots: album never writes an original).
        package var readOnly: Bool
    }

    /// The base name of both Jobs (`NAME-chunks`, `NAME-merge`) and the value of their `album/run` label: a DNS-1123
    /// label of at most `maxNameLength` characters (`name(job:run:)` makes one).
    package var name: String
    /// The run folder, absolute: `CATALOGUE/dist/run-N`. It must lie under a read-write mount.
    var runFolder: String
    /// The number of chunks: the chunk Job's `completions`, its indexes 0 to `chunks - 1`.
    package var chunks: Int
    /// Chunks running at once: the chunk Job's `parallelism`.
    package var maxParallel: Int
    /// The claims every pod mounts (`mounts(catalogue:imports:exports:)`); the merge pod mounts the read-write ones.
    var mounts: [Mount]
    /// The container image; it must have `album` on its PATH.
    package var image: String = "album:latest"
    /// CPUs of each chunk's pod, as its request and its limit: `album chunk` takes its worker count from the limit.
    var cpusPerChunk: Int = 1
    /// Memory of each chunk's pod, as its request and its limit, a Kubernetes quantity.
    var memoryPerChunk: String = "1Gi"
    /// Failed pods tolerated for one chunk before its index is failed (a job-file error fails it at once).
    var backoffLimitPerIndex: Int = 3
    /// Failed pods tolerated for the merge before its Job fails.
    var mergeBackoffLimit: Int = 6

    /// Kubernetes' limits on an Indexed Job (kubernetes.io, "Jobs"): `completions` at most 100 000 with
    /// `backoffLimitPerIndex`, `parallelism` at most 100 000. The planner refuses more chunks; `parallelism` is capped.
    package static let maxCompletions = 100_000
    package static let maxParallelism = 100_000

    /// The longest `name`: the Jobs' names add `-chunks` or `-merge` and must stay within a label's 63 characters.
    static let maxNameLength = 52
    /// The container's name in both Jobs, which the pod failure policy's rule names.
    package static let container = "album"
    /// Where `write(into:)` puts the chunk Job, relative to the folder it is given.
    static let chunksFile = "k8s/chunks-job.yaml"
    /// Where `write(into:)` puts the merge Job, relative to the folder it is given.
    static let mergeFile = "k8s/merge-job.yaml"

    /// A valid base name for run `run` of job `job`: `album-SLUG-run-N`, where SLUG is the job name lowercased with
    /// every run of other characters than `a-z` and `0-9` made one `-`, cut so that the whole is at most
    /// `maxNameLength` characters; `album-run-N` when nothing of the job name is left. The run id is never cut, so
    /// two runs of one catalogue never share a name.
    /// ```
    /// KubernetesManifests.name(job: "Holiday Photos_2024", run: 7)   // "album-holiday-photos-2024-run-7"
    /// ```
    package static func name(job: String, run: Int) -> String {
        let prefix = "album"
        let suffix = "-run-\(run)"
        var slug = ""
        for scalar in job.unicodeScalars {
            switch scalar.value {
            case 0x61...0x7A, 0x30...0x39: slug.unicodeScalars.append(scalar)
            case 0x41...0x5A: slug.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            default: if !slug.isEmpty && !slug.hasSuffix("-") { slug += "-" }
            }
        }
        let room = maxNameLength - prefix.count - 1 - suffix.count
        slug = String(slug.prefix(max(room, 0)))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? prefix + suffix : prefix + "-" + slug + suffix
    }

    /// The mounts of a run: the catalogue folder on claim `album-catalogue` (read-write), each import root on
    /// `album-photos`, `album-photos-2`, … (read-only), each export root on `album-exports`, `album-exports-2`, …
    /// (read-write). A path given twice is mounted once, read-write if either wants it so.
    static func mounts(catalogue: String, imports: [String], exports: [String]) -> [Mount] {
        var result = [Mount(claim: "album-catalogue", path: catalogue, readOnly: false)]
        func add(_ paths: [String], claim base: String, readOnly: Bool) {
            var count = 0
            for path in paths {
                if let known = result.firstIndex(where: { $0.path == path }) {
                    result[known].readOnly = result[known].readOnly && readOnly
                    continue
                }
                count += 1
                result.append(Mount(claim: count == 1 ? base : "\(base)-\(count)", path: path, readOnly: readOnly))
            }
        }
        add(imports, claim: "album-photos", readOnly: true)
        add(exports, claim: "album-exports", readOnly: false)
        return result
    }

    /// Writes `chunkJob()` to `FOLDER/k8s/chunks-job.yaml` and `mergeJob()` to `FOLDER/k8s/merge-job.yaml`, each
    /// atomically (`AtomicFile`), creating `k8s/`; returns their paths.
    @discardableResult
    package func write(into folder: String) throws -> (chunks: String, merge: String) {
        let chunks = folder + "/" + KubernetesManifests.chunksFile
        let merge = folder + "/" + KubernetesManifests.mergeFile
        try AtomicFile.write(Array(chunkJob().utf8), to: chunks)
        try AtomicFile.write(Array(mergeJob().utf8), to: merge)
        return (chunks, merge)
    }
}

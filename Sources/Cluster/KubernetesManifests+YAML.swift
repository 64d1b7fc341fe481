import Core

extension KubernetesManifests {
    /// The chunk Job, one YAML document: an Indexed batch/v1 Job of `chunks` completions, `maxParallel` at once, each
    /// pod running `album chunk RUNDIR`. Its pod failure policy fails an index whose container exited 2 (a job-file
    /// error is never retried); any other failure is retried, in a new pod (`restartPolicy: Never`, which the policy
    /// requires), up to `backoffLimitPerIndex` times. `maxFailedIndexes` is unset, so every chunk runs whatever
    /// another's fate, and `backoffLimit` is left to its default under `backoffLimitPerIndex` (no limit).
    func chunkJob() -> String {
        var lines = [
            "# album's chunks of one distributed run: one pod per chunk, its index in JOB_COMPLETION_INDEX.",
            "# Exit status 2 (a job-file error) fails that chunk at once; any other failure is retried.",
        ]
        lines += header(kind: "Job", name: name + "-chunks")
        lines += [
            "spec:",
            "  completionMode: \(q("Indexed"))",
            "  completions: \(chunks)",
            "  parallelism: \(min(maxParallel, KubernetesManifests.maxParallelism))",
            "  backoffLimitPerIndex: \(backoffLimitPerIndex)",
            "  podFailurePolicy:",
            "    rules:",
            "      - action: \(q("FailIndex"))",
            "        onExitCodes:",
            "          containerName: \(q(KubernetesManifests.container))",
            "          operator: \(q("In"))",
            "          values:",
            "            - \(ExitCode.usage.rawValue)",
        ]
        lines += podTemplate(command: ["album", "chunk", runFolder], mounts: mounts, resources: true)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The merge Job, one YAML document: one pod running `album merge RUNDIR --wait`, which waits for every chunk and
    /// merges them into the catalogue, with the read-write mounts (the catalogue and the export roots). A failed pod
    /// (75, environment trouble) is replaced by a new one, which may land elsewhere, up to `mergeBackoffLimit` times.
    func mergeJob() -> String {
        var lines = ["# album's merge of one distributed run: waits for every chunk, then merges them into the catalogue."]
        lines += header(kind: "Job", name: name + "-merge")
        lines += [
            "spec:",
            "  completions: 1",
            "  parallelism: 1",
            "  backoffLimit: \(mergeBackoffLimit)",
        ]
        lines += podTemplate(command: ["album", "merge", runFolder, "--wait"], mounts: mounts.filter { !$0.readOnly },
                             resources: false)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `apiVersion`, `kind` and `metadata` of a batch/v1 object named `objectName`.
    private func header(kind: String, name objectName: String) -> [String] {
        ["apiVersion: \(q("batch/v1"))", "kind: \(q(kind))", "metadata:", "  name: \(q(objectName))"]
            + labels(indent: "  ")
    }

    /// The labels both Jobs and their pods carry: `kubectl get pods -l album/run=NAME` finds a run's pods.
    private func labels(indent: String) -> [String] {
        ["labels:", "  app.kubernetes.io/name: \(q("album"))", "  album/run: \(q(name))"].map { indent + $0 }
    }

    /// `spec.template`: one container `album` running `command`, with `mounts` (volume mounts in path order, so a
    /// folder is mounted before one inside it) and one volume per claim, read-only when every mount of it is.
    private func podTemplate(command: [String], mounts: [Mount], resources: Bool) -> [String] {
        let ordered = mounts.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var lines = ["  template:", "    metadata:"] + labels(indent: "      ")
        lines += [
            "    spec:",
            "      restartPolicy: \(q("Never"))",
            "      containers:",
            "        - name: \(q(KubernetesManifests.container))",
            "          image: \(q(image))",
            "          command:",
        ]
        lines += command.map { "            - \(q($0))" }
        if resources {
            let amounts = ["              cpu: \(q(String(cpusPerChunk)))", "              memory: \(q(memoryPerChunk))"]
            lines += ["          resources:", "            requests:"] + amounts + ["            limits:"] + amounts
        }
        lines.append("          volumeMounts:")
        for mount in ordered {
            lines += [
                "            - name: \(q(mount.claim))",
                "              mountPath: \(q(mount.path))",
                "              readOnly: \(mount.readOnly)",
            ]
        }
        lines.append("      volumes:")
        var claims: [String] = []
        for mount in ordered where !claims.contains(mount.claim) { claims.append(mount.claim) }
        for claim in claims {
            let readOnly = mounts.allSatisfy { $0.claim != claim || $0.readOnly }
            lines += [
                "        - name: \(q(claim))",
                "          persistentVolumeClaim:",
                "            claimName: \(q(claim))",
                "            readOnly: \(readOnly)",
            ]
        }
        return lines
    }

    /// `text` as a YAML double-quoted scalar, which any YAML reader (album's, kubectl's) takes as that string: `"`
    /// and `\` escaped, and every character YAML 1.2 does not allow as itself (section 5.1, c-printable: controls,
    /// DEL, C1) or reads as a line break in 1.1 (NEL, U+2028, U+2029), and the BOM, as `\xXX` or `\uXXXX`.
    package static func quoted(_ text: String) -> String {
        func hex(_ value: UInt32, _ width: Int) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(width - digits.count, 0)) + digits
        }
        let body = text.escapingScalars { scalar in
            switch scalar.value {
            case 0x22: "\\\""
            case 0x5C: "\\\\"
            case 0x09: "\\t"
            case 0x0A: "\\n"
            case 0x0D: "\\r"
            case 0x00...0x1F, 0x7F...0x9F: "\\x" + hex(scalar.value, 2)
            case 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: "\\u" + hex(scalar.value, 4)
            default: nil
            }
        }
        return "\"" + body + "\""
    }

    /// `quoted(_:)`, short for the templates above.
    private func q(_ text: String) -> String { KubernetesManifests.quoted(text) }
}

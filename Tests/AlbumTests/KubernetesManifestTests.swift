import Foundation
import XCTest
@testable import YAML
@testable import Cluster

/// The Kubernetes manifests of a distributed run (issue 18): the emitted Jobs against golden files, the golden files
/// read back with album's own YAML reader, the name derivation and the mounts.
///
/// `ALBUM_UPDATE_GOLDEN=1 swift test --filter KubernetesManifestTests` rewrites `Golden/k8s/` from the emitter
/// instead of comparing; rebuild afterwards, since the tests read the copies in the test bundle.
final class KubernetesManifestTests: XCTestCase {
    static let catalogue = "/srv/album/Family Catalogue"
    static let imports = ["/mnt/photos/2023", "/mnt/photos/Trip: Rome #2"]
    static let exports = ["/srv/exports/web"]
    /// The fixed input of the golden files: spaces, a colon and a `#` in paths, a colon in the image.
    static let fixture = KubernetesManifests(
        name: KubernetesManifests.name(job: "Holiday Photos_2024", run: 7),
        runFolder: catalogue + "/dist/run-7", chunks: 8, maxParallel: 3,
        mounts: KubernetesManifests.mounts(catalogue: catalogue, imports: imports, exports: exports),
        image: "registry.example.org/album:1.4", cpusPerChunk: 2, memoryPerChunk: "3Gi")

    // MARK: golden files

    func testEmittedJobsEqualTheGoldenFiles() throws {
        let emitted = ["chunks-job.yaml": Self.fixture.chunkJob(), "merge-job.yaml": Self.fixture.mergeJob()]
        if ProcessInfo.processInfo.environment["ALBUM_UPDATE_GOLDEN"] == "1" {
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/k8s")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (file, text) in emitted {
                try Data(text.utf8).write(to: folder.appendingPathComponent(file))
                print("ALBUM_UPDATE_GOLDEN: wrote \(folder.path)/\(file)")
            }
            return
        }
        for (file, text) in emitted {
            let golden = try String(decoding: goldenBytes(file), as: UTF8.self)
            XCTAssertEqual(Array(text.utf8), Array(golden.utf8),
                           "\(file) differs from the golden file at line \(firstDifferentLine(text, golden)); "
                           + "if the change is meant, rerun with ALBUM_UPDATE_GOLDEN=1 and review the diff")
        }
    }

    func testWriteIntoPutsBothJobsUnderK8s() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let paths = try Self.fixture.write(into: folder)
        XCTAssertEqual(paths.chunks, folder + "/k8s/chunks-job.yaml")
        XCTAssertEqual(paths.merge, folder + "/k8s/merge-job.yaml")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths.chunks)), Data(Self.fixture.chunkJob().utf8))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths.merge)), Data(Self.fixture.mergeJob().utf8))
    }

    // MARK: the golden files read back

    func testGoldenChunkJobReadBack() throws {
        let job = try YAMLParser.parse(goldenBytes("chunks-job.yaml"), file: "chunks-job.yaml")
        let fixture = Self.fixture
        XCTAssertEqual(job["apiVersion"]?.stringValue, "batch/v1")
        XCTAssertEqual(job["kind"]?.stringValue, "Job")
        XCTAssertEqual(job["metadata"]?["name"]?.stringValue, fixture.name + "-chunks")
        checkLabels(job["metadata"])
        let spec = try XCTUnwrap(job["spec"])
        XCTAssertEqual(spec["completions"]?.intValue, fixture.chunks)
        XCTAssertEqual(spec["parallelism"]?.intValue, fixture.maxParallel)
        XCTAssertEqual(spec["completionMode"]?.stringValue, "Indexed")
        XCTAssertEqual(spec["backoffLimitPerIndex"]?.intValue, fixture.backoffLimitPerIndex)
        XCTAssertNil(spec["maxFailedIndexes"], "every chunk runs, whatever another's fate")
        XCTAssertNil(spec["backoffLimit"], "left to its default under backoffLimitPerIndex")

        let rules = try XCTUnwrap(spec["podFailurePolicy"]?["rules"]?.sequenceValue)
        let exitRules = rules.filter { $0["onExitCodes"] != nil }
        XCTAssertEqual(exitRules.count, 1)
        let rule = try XCTUnwrap(exitRules.first)
        XCTAssertEqual(rule["action"]?.stringValue, "FailIndex")
        XCTAssertEqual(rule["onExitCodes"]?["containerName"]?.stringValue, "album")
        XCTAssertEqual(rule["onExitCodes"]?["operator"]?.stringValue, "In")
        XCTAssertEqual(rule["onExitCodes"]?["values"]?.sequenceValue?.compactMap(\.intValue), [2],
                       "a job-file error fails its index; 75 (environment trouble) is retried")

        let pod = try XCTUnwrap(spec["template"])
        checkLabels(pod["metadata"])
        XCTAssertEqual(pod["spec"]?["restartPolicy"]?.stringValue, "Never", "podFailurePolicy requires it")
        let container = try checkPod(pod, command: ["album", "chunk", fixture.runFolder], mounts: fixture.mounts)
        XCTAssertEqual(container["name"]?.stringValue, rule["onExitCodes"]?["containerName"]?.stringValue)
        for amounts in ["requests", "limits"] {
            XCTAssertEqual(container["resources"]?[amounts]?["cpu"]?.stringValue, "2", amounts)
            XCTAssertEqual(container["resources"]?[amounts]?["memory"]?.stringValue, "3Gi", amounts)
        }
    }

    func testGoldenMergeJobReadBack() throws {
        let job = try YAMLParser.parse(goldenBytes("merge-job.yaml"), file: "merge-job.yaml")
        let fixture = Self.fixture
        XCTAssertEqual(job["apiVersion"]?.stringValue, "batch/v1")
        XCTAssertEqual(job["kind"]?.stringValue, "Job")
        XCTAssertEqual(job["metadata"]?["name"]?.stringValue, fixture.name + "-merge")
        checkLabels(job["metadata"])
        let spec = try XCTUnwrap(job["spec"])
        XCTAssertEqual(spec["completions"]?.intValue, 1)
        XCTAssertEqual(spec["backoffLimit"]?.intValue, 6)
        XCTAssertNil(spec["completionMode"])
        XCTAssertNil(spec["podFailurePolicy"])
        let pod = try XCTUnwrap(spec["template"])
        checkLabels(pod["metadata"])
        XCTAssertTrue(["Never", "OnFailure"].contains(pod["spec"]?["restartPolicy"]?.stringValue ?? ""))
        let readWrite = fixture.mounts.filter { !$0.readOnly }
        XCTAssertEqual(Set(readWrite.map(\.path)), Set([Self.catalogue] + Self.exports))
        _ = try checkPod(pod, command: ["album", "merge", fixture.runFolder, "--wait"], mounts: readWrite)
    }

    /// Strings YAML could misread, emitted and read back unchanged: quotes, backslashes, line breaks, controls,
    /// a comment sign, `: `, a leading `- `, NEL, U+2028, a BOM and a private-use character (NativePath's bytes).
    func testHostilePathsReadBackUnchanged() throws {
        let odd = "/srv/- a: \"b\" \\c #d\n\te\r\u{7F}\u{85}\u{2028}\u{FEFF}\u{F7A9}é 📷 "
        var manifests = Self.fixture
        manifests.runFolder = odd + "/dist/run-7"
        manifests.mounts = KubernetesManifests.mounts(catalogue: odd, imports: [odd + "/in'put"], exports: [])
        manifests.image = "- [x]: {y}"
        for (text, command) in [(manifests.chunkJob(), ["album", "chunk", manifests.runFolder]),
                                (manifests.mergeJob(), ["album", "merge", manifests.runFolder, "--wait"])] {
            let job = try YAMLParser.parse(string: text, file: "hostile.yaml")
            let pod = try XCTUnwrap(job["spec"]?["template"])
            let container = try checkPod(pod, command: command,
                                         mounts: command[1] == "chunk" ? manifests.mounts : [manifests.mounts[0]])
            XCTAssertEqual(container["image"]?.stringValue, manifests.image)
        }
    }

    // MARK: names and mounts

    func testNamesAreShortStableDNSLabels() {
        XCTAssertEqual(KubernetesManifests.name(job: "Holiday Photos_2024", run: 7), "album-holiday-photos-2024-run-7")
        XCTAssertEqual(KubernetesManifests.name(job: "  My__JOB  ", run: 3), "album-my-job-run-3")
        XCTAssertEqual(KubernetesManifests.name(job: "", run: 1), "album-run-1")
        XCTAssertEqual(KubernetesManifests.name(job: "写真", run: 1), "album-run-1")
        // The cut lands just after a dash, which goes too: 40 characters of slug fit beside "album-" and "-run-7".
        let cutAtDash = String(repeating: "a", count: 39) + " bbbb"
        XCTAssertEqual(KubernetesManifests.name(job: cutAtDash, run: 7), "album-" + String(repeating: "a", count: 39) + "-run-7")
        let long = String(repeating: "Very Long_Job Name ", count: 20)
        let jobs = ["Holiday Photos_2024", "  My__JOB  ", "", "写真", "Café Été", cutAtDash, long, "-x-", "İSTANBUL"]
        for job in jobs {
            for run in [1, 7, 12_345, Int.max] {
                let name = KubernetesManifests.name(job: job, run: run)
                XCTAssertTrue(isDNSLabel(name), "\(name) from \(job)")
                XCTAssertLessThanOrEqual(name.count, KubernetesManifests.maxNameLength, name)
                XCTAssertLessThanOrEqual((name + "-chunks").count, 63, name)
                XCTAssertTrue(name.hasPrefix("album-") && name.hasSuffix("-run-\(run)"), name)
                XCTAssertEqual(name, KubernetesManifests.name(job: job, run: run), "stable")
            }
        }
        XCTAssertEqual(KubernetesManifests.name(job: long, run: 7).count, KubernetesManifests.maxNameLength)
        XCTAssertNotEqual(KubernetesManifests.name(job: long, run: 7), KubernetesManifests.name(job: long, run: 8))
    }

    func testMountsFromCatalogueImportsAndExports() {
        let mounts = KubernetesManifests.mounts(catalogue: "/c", imports: ["/p1", "/p2", "/p1", "/both"],
                                                exports: ["/e1", "/both", "/e2"])
        typealias Mount = KubernetesManifests.Mount
        XCTAssertEqual(mounts, [
            Mount(claim: "album-catalogue", path: "/c", readOnly: false),
            Mount(claim: "album-photos", path: "/p1", readOnly: true),
            Mount(claim: "album-photos-2", path: "/p2", readOnly: true),
            Mount(claim: "album-photos-3", path: "/both", readOnly: false),
            Mount(claim: "album-exports", path: "/e1", readOnly: false),
            Mount(claim: "album-exports-2", path: "/e2", readOnly: false),
        ])
        XCTAssertTrue(mounts.allSatisfy { isDNSLabel($0.claim) })
    }

    // MARK: helpers

    /// The bytes of `Golden/k8s/FILE` in the test bundle.
    private func goldenBytes(_ file: String) throws -> [UInt8] {
        let base = try XCTUnwrap(Bundle.module.url(forResource: "Golden", withExtension: nil), "Golden resources missing")
        let url = base.appendingPathComponent("k8s").appendingPathComponent(file)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: url.path),
                                 "no golden file \(url.path): run with ALBUM_UPDATE_GOLDEN=1, then rebuild")
        return [UInt8](data)
    }

    /// Checks the labels of a Job's or a pod's `metadata`.
    private func checkLabels(_ metadata: Node?, line: UInt = #line) {
        XCTAssertEqual(metadata?["labels"]?["app.kubernetes.io/name"]?.stringValue, "album", line: line)
        XCTAssertEqual(metadata?["labels"]?["album/run"]?.stringValue, Self.fixture.name, line: line)
    }

    /// Checks a pod template's one container (its command, its volume mounts: exactly `mounts`, each with a volume
    /// of its claim, read-only where the mount is) and returns the container.
    private func checkPod(_ template: Node, command: [String], mounts: [KubernetesManifests.Mount],
                          line: UInt = #line) throws -> Node {
        let containers = try XCTUnwrap(template["spec"]?["containers"]?.sequenceValue)
        XCTAssertEqual(containers.count, 1, line: line)
        let container = try XCTUnwrap(containers.first)
        XCTAssertEqual(container["command"]?.sequenceValue?.compactMap(\.stringValue), command, line: line)
        let volumes = try XCTUnwrap(template["spec"]?["volumes"]?.sequenceValue)
        let volumeMounts = try XCTUnwrap(container["volumeMounts"]?.sequenceValue)
        var found: [KubernetesManifests.Mount] = []
        for volumeMount in volumeMounts {
            let name = try XCTUnwrap(volumeMount["name"]?.stringValue)
            let path = try XCTUnwrap(volumeMount["mountPath"]?.stringValue)
            let readOnly = try XCTUnwrap(volumeMount["readOnly"]?.boolValue)
            let matching = volumes.filter { $0["name"]?.stringValue == name }
            XCTAssertEqual(matching.count, 1, "volume mount \(name) has no volume of its own", line: line)
            let claim = try XCTUnwrap(matching.first?["persistentVolumeClaim"])
            if readOnly { XCTAssertEqual(claim["readOnly"]?.boolValue, true, line: line) }
            found.append(KubernetesManifests.Mount(claim: try XCTUnwrap(claim["claimName"]?.stringValue), path: path,
                                                   readOnly: readOnly))
        }
        XCTAssertEqual(Set(found.map { "\($0.claim) \($0.path) \($0.readOnly)" }),
                       Set(mounts.map { "\($0.claim) \($0.path) \($0.readOnly)" }), line: line)
        let importPaths = Set(Self.imports)
        for mount in found where importPaths.contains(mount.path) {
            XCTAssertTrue(mount.readOnly, "import root \(mount.path) is mounted read-write", line: line)
        }
        let runFolder = command[2]
        XCTAssertTrue(found.contains { !$0.readOnly && runFolder.hasPrefix($0.path + "/") },
                      "the run folder lies under no read-write mount", line: line)
        return container
    }

    /// A DNS-1123 label: 1 to 63 of `a-z`, `0-9` and `-`, beginning and ending with a letter or digit.
    private func isDNSLabel(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        func alphanumeric(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("0"..."9").contains(s) }
        guard (1...63).contains(scalars.count), let first = scalars.first, let last = scalars.last else { return false }
        return alphanumeric(first) && alphanumeric(last) && scalars.allSatisfy { alphanumeric($0) || $0 == "-" }
    }

    /// The 1-based number of the first line where `a` and `b` differ.
    private func firstDifferentLine(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        return (zip(left, right).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(left.count, right.count)) + 1
    }
}

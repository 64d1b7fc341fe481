import Foundation
import XCTest
@testable import Cluster
import Catalogue
import SQLite
import Maintenance

/// Distributed runs (issue 18, docs/distributed.md) on one machine: `album run --distribute local`, and run folders
/// planned with `--distribute k8s` (manifests only, no cluster) whose chunks the test runs itself with `album chunk`.
///
/// The yardstick is a one-machine `album run` of the same job into another catalogue, compared as
/// scripts/test-slurm.sh compares them: photos by content hash, renditions by photo hash, kind, parameters (not an
/// export's: they hold the export folder, which differs), input and file hash, aliases, states from `album ls
/// --json`, export files byte for byte, `album verify` exit 0 and `PRAGMA integrity_check`. Every row is read back
/// with the sqlite3 shell, never through album.
final class DistributedRunTests: XCTestCase {
    /// What `makeLibrary` made: the photos folder, and the paths of the special files in it.
    struct Library {
        var folder: String
        var photos: String { folder + "/photos" }
        var job: String { folder + "/job.yml" }
        /// Every file import finds (the duplicate and the damaged one included).
        var files: [String] = []
        /// A photo, and another name with the same bytes; a truncated JPEG.
        var original: String?
        var duplicate: String?
        var damaged: String?
    }

    /// `count` small JPEGs in `photos/a` and `photos/b`, each with its own bytes; with `duplicate`, a copy of
    /// `photos/a/p00.jpg` in `photos/b` (its name picked so that, with `apartIn` chunks, it lands in another chunk
    /// than the original: the merge, not one chunk, must make it one photo with an alias); with `damaged`, a JPEG cut
    /// to half its bytes. The job imports, applies sepia, thumbnails and exports to `${out}`.
    func makeLibrary(in folder: String, count: Int, duplicate: Bool = false, damaged: Bool = false,
                     apartIn chunks: Int = 2) throws -> Library {
        var library = Library(folder: folder)
        for index in 0..<count {
            let path = String(format: "%@/photos/%@/p%02d.jpg", folder, index % 2 == 0 ? "a" : "b", index)
            try Fixture.jpeg(at: path, width: 200 + 8 * index, height: 150 + 4 * (index % 5), quality: 80 + index % 15, variant: index)
            library.files.append(path)
        }
        if duplicate {
            let original = folder + "/photos/a/p00.jpg"
            let home = ChunkAssignment.chunk(of: original, chunks: chunks)
            let name = try XCTUnwrap((0..<100).map { "\(folder)/photos/b/copy-\($0).jpg" }
                .first { ChunkAssignment.chunk(of: $0, chunks: chunks) != home })
            try FileManager.default.copyItem(atPath: original, toPath: name)
            library.original = original
            library.duplicate = name
            library.files.append(name)
        }
        if damaged {
            let whole = try Fixture.jpeg(at: folder + "/whole.jpg", width: 400, height: 300, variant: 99)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            let path = folder + "/photos/b/truncated.jpg"
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
            try FileManager.default.removeItem(atPath: whole)
            library.damaged = path
            library.files.append(path)
        }
        try TestSupport.write("""
            version: 1
            name: distributed-test
            stages:
              - import:
                  from: photos
                  recursive: true
              - filter:
                  preset: sepia
              - thumbnail:
                  size: 96x96
              - export:
                  to: "${out}/{name}.jpg"
            """, to: "job.yml", in: folder)
        return library
    }

    // MARK: - running album

    /// `album ARGS` in the library's folder; fails the test with album's stderr when it does not exit `expected`.
    @discardableResult
    func album(_ arguments: [String], in folder: String, expect expected: Int32?, _ what: String,
               file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try TestSupport.album(arguments, in: folder)
        if let expected {
            XCTAssertEqual(result.status, expected, "\(what): album \(arguments.joined(separator: " ")):\n\(result.stderr)", file: file, line: line)
        }
        return result
    }

    /// A one-machine `album run` of the library's job into `catalogue`, exporting to `out`.
    func runOnOneMachine(_ library: Library, catalogue: String, out: String, expect: Int32) throws {
        try album(["run", library.job, "--catalogue", catalogue, "--set", "out=\(out)", "--workers", "2"],
                  in: library.folder, expect: expect, "the one-machine run")
    }

    /// Plans a distributed run with `--distribute k8s` (manifests only) and returns its run folder.
    func planK8s(_ library: Library, catalogue: String, out: String, chunks: Int) throws -> String {
        try album(["run", library.job, "--distribute", "k8s", "--chunks", String(chunks), "--max-parallel", "2",
                   "--catalogue", catalogue, "--set", "out=\(out)"], in: library.folder, expect: 0, "planning")
        return try runFolder(of: catalogue)
    }

    /// The one run folder under `catalogue/dist`.
    func runFolder(of catalogue: String) throws -> String {
        let runs = try FileManager.default.contentsOfDirectory(atPath: catalogue + "/dist").filter { $0.hasPrefix("run-") }
        XCTAssertEqual(runs.count, 1, "one run folder in \(catalogue)/dist: \(runs)")
        return catalogue + "/dist/" + (try XCTUnwrap(runs.first))
    }

    /// `album chunk RUNDIR K --workers 1`.
    @discardableResult
    func runChunk(_ runFolder: String, _ chunk: Int, in folder: String, expect: Int32? = 0,
                  file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, stdout: String, stderr: String) {
        try album(["chunk", runFolder, String(chunk), "--workers", "1"], in: folder, expect: expect, "chunk \(chunk)", file: file, line: line)
    }

    /// Chunk `chunk`'s manifest's files, as `chunk-K.json` lists them.
    func manifestFiles(_ runFolder: String, _ chunk: Int) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(runFolder)/chunk-\(chunk).json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(json["chunk"] as? Int, chunk)
        return try XCTUnwrap(json["files"] as? [String], "chunk-\(chunk).json lists its files")
    }

    /// `album dist status RUNDIR --json`, parsed.
    func status(_ runFolder: String, in folder: String) throws -> [String: Any] {
        let result = try album(["dist", "status", runFolder, "--json"], in: folder, expect: 0, "dist status")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                             "dist status --json is a JSON object: \(result.stdout)")
    }

    /// A query's rows, read by the sqlite3 shell.
    func rows(_ catalogue: String, _ sql: String) throws -> [String] { try Probe.rows(catalogue, sql) }

    // MARK: - comparing two catalogues (as scripts/test-slurm.sh does)

    struct Facts: Equatable {
        var photos: [String]
        var renditions: [String]
        var aliases: [String]
        var states: [String]
    }

    /// The facts two catalogues of the same job must share, each sorted.
    func facts(_ catalogue: String) throws -> Facts {
        let photos = try rows(catalogue, """
            SELECT hash, bytes, width, height, filter, damage IS NULL, replaces IS NULL, missing_kept IS NULL FROM photos ORDER BY hash
            """)
        let renditions = try rows(catalogue, """
            SELECT p.hash, r.kind, CASE r.kind WHEN 'export' THEN '' ELSE r.params_hash END, r.input_hash, r.file_hash, r.width, r.height, r.bytes
            FROM renditions r JOIN photos p ON p.id = r.photo ORDER BY 1, 2, 3, 4, 5
            """)
        let aliases = try rows(catalogue, "SELECT p.hash, a.bytes FROM aliases a JOIN photos p ON p.id = a.photo ORDER BY 1, 2")
        let listed = try TestSupport.album(["ls", "--catalogue", catalogue, "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let photosJSON = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let states = photosJSON.map { "\($0["hash"] as? String ?? "?") \($0["state"] as? String ?? "?")" }.sorted()
        return Facts(photos: photos, renditions: renditions, aliases: aliases, states: states)
    }

    /// Asserts that `catalogue` (exporting to `out`) holds what the one-machine run's `one` (exporting to `oneOut`)
    /// holds, that both are sound, and that no chunk did a step twice.
    func assertSame(_ catalogue: String, out: String, as one: String, oneOut: String, _ what: String,
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try facts(one), found = try facts(catalogue)
        XCTAssertFalse(expected.photos.isEmpty, "the one-machine run imported photos", file: file, line: line)
        XCTAssertEqual(found.photos, expected.photos, "\(what): photos", file: file, line: line)
        XCTAssertEqual(found.renditions, expected.renditions, "\(what): renditions", file: file, line: line)
        XCTAssertEqual(found.aliases, expected.aliases, "\(what): aliases", file: file, line: line)
        XCTAssertEqual(found.states, expected.states, "\(what): states", file: file, line: line)

        let manager = FileManager.default
        let exports = try manager.contentsOfDirectory(atPath: oneOut).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertFalse(exports.isEmpty, file: file, line: line)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted(), exports,
                       "\(what): the same export files", file: file, line: line)
        for name in exports {
            XCTAssertEqual(manager.contents(atPath: out + "/" + name), manager.contents(atPath: oneOut + "/" + name),
                           "\(what): export \(name) byte for byte", file: file, line: line)
        }

        let verify = try TestSupport.album(["verify", "--catalogue", catalogue])
        XCTAssertEqual(verify.status, 0, "\(what): album verify:\n\(verify.stdout)\(verify.stderr)", file: file, line: line)
        XCTAssertEqual(try rows(catalogue, "PRAGMA integrity_check"), ["ok"], "\(what)", file: file, line: line)
        XCTAssertEqual(try rows(catalogue, "SELECT hash FROM photos GROUP BY hash HAVING COUNT(*) > 1"), [],
                       "\(what): one row per photo", file: file, line: line)
        XCTAssertEqual(try rows(catalogue, """
            SELECT r.chunk, s.path, s.stage FROM steps s JOIN runs r ON r.id = s.run WHERE r.parent IS NOT NULL AND s.status = 'done'
            GROUP BY r.chunk, s.path, s.stage, s.params HAVING COUNT(*) > 1
            """), [], "\(what): no path has a stage done twice across one chunk's attempts", file: file, line: line)
    }

    // MARK: - 1. a local run of two processes equals a one-machine run

    func testALocalRunOfTwoChunkProcessesEqualsAOneMachineRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 18, duplicate: true, damaged: true, apartIn: 5)
        // Photos the catalogues already know from elsewhere: a run takes them through its stages after import
        // (phase 2), each in the one chunk its id hashes to.
        for index in 0..<4 {
            try Fixture.jpeg(at: String(format: "%@/earlier/e%02d.jpg", folder, index), width: 180, height: 140, variant: 50 + index)
        }
        let one = folder + "/one", two = folder + "/two"
        for catalogue in [one, two] {
            try album(["import", folder + "/earlier", "--catalogue", catalogue], in: folder, expect: 0, "importing earlier photos")
        }

        try runOnOneMachine(library, catalogue: one, out: folder + "/out-one", expect: 1)
        let local = try album(["run", library.job, "--distribute", "local", "--chunks", "5", "--max-parallel", "2", "--workers", "1",
                               "--catalogue", two, "--set", "out=\(folder)/out-two"], in: folder, expect: 1,
                              "the distributed run (one damaged photo)")
        try assertSame(two, out: folder + "/out-two", as: one, oneOut: folder + "/out-one", "--distribute local")

        let run = try runFolder(of: two)
        XCTAssertEqual(try rows(two, "SELECT state FROM distributed"), ["merged"], local.stderr)
        XCTAssertEqual(try rows(two, "SELECT COUNT(DISTINCT chunk) FROM runs WHERE parent IS NOT NULL"), ["5"], "five chunk runs under the parent")
        XCTAssertEqual(try rows(two, "SELECT status FROM runs WHERE id = (SELECT run FROM distributed)"), ["failed"],
                       "the parent run failed: a photo failed")
        let original = try XCTUnwrap(library.original), duplicate = try XCTUnwrap(library.duplicate)
        let chunkOf = { (path: String) in try (0..<5).first { try self.manifestFiles(run, $0).contains(path) } }
        XCTAssertNotEqual(try chunkOf(original), try chunkOf(duplicate), "the copy was planned into another chunk than its original")

        for catalogue in [one, two] {
            // The duplicate: one photo, its other name an alias.
            let hash = try Tool.sha256(original)
            XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos WHERE hash = '\(hash)'"), ["1"], catalogue)
            let names = try rows(catalogue, """
                SELECT path FROM photos WHERE hash = '\(hash)' UNION ALL
                SELECT a.path FROM aliases a JOIN photos p ON p.id = a.photo WHERE p.hash = '\(hash)'
                """)
            XCTAssertEqual(Set(names), [Probe.stored(original, in: catalogue), Probe.stored(duplicate, in: catalogue)],
                           "one photo under two names in \(catalogue)")
            // The damaged photo failed, and no other did (steps hold absolute paths, photos the stored form).
            let damaged = try XCTUnwrap(library.damaged)
            XCTAssertEqual(try rows(catalogue, "SELECT DISTINCT path FROM steps WHERE status = 'failed'"), [damaged],
                           "only the truncated photo failed in \(catalogue)")
            XCTAssertEqual(try rows(catalogue, "SELECT damage IS NOT NULL FROM photos WHERE path = '\(Probe.stored(damaged, in: catalogue))'"),
                           ["1"], "the truncated photo is recorded damaged in \(catalogue)")
            // Each earlier photo went through each stage after import once, in one chunk: not once per chunk.
            XCTAssertEqual(try rows(catalogue, """
                SELECT s.stage, COUNT(*) FROM steps s JOIN runs r ON r.id = s.run
                WHERE s.status = 'done' AND s.path LIKE '%/earlier/%' AND r.job = 'distributed-test'
                GROUP BY s.stage ORDER BY s.stage
                """), ["export|4", "filter|4", "thumbnail|4"], "the earlier photos' steps in \(catalogue)")
        }
    }

    // MARK: - 2. stable chunk assignment

    func testChunkAssignmentIsStableAcrossPlansAndUnmovedByANewPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 14)
        let chunks = 4
        let first = try planK8s(library, catalogue: folder + "/c1", out: folder + "/out", chunks: chunks)
        let second = try planK8s(library, catalogue: folder + "/c2", out: folder + "/out", chunks: chunks)
        var planned: [[String]] = []
        for chunk in 0..<chunks {
            let files = try manifestFiles(first, chunk)
            XCTAssertEqual(try manifestFiles(second, chunk), files, "chunk \(chunk): the same files in two plans")
            for file in files {
                XCTAssertEqual(ChunkAssignment.chunk(of: file, chunks: chunks), chunk, "\(file) is in the chunk its path hashes to")
            }
            planned.append(files)
        }
        XCTAssertEqual(planned.flatMap { $0 }.sorted(), library.files.sorted(), "every file in exactly one chunk")
        XCTAssertGreaterThan(planned.filter { !$0.isEmpty }.count, 1, "14 files are spread over more than one chunk")

        let added = try Fixture.jpeg(at: folder + "/photos/a/zz-new.jpg", width: 210, height: 160, variant: 77)
        let third = try planK8s(library, catalogue: folder + "/c3", out: folder + "/out", chunks: chunks)
        var placed = 0
        for chunk in 0..<chunks {
            let files = try manifestFiles(third, chunk)
            XCTAssertEqual(files.filter { $0 != added }, planned[chunk], "chunk \(chunk): no file moved when one was added")
            placed += files.filter { $0 == added }.count
        }
        XCTAssertEqual(placed, 1, "the new photo is in one chunk")
    }

    /// The hash is FNV-1a (64-bit) then MurmurHash3's fmix64, modulo the chunks (ChunkManifest.swift): computed here
    /// again in Python for 1000 similar names, so a per-process seeded hash or another function is caught, and the
    /// spread over 16 chunks is checked (deterministic: no sampling).
    func testChunkAssignmentIsTheDocumentedHashAndSpreadsSimilarNames() throws {
        let names = (0..<1000).map { String(format: "/library/2024/06/IMG_%04d.JPG", $0) }
        let chunks = names.map { ChunkAssignment.chunk(of: $0, chunks: 16) }
        XCTAssertEqual(names.map { ChunkAssignment.chunk(of: $0, chunks: 16) }, chunks, "the same answer twice")
        try Probe.require("python3", package: "python3")
        let script = """
            import sys
            M = (1 << 64) - 1
            for i in range(1000):
                h = 0xcbf29ce484222325
                for b in ('/library/2024/06/IMG_%04d.JPG' % i).encode():
                    h = ((h ^ b) * 0x100000001b3) & M
                h ^= h >> 33; h = (h * 0xff51afd7ed558ccd) & M
                h ^= h >> 33; h = (h * 0xc4ceb9fe1a85ec53) & M
                h ^= h >> 33
                print(h % 16)
            """
        let python = try Tool.run(["python3", "-c", script])
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertEqual(python.stdout.split(separator: "\n").compactMap { Int($0) }, chunks, "the chunks Python computes")
        var counts = [Int](repeating: 0, count: 16)
        for chunk in chunks { counts[chunk] += 1 }
        XCTAssertFalse(counts.contains(0), "no chunk is empty: \(counts)")
        XCTAssertLessThan(Double(counts.max()!) / (1000.0 / 16), 1.5, "the largest chunk is under 1.5× the mean: \(counts)")
        XCTAssertEqual(ChunkAssignment.chunk(of: "anything", chunks: 1), 0)
    }

    // MARK: - 3. merging again changes nothing

    func testMergingTwiceGivesTheSameCountsAndAMergedRunIsANoOp() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 14, duplicate: true, apartIn: 3)
        let catalogue = folder + "/album"
        let run = try planK8s(library, catalogue: catalogue, out: folder + "/out", chunks: 3)
        for chunk in 0..<2 { try runChunk(run, chunk, in: folder) }
        let counts = {
            try self.rows(catalogue, """
                SELECT (SELECT COUNT(*) FROM photos), (SELECT COUNT(*) FROM renditions), (SELECT COUNT(*) FROM aliases),
                       (SELECT COUNT(*) FROM steps), (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM distributed_chunks)
                """)
        }
        let unmerged = try counts()

        let refused = try album(["merge", run], in: folder, expect: 3, "merge with chunk 2 unfinished")
        XCTAssertTrue(refused.stderr.contains("chunk 2 has not finished"), refused.stderr)
        XCTAssertEqual(try counts(), unmerged, "nothing merged while a chunk is unfinished")

        // The chunks read catalogue.db in place: a partial merge keeps the finished chunks' deltas and writes nothing
        // while chunk 2 may still read it.
        let planned = try Tool.sha256(catalogue + "/catalogue.db")
        let partial = try album(["merge", run, "--partial"], in: folder, expect: 0, "a partial merge")
        XCTAssertTrue(partial.stderr.contains("in place") && partial.stderr.contains("chunk 2"), partial.stderr)
        XCTAssertEqual(try Tool.sha256(catalogue + "/catalogue.db"), planned, "the partial merge wrote nothing to the catalogue")
        XCTAssertEqual(try counts(), unmerged)
        XCTAssertEqual(try rows(catalogue, "SELECT state FROM distributed"), ["open"])
        try runChunk(run, 2, in: folder)

        // One delta merged twice, by hand, then every chunk by `album merge` (chunk 0 a third time).
        let writer = try Catalogue(folder: catalogue, create: false, writing: true, whileChunksRead: true)
        let parent = try XCTUnwrap(Int64(try XCTUnwrap(try rows(catalogue, "SELECT run FROM distributed").first)))
        let first = try ChunkMerger(writer).merge(database: run + "/chunk-0.db", parent: parent, chunk: 0, merged: "2026-12-04T00:00:00Z")
        writer.close()
        let once = try counts()
        XCTAssertNotEqual(once, unmerged, "the merge carried chunk 0 in")
        let secondWriter = try Catalogue(folder: catalogue, create: false, writing: true, whileChunksRead: true)
        let second = try ChunkMerger(secondWriter).merge(database: run + "/chunk-0.db", parent: parent, chunk: 0, merged: "2026-12-04T00:00:01Z")
        secondWriter.close()
        XCTAssertEqual(try counts(), once, "merging the same delta again replaces its rows: the same counts")
        XCTAssertEqual(second.steps, first.steps, "the same steps carried again (the photo rows are there already)")
        try album(["merge", run], in: folder, expect: 0, "the last merge")
        let merged = try counts()
        XCTAssertEqual(try rows(catalogue, "SELECT state FROM distributed"), ["merged"])
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos"), [String(library.files.count - 1)], "the copy is an alias")
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM aliases"), ["1"])
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM runs WHERE parent IS NOT NULL"), ["3"], "one attempt per chunk")
        XCTAssertEqual(try rows(catalogue, "SELECT stage, COUNT(*) FROM steps WHERE status = 'done' GROUP BY stage ORDER BY stage"),
                       ["export|\(library.files.count)", "filter|\(library.files.count)", "import|\(library.files.count)",
                        "thumbnail|\(library.files.count)"],
                       "each chunk imported its own copy, and each chain ran once")

        let again = try album(["merge", run], in: folder, expect: 0, "merging a merged run")
        XCTAssertTrue(again.stderr.contains("nothing to do"), again.stderr)
        XCTAssertEqual(try counts(), merged, "a merged run merged again changes nothing")
        let verify = try TestSupport.album(["verify", "--catalogue", catalogue])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    // MARK: - 4. kill -9 of a chunk, rerun, merge

    /// Where in a chunk's run the kill lands: when the k-th export's temporary file appears (that export's row is
    /// not written yet), right after the k-th export is renamed into place (its row may or may not be), or at the
    /// first write to the chunk's log (`chunk-K.view.db-wal`) once it holds k commits (the 1st is the touch log's
    /// tables, the 2nd the run row: killed as the next transaction, the first batch of step rows, is being written,
    /// the rerun's SQLite keeps only the whole transactions the log holds).
    enum Moment: String, CaseIterable {
        case exportBeingWritten = "while writing export"
        case exportRenamed = "right after the rename of export"
        case transactionOpen = "once its log held that many commits, at a write to"
    }

    /// How many commits the SQLite write-ahead log `path` holds whole (sqlite.org/fileformat2.html#walformat: a
    /// 32-byte header, then frames of a 24-byte header and a page; a commit's last frame records the database's size).
    static func commits(inLog path: String) -> Int {
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init), bytes.count >= 32 else { return 0 }
        let word = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let page = word(8)
        guard page > 0 else { return 0 }
        var commits = 0, offset = 32
        while offset + 24 + page <= bytes.count {
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + page
        }
        return commits
    }

    /// Runs `album chunk RUNDIR K --workers 1` and kills it with SIGKILL the instant `moment` is reached for the k-th
    /// time in the export folder `out` (inotify: no polling, no sleeping); returns how it ended and what the kill
    /// followed (nil when the chunk ended first).
    func killChunk(_ runFolder: String, _ chunk: Int, out: String, in folder: String, at moment: Moment, k: Int) throws
        -> (ending: Spawn.Ending, reached: String?) {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let watch = try FolderWatch(moment == .transactionOpen ? runFolder : out, modifications: moment == .transactionOpen)
        defer { watch.close() }
        let pipe = try Spawn.pipe()
        let child = try Spawn(["chunk", runFolder, String(chunk), "--workers", "1"], in: folder,
                              stdout: .descriptor(pipe.write), stderr: .log(folder + "/killed-chunk.log"))
        close(pipe.write)
        defer { close(pipe.read) }
        var seen = 0, reached: String?, open = true
        while reached == nil, open {
            var ready = [pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)]
            if poll(&ready, 2, -1) < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                continue
            }
            if ready[0].revents != 0 {
                for event in watch.names() where reached == nil {
                    let counts = switch moment {
                    case .exportBeingWritten: event.event == .created && event.name.contains(".album-")
                    case .exportRenamed: event.event == .movedTo && !event.name.hasPrefix(".")
                    case .transactionOpen: event.event == .modified && event.name == "chunk-\(chunk).view.db-wal"
                        && DistributedRunTests.commits(inLog: runFolder + "/" + event.name) >= k
                    }
                    if counts { seen += 1 }
                    if counts, moment == .transactionOpen || seen == k { reached = "\(event.name) (#\(k))" }
                }
            }
            if reached == nil, ready[1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { open = false }  // the chunk ended before the moment
            }
        }
        if reached != nil { kill(child.pid, SIGKILL) }
        var sink = [UInt8](repeating: 0, count: 4096)
        while sink.withUnsafeMutableBytes({ read(pipe.read, $0.baseAddress, $0.count) }) > 0 {}
        return (child.wait(), reached)
    }

    /// A distributed run over a catalogue that knows many photos, where only a few files are new (issue 34): no
    /// chunk copies the catalogue and the run keeps no snapshot (each chunk's view is a hard link to catalogue.db
    /// itself, which no chunk writes: its bytes are the same after the chunks), each finished chunk keeps a delta
    /// holding only the rows of the photos it wrote (and their rows as it found them), and the merge writes only those
    /// photos' rows: triggers the test puts in the catalogue log every row written.
    func testChunksKeepDeltasAndTheMergeWritesOnlyTheChunksRows() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 30)
        let catalogue = folder + "/album", out = folder + "/out"
        try runOnOneMachine(library, catalogue: catalogue, out: out, expect: 0)
        let added = try (0..<3).map { index in
            try Fixture.jpeg(at: "\(folder)/photos/a/new-\(index).jpg", width: 180, height: 120, variant: 200 + index)
        }
        let run = try planK8s(library, catalogue: catalogue, out: out, chunks: 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/snapshot.db"), "no snapshot: the chunks read the catalogue in place")
        let planned = try Tool.sha256(catalogue + "/catalogue.db")
        for chunk in 0..<2 { try runChunk(run, chunk, in: folder) }
        XCTAssertEqual(try Tool.sha256(catalogue + "/catalogue.db"), planned, "no chunk wrote the catalogue its view links")
        try assertNoCopyOfTheCatalogue(run)
        let names = try FileManager.default.contentsOfDirectory(atPath: run)
        XCTAssertEqual(names.filter { $0.contains(".view.db") }, [], "a finished chunk's view and its log are gone")

        let stored = Set(added.map { Probe.stored($0, in: catalogue) })
        var inDeltas: [String] = []
        var deltaBytes = 0
        for chunk in 0..<2 {
            let database = "\(run)/chunk-\(chunk).db"
            let share = Set(try manifestFiles(run, chunk).map { Probe.stored($0, in: catalogue) })
            let paths = try Tool.sqlite(database, "SELECT path FROM photos").split(separator: "\n").map(String.init)
            XCTAssertTrue(Set(paths).isSubset(of: share), "chunk \(chunk)'s database holds only photos of its share: \(paths)")
            XCTAssertEqual(try Tool.sqlite(database, "SELECT COUNT(*) FROM renditions WHERE photo NOT IN (SELECT id FROM photos)"), "0",
                           "chunk \(chunk)'s renditions are its photos'")
            inDeltas += paths
            deltaBytes += try XCTUnwrap(FileManager.default.attributesOfItem(atPath: database)[.size] as? Int)
        }
        XCTAssertEqual(Set(inDeltas), stored, "the chunks' databases hold the new photos, and no other")
        let catalogueBytes = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: catalogue + "/catalogue.db")[.size] as? Int)
        XCTAssertLessThan(deltaBytes * 2, catalogueBytes, "two deltas together are a fraction of the catalogue")
        print("DistributedRunTests: deltas \(deltaBytes) bytes, catalogue.db \(catalogueBytes) bytes")

        // Every row the merge writes, logged by the test's own triggers in the catalogue.
        var log = ["CREATE TABLE test_written (tbl TEXT, photo TEXT)"]
        for (table, key) in [("photos", "id"), ("renditions", "photo"), ("aliases", "photo"), ("second_originals", "photo")] {
            for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
                log.append("CREATE TRIGGER test_\(table)_\(event) AFTER \(event) ON \(table) BEGIN INSERT INTO test_written VALUES ('\(table)', \(row).\(key)); END")
            }
        }
        _ = try Tool.sqlite(catalogue + "/catalogue.db", log.joined(separator: ";\n") + ";", writing: true)
        let merge = try album(["merge", run], in: folder, expect: 0, "the merge")
        XCTAssertTrue(merge.stderr.contains("distributed run merged"), merge.stderr)
        let written = Set(try Tool.sqlite(catalogue + "/catalogue.db", "SELECT DISTINCT photo FROM test_written", writing: true)
            .split(separator: "\n").map(String.init))
        let new = Set(try Tool.sqlite(catalogue + "/catalogue.db", "SELECT id FROM photos WHERE path IN (\(stored.map { "'\($0)'" }.joined(separator: ", ")))", writing: true)
            .split(separator: "\n").map(String.init))
        XCTAssertEqual(new.count, 3)
        XCTAssertEqual(written, new, "the merge wrote rows of the new photos only, none of the 30 the catalogue knew")
        XCTAssertEqual(try Tool.sqlite(catalogue + "/catalogue.db", "SELECT COUNT(*) FROM test_written WHERE tbl = 'photos'", writing: true), "3",
                       "one photo row written a new photo, none for the others")
        let merged = try rows(catalogue, "SELECT SUM(photos) FROM distributed_chunks")
        XCTAssertEqual(merged, ["3"], "the merge counts the chunks' photo rows it applied")
    }

    /// Where the view cannot be a hard link of the snapshot (here another file system: `link` says `EXDEV`), it is a
    /// WAL-mode copy of it instead, and the chunk's writes still never reach the snapshot.
    func testAViewWithoutHardLinksIsACopyAndLeavesTheSnapshotAlone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        var shm = stat(), here = stat()
        guard stat("/dev/shm", &shm) == 0, stat(folder, &here) == 0, shm.st_dev != here.st_dev else {
            throw XCTSkip("/dev/shm is not another file system than \(folder) here")
        }
        let catalogue = try Catalogue(folder: folder + "/album", create: true, writing: true)
        try catalogue.writeSnapshot(to: folder + "/snapshot.db")
        catalogue.close()
        let planned = try Tool.sha256(folder + "/snapshot.db")
        let view = "/dev/shm/album-view-\(UUID().uuidString.prefix(8)).db"
        defer { Catalogue.removeView(view) }
        let chunk = try Catalogue.forChunk(folder: folder + "/album", view: view, seed: folder + "/snapshot.db")
        try chunk.connection { try $0.execute("INSERT INTO chunk_touched (photo) VALUES ('written')") }
        chunk.close()
        var copy = stat(), snapshot = stat()
        XCTAssertEqual(stat(view, &copy), 0)
        XCTAssertEqual(stat(folder + "/snapshot.db", &snapshot), 0)
        XCTAssertNotEqual(copy.st_dev, snapshot.st_dev, "the view is a file of its own on the other file system")
        XCTAssertEqual(try Tool.sha256(folder + "/snapshot.db"), planned, "the chunk's write did not reach the snapshot")
        let reopened = try Catalogue.forChunk(folder: folder + "/album", view: view, seed: folder + "/snapshot.db")
        let rows = try reopened.connection { try $0.query("SELECT photo FROM chunk_touched") { $0.text(0) ?? "" } }
        reopened.close()
        XCTAssertEqual(rows, ["written"], "the view keeps what the chunk wrote, through its own log")
    }

    /// No file in run folder `run` is a copy of the catalogue: there is no snapshot, and every SQLite database in it
    /// is a chunk's view (a hard link to catalogue.db: the same inode, so no bytes of its own) or a chunk's delta; and
    /// the bytes the folder holds (each inode once, its allocated blocks) are a fraction of the catalogue.
    /// `sizes: false` where a chunk's log may outgrow a catalogue of a few photos (a killed first run's).
    func assertNoCopyOfTheCatalogue(_ run: String, _ context: String = "", sizes: Bool = true, file: StaticString = #filePath, line: UInt = #line) throws {
        var snapshot = stat()
        let catalogue = ((run as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent + "/catalogue.db"
        XCTAssertEqual(stat(catalogue, &snapshot), 0, "the catalogue is there", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/snapshot.db"), "no snapshot \(context)", file: file, line: line)
        var seen: Set<UInt> = [UInt(snapshot.st_ino)]
        var besides = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: run) {
            var status = stat()
            guard stat(run + "/" + name, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            if name.hasSuffix(".view.db") {
                XCTAssertEqual(status.st_ino, snapshot.st_ino, "\(name) is a hard link to catalogue.db, not a copy \(context)", file: file, line: line)
            } else if name.hasSuffix(".db"), name != "snapshot.db" {
                XCTAssertEqual(try Tool.sqlite(run + "/" + name, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'chunk_delta'"), "1",
                               "\(name) is a chunk's delta \(context)", file: file, line: line)
            }
            if seen.insert(UInt(status.st_ino)).inserted { besides += Int(status.st_blocks) * 512 }
        }
        guard sizes else { return }
        XCTAssertLessThan(besides, Int(snapshot.st_blocks) * 512, "the run folder holds less than one copy of the catalogue \(context)",
                          file: file, line: line)
    }

    /// Seeded moments (`ALBUM_DIST_SEED` replays one): each seed plans a run of three chunks, runs two, kills the one
    /// with the damaged photo at its moment (one of each kind, at a seeded export), runs it again and merges. The
    /// moment is a position in the chunk's own progress, not a delay, so that it holds on a busy machine.
    func testAChunkKilledAtSeededMomentsThenRunAgainMergesToTheOneMachineResult() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 14, duplicate: true, damaged: true, apartIn: 3)
        let one = folder + "/one"
        try runOnOneMachine(library, catalogue: one, out: folder + "/out-one", expect: 1)
        let damaged = try XCTUnwrap(library.damaged)

        let seeds: [UInt64] = ProcessInfo.processInfo.environment["ALBUM_DIST_SEED"].flatMap { UInt64($0) }.map { [$0] }
            ?? [0xD157_0018, 0xD157_0019, 0xD157_001A]
        var kills = 0
        for (index, seed) in seeds.enumerated() {
            var random = SplitMix64(state: seed)
            let catalogue = "\(folder)/seed-\(seed)", out = "\(folder)/out-\(seed)"
            let run = try planK8s(library, catalogue: catalogue, out: out, chunks: 3)
            let shares = try (0..<3).map { try manifestFiles(run, $0) }
            // The chunk with the damaged photo, unless it has only that (the temporary folder's name decides the chunks).
            let home = try XCTUnwrap(shares.firstIndex { $0.contains(damaged) })
            let victim = shares[home].count > 2 ? home : shares.indices.max { shares[$0].count < shares[$1].count }!
            let exports = shares[victim].filter { $0 != damaged }.count  // the damaged photo exports nothing
            let moment = Moment.allCases[Int((seeds.count == 1 ? seed : UInt64(index)) % 3)]
            // At an export before the last, so that a whole chain is still to run when the signal is sent.
            let k = moment == .transactionOpen ? 2 : 1 + random.below(max(1, exports - 1))
            for chunk in 0..<3 where chunk != victim { try runChunk(run, chunk, in: folder) }
            let (ending, reached) = try killChunk(run, victim, out: out, in: folder, at: moment, k: k)
            let context = "seed \(seed): chunk \(victim) (\(shares[victim].count) files) killed \(moment.rawValue) \(reached ?? "#\(k), not reached"): \(ending)"
            print("DistributedRunTests: \(context)")
            XCTAssertNotNil(reached, "the chunk had \(exports) exports to make, so the moment came: \(context)")
            guard [.signalled(SIGKILL), .exited(0)].contains(ending) else {
                XCTFail("the chunk ended by SIGKILL, or finished before the signal landed: \(context)")
                continue
            }
            guard !FileManager.default.fileExists(atPath: "\(run)/chunk-\(victim).done") else {
                // A busy machine let the chunk finish before the signal landed: it is whole, and a rerun says so.
                print("DistributedRunTests: chunk \(victim) finished before the signal landed")
                XCTAssertTrue(try runChunk(run, victim, in: folder).stderr.contains("already finished"))
                continue
            }
            XCTAssertEqual(ending, .signalled(SIGKILL), "a chunk that did not finish was killed: \(context)")
            kills += 1
            // Killed midway, the chunk left its view (catalogue.db's inode) and its log, never a copy.
            var view = stat(), snapshot = stat()
            XCTAssertEqual(stat("\(run)/chunk-\(victim).view.db", &view), 0, context)
            XCTAssertEqual(stat("\(catalogue)/catalogue.db", &snapshot), 0, context)
            XCTAssertEqual(view.st_ino, snapshot.st_ino, "the killed chunk's view is catalogue.db, linked: \(context)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(run)/chunk-\(victim).view.db-wal"), "its changes are in its own log: \(context)")
            try assertNoCopyOfTheCatalogue(run, context, sizes: false)
            let states = try XCTUnwrap(try status(run, in: folder)["chunk_states"] as? [[String: Any]])
            XCTAssertEqual(states[victim]["state"] as? String, "stopped", "dist status: the killed chunk is stopped: \(context)")
            let refused = try album(["merge", run], in: folder, expect: 3, "merge with the killed chunk unfinished")
            XCTAssertTrue(refused.stderr.contains("chunk \(victim) has not finished"), refused.stderr)

            try runChunk(run, victim, in: folder)
            try album(["merge", run], in: folder, expect: 1, "the merge after the rerun (one damaged photo): \(context)")
            XCTAssertEqual(try rows(catalogue, "SELECT state FROM distributed"), ["merged"], context)
            // Read before anything else opens the catalogue to write (a writer marks runs left running interrupted).
            let parent = try XCTUnwrap(try rows(catalogue, "SELECT run FROM distributed").first)
            let attempts = try rows(catalogue, "SELECT status FROM runs WHERE parent = \(parent) AND chunk = \(victim) ORDER BY id")
            XCTAssertEqual(attempts.count, 2, "the killed attempt and the rerun, both under the parent: \(context)")
            XCTAssertEqual(attempts.first, "interrupted", "the killed attempt is recorded interrupted: \(context)")
            // The rerun ended: failed when it met the damaged photo, ok when the killed attempt had recorded it.
            XCTAssertTrue(["ok", "failed"].contains(attempts.last ?? ""), "the rerun ended: \(attempts), \(context)")
            XCTAssertEqual(try rows(catalogue, "SELECT chunk, COUNT(*) FROM runs WHERE parent = \(parent) GROUP BY chunk ORDER BY chunk"),
                           (0..<3).map { "\($0)|\($0 == victim ? 2 : 1)" }, "every attempt is under the parent, with its chunk")
            try assertSame(catalogue, out: out, as: one, oneOut: folder + "/out-one", context)
        }
        print("DistributedRunTests: \(kills) of \(seeds.count) chunks killed mid-run")
        XCTAssertGreaterThan(kills, 0, "at least one chunk was really killed mid-run")
    }

    /// A chunk whose `chunk-K.done` is lost after it finished (deleted by hand), then run again: its database is its
    /// delta by then (made after `chunk-K.done`), so the rerun writes the outcome again from the delta's attempts and
    /// runs nothing. The distributed run must still say that a photo failed, as it does without the loss, and as a
    /// one-machine run does.
    func testAChunkRunAgainAfterItsRunEndedStillCountsItsFailedPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 6, damaged: true)
        let catalogue = folder + "/album"
        let run = try planK8s(library, catalogue: catalogue, out: folder + "/out", chunks: 1)
        try runChunk(run, 0, in: folder)
        try FileManager.default.removeItem(atPath: run + "/chunk-0.done")
        // Its database is its delta by now (made after chunk-0.done): the rerun writes the outcome again from it.
        let rerun = try runChunk(run, 0, in: folder)
        XCTAssertTrue(rerun.stderr.contains("had finished"), rerun.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: run + "/chunk-0.done"))
        try album(["merge", run], in: folder, expect: 1, "merging a chunk whose first attempt failed a photo")
        XCTAssertEqual(try rows(catalogue, "SELECT status FROM runs WHERE id = (SELECT run FROM distributed)"), ["failed"],
                       "the distributed run failed a photo")
        XCTAssertEqual(try rows(catalogue, "SELECT failed FROM distributed_chunks"), ["1"])
    }

    // MARK: - 5. refusals while a distributed run is open

    func testMaintenanceAndRunsRefuseWhileADistributedRunIsOpenAndWorkOnceItIsAbandoned() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 12)
        let catalogue = folder + "/album", out = folder + "/out"
        try runOnOneMachine(library, catalogue: catalogue, out: out, expect: 0)
        let run = try planK8s(library, catalogue: catalogue, out: out, chunks: 2)
        try runChunk(run, 0, in: folder)

        let status = try self.status(run, in: folder)
        XCTAssertEqual(status["state"] as? String, "open")
        XCTAssertEqual(status["chunks"] as? Int, 2)
        let counts = try XCTUnwrap(status["counts"] as? [String: Any])
        XCTAssertEqual(counts["done"] as? Int, 1, "chunk 0 ran")
        XCTAssertEqual(counts["pending"] as? Int, 1, "chunk 1 never started")
        XCTAssertEqual(counts["merged"] as? Int, 0)
        let states = try XCTUnwrap(status["chunk_states"] as? [[String: Any]])
        XCTAssertEqual(states.map { $0["state"] as? String }, ["done", "pending"])
        XCTAssertEqual(states.map { $0["items"] as? Int }, try (0..<2).map { try manifestFiles(run, $0).count })

        let id = try XCTUnwrap(try rows(catalogue, "SELECT id FROM photos ORDER BY id LIMIT 1").first)
        let commands: [(String, [String])] = [
            ("gc", ["gc", "--catalogue", catalogue]),
            ("prune", ["prune", "--catalogue", catalogue]),
            ("rm", ["rm", id, "--catalogue", catalogue]),
            ("relocate", ["relocate", "--catalogue", catalogue, "--from", folder + "/nowhere", "--to", folder + "/elsewhere"]),
            ("run", ["run", library.job, "--catalogue", catalogue, "--set", "out=\(out)"]),
            ("run --distribute local", ["run", library.job, "--distribute", "local", "--catalogue", catalogue, "--set", "out=\(out)"]),
        ]
        let before = try rows(catalogue, "SELECT COUNT(*) FROM photos")
        for (name, arguments) in commands {
            let refused = try album(arguments, in: folder, expect: 3, "\(name) while the run is open")
            XCTAssertTrue(refused.stderr.contains(run), "\(name) names the run folder: \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("album merge") && refused.stderr.contains("album dist abandon"),
                          "\(name) says what to do: \(refused.stderr)")
        }
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos"), before, "rm removed nothing")

        try album(["dist", "abandon", run], in: folder, expect: 0, "abandoning")
        XCTAssertEqual(try self.status(run, in: folder)["state"] as? String, "abandoned")
        XCTAssertEqual(try rows(catalogue, "SELECT state FROM distributed"), ["abandoned"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/chunk-0.db"), "abandon deletes the chunk databases")
        try album(["merge", run], in: folder, expect: 3, "merging an abandoned run")
        for (name, arguments) in commands.dropLast() {
            let result = try album(arguments, in: folder, expect: 0, "\(name) once the run is abandoned")
            XCTAssertFalse(result.stderr.contains("refused"), "\(name): \(result.stderr)")
            if name == "rm" {
                XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos WHERE id = '\(id)'"), ["0"], "rm removed the photo")
            }
        }
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos WHERE id = '\(id)'"), ["1"],
                       "the run imported the removed photo again, under the same id (its bytes')")
    }

    /// `dist status` reads the catalogue's record of the run: a catalogue it cannot read (here an older schema, which a
    /// reader refuses) is said, exit 3 with the reader's words, never shown as an open run with nothing merged.
    func testDistStatusSaysWhyItCannotReadTheCatalogue() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 4)
        let catalogue = folder + "/album", out = folder + "/out"
        let run = try planK8s(library, catalogue: catalogue, out: out, chunks: 2)
        XCTAssertEqual(try self.status(run, in: folder)["state"] as? String, "open")
        try CatalogueTests.makeVersion6(catalogue + "/catalogue.db")
        for arguments in [["dist", "status", run], ["dist", "status", run, "--json"]] {
            let result = try album(arguments, in: folder, expect: 3, "dist status on a catalogue a reader refuses")
            XCTAssertTrue(result.stderr.contains("has an older schema (version 6; this album reads \(Schema.currentVersion))"),
                          result.stderr)
            XCTAssertTrue(result.stderr.contains("album verify --catalogue \(catalogue)"), "says what to do: \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "no status shown from a catalogue it could not read")
        }
    }

    // MARK: - 6. album chunk's exit statuses

    func testChunkExitsSeventyFiveForItsEnvironmentAndTwoForTheJobOrItsArguments() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 12)
        let catalogue = folder + "/album"
        let run = try planK8s(library, catalogue: catalogue, out: folder + "/out", chunks: 2)
        let manager = FileManager.default
        let done = run + "/chunk-0.done"

        try manager.moveItem(atPath: library.photos, toPath: folder + "/photos.away")
        let missing = try runChunk(run, 0, in: folder, expect: 75)
        XCTAssertTrue(missing.stderr.contains(library.photos) && missing.stderr.contains("mounted"), missing.stderr)
        XCTAssertFalse(manager.fileExists(atPath: done), "a chunk without its import root has not finished")

        try manager.createDirectory(atPath: library.photos, withIntermediateDirectories: false)
        let empty = try runChunk(run, 0, in: folder, expect: 75)
        XCTAssertTrue(empty.stderr.contains("is empty"), empty.stderr)
        XCTAssertFalse(manager.fileExists(atPath: done), "a chunk with an empty import root has not finished")
        try manager.removeItem(atPath: library.photos)
        try manager.moveItem(atPath: folder + "/photos.away", toPath: library.photos)

        try manager.moveItem(atPath: catalogue + "/catalogue.db", toPath: folder + "/catalogue.db.away")
        try runChunk(run, 0, in: folder, expect: 75)
        try manager.moveItem(atPath: folder + "/catalogue.db.away", toPath: catalogue + "/catalogue.db")
        try runChunk(folder + "/no-such-run", 0, in: folder, expect: 75)

        let plan = try String(contentsOfFile: run + "/run.json", encoding: .utf8)
        let version = try XCTUnwrap(plan.range(of: #""album": "[^"]*""#, options: .regularExpression), "run.json names the album version")
        try plan.replacingCharacters(in: version, with: #""album": "0.0.1-elsewhere""#).write(toFile: run + "/run.json", atomically: true, encoding: .utf8)
        let other = try runChunk(run, 0, in: folder, expect: 75)
        XCTAssertTrue(other.stderr.contains("0.0.1-elsewhere"), "names the planner's version: \(other.stderr)")
        try plan.write(toFile: run + "/run.json", atomically: true, encoding: .utf8)

        let job = try String(contentsOfFile: library.job, encoding: .utf8)
        try (job + "\n# edited after planning\n").write(toFile: library.job, atomically: true, encoding: .utf8)
        let changed = try runChunk(run, 0, in: folder, expect: 2)
        XCTAssertTrue(changed.stderr.contains("changed since"), changed.stderr)
        XCTAssertFalse(manager.fileExists(atPath: done))
        try job.write(toFile: library.job, atomically: true, encoding: .utf8)

        let outOfRange = try runChunk(run, 2, in: folder, expect: 2)
        XCTAssertTrue(outOfRange.stderr.contains("chunks 0 to 1"), outOfRange.stderr)
        try album(["chunk", run, "-1"], in: folder, expect: 2, "a negative chunk number")
        try album(["chunk", run, "one"], in: folder, expect: 2, "a chunk number that is not a number")
        try album(["chunk"], in: folder, expect: 2, "no run folder")
        try album(["chunk", run, "0", "1"], in: folder, expect: 2, "too many arguments")
        XCTAssertFalse(manager.fileExists(atPath: run + "/chunk-0.db"), "nothing above ran the chunk")

        try runChunk(run, 0, in: folder, expect: 0)
        XCTAssertTrue(manager.fileExists(atPath: done), "a chunk that finished says so")
        let twice = try runChunk(run, 0, in: folder, expect: 0)
        XCTAssertTrue(twice.stderr.contains("already finished"), twice.stderr)
    }

    // MARK: - 7. photo ids from the content hash

    func testAPhotosIdIsMadeFromItsBytesSoTwoCataloguesAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photo = try Fixture.jpeg(at: folder + "/a/photo.jpg", variant: 3)
        let other = try Fixture.jpeg(at: folder + "/a/other.jpg", variant: 4)
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: folder + "/b/renamed.jpg")
        try album(["import", folder + "/a", "--catalogue", folder + "/one"], in: folder, expect: 0, "importing into one")
        try album(["import", folder + "/b", "--catalogue", folder + "/two"], in: folder, expect: 0, "importing into two")

        let hash = try Tool.sha256(photo)
        let id = try XCTUnwrap(try rows(folder + "/one", "SELECT id FROM photos WHERE hash = '\(hash)'").first)
        XCTAssertEqual(try rows(folder + "/two", "SELECT id FROM photos"), [id], "the same bytes, the same id, in another catalogue")
        XCTAssertNotNil(id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression),
                        "a UUID of version 8 and variant 10: \(id)")
        // Worked out by hand from sha256sum: the first 128 bits, the version nibble set to 8, the variant bits to 10.
        var digits = Array(hash.prefix(32))
        digits[12] = "8"
        digits[16] = Character(String((Int(String(digits[16]), radix: 16)! & 0x3) | 0x8, radix: 16))
        let text = String(digits)
        let expected = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(text[text.index(text.startIndex, offsetBy: range.lowerBound)..<text.index(text.startIndex, offsetBy: range.upperBound)])
        }.joined(separator: "-")
        XCTAssertEqual(id, expected)
        let otherID = try rows(folder + "/one", "SELECT id FROM photos WHERE hash = '\(try Tool.sha256(other))'")
        XCTAssertEqual(otherID.count, 1)
        XCTAssertNotEqual(otherID, [id], "other bytes, another id")
    }

    // MARK: - 8. a chunk made by another version is not merged

    func testMergeRefusesAChunkMadeByAnotherVersionAndMergesOnceItIsMadeAgain() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 12)
        let catalogue = folder + "/album"
        let run = try planK8s(library, catalogue: catalogue, out: folder + "/out", chunks: 3)
        for chunk in 0..<3 { try runChunk(run, chunk, in: folder) }
        let planned = try XCTUnwrap(try rows(catalogue, "SELECT album_version FROM runs WHERE id = (SELECT run FROM distributed)").first)
        let database = run + "/chunk-1.db"
        XCTAssertEqual(try Tool.sqlite(database, "UPDATE runs SET album_version = '0.0.1-tampered' WHERE parent IS NOT NULL; SELECT changes()",
                                       writing: true), "1")

        for arguments in [["merge", run], ["merge", run, "--partial"]] {
            let refused = try album(arguments, in: folder, expect: 3, "merging a chunk of another version")
            XCTAssertTrue(refused.stderr.contains("chunk 1 not merged"), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("0.0.1-tampered") && refused.stderr.contains(planned),
                          "names both versions (\(planned)): \(refused.stderr)")
            // The chunks read catalogue.db in place, and chunk 1 made again must read it as planned: nothing is merged.
            XCTAssertTrue(refused.stderr.contains("in place"), refused.stderr)
            XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM distributed_chunks"), ["0"], "nothing merged while chunk 1 is refused")
            XCTAssertEqual(try rows(catalogue, "SELECT state FROM distributed"), ["open"], "the run stays open")
            XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM runs WHERE parent IS NOT NULL"), ["0"])
        }
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos"), ["0"], "no chunk's photos yet")

        // Made again by this album, the chunk merges and the run ends.
        try FileManager.default.removeItem(atPath: database)
        try FileManager.default.removeItem(atPath: run + "/chunk-1.done")
        try runChunk(run, 1, in: folder)
        try album(["merge", run], in: folder, expect: 0, "merging the chunk made again")
        XCTAssertEqual(try rows(catalogue, "SELECT state FROM distributed"), ["merged"])
        XCTAssertEqual(try rows(catalogue, "SELECT COUNT(*) FROM photos"), [String(library.files.count)])
        XCTAssertEqual(try rows(catalogue, "SELECT DISTINCT album_version FROM runs WHERE parent IS NOT NULL"), [planned])
    }

    // MARK: - 9. chunks read the catalogue in place

    /// The chunks read catalogue.db itself (issue 34): planning checkpoints it and leaves no snapshot; while the run is
    /// open no other writer opens it (here `album caption`, which refused nothing before), `verify` only reads it;
    /// a write that gets past album (the sqlite3 shell) is seen by the next chunk, which refuses to run (exit 3) and
    /// leaves nothing to merge; and abandoning the run lets writers in again.
    func testChunksReadTheCatalogueInPlaceWithNoWriterBesideThemAndRefuseAChangedOne() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 8)
        let catalogue = folder + "/album", out = folder + "/out"
        try runOnOneMachine(library, catalogue: catalogue, out: out, expect: 0)
        for index in 0..<4 { try Fixture.jpeg(at: "\(folder)/photos/b/new-\(index).jpg", width: 160, height: 120, variant: 300 + index) }
        let run = try planK8s(library, catalogue: catalogue, out: out, chunks: 2)
        let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run + "/run.json"))) as? [String: Any])
        let reads = try XCTUnwrap(plan["reads_catalogue"] as? [String: Any], "run.json records the catalogue the chunks read")
        var status = stat()
        XCTAssertEqual(stat(catalogue + "/catalogue.db", &status), 0)
        XCTAssertEqual(reads["inode"] as? Int, Int(status.st_ino))
        XCTAssertEqual(reads["bytes"] as? Int, Int(status.st_size))
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/snapshot.db"), "no snapshot")
        XCTAssertEqual((try? FileManager.default.attributesOfItem(atPath: catalogue + "/catalogue.db-wal")[.size] as? Int) ?? 0, 0,
                       "the catalogue's log was checkpointed whole at planning")
        let planned = try Tool.sha256(catalogue + "/catalogue.db")

        let id = try XCTUnwrap(try rows(catalogue, "SELECT id FROM photos ORDER BY id LIMIT 1").first)
        let refused = try album(["caption", id, "written beside the chunks", "--catalogue", catalogue], in: folder, expect: 3, "caption while chunks read")
        XCTAssertTrue(refused.stderr.contains("read in place") && refused.stderr.contains(run) && refused.stderr.contains("album dist abandon"),
                      refused.stderr)
        let verify = try TestSupport.album(["verify", "--catalogue", catalogue])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        try runChunk(run, 0, in: folder)
        XCTAssertEqual(try Tool.sha256(catalogue + "/catalogue.db"), planned, "nothing wrote the catalogue: not caption, verify nor chunk 0")

        // A writer album cannot hold off: its commit is checkpointed into catalogue.db as the shell closes.
        _ = try Tool.sqlite(catalogue + "/catalogue.db", "UPDATE photos SET caption = 'behind album''s back' WHERE id = '\(id)'", writing: true)
        let stale = try runChunk(run, 1, in: folder, expect: 3)
        XCTAssertTrue(stale.stderr.contains("was written since distributed run") && stale.stderr.contains("album dist abandon"), stale.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/chunk-1.done"), "the chunk did not finish")
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/chunk-1.view.db"), "nor open a view")
        try album(["merge", run], in: folder, expect: 3, "merging with chunk 1 unfinished")

        try album(["dist", "abandon", run], in: folder, expect: 0, "abandoning")
        XCTAssertFalse(FileManager.default.fileExists(atPath: catalogue + "/" + Catalogue.inPlaceReadersName), "the marker is gone")
        try album(["caption", id, "after the run", "--catalogue", catalogue], in: folder, expect: 0, "caption once the run is abandoned")
    }

    /// A reader holding an older state of the catalogue (here a read transaction of the test's own, begun before
    /// planning wrote the run's rows) keeps planning's checkpoint from finishing: the run then keeps one snapshot,
    /// says so, and its chunks read that; `--partial` merges finished chunks at once there (nobody reads the
    /// catalogue), and the result equals a one-machine run.
    func testAReaderHoldingUpTheCheckpointMakesTheRunKeepASnapshot() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 10)
        let two = folder + "/two", out = folder + "/out-two"
        try album(["import", library.photos + "/a", "--catalogue", two], in: folder, expect: 0, "importing half the photos first")
        try runOnOneMachine(library, catalogue: folder + "/scratch", out: folder + "/out-scratch", expect: 0)

        let reader = try Database(path: two + "/catalogue.db", mode: .readOnly)
        try reader.execute("BEGIN")
        XCTAssertFalse(try reader.query("SELECT COUNT(*) FROM photos") { $0.int(0) ?? 0 }.isEmpty)
        let planning = try album(["run", library.job, "--distribute", "k8s", "--chunks", "2", "--catalogue", two, "--set", "out=\(out)"],
                                 in: folder, expect: 0, "planning beside a reader")
        try reader.execute("COMMIT")
        reader.close()
        XCTAssertTrue(planning.stderr.contains("read a snapshot"), planning.stderr)
        let run = try runFolder(of: two)
        XCTAssertTrue(FileManager.default.fileExists(atPath: run + "/snapshot.db"), "the run kept a snapshot")
        XCTAssertFalse(FileManager.default.fileExists(atPath: two + "/" + Catalogue.inPlaceReadersName), "no marker: writers are not held off")
        let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run + "/run.json"))) as? [String: Any])
        XCTAssertTrue(plan["reads_catalogue"] is NSNull, "run.json: the chunks read the snapshot")

        let planned = try Tool.sha256(run + "/snapshot.db")
        try runChunk(run, 0, in: folder)
        try album(["merge", run, "--partial"], in: folder, expect: 0, "a partial merge")
        XCTAssertEqual(try rows(two, "SELECT chunk FROM distributed_chunks"), ["0"], "chunk 0 merged at once")
        try runChunk(run, 1, in: folder)
        XCTAssertEqual(try Tool.sha256(run + "/snapshot.db"), planned, "no chunk wrote the snapshot")
        try album(["merge", run], in: folder, expect: 0, "the merge")
        XCTAssertFalse(FileManager.default.fileExists(atPath: run + "/snapshot.db"), "the snapshot goes with the merge")
        let hashes = "SELECT hash FROM photos ORDER BY hash"
        XCTAssertEqual(try rows(two, hashes), try rows(folder + "/scratch", hashes), "every photo, once")
        let thumbnails = "SELECT COUNT(*) FROM renditions WHERE kind = 'thumbnail'"
        XCTAssertEqual(try rows(two, thumbnails), try rows(folder + "/scratch", thumbnails), "every thumbnail, once")
        XCTAssertEqual(try rows(two, "PRAGMA integrity_check"), ["ok"])
    }

    // MARK: - 10. dist status beside a running chunk

    /// `album dist status` run again and again beside a chunk that works (session 15: a status that opened a
    /// running chunk's view beside its writer lost the chunk's log, and the merge met 'no such table:
    /// main.chunk_touched'). The chunk's own files say when it runs: at each commit its log receives (inotify), the
    /// test stops it with SIGSTOP (its view open, its lock held, maybe mid-transaction), asks for the status twice,
    /// lets it go on and asks once more while it works. No sleep: the moments are the chunk's commits. Then the chunk
    /// must finish whole, its delta hold the touch log and every photo of its share, and the merge equal a
    /// one-machine run.
    func testDistStatusBesideARunningChunkLeavesItsLogAndTheMergeWhole() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = try makeLibrary(in: folder, count: 16)
        let one = folder + "/one", two = folder + "/two", out = folder + "/out-two"
        try runOnOneMachine(library, catalogue: one, out: folder + "/out-one", expect: 0)
        let run = try planK8s(library, catalogue: two, out: out, chunks: 1)

        let watch = try FolderWatch(run, modifications: true)
        defer { watch.close() }
        let pipe = try Spawn.pipe()
        let child = try Spawn(["chunk", run, "0", "--workers", "1"], in: folder, stdout: .descriptor(pipe.write), stderr: .log(folder + "/chunk.log"))
        close(pipe.write)
        defer { close(pipe.read) }
        let lockFile = run + "/chunk-0.lock"
        func lockHeld() -> Bool {
            let descriptor = open(lockFile, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { Glibc.close(descriptor) }
            return flock(descriptor, LOCK_EX | LOCK_NB) != 0
        }
        var seenCommits = 0, pauses = 0, statuses = 0, running = true
        while running {
            var ready = [pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)]
            if poll(&ready, 2, -1) < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                continue
            }
            var committed = false
            if ready[0].revents != 0 {
                for event in watch.names() where event.event == .modified && event.name == "chunk-0.view.db-wal" {
                    let commits = DistributedRunTests.commits(inLog: run + "/" + event.name)
                    if commits > seenCommits { seenCommits = commits; committed = true }
                }
            }
            if committed {
                kill(child.pid, SIGSTOP)
                defer { kill(child.pid, SIGCONT) }
                XCTAssertTrue(lockHeld(), "the stopped chunk holds its lock")
                // After its last commit the chunk writes chunk-0.done, then makes its delta from the view (a commit
                // too): stopped there it is done, and still holds its lock and its view.
                let finished = FileManager.default.fileExists(atPath: run + "/chunk-0.done")
                for _ in 0..<2 {
                    let states = try XCTUnwrap(try status(run, in: folder)["chunk_states"] as? [[String: Any]])
                    XCTAssertEqual(states.first?["state"] as? String, finished ? "done" : "running", "dist status beside the stopped chunk")
                    statuses += 1
                }
                if !finished { pauses += 1 }
            } else if ready[1].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { running = false }
                continue
            }
            if committed {
                // Once more while it works (its SIGCONT sent): the status meets the writer mid-run, unstopped.
                _ = try status(run, in: folder)
                statuses += 1
            }
        }
        let ending = child.wait()
        print("DistributedRunTests: \(statuses) statuses beside the chunk, stopped at \(pauses) of its commits before it finished; \(ending)")
        XCTAssertEqual(ending, .exited(0), (try? String(contentsOfFile: folder + "/chunk.log", encoding: .utf8)) ?? "")
        XCTAssertGreaterThan(pauses, 0, "the chunk was stopped at a commit of its log at least once before it finished")

        let delta = run + "/chunk-0.db"
        XCTAssertEqual(try Tool.sqlite(delta, "PRAGMA quick_check"), "ok")
        XCTAssertEqual(try Tool.sqlite(delta, "SELECT COUNT(*) FROM chunk_touched"), String(library.files.count),
                       "the delta's touch log holds every photo of the share")
        XCTAssertEqual(try Tool.sqlite(delta, "SELECT COUNT(*) FROM photos"), String(library.files.count))
        let states = try XCTUnwrap(try status(run, in: folder)["chunk_states"] as? [[String: Any]])
        XCTAssertEqual(states.first?["state"] as? String, "done")
        XCTAssertEqual(states.first?["attempts"] as? Int, 1)
        try album(["merge", run], in: folder, expect: 0, "the merge")
        try assertSame(two, out: out, as: one, oneOut: folder + "/out-one", "status beside a running chunk")
    }
}

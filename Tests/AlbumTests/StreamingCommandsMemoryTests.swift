import XCTest

/// Issue 34: `verify` (both depths), `prune`, `gc` and `report` read the catalogue a row at a time, so their peak
/// memory does not grow with the library. Two libraries, of 2 001 and of 20 001 photos, are made cheaply as
/// `Benchmarks/scale_run.py` makes them: a real run records one photo with its thumbnail, then Python's sqlite3
/// copies its rows for tiny distinct files with their true stat and SHA-256, each thumbnail row's file a hard link to
/// the recorded one (so every photo is `ok` and every file sound). Each command runs under a Python parent that
/// reports its child's peak RSS (`getrusage(RUSAGE_CHILDREN)`), and the larger must stay within 10 % + 4 MB of the
/// smaller. Sizes only: no time is asserted.
final class StreamingCommandsMemoryTests: XCTestCase {
    /// Copies the catalogue's one photo, and its renditions (files hard-linked), for COUNT new tiny files.
    static let fill = #"""
    import hashlib, os, sqlite3, sys
    database, count = sys.argv[1], int(sys.argv[2])
    catalogue = os.path.dirname(database)
    photos = os.path.join(os.path.dirname(catalogue), "photos")
    db = sqlite3.connect(database)
    columns = [row[1] for row in db.execute("PRAGMA table_info(photos)")]
    template = dict(zip(columns, db.execute("SELECT * FROM photos").fetchone()))
    kinds = [row[1] for row in db.execute("PRAGMA table_info(renditions)")]
    renditions = [dict(zip(kinds, row)) for row in db.execute("SELECT * FROM renditions WHERE photo = ?", (template["id"],))]
    folder = os.path.dirname(template["path"])
    absolute = lambda path: path if os.path.isabs(path) else os.path.join(catalogue, path)
    with db:
        for index in range(count):
            name = "g%03d/f%06d.jpg" % (index // 1000, index)
            path = os.path.join(photos, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            content = b"scale photo %d\n" % index
            with open(path, "wb") as out:
                out.write(content)
            status = os.stat(path)
            digest = hashlib.sha256(content).hexdigest()
            row = dict(template, id="%s-%s-8%s-8%s-%s" % (digest[:8], digest[8:12], digest[13:16], digest[17:20], digest[20:32]),
                       hash=digest, path=os.path.join(folder, name), bytes=status.st_size, mtime_ns=status.st_mtime_ns,
                       inode=status.st_ino)
            db.execute("INSERT INTO photos (%s) VALUES (%s)" % (", ".join(row), ", ".join("?" * len(row))), list(row.values()))
            for rendition in renditions:
                copy = {key: value for key, value in rendition.items() if key != "id"}
                linked = os.path.join(os.path.dirname(rendition["path"]), "f%06d.jpg" % index)
                os.link(absolute(rendition["path"]), absolute(linked))
                copy.update(photo=row["id"], path=linked, input_hash=digest)
                db.execute("INSERT INTO renditions (%s) VALUES (%s)" % (", ".join(copy), ", ".join("?" * len(copy))), list(copy.values()))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    """#

    /// A library of `count` + 1 photos, and one file in its thumbnails folder that no row records.
    func makeLibrary(_ count: Int) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg", width: 64, height: 48)
        try TestSupport.write("""
            version: 1
            name: scale
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let filled = try Tool.run(["python3", "-c", StreamingCommandsMemoryTests.fill, folder + "/album/catalogue.db", String(count)])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        try TestSupport.write("left over", to: "album/thumbnails/zz/stray.jpg", in: folder)
        return folder
    }

    /// `album ARGUMENTS` in `folder`: its stdout and its peak RSS in KB (`ScaleMemoryTests.peak`).
    func measured(_ arguments: [String], in folder: String) throws -> (stdout: String, kilobytes: Int) {
        let result = try TestSupport.album(arguments, in: folder, through: ["/usr/bin/env", "python3", "-c", ScaleMemoryTests.peak])
        XCTAssertEqual(result.status, 0, "album \(arguments.joined(separator: " ")): \(result.stderr)")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let kilobytes = try XCTUnwrap(last.hasPrefix("peak-kb ") ? Int(last.dropFirst(8)) : nil, result.stderr)
        return (result.stdout, kilobytes)
    }

    func testMaintenanceOfTenTimesMorePhotosTakesNoMoreMemory() throws {
        let sizes = [2_001, 20_001]
        let libraries = try sizes.map { try makeLibrary($0 - 1) }
        // In order: the dry runs before the prune and gc that apply them (which find what the dry runs found).
        let commands = [["verify", "--quick", "--json"], ["verify", "--sample", "50", "--seed", "7", "--json"],
                        ["prune", "--dry-run", "--json"], ["prune", "--json"], ["gc", "--dry-run", "--json"], ["gc", "--json"],
                        ["report", "--out", "report.html"]]
        for command in commands {
            let runs = try libraries.map { try measured(command, in: $0) }
            let name = "album " + command.joined(separator: " ")
            print("StreamingCommandsMemoryTests: \(name): \(sizes[0]) photos \(runs[0].kilobytes) KB, \(sizes[1]) photos \(runs[1].kilobytes) KB")
            XCTAssertLessThanOrEqual(runs[1].kilobytes, runs[0].kilobytes * 11 / 10 + 4_096,
                                     "\(name) grew from \(runs[0].kilobytes) KB to \(runs[1].kilobytes) KB with ten times the photos")
            // What each found is the same in both libraries, but for the photos counted.
            for (run, size) in zip(runs, sizes) {
                switch command[0] {
                case "verify":
                    XCTAssertTrue(run.stdout.contains(#""sound": true"#), run.stdout)
                    let checked = command[1] == "--quick" ? size : 50
                    XCTAssertTrue(run.stdout.contains(#""photos": \#(checked),"#), "\(name): \(run.stdout)")
                case "prune":
                    XCTAssertTrue(run.stdout.contains(#""deleted": 0"#), "\(name): \(run.stdout)")
                case "gc":
                    XCTAssertTrue(run.stdout.contains(#""path": "thumbnails/zz/stray.jpg""#), "\(name): \(run.stdout)")
                    XCTAssertTrue(run.stdout.contains(#""removed": 1"#), "\(name): \(run.stdout)")
                default:
                    break
                }
            }
        }
        for library in libraries {
            XCTAssertFalse(FileManager.default.fileExists(atPath: library + "/album/thumbnails/zz/stray.jpg"), "gc removed the stray file")
            XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/report.html"))
        }
    }
}

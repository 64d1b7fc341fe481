import Foundation
import XCTest

/// Libraries of thousands of photos made in seconds, for the tests that check memory does not grow with the library
/// (`ScaleMemoryTests`, `StreamingCommandsMemoryTests`), as `Benchmarks/scale_run.py` makes them: a real run records
/// one photo with its thumbnail, then Python's sqlite3 copies its rows for tiny distinct files with their true stat
/// and SHA-256, each thumbnail row's file a hard link to the recorded one and its input the copy's bytes, so every
/// photo is `ok`, every file sound, and a rerun a no-op. Commands run under a Python parent that reports its child's
/// peak RSS (`getrusage(RUSAGE_CHILDREN)`, so no other process of the test counts).
enum ScaleLibrary {
    /// Copies the catalogue's one photo, and its renditions (files hard-linked), for COUNT new tiny files under the
    /// photos folder.
    static let fill = #"""
    import hashlib, os, sqlite3, sys
    database, count = sys.argv[1], int(sys.argv[2])
    photos = os.path.join(os.path.dirname(os.path.dirname(database)), "photos")
    db = sqlite3.connect(database)
    columns = [row[1] for row in db.execute("PRAGMA table_info(photos)")]
    template = dict(zip(columns, db.execute("SELECT * FROM photos").fetchone()))
    kinds = [row[1] for row in db.execute("PRAGMA table_info(renditions)")]
    renditions = [dict(zip(kinds, row)) for row in db.execute("SELECT * FROM renditions WHERE photo = ?", (template["id"],))]
    folder = os.path.dirname(template["path"])
    catalogue = os.path.dirname(database)
    def absolute(path):
        return path if os.path.isabs(path) else os.path.join(catalogue, path)
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
                # The original look's thumbnail: its input is the photo's bytes, its file a link to the template's.
                copy = {key: value for key, value in rendition.items() if key != "id"}
                name = os.path.join(os.path.dirname(rendition["path"]), "f%06d.jpg" % index)
                os.link(absolute(rendition["path"]), absolute(name))
                copy.update(photo=row["id"], path=name, input_hash=digest)
                db.execute("INSERT INTO renditions (%s) VALUES (%s)" % (", ".join(copy), ", ".join("?" * len(copy))), list(copy.values()))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    """#

    /// Runs the command in argv[1:] with this process's streams, then prints its peak RSS in KB on stderr's last line.
    static let peak = #"""
    import resource, subprocess, sys
    status = subprocess.call(sys.argv[1:])
    sys.stderr.write("\npeak-kb %d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    sys.exit(status)
    """#

    /// A library of `count` + 1 photos in a new folder of `test`'s: `photos/`, `job.yml` (import, a 32×32 thumbnail)
    /// and its catalogue `album/`.
    static func make(_ count: Int, for test: XCTestCase) throws -> String {
        let folder = try TestSupport.temporaryFolder(test)
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
        let filled = try Tool.run(["python3", "-c", fill, folder + "/album/catalogue.db", String(count)])
        XCTAssertEqual(filled.status, 0, filled.stderr)
        return folder
    }

    /// `album ARGUMENTS` in `folder`: its stdout and its peak RSS in KB.
    static func measured(_ arguments: [String], in folder: String,
                         file: StaticString = #filePath, line: UInt = #line) throws -> (stdout: String, kilobytes: Int) {
        let result = try TestSupport.album(arguments, in: folder, through: ["/usr/bin/env", "python3", "-c", peak])
        XCTAssertEqual(result.status, 0, "album \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let kilobytes = try XCTUnwrap(last.hasPrefix("peak-kb ") ? Int(last.dropFirst(8)) : nil, result.stderr, file: file, line: line)
        return (result.stdout, kilobytes)
    }
}

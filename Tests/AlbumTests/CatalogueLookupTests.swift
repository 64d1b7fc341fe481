import XCTest
@testable import Catalogue

/// Issue 19: the catalogue found the same way by every command (`CatalogueLocation`), `rm --dry-run`, and
/// `--wait[=SECONDS]` for the writer lock, all through the built binary.
final class CatalogueLookupTests: XCTestCase {
    /// A folder with one photo and a job without `catalogue:`, and an environment whose config folder is empty, so
    /// that the user's own `~/.config/album/config.yml` plays no part.
    func makeFolder() throws -> (folder: String, environment: [String: String]) {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try TestSupport.write("version: 1\nname: lookup\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 120x120}\n",
                              to: "job.yml", in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        return (folder, ["XDG_CONFIG_HOME": folder + "/no-config", "ALBUM_CATALOGUE": ""])
    }

    /// The catalogue `plan` would use: the folder on its first line ("plan for job 'lookup', catalogue DIR").
    func planned(_ arguments: [String], in folder: String, _ environment: [String: String]) throws -> String {
        let plan = try TestSupport.album(["plan"] + arguments, in: folder, environment: environment)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let first = plan.stdout.split(separator: "\n").first.map(String.init) ?? ""
        return String(first[(first.range(of: ", catalogue ")?.upperBound ?? first.endIndex)...])
    }

    func testRunThenLsAgreeWhereverTheJobFileIsForAJobWithoutCatalogue() throws {
        let (folder, environment) = try makeFolder()
        let sub = folder + "/sub"
        let run = try TestSupport.album(["run", "../job.yml"], in: sub, environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("note:"), run.stderr)
        XCTAssert(FileManager.default.fileExists(atPath: "\(sub)/album/\(Catalogue.databaseName)"), "./album, not beside the job")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/album"))
        let list = try TestSupport.album(["ls"], in: sub, environment: environment)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssert(list.stdout.contains("\(folder)/photos/a.jpg"), list.stdout)
        // In the job's own folder there is no catalogue yet: ls there says so, and a run there makes its own.
        let elsewhere = try TestSupport.album(["ls"], in: folder, environment: environment)
        XCTAssertEqual(elsewhere.status, 3, elsewhere.stderr)
        XCTAssertEqual(try planned(["job.yml"], in: folder, environment), "\(folder)/album")
    }

    func testACatalogueBesideTheJobFromEarlierVersionsIsStillUsedWithANote() throws {
        let (folder, environment) = try makeFolder()
        // Earlier versions' default: album/ beside the job file, made here by running in the job's folder.
        let first = try TestSupport.album(["run", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(first.status, 0, first.stderr)
        let again = try TestSupport.album(["run", "../job.yml"], in: folder + "/sub", environment: environment)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssert(again.stderr.contains("note: using the catalogue beside the job file, \(folder)/album"), again.stderr)
        XCTAssert(again.stderr.contains("add 'catalogue: album' to the job"), again.stderr)
        XCTAssert(again.stderr.contains("run 2 of job 'lookup'"), "the same catalogue's second run\n\(again.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/sub/album"), "no second catalogue")
        // Once the current folder has its own, that one wins.
        try FileManager.default.createDirectory(atPath: folder + "/sub/album", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(folder)/album/\(Catalogue.databaseName)", toPath: "\(folder)/sub/album/\(Catalogue.databaseName)")
        XCTAssertEqual(try planned(["../job.yml"], in: folder + "/sub", environment), "\(folder)/sub/album")
    }

    func testTheOrderIsCatalogueOptionJobEnvironmentConfigFilesThenTheDefault() throws {
        let (folder, environment) = try makeFolder()
        let sub = folder + "/sub"
        // The default: ./album, for ls as for plan and run.
        XCTAssertEqual(try planned(["job.yml"], in: folder, environment), "\(folder)/album")

        // The user's config file, a relative path there being relative to that file's folder.
        try TestSupport.write("catalogue: ../../from-user-config\n", to: "config.yml", in: folder + "/xdg/album")
        var env = environment
        env["XDG_CONFIG_HOME"] = folder + "/xdg"
        XCTAssertEqual(try planned(["../job.yml"], in: sub, env), "\(folder)/from-user-config")

        // ./album.yml comes before the user's config.
        try TestSupport.write("catalogue: here\n", to: "album.yml", in: sub)
        XCTAssertEqual(try planned(["../job.yml"], in: sub, env), "\(sub)/here")

        // ALBUM_CATALOGUE comes before both, relative to the current folder.
        env["ALBUM_CATALOGUE"] = "from-env"
        XCTAssertEqual(try planned(["../job.yml"], in: sub, env), "\(sub)/from-env")

        // The job's own catalogue: comes before ALBUM_CATALOGUE; --catalogue (-c) before everything.
        try TestSupport.write("version: 1\ncatalogue: own\nstages:\n  - import: {from: photos}\n", to: "own.yml", in: folder)
        XCTAssertEqual(try planned(["../own.yml"], in: sub, env), "\(folder)/own")
        XCTAssertEqual(try planned(["../own.yml", "-c", "given"], in: sub, env), "\(sub)/given")

        // The same order for a command with no job: import writes, ls reads, where ALBUM_CATALOGUE says.
        let imported = try TestSupport.album(["import", "../photos"], in: sub, environment: env)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssert(FileManager.default.fileExists(atPath: "\(sub)/from-env/\(Catalogue.databaseName)"))
        let list = try TestSupport.album(["ls", "--json"], in: sub, environment: env)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssert(list.stdout.contains("a.jpg"), list.stdout)
        // Without ALBUM_CATALOGUE, ./album.yml's catalogue: is the one, and it holds nothing yet.
        env["ALBUM_CATALOGUE"] = ""
        let fromConfig = try TestSupport.album(["ls"], in: sub, environment: env)
        XCTAssertEqual(fromConfig.status, 3, fromConfig.stderr)
        XCTAssert(fromConfig.stderr.contains("no catalogue at \(sub)/here"), fromConfig.stderr)
        XCTAssert(fromConfig.stderr.contains("\(sub)/album.yml: catalogue: here"), fromConfig.stderr)
    }

    func testLsWithNoCatalogueSaysWhereItLookedInOrder() throws {
        let (folder, environment) = try makeFolder()
        let list = try TestSupport.album(["ls"], in: folder + "/sub", environment: environment)
        XCTAssertEqual(list.status, 3, list.stderr)
        let places = ["1. --catalogue: not given", "2. ALBUM_CATALOGUE: not set", "3. \(folder)/sub/album.yml: no such file",
                      "4. \(folder)/no-config/album/config.yml: no such file",
                      "5. the default, album in the current folder: \(folder)/sub/album"]
        var rest = Substring(list.stderr)
        for place in places {
            guard let found = rest.range(of: place) else { return XCTFail("'\(place)' missing or out of order in: \(list.stderr)") }
            rest = rest[found.upperBound...]
        }
        XCTAssert(list.stderr.contains("no catalogue at \(folder)/sub/album"), list.stderr)
    }

    func testABrokenConfigFileIsAUsageErrorNamingIt() throws {
        let (folder, environment) = try makeFolder()
        try TestSupport.write("catalogue: [a, b]\n", to: "album.yml", in: folder + "/sub")
        let list = try TestSupport.album(["ls"], in: folder + "/sub", environment: environment)
        XCTAssertEqual(list.status, 2, list.stderr)
        XCTAssert(list.stderr.contains("\(folder)/sub/album.yml:1:"), list.stderr)
        XCTAssert(list.stderr.contains(": catalogue: takes a folder path"), list.stderr)
    }

    func testRmDryRunPrintsWhatWouldGoAndRemovesNothing() throws {
        let (folder, environment) = try makeFolder()
        let run = try TestSupport.album(["run", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let catalogue = try CatalogueReader(folder: folder + "/album")
        let photo = try XCTUnwrap(try catalogue.allPhotos().first)
        let thumbnails = try catalogue.renditions(photo: photo.id).map(\.path)
        catalogue.close()
        XCTAssertEqual(thumbnails.count, 1)
        for flag in ["--dry-run", "-n"] {
            let dry = try TestSupport.album(["rm", flag, String(photo.id.prefix(8))], in: folder, environment: environment)
            XCTAssertEqual(dry.status, 0, dry.stderr)
            XCTAssert(dry.stdout.contains("would remove \(photo.id.prefix(8)) \(folder)/photos/a.jpg: 1 file to delete"), dry.stdout)
            XCTAssert(dry.stdout.contains("  would delete \(thumbnails[0])"), dry.stdout)
            XCTAssert(dry.stderr.contains("nothing removed"), dry.stderr)
            XCTAssert(FileManager.default.fileExists(atPath: thumbnails[0]), "the thumbnail is still there")
            let list = try TestSupport.album(["ls"], in: folder, environment: environment)
            XCTAssert(list.stdout.contains("photos/a.jpg"), "the photo is still there: \(list.stdout)")
        }
        let real = try TestSupport.album(["rm", String(photo.id.prefix(8))], in: folder, environment: environment)
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: thumbnails[0]))
    }

    /// Holds the catalogue's writer lock from another process (util-linux `flock`, the same `flock(2)` album takes)
    /// for `seconds`, and returns once it is held.
    func holdLock(of catalogue: String, for seconds: Int) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [catalogue + "/" + CatalogueLock.fileName, "sh", "-c", "echo held; sleep \(seconds)"]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        _ = out.fileHandleForReading.availableData  // "held": the lock is taken
        return holder
    }

    func testWaitTakesTheLockOnceItIsFreeAndGivesUpAfterItsLimit() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") else { throw XCTSkip("needs util-linux flock") }
        let (folder, environment) = try makeFolder()
        let run = try TestSupport.album(["run", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let catalogue = folder + "/album"
        let reader = try CatalogueReader(folder: catalogue)
        let id = try XCTUnwrap(try reader.allPhotos().first).id
        reader.close()

        var holder = try holdLock(of: catalogue, for: 2)
        let atOnce = try TestSupport.album(["caption", id, "no wait"], in: folder, environment: environment)
        XCTAssertEqual(atOnce.status, 3, atOnce.stderr)
        XCTAssert(atOnce.stderr.contains("is in use by"), atOnce.stderr)
        let waited = try TestSupport.album(["caption", "--wait", id, "waited"], in: folder, environment: environment)
        XCTAssertEqual(waited.status, 0, waited.stderr)
        XCTAssert(waited.stderr.contains("waiting for it"), waited.stderr)
        holder.waitUntilExit()

        holder = try holdLock(of: catalogue, for: 2)
        let rerun = try TestSupport.album(["run", "--wait", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(rerun.status, 0, "run waits the same way: \(rerun.stderr)")
        XCTAssert(rerun.stderr.contains("waiting for it"), rerun.stderr)
        holder.waitUntilExit()

        holder = try holdLock(of: catalogue, for: 3)
        let limited = try TestSupport.album(["caption", "--wait=10", id, "within ten"], in: folder, environment: environment)
        XCTAssertEqual(limited.status, 0, limited.stderr)
        XCTAssert(limited.stderr.contains("waiting for it (up to 10 s)"), limited.stderr)
        holder.waitUntilExit()

        holder = try holdLock(of: catalogue, for: 4)  // longer than --wait=1: let it run out rather than kill it (its child holds the lock)
        defer { holder.waitUntilExit() }
        let started = Date()
        let gaveUp = try TestSupport.album(["rm", "--wait=1", id], in: folder, environment: environment)
        XCTAssertEqual(gaveUp.status, 3, gaveUp.stderr)
        XCTAssert(gaveUp.stderr.contains("still in use by another album process after waiting 1 s"), gaveUp.stderr)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1, "it waited")
        let list = try TestSupport.album(["ls"], in: folder, environment: environment)
        XCTAssert(list.stdout.contains("within ten"), "the second caption was written, rm was not: \(list.stdout)")
    }

    func testWaitTakesItsValueOnlyAfterAnEqualsSignOnEveryWriter() throws {
        let (folder, environment) = try makeFolder()
        // `--wait job.yml`: the job file stays a positional.
        let run = try TestSupport.album(["run", "--wait", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let bad = try TestSupport.album(["gc", "--wait=soon"], in: folder, environment: environment)
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssert(bad.stderr.contains("--wait takes a number of seconds (0 or more) after '=', got 'soon'"), bad.stderr)
        let writers = ["run", "import", "caption", "rm", "prune", "relocate", "gc", "verify"]
        for name in writers {
            let help = try TestSupport.album([name, "--help"])
            XCTAssert(help.stdout.contains("--wait[=SECONDS]"), "\(name): \(help.stdout)")
        }
        for reader in ["ls", "show", "runs", "plan", "report"] {
            let help = try TestSupport.album([reader, "--help"])
            XCTAssertFalse(help.stdout.contains("--wait"), reader)
        }
    }
}

import XCTest
@testable import AlbumKit
import SQLite

/// `kill -9` at random moments of real `album run`s: the catalogue stays sound and the rerun completes the job.
///
/// The moments come from a seeded generator, so a failure can be replayed: set `ALBUM_CRASH_SEED`. By default the
/// test stops killing after about 15 s so CI stays fast; `ALBUM_SOAK=1` kills 200 runs.
///
/// By default the filter also switches between sepia and noir from run to run, so renditions are re-rendered and
/// exports replaced in place while kills land; `ALBUM_CRASH_LOOKS=0` keeps one look and alternates `--force` instead.
/// (This found two bugs, since fixed: a thumbnail re-rendered under the same name could leave a row describing the
/// old bytes, and an export written just before a kill was later refused as not album's.)
final class CrashSafetyTests: XCTestCase {
    /// SplitMix64: small, seeded, and the same on every machine.
    typealias Seeded = SplitMix64

    let photoCount = 40

    /// Forty small photos, a quarter of them taken in April 2008 (so the filter stage has work), in two folders.
    func makePhotos(in folder: String, switchingLooks: Bool) throws {
        for index in 0..<photoCount {
            let taken = index % 4 == 0 ? String(format: "2008:04:%02d 12:00:00", index / 4 + 1) : nil
            try Fixture.jpeg(at: "\(folder)/photos/\(index % 2 == 0 ? "even" : "odd")/p\(index).jpg",
                             width: 160 + 8 * index, height: 120 + 4 * (index % 7), taken: taken, quality: 80 + index % 15)
        }
        try TestSupport.write("""
            version: 1
            name: crash
            stages:
              - import: {from: photos}
              - filter: {preset: \(switchingLooks ? "\"${LOOK}\"" : "sepia"), select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 96x96}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    /// Starts `album run job.yml --workers 2` (with `--force` when asked), output discarded.
    func startRun(in folder: String, force: Bool, look: String = "sepia") throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.albumBinary)
        process.arguments = ["run", "job.yml", "--workers", "2", "--set", "LOOK=\(look)"] + (force ? ["--force"] : [])
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// What must hold after any kill: SQLite's integrity, `album verify`, one row per photo, no temporary file
    /// recorded as a rendition.
    func assertSound(_ folder: String, _ context: String) throws {
        // A run killed before it created its catalogue left nothing to check.
        guard FileManager.default.fileExists(atPath: folder + "/album/" + Catalogue.databaseName) else { return }
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"], context)
        let photos = try catalogue.allPhotos()
        XCTAssertLessThanOrEqual(photos.count, photoCount, context)
        XCTAssertEqual(Set(photos.map(\.path)).count, photos.count, "one catalogue entry per photo: \(context)")
        let recorded = try catalogue.renditions(kind: nil)
        XCTAssertFalse(recorded.contains { $0.path.contains(".album-") }, "no temporary file is a rendition: \(context)")
        let verify = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verify.status, 0, "album verify after \(context):\n\(verify.stdout)\(verify.stderr)")
    }

    func testKillNineAtRandomMomentsLeavesASoundCatalogueAndTheRerunCompletesTheJob() throws {
        let environment = ProcessInfo.processInfo.environment
        let soak = environment["ALBUM_SOAK"] == "1"
        let switchingLooks = environment["ALBUM_CRASH_LOOKS"] != "0"
        let seed = environment["ALBUM_CRASH_SEED"].flatMap { UInt64($0) } ?? 0xA1B0_2008
        var random = Seeded(state: seed)
        let folder = try TestSupport.temporaryFolder(self)
        try makePhotos(in: folder, switchingLooks: switchingLooks)

        // How long a whole run takes here, so the kills land anywhere in one: a scratch copy of the job runs once.
        let scratch = folder + "/scratch"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/photos", toPath: scratch + "/photos")
        try FileManager.default.copyItem(atPath: folder + "/job.yml", toPath: scratch + "/job.yml")
        let clock = Date()
        let calibration = try startRun(in: scratch, force: false)
        calibration.waitUntilExit()
        XCTAssertEqual(calibration.terminationStatus, 0, "a run that is not killed succeeds")
        let runMicroseconds = max(50_000, Int(Date().timeIntervalSince(clock) * 1_000_000))

        let budget = soak ? Double.infinity : 15
        let maximum = soak ? 200 : 40
        let started = Date()
        var kills = 0, attempts = 0
        while attempts < maximum, attempts < 3 || Date().timeIntervalSince(started) < budget {
            attempts += 1
            // Every other run redoes everything, so later runs still have work to be killed in.
            let force = !switchingLooks && attempts % 2 == 0
            let process = try startRun(in: folder, force: force, look: switchingLooks && attempts % 2 == 0 ? "noir" : "sepia")
            // A run without --force only finishes what the last one left, so it is killed sooner.
            let window = force || switchingLooks ? runMicroseconds * 11 / 10 : runMicroseconds / 2
            usleep(UInt32(Int.random(in: 0...window, using: &random)))
            if kill(process.processIdentifier, SIGKILL) == 0 { kills += 1 }
            process.waitUntilExit()
            let context = "attempt \(attempts) (seed \(seed)\(force ? ", --force" : ""), \(process.terminationReason == .uncaughtSignal ? "killed" : "finished"))"
            if process.terminationReason == .exit {
                XCTAssertEqual(process.terminationStatus, 0, "an unkilled run succeeds: \(context)")
            }
            try assertSound(folder, context)
            if testRun.map({ $0.failureCount > 0 }) ?? false { break }  // the first broken state is the one to read
        }
        print("CrashSafetyTests: \(attempts) runs, \(kills) killed with SIGKILL, seed \(seed)")
        XCTAssertGreaterThan(kills, 0, "at least one run was killed mid-way")

        let rerun = try TestSupport.album(["run", "job.yml", "--workers", "2", "--set", "LOOK=sepia"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        try assertSound(folder, "the rerun")
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.allPhotos().count, photoCount, "exactly one catalogue entry per photo")
        XCTAssertFalse(try catalogue.runs().contains { $0.status == "running" }, "killed runs are marked interrupted")
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { !$0.hasPrefix(".") }
        XCTAssertEqual(exported.count, photoCount)

        // Leftovers of the kills are gc's; after it, nothing is redone: every file a step needs is still there.
        XCTAssertEqual(try TestSupport.album(["gc"], in: folder).status, 0)
        let again = try TestSupport.album(["run", "job.yml", "--set", "LOOK=sepia"], in: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        let last = try XCTUnwrap(catalogue.runs().first)
        XCTAssertEqual(try catalogue.stepCounts(run: last.id), [
            .import: [.skipped: photoCount], .filter: [.skipped: photoCount / 4], .thumbnail: [.skipped: photoCount],
            .export: [.skipped: photoCount],
        ])
        try assertSound(folder, "gc and a last rerun")
    }
}

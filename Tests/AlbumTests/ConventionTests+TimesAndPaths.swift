import Foundation
import XCTest
@testable import Core
@testable import Catalogue

/// Two of the command line's conventions (issue 19), through the built binary: times are local with their offset
/// in text (honouring `TZ`) and RFC 3339 UTC with `Z` in JSON; `show`, `caption` and `rm` take a photo by its
/// original's path as well as by an id prefix.
final class TimesAndPathsTests: XCTestCase {
    /// Zones without daylight saving time, so the offset does not depend on the day the test runs.
    static let zones = ["Asia/Tokyo": "+09:00", "Asia/Kolkata": "+05:30", "America/Bogota": "-05:00", "UTC": "+00:00"]

    /// storm.jpg (taken 2008-04-20 19:12:06) and dune.jpg in photos/, imported into `cat`.
    func makeCatalogue() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(folder)/photos/dune.jpg", variant: 1)
        let imported = try TestSupport.album(["import", "photos", "-c", "cat"], in: folder)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        return folder
    }

    func json(_ arguments: [String], in folder: String) throws -> Any {
        let result = try TestSupport.album(arguments, in: folder)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// An RFC 3339 time in UTC with `Z`, parsed by Foundation's own parser, not album's.
    func utc(_ value: Any?, _ what: String) throws -> Date {
        let text = try XCTUnwrap(value as? String, what)
        XCTAssert(text.hasSuffix("Z"), "\(what): \(text)")
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try XCTUnwrap(parser.date(from: text), "\(what): \(text) is RFC 3339")
    }

    /// `date` as text output should show it in `zone`, made with DateFormatter rather than album's code.
    func local(_ date: Date, in zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
        return formatter.string(from: date)
    }

    // MARK: Times

    func testAddedSelectsByTheLocalDayAsLsShowsIt() throws {
        let folder = try makeCatalogue()
        let photos = try XCTUnwrap(try json(["ls", "-c", "cat", "--json"], in: folder) as? [[String: Any]])
        let added = try utc(photos[0]["added"], "ls --json added")
        let day = { (zone: String) in String(self.local(added, in: zone).prefix(10)) }
        // A zone whose day is not UTC's at this moment: +14 from 10:00 UTC on, -12 before noon.
        let zone = try XCTUnwrap(["Pacific/Kiritimati", "Etc/GMT+12"].first { day($0) != day("UTC") })
        for (selected, count) in [(day(zone), 2), (day("UTC"), 0)] {
            let listed = try TestSupport.album(["ls", "-c", "cat", "-q", "--added", selected], in: folder, environment: ["TZ": zone])
            XCTAssertEqual(listed.status, 0, listed.stderr)
            XCTAssertEqual(listed.stdout.split(separator: "\n").count, count, "TZ=\(zone) --added \(selected): \(listed.stdout)")
        }
    }

    func testTextTimesAreLocalWithTheirOffsetAndFollowTZ() throws {
        let folder = try makeCatalogue()
        let photos = try XCTUnwrap(try json(["ls", "-c", "cat", "--json"], in: folder) as? [[String: Any]])
        let storm = try XCTUnwrap(photos.first { ($0["path"] as? String)?.hasSuffix("/storm.jpg") == true })
        let added = try utc(storm["added"], "ls --json added")
        let run = try XCTUnwrap((try json(["runs", "-c", "cat", "--json"], in: folder) as? [[String: Any]])?.first)
        let started = try utc(run["started"], "runs --json started"), finished = try utc(run["finished"], "runs --json finished")
        let id = try XCTUnwrap(storm["id"] as? String)
        for (zone, offset) in TimesAndPathsTests.zones {
            let environment = ["TZ": zone]
            let ls = try TestSupport.album(["ls", "-c", "cat"], in: folder, environment: environment)
            XCTAssertEqual(ls.status, 0, ls.stderr)
            let row = try XCTUnwrap(ls.stdout.split(separator: "\n").first { $0.hasPrefix(id.prefix(8)) }, ls.stdout)
            XCTAssert(row.contains(" \(local(added, in: zone)) "), "\(zone): \(row)")
            XCTAssert(local(added, in: zone).hasSuffix(offset), local(added, in: zone))
            XCTAssert(row.contains(" 2008-04-20 19:12:06 "), "taken is the camera's clock, whatever TZ says: \(row)")

            let runs = try TestSupport.album(["runs", "-c", "cat"], in: folder, environment: environment)
            XCTAssertEqual(runs.status, 0, runs.stderr)
            XCTAssert(runs.stdout.contains("\(local(started, in: zone))  \(local(finished, in: zone))"), "\(zone): \(runs.stdout)")

            let show = try TestSupport.album(["show", id, "-c", "cat"], in: folder, environment: environment)
            XCTAssert(show.stdout.contains("added    \(local(added, in: zone))\n"), "\(zone): \(show.stdout)")
            XCTAssert(show.stdout.contains("taken    2008-04-20 19:12:06\n"), show.stdout)
            XCTAssertNil(show.stdout.range(of: #"\d\d:\d\d:\d\d\.\d{3}Z"#, options: .regularExpression), "no stored form in text: \(show.stdout)")
        }
        // The same instant in two zones: the text differs, the JSON does not.
        let tokyo = try TestSupport.album(["ls", "-c", "cat"], in: folder, environment: ["TZ": "Asia/Tokyo"])
        let bogota = try TestSupport.album(["ls", "-c", "cat"], in: folder, environment: ["TZ": "America/Bogota"])
        XCTAssertNotEqual(tokyo.stdout, bogota.stdout)
        let tokyoJSON = try TestSupport.album(["ls", "-c", "cat", "--json"], in: folder, environment: ["TZ": "Asia/Tokyo"])
        let bogotaJSON = try TestSupport.album(["ls", "-c", "cat", "--json"], in: folder, environment: ["TZ": "America/Bogota"])
        XCTAssertEqual(tokyoJSON.stdout, bogotaJSON.stdout)
    }

    func testJSONTimesAreRFC3339InUTCWithZ() throws {
        let folder = try makeCatalogue()
        let id = try XCTUnwrap(TestSupport.album(["ls", "-q", "-c", "cat"], in: folder).stdout.split(separator: "\n").first.map(String.init))
        XCTAssertEqual(try TestSupport.album(["caption", id, "Storm", "-c", "cat"], in: folder).status, 0)
        let show = try XCTUnwrap(try json(["show", id, "-c", "cat", "--json"], in: folder) as? [String: Any])
        let photo = try XCTUnwrap(show["photo"] as? [String: Any])
        let added = try utc(photo["added"], "show --json added")
        let history = try XCTUnwrap(show["history"] as? [[String: Any]])
        XCTAssertEqual(history.count, 2, "import and caption")
        let times = try history.map { try utc($0["time"], "history time") }
        XCTAssertLessThanOrEqual(times[0], times[1], "oldest first")
        XCTAssertLessThan(abs(times[0].timeIntervalSince(added)), 3600, "the import step and the photo's added are of one run")
        let runs = try XCTUnwrap(try json(["runs", "-c", "cat", "--json"], in: folder) as? [[String: Any]])
        XCTAssertEqual(runs.count, 2)
        for run in runs {
            let started = try utc(run["started"], "started"), finished = try utc(run["finished"], "finished")
            XCTAssertLessThanOrEqual(started, finished)
        }
        // In text, the history's time is local too.
        let text = try TestSupport.album(["show", id, "-c", "cat"], in: folder, environment: ["TZ": "Asia/Kolkata"])
        for time in times { XCTAssert(text.stdout.contains("  \(local(time, in: "Asia/Kolkata"))  "), text.stdout) }
    }

    func testTimestampForms() throws {
        let paris = try XCTUnwrap(TimeZone(identifier: "Europe/Paris"))
        XCTAssertEqual(Timestamp.local("2026-12-02T06:14:03.999Z", in: paris), "2026-12-02 07:14:03 +01:00", "winter")
        XCTAssertEqual(Timestamp.local("2026-07-02T06:14:03Z", in: paris), "2026-07-02 08:14:03 +02:00", "summer, no fraction")
        XCTAssertEqual(Timestamp.local("2026-12-31T23:30:00.000Z", in: try XCTUnwrap(TimeZone(identifier: "America/St_Johns"))),
                       "2026-12-31 20:00:00 -03:30")
        XCTAssertEqual(Timestamp.local("not a time", in: paris), "not a time")
        XCTAssertEqual(Timestamp.utc("2026-12-02T06:14:03.123Z"), "2026-12-02T06:14:03.123Z")
        XCTAssertEqual(Timestamp.utc("2026-12-02T06:14:03Z"), "2026-12-02T06:14:03Z", "as stored")
        XCTAssertEqual(Timestamp.utc("2026-12-02T07:14:03.123+01:00"), "2026-12-02T06:14:03.123Z")
        XCTAssertEqual(Timestamp.local("2026-12-02T07:14:03+01:00", in: paris), "2026-12-02 07:14:03 +01:00")
        XCTAssertEqual(Timestamp.taken("2008-04-20T19:12:06"), "2008-04-20 19:12:06")
        XCTAssertEqual(Timestamp.taken("2008-04-20T19:12:06+02:00"), "2008-04-20 19:12:06 +02:00")
    }

    // MARK: Photos by path

    func testShowCaptionAndRmTakeARelativeOrAbsolutePathOrAnIdPrefix() throws {
        let folder = try makeCatalogue()
        let photos = try XCTUnwrap(try json(["ls", "-c", "cat", "--json"], in: folder) as? [[String: Any]])
        let ids = Dictionary(uniqueKeysWithValues: photos.map { (($0["path"] as! NSString).lastPathComponent, $0["id"] as! String) })
        let storm = try XCTUnwrap(ids["storm.jpg"]), dune = try XCTUnwrap(ids["dune.jpg"])
        func shown(_ photo: String, in dir: String, catalogue: String = "cat") throws -> String? {
            let result = try TestSupport.album(["show", photo, "-c", catalogue, "--json"], in: dir)
            XCTAssertEqual(result.status, 0, "\(photo): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (object?["photo"] as? [String: Any])?["id"] as? String
        }
        XCTAssertEqual(try shown("photos/storm.jpg", in: folder), storm)
        XCTAssertEqual(try shown("./photos/../photos//storm.jpg", in: folder), storm, "normalised as import records it")
        XCTAssertEqual(try shown("\(folder)/photos/dune.jpg", in: folder), dune, "absolute")
        XCTAssertEqual(try shown("storm.jpg", in: "\(folder)/photos", catalogue: "../cat"), storm, "an existing file without a /")
        XCTAssertEqual(try shown(String(dune.prefix(6)), in: folder), dune, "an id prefix, as before")
        let text = try TestSupport.album(["show", "photos/storm.jpg", "-c", "cat"], in: folder)
        XCTAssert(text.stdout.hasPrefix("photo    \(storm)\npath     \(folder)/photos/storm.jpg\n"), text.stdout)

        let captioned = try TestSupport.album(["caption", "photos/storm.jpg", "Storm over the bay", "-c", "cat"], in: folder)
        XCTAssertEqual(captioned.status, 0, captioned.stderr)
        XCTAssert(captioned.stderr.contains("\(storm.prefix(8)) \(folder)/photos/storm.jpg: caption set to \"Storm over the bay\""), captioned.stderr)
        let show = try XCTUnwrap(try json(["show", storm, "-c", "cat", "--json"], in: folder) as? [String: Any])
        XCTAssertEqual((show["photo"] as? [String: Any])?["caption"] as? String, "Storm over the bay")

        let dry = try TestSupport.album(["rm", "-n", "photos/dune.jpg", "-c", "cat"], in: folder)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssert(dry.stdout.hasPrefix("would remove \(dune.prefix(8)) \(folder)/photos/dune.jpg:"), dry.stdout)
        // The same photo by path and by id is removed once; the original stays.
        let removed = try TestSupport.album(["rm", "\(folder)/photos/dune.jpg", String(dune.prefix(8)), "-c", "cat"], in: folder)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(removed.stdout, "removed \(dune.prefix(8)) \(folder)/photos/dune.jpg: 0 files deleted\n")
        XCTAssert(FileManager.default.fileExists(atPath: "\(folder)/photos/dune.jpg"))
        XCTAssertEqual(try TestSupport.album(["ls", "-q", "-c", "cat"], in: folder).stdout, storm + "\n")
    }

    func testAPathNotInTheCatalogueOrNamingTwoPhotosIsAUsageError() throws {
        let folder = try makeCatalogue()
        let catalogue = "\(folder)/cat"
        for command in [["show"], ["caption"], ["rm"]] {
            let extra = command == ["caption"] ? ["text"] : []
            let absent = try TestSupport.album(command + ["photos/none.jpg"] + extra + ["-c", "cat"], in: folder)
            XCTAssertEqual(absent.status, 2, "\(command): \(absent.stderr)")
            XCTAssert(absent.stderr.hasPrefix("album: error: no photo in catalogue \(catalogue) was imported from \(folder)/photos/none.jpg; `album ls` shows them\n"),
                      absent.stderr)
        }
        // A file that is there but was never imported is a path all the same.
        try TestSupport.write("version: 1\n", to: "job.yml", in: folder)
        let notImported = try TestSupport.album(["show", "job.yml", "-c", "cat"], in: folder)
        XCTAssertEqual(notImported.status, 2)
        XCTAssert(notImported.stderr.contains("was imported from \(folder)/job.yml;"), notImported.stderr)
        // No /, and no such file: an id prefix, and the error says so.
        let named = try TestSupport.album(["show", "none.jpg", "-c", "cat"], in: folder)
        XCTAssertEqual(named.status, 2)
        XCTAssert(named.stderr.contains("'none.jpg' is no file here and no photo's id"), named.stderr)
        // A file named like an id prefix is a path: the rule is the argument's form, not what matches.
        let id = try XCTUnwrap(TestSupport.album(["ls", "-q", "-c", "cat"], in: folder).stdout.split(separator: "\n").first.map { String($0.prefix(8)) })
        try TestSupport.write("", to: id, in: folder)
        let shadowed = try TestSupport.album(["show", id, "-c", "cat"], in: folder)
        XCTAssertEqual(shadowed.status, 2)
        XCTAssert(shadowed.stderr.contains("was imported from \(folder)/\(id);"), shadowed.stderr)
        XCTAssertEqual(try TestSupport.album(["show", id, "-c", "../cat"], in: "\(folder)/photos").status, 0, "where no such file is, the same word is an id prefix")
        // Nothing was changed by the refusals.
        XCTAssertEqual(try TestSupport.album(["ls", "-q", "-c", "cat"], in: folder).stdout.split(separator: "\n").count, 2)
    }

    func testAPathNamesItsNewestPhotoOrThePhotoItIsAnotherNameOf() throws {
        let folder = try makeCatalogue()
        let photos = try XCTUnwrap(try json(["ls", "-c", "cat", "--json"], in: folder) as? [[String: Any]])
        let ids = Dictionary(uniqueKeysWithValues: photos.map { (($0["path"] as! NSString).lastPathComponent, $0["id"] as! String) })
        let storm = try XCTUnwrap(ids["storm.jpg"]), dune = try XCTUnwrap(ids["dune.jpg"])
        // A copy of dune.jpg is another name of it (an alias); an edited storm.jpg is a new photo replacing the old.
        try FileManager.default.copyItem(atPath: "\(folder)/photos/dune.jpg", toPath: "\(folder)/photos/dune copy.jpg")
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06", variant: 5)
        XCTAssertEqual(try TestSupport.album(["import", "photos", "-c", "cat"], in: folder).status, 0)
        func photo(_ argument: String) throws -> [String: Any] {
            let shown = try XCTUnwrap(try json(["show", argument, "-c", "cat", "--json"], in: folder) as? [String: Any])
            return try XCTUnwrap(shown["photo"] as? [String: Any])
        }
        XCTAssertEqual(try photo("photos/dune copy.jpg")["id"] as? String, dune)
        XCTAssertEqual(try photo("photos/dune copy.jpg")["aliases"] as? [String], ["\(folder)/photos/dune copy.jpg"])
        let newest = try photo("photos/storm.jpg")
        XCTAssertNotEqual(newest["id"] as? String, storm)
        XCTAssertEqual(newest["replaces"] as? String, storm, "the path names the newest version")
        XCTAssertEqual(try photo(storm)["state"] as? String, "superseded", "the earlier version by its id")

        // A path the catalogue records for two photos (here made by hand: dune.jpg also an alias of storm's new
        // version) is ambiguous, and the error names both.
        let catalogue = try Catalogue(folder: "\(folder)/cat", create: false, writing: true)
        try catalogue.insert(PhotoAlias(photo: try XCTUnwrap(newest["id"] as? String), path: "\(folder)/photos/dune.jpg",
                                        bytes: 1, mtimeNanoseconds: 1, inode: 1, added: Timestamp.now()))
        catalogue.close()
        let ambiguous = try TestSupport.album(["rm", "photos/dune.jpg", "-c", "cat"], in: folder)
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssert(ambiguous.stderr.contains("\(folder)/photos/dune.jpg names 2 photos in catalogue \(folder)/cat (\(dune.prefix(8)), \((newest["id"] as! String).prefix(8)):"),
                  ambiguous.stderr)
        XCTAssert(ambiguous.stderr.contains("give the id"), ambiguous.stderr)
        XCTAssertEqual(try TestSupport.album(["ls", "-q", "-c", "cat"], in: folder).stdout.split(separator: "\n").count, 3, "nothing removed")
    }

    func testHelpSaysAPhotoIsAPathOrAnId() throws {
        for (command, usage) in [("show", "album show PHOTO"), ("caption", "album caption PHOTO TEXT"), ("rm", "album rm PHOTO...")] {
            let help = try TestSupport.album([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssert(help.stdout.contains(usage), help.stdout)
            XCTAssert(help.stdout.contains("or naming an existing file is a"), "\(command): \(help.stdout)")
        }
    }
}

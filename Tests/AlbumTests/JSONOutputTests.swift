import XCTest

/// `--json` on `plan`, `verify`, `gc`, `prune`, `relocate`, `show`, `runs` and `ls`, `ls -q` and `ls --json --renditions`, through the
/// built binary: each prints one JSON document whose objects have the fields and types docs/json.md lists.
final class JSONOutputTests: XCTestCase {
    /// Each object's fields and types, written once: the heading of its table in docs/json.md, then (field, type).
    /// A type `X or null` may be null; the fields in `optional` may be left out.
    static let schemas: [String: [(String, String)]] = [
        "## plan": [("job", "string"), ("catalogue", "string"), ("select", "string or null"), ("stages", "array"),
                    ("passed_over", "object"), ("states", "object"), ("entries", "array")],
        "### plan stage": [("stage", "string"), ("to_do", "integer"), ("to_do_if_header_matches", "integer"), ("up_to_date", "integer"), ("left_out", "integer")],
        "### plan entry": [("path", "string"), ("stage", "string"), ("verdict", "string")],
        "### passed over": [("derived", "integer"), ("ignored", "object")],
        "### plan states": [("damaged", "integer"), ("missing", "integer"), ("superseded", "integer")],
        "## verify": [("catalogue", "string"), ("sound", "boolean"), ("problems", "array"), ("states", "object"), ("unfinished", "array"),
                      ("depth", "string"), ("checked", "object"), ("changed", "array")],
        "### verify checked": [("photos", "integer"), ("seed", "string or null"), ("since", "string or null"), ("finished", "boolean")],
        "### verify unfinished": [("path", "string"), ("photo", "string"), ("kind", "string"), ("run", "integer")],
        "### verify problem": [("kind", "string"), ("path", "string"), ("photo", "string or null"), ("message", "string")],
        "### verify states": [("superseded", "integer"), ("missing_kept", "integer"), ("missing", "integer"),
                              ("changed", "integer"), ("damaged", "integer")],
        "## gc": [("catalogue", "string"), ("dry_run", "boolean"), ("files", "array"), ("removed", "integer"),
                  ("bytes", "integer"), ("kept", "array"), ("failed", "array")],
        "### gc file": [("path", "string"), ("reason", "string"), ("bytes", "integer")],
        "### gc kept": [("path", "string"), ("owner", "string")],
        "### gc failure": [("path", "string"), ("message", "string")],
        "## prune": [("dry_run", "boolean"), ("photos", "object"), ("aliases", "array"), ("second_originals", "array"), ("renditions", "array"),
                     ("unproven", "array"), ("files", "object"), ("history_rows", "integer")],
        "## relocate": [("from", "string"), ("to", "string"), ("dry_run", "boolean"), ("run", "integer or null"), ("paths", "array")],
        "### relocated path": [("photo", "string"), ("kind", "string"), ("from", "string"), ("to", "string"), ("found", "boolean")],
        "## show": [("photo", "object"), ("renditions", "array"), ("history", "array")],
        "### photo": [("id", "string"), ("path", "string"), ("hash", "string"), ("bytes", "integer"), ("width", "integer"),
                      ("height", "integer"), ("format", "string"), ("kind", "string"), ("taken", "string or null"), ("added", "string"),
                      ("caption", "string or null"), ("filter", "string"), ("filter_recipe", "array"),
                      ("camera", "string or null"), ("orientation", "integer"), ("has_gps", "boolean"),
                      ("replaces", "string or null"), ("stored_path", "string or null"), ("lens", "string or null"),
                      ("rating", "integer or null"), ("label", "string or null"), ("keywords", "array"),
                      ("title", "string or null"), ("sidecar", "string or null"), ("xmp_problem", "string or null"),
                      ("description", "string or null"), ("motion_offset", "integer or null"),
                      ("motion_length", "integer or null"), ("duration", "number or null"), ("codec", "string or null"),
                      ("frame_rate", "number or null"), ("latitude", "number or null"), ("longitude", "number or null"),
                      ("state", "string"),
                      ("damage", "string"), ("aliases", "array"), ("second_originals", "array"), ("renditions", "array")],
        "### second original": [("path", "string"), ("format", "string"), ("hash", "string"), ("bytes", "integer"),
                                ("duration", "number or null")],
        "### rendition": [("kind", "string"), ("path", "string"), ("file_hash", "string"), ("width", "integer"),
                          ("height", "integer"), ("bytes", "integer"), ("params_hash", "string"), ("input_hash", "string"),
                          ("run", "integer")],
        "### history entry": [("time", "string"), ("run", "integer"), ("job", "string"), ("job_path", "string or null"),
                              ("stage", "string"), ("status", "string"), ("error", "string or null"), ("ms", "number"),
                              ("parameters", "object"), ("input_hash", "string or null"), ("output_hash", "string or null")],
        "### run": [("id", "integer"), ("job", "string"), ("job_path", "string or null"), ("job_hash", "string or null"),
                    ("status", "string"), ("started", "string"), ("finished", "string or null"), ("counts", "object"),
                    ("album_version", "string"), ("vips_version", "string"), ("sqlite_version", "string"),
                    ("host", "string"), ("parent", "integer or null"), ("chunk", "integer or null")],
    ]

    /// The fields an object may leave out (docs/json.md: their meaning starts with "Only").
    static let optional: [String: Set<String>] = ["### photo": ["damage", "renditions"]]

    /// Three photos (two taken in April 2008, so sepia), with thumbnails and exports beside the catalogue.
    func makeCatalogue(in folder: String) throws {
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(folder)/photos/wood.jpg", taken: "2008:04:19 13:43:16")
        try Fixture.jpeg(at: "\(folder)/photos/dune.jpg", width: 200, height: 300)
        try TestSupport.write("""
            version: 1
            name: album
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, keep: full-size, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 120x120}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// Runs album, expects `status`, and parses stdout as one JSON document.
    func json(_ arguments: [String], in folder: String, status: Int32 = 0,
              file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let result = try TestSupport.album(arguments, in: folder)
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// Whether a value JSONSerialization gave is of a docs/json.md type.
    static func value(_ value: Any, is type: String) -> Bool {
        if type.hasSuffix(" or null") {
            return value is NSNull || JSONOutputTests.value(value, is: String(type.dropLast(" or null".count)))
        }
        let number = value as? NSNumber
        let isBool = number.map { String(cString: $0.objCType) == "c" } ?? false
        switch type {
        case "string": return value is String
        case "boolean": return isBool
        case "integer": return number != nil && !isBool && !["d", "f"].contains(String(cString: number!.objCType))
        case "number": return number != nil && !isBool
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    /// Checks that `value` is an object with the fields of `schema`'s table, each of its type, and returns it.
    @discardableResult
    func check(_ value: Any?, is schema: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let fields = try XCTUnwrap(JSONOutputTests.schemas[schema], schema, file: file, line: line)
        let object = try XCTUnwrap(value as? [String: Any], "\(schema): not an object: \(String(describing: value))", file: file, line: line)
        let optional = JSONOutputTests.optional[schema] ?? []
        XCTAssertEqual(Set(object.keys).subtracting(fields.map(\.0)), [], "\(schema): fields docs/json.md does not list", file: file, line: line)
        for (key, type) in fields {
            guard let member = object[key] else {
                XCTAssert(optional.contains(key), "\(schema): no \(key)", file: file, line: line)
                continue
            }
            XCTAssert(JSONOutputTests.value(member, is: type), "\(schema).\(key): \(member) is not \(type)", file: file, line: line)
        }
        return object
    }

    /// Checks every element of an array against `schema`, and returns them.
    @discardableResult
    func checkEach(_ value: Any?, is schema: String, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let items = try XCTUnwrap(value as? [Any], "\(schema): not an array", file: file, line: line)
        return try items.map { try check($0, is: schema, file: file, line: line) }
    }

    func testDocsListEachSchemaFieldWithItsType() throws {
        for (heading, fields) in JSONOutputTests.schemas {
            let table = try DocsTable(doc: "json.md", section: heading, header: "| field |")
            XCTAssertEqual(table.keys, fields.map(\.0), "docs/json.md \(heading): the fields, in order")
            XCTAssertEqual(table.rows.map { $0[1] }, fields.map(\.1), "docs/json.md \(heading): the types")
            let optional = Set(table.rows.filter { $0[2].hasPrefix("Only") }.map { $0[0].replacingOccurrences(of: "`", with: "") })
            XCTAssertEqual(optional, JSONOutputTests.optional[heading] ?? [], "docs/json.md \(heading): the fields that may be left out")
        }
        for doc in ["../README.md", "commands.md"] {
            let text = try String(contentsOfFile: DocsTable.path(doc), encoding: .utf8)
            XCTAssert(text.contains("json.md"), "\(doc) links docs/json.md")
        }
    }

    func testPlanPrintsItsSchemaAndRunDryRunWithJSONLogsPrintsTheSame() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/new.jpg")
        try TestSupport.write("not a photo", to: "photos/notes.pdf", in: folder)
        try makeCatalogue(in: folder)
        try Fixture.jpeg(at: "\(folder)/photos/later.jpg", width: 240, height: 160)  // other bytes than new.jpg's

        let plan = try check(try json(["plan", "job.yml", "--json"], in: folder), is: "## plan")
        XCTAssertEqual(plan["job"] as? String, "album")
        XCTAssertEqual(plan["catalogue"] as? String, "\(folder)/album")
        XCTAssert(plan["select"] is NSNull)
        let stages = try checkEach(plan["stages"], is: "### plan stage")
        XCTAssertEqual(stages.map { $0["stage"] as? String }, ["import", "filter", "thumbnail", "export"])
        let byStage = Dictionary(uniqueKeysWithValues: stages.map { ($0["stage"] as? String ?? "", $0) })
        XCTAssertEqual(byStage["import"]?["to_do"] as? Int, 1, "later.jpg")
        XCTAssertEqual(byStage["import"]?["up_to_date"] as? Int, 4)
        XCTAssertEqual(byStage["thumbnail"]?["to_do"] as? Int, 1)
        XCTAssertEqual(["to_do", "up_to_date", "left_out"].map { byStage["filter"]?[$0] as? Int }, [1, 2, 2],
                       "later.jpg to do (if its header matches), storm and wood up to date, new and dune left out by select")
        let passedOver = try check(plan["passed_over"], is: "### passed over")
        XCTAssertEqual((passedOver["ignored"] as? [String: Int])?["pdf"], 1)
        try check(plan["states"], is: "### plan states")
        XCTAssertEqual((plan["entries"] as? [Any])?.count, 0, "entries only with --verbose")

        let verbose = try check(try json(["plan", "job.yml", "--json", "-v"], in: folder), is: "## plan")
        let entries = try checkEach(verbose["entries"], is: "### plan entry")
        XCTAssertEqual(entries.count, 5 * 4, "one per photo and stage")
        XCTAssert(entries.contains { $0["stage"] as? String == "filter" && $0["verdict"] as? String == "left out by select"
                                     && ($0["path"] as? String) == "\(folder)/photos/dune.jpg" }, "\(entries)")

        let dry = try TestSupport.album(["run", "job.yml", "--dry-run", "--log-format", "json"], in: folder)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout.split(separator: "\n").count, 1, "one JSON Lines record: \(dry.stdout)")
        let dryPlan = try check(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)), is: "## plan")
        XCTAssertEqual(dryPlan as NSDictionary, plan as NSDictionary, "the same object as album plan --json")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/later.jpg"), "a dry run does nothing")
    }

    func testVerifyPrintsItsSchemaWithEachProblemsKindAndPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeCatalogue(in: folder)
        let sound = try check(try json(["verify", "--json"], in: folder), is: "## verify")
        XCTAssertEqual(sound["sound"] as? Bool, true)
        XCTAssertEqual((sound["problems"] as? [Any])?.count, 0)
        try check(sound["states"], is: "### verify states")
        try check(sound["checked"], is: "### verify checked")
        let quick = try check(try json(["verify", "--quick", "--json"], in: folder), is: "## verify")
        XCTAssertEqual(quick["depth"] as? String, "quick")

        let ids = try ls(in: folder)
        let storm = try XCTUnwrap(ids.first { ($0["path"] as? String)?.hasSuffix("/storm.jpg") == true }?["id"] as? String)
        let wood = try XCTUnwrap(ids.first { ($0["path"] as? String)?.hasSuffix("/wood.jpg") == true }?["id"] as? String)
        try TestSupport.write("short", to: "out/storm.jpg", in: folder)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/wood.jpg")
        let damaged = try check(try json(["verify", "--json"], in: folder, status: 1), is: "## verify")
        XCTAssertEqual(damaged["sound"] as? Bool, false, "exit 1 and not sound")
        let problems = try checkEach(damaged["problems"], is: "### verify problem")
        XCTAssertEqual(Set(problems.map { "\($0["kind"]!) \($0["photo"]!) \($0["path"]!)" }), [
            "rendition \(storm) \(folder)/out/storm.jpg", "original \(wood) \(folder)/photos/wood.jpg",
        ])
        XCTAssert(problems.contains { ($0["message"] as? String)?.hasPrefix("the original is missing") == true }, "\(problems)")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: "\(folder)/photos/storm.jpg")
        let touched = try check(try json(["verify", "--quick", "--json"], in: folder, status: 1), is: "## verify")
        XCTAssertEqual(try checkEach(touched["changed"], is: "### verify problem").map { "\($0["photo"]!) \($0["path"]!)" },
                       ["\(storm) \(folder)/photos/storm.jpg"], "an original whose stat changed: a verify problem object, not a problem")
    }

    func testGcPrintsItsSchemaWithPathsRelativeToTheCatalogue() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeCatalogue(in: folder)
        try TestSupport.write("old thumbnail", to: "album/thumbnails/zz/old.jpg", in: folder)
        try TestSupport.write("half written", to: "album/filtered/ab/.x.jpg.album-Ab12Cd", in: folder)
        let expected: Set<String> = ["thumbnails/zz/old.jpg unreferenced 13", "filtered/ab/.x.jpg.album-Ab12Cd temporary 12"]

        let dry = try check(try json(["gc", "--dry-run", "--json"], in: folder), is: "## gc")
        XCTAssertEqual(dry["dry_run"] as? Bool, true)
        XCTAssertEqual(dry["catalogue"] as? String, "\(folder)/album")
        let files = try checkEach(dry["files"], is: "### gc file")
        XCTAssertEqual(Set(files.map { "\($0["path"]!) \($0["reason"]!) \($0["bytes"]!)" }), expected)
        XCTAssertEqual(dry["removed"] as? Int, 2)
        XCTAssertEqual(dry["bytes"] as? Int, 25)
        XCTAssert(FileManager.default.fileExists(atPath: "\(folder)/album/thumbnails/zz/old.jpg"), "a dry run deletes nothing")

        let gc = try check(try json(["gc", "--json"], in: folder), is: "## gc")
        XCTAssertEqual(gc["dry_run"] as? Bool, false)
        XCTAssertEqual(Set(try checkEach(gc["files"], is: "### gc file").map { "\($0["path"]!) \($0["reason"]!) \($0["bytes"]!)" }), expected)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/album/thumbnails/zz/old.jpg"))
        let again = try check(try json(["gc", "--json"], in: folder), is: "## gc")
        XCTAssertEqual(again["removed"] as? Int, 0)
    }

    func testShowRunsLsAndPrunePrintTheirSchemas() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeCatalogue(in: folder)
        XCTAssertEqual(try TestSupport.album(["caption", String(try ls(in: folder)[0]["id"] as? String ?? ""), "a caption"], in: folder).status, 0)
        let photos = try ls(in: folder)
        XCTAssertEqual(photos.count, 3)
        for photo in photos { XCTAssertNil(photo["renditions"], "renditions only with --renditions") }

        let show = try check(try json(["show", try XCTUnwrap(photos[0]["id"] as? String), "--json"], in: folder), is: "## show")
        try check(show["photo"], is: "### photo")
        XCTAssertFalse(try checkEach(show["renditions"], is: "### rendition").isEmpty)
        XCTAssertFalse(try checkEach(show["history"], is: "### history entry").isEmpty)

        let runs = try checkEach(try json(["runs", "--json"], in: folder), is: "### run")
        XCTAssertEqual(runs.map { $0["job"] as? String }, ["caption", "album"])

        let prune = try check(try json(["prune", "--dry-run", "--json"], in: folder), is: "## prune")
        XCTAssertEqual(prune["dry_run"] as? Bool, true)

        // The photos moved as a folder is (a disk renamed): relocate rewrites every path under it.
        try FileManager.default.moveItem(atPath: folder + "/photos", toPath: folder + "/moved")
        let relocate = try check(try json(["relocate", "--from", "photos", "--to", "moved", "--json"], in: folder), is: "## relocate")
        XCTAssertEqual(relocate["dry_run"] as? Bool, false)
        XCTAssertEqual(relocate["to"] as? String, folder + "/moved")
        let moved = try checkEach(relocate["paths"], is: "### relocated path")
        XCTAssertEqual(Set(moved.compactMap { $0["to"] as? String }), Set(["storm", "wood", "dune"].map { "\(folder)/moved/\($0).jpg" }))
        XCTAssertEqual(moved.compactMap { $0["kind"] as? String }, ["original", "original", "original"])
        XCTAssertEqual(moved.compactMap { $0["found"] as? Bool }, [true, true, true])
        XCTAssertNotNil(relocate["run"] as? Int)
    }

    /// `album ls --json` with the selectors given, each photo checked against the schema.
    func ls(_ arguments: [String] = [], in folder: String) throws -> [[String: Any]] {
        try checkEach(try json(["ls", "--json"] + arguments, in: folder), is: "### photo")
    }

    func testLsQuietPrintsExactlyTheIdsOneALine() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeCatalogue(in: folder)
        let ids = try ls(in: folder).map { try XCTUnwrap($0["id"] as? String) }
        for flag in ["-q", "--quiet"] {
            let quiet = try TestSupport.album(["ls", flag], in: folder)
            XCTAssertEqual(quiet.status, 0, quiet.stderr)
            XCTAssertEqual(quiet.stdout, ids.map { $0 + "\n" }.joined(), "full ids, in ls's order")
            XCTAssertEqual(quiet.stderr, "", "no count")
        }
        let april = try TestSupport.album(["ls", "-q", "--taken", "2008-04"], in: folder)
        XCTAssertEqual(Set(april.stdout.split(separator: "\n").map(String.init)),
                       Set(try ls(["--taken", "2008-04"], in: folder).compactMap { $0["id"] as? String }))
        XCTAssertEqual(april.stdout.split(separator: "\n").count, 2)
        XCTAssertEqual(try TestSupport.album(["ls", "-q", "--json"], in: folder).status, 2, "ids or JSON, not both")
    }

    func testLsJSONRenditionsIsAManifestOfTheFilesOnDisk() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeCatalogue(in: folder)
        let photos = try ls(["--renditions"], in: folder)
        XCTAssertEqual(photos.count, 3)
        var kinds: [String: Int] = [:]
        for photo in photos {
            let renditions = try checkEach(photo["renditions"], is: "### rendition")
            XCTAssertFalse(renditions.isEmpty)
            for rendition in renditions {
                let path = try XCTUnwrap(rendition["path"] as? String)
                XCTAssert(path.hasPrefix("/"), "absolute: \(path)")
                let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
                XCTAssertEqual(rendition["bytes"] as? Int, size, path)
                XCTAssertEqual(rendition["file_hash"] as? String, try TestSupport.hash(path), path)
                kinds[rendition["kind"] as? String ?? "", default: 0] += 1
            }
        }
        XCTAssertEqual(kinds["export"], 3)
        XCTAssertEqual(kinds["filtered"], 2, "the two April photos")
        XCTAssertEqual(try TestSupport.album(["ls", "--renditions"], in: folder).status, 2, "--renditions goes with --json")
    }
}

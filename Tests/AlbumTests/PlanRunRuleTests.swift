import Foundation
import System
import XCTest
import Vips
@testable import Core
@testable import Catalogue
@testable import Stages
@testable import Run
@testable import Plan

/// The rules `album plan` and `album run` share, on their own: a file is unchanged when its size, inode and
/// modification time are all what its photo recorded (`FileIdentity`, read by `FileStatus` and checked against
/// coreutils' `stat`); the current photos are those no newer version replaces, and what import settles never joins
/// phase 2 (`PhotoRecord.current`, `settle`, `CatalogueSnapshot`).
final class PlanRunRuleTests: XCTestCase {
    func photo(_ id: String, path: String = "/p/a.jpg", added: String = "2026-01-01T00:00:00Z", replaces: String? = nil,
               bytes: Int = 100, inode: Int = 7, mtime: Int = 1_700_000_000_123_456_789) -> PhotoRecord {
        PhotoRecord(id: id, hash: "hash-\(id)", path: path, bytes: bytes, mtimeNanoseconds: mtime, inode: inode, width: 3,
                    height: 4, format: "jpeg", taken: nil, added: added, caption: nil, filter: "none", filterRecipe: "[]",
                    camera: nil, orientation: 1, hasGPS: false, replaces: replaces, storedPath: nil)
    }

    // MARK: - Unchanged

    func testAFileIsUnchangedOnlyWhenSizeInodeAndModificationTimeAllMatch() {
        let known = photo("a")
        let same = FileIdentity(bytes: 100, inode: 7, mtimeNanoseconds: 1_700_000_000_123_456_789)
        XCTAssertTrue(same.isUnchanged(since: known))
        var size = same
        size.bytes = 101
        XCTAssertFalse(size.isUnchanged(since: known), "a new size")
        var inode = same
        inode.inode = 8
        XCTAssertFalse(inode.isUnchanged(since: known), "a new inode: another file renamed over it")
        var time = same
        time.mtimeNanoseconds += 1
        XCTAssertFalse(time.isUnchanged(since: known), "one nanosecond later")
    }

    func testFileStatusReadsWhatCoreutilsStatReads() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = try Fixture.jpeg(at: folder + "/a.jpg")
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06.123456789 UTC", path]).status, 0)
        let coreutils = try Tool.run(["stat", "-c", "%s %i %.9Y", path]).stdout.split(separator: " ").map(String.init)
        let status = try FileStatus(path, followingLinks: false)
        XCTAssertEqual(status.kind, .regular)
        XCTAssertEqual(status.size, Int(coreutils[0]))
        XCTAssertEqual(status.inode, Int(coreutils[1]))
        XCTAssertEqual(status.modifiedNanoseconds, 981_173_106_123_456_789, "2001-02-03 04:05:06.123456789 UTC")
        XCTAssertEqual(coreutils[2].trimmingCharacters(in: .whitespacesAndNewlines), "981173106.123456789")
    }

    func testFileStatusGoesThroughNativePathForANameThatIsNotUTF8() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let name = NativePath.string(Array((folder + "/caf").utf8) + [0xE9] + Array(".jpg".utf8))
        let bytes = try Image.fromPixels([UInt8](repeating: 90, count: 16 * 16 * 3), width: 16, height: 16, bands: 3)
            .encoded(as: .jpeg, quality: 90, strip: true)
        let fd = NativePath.withCString(name) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, bytes.count)
        XCTAssertEqual(close(fd), 0)
        let status = try FileStatus(name, followingLinks: false)
        XCTAssertEqual(status.kind, .regular)
        XCTAssertEqual(status.size, bytes.count)
        XCTAssertEqual(ImportStage().entry(atPath: name), .file(FileIdentity(status)))
    }

    func testImportsEntryDecisionForLinksFoldersFIFOsAndMissingFiles() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let file = try Fixture.jpeg(at: folder + "/a.jpg")
        XCTAssertEqual(symlink(file, folder + "/link.jpg"), 0)
        XCTAssertEqual(symlink(folder + "/gone.jpg", folder + "/dangling.jpg"), 0)
        XCTAssertEqual(symlink(folder + "/loop.jpg", folder + "/loop.jpg"), 0)
        XCTAssertEqual(mkfifo(folder + "/fifo.jpg", 0o644), 0)
        var following = ImportStage()
        following.followSymlinks = true
        let identity = FileIdentity(try FileStatus(file, followingLinks: false))

        XCTAssertEqual(ImportStage().entry(atPath: file), .file(identity))
        XCTAssertEqual(ImportStage().entry(atPath: folder + "/link.jpg"),
                       .skipped("a symbolic link: not followed (set follow-symlinks: true to import what links point to)"))
        XCTAssertEqual(following.entry(atPath: folder + "/link.jpg"), .file(identity), "a followed link is its target's file")
        XCTAssertEqual(following.entry(atPath: folder + "/dangling.jpg"), .failed("a dangling symbolic link: what it points to does not exist"))
        XCTAssertEqual(following.entry(atPath: folder + "/loop.jpg"), .failed("a symbolic link loop"))
        XCTAssertEqual(ImportStage().entry(atPath: folder + "/fifo.jpg"), .skipped("not a regular file (a FIFO): never opened"))
        XCTAssertEqual(ImportStage().entry(atPath: folder), .skipped("not a regular file (a folder): never opened"))
        XCTAssertEqual(ImportStage().entry(atPath: folder + "/gone.jpg"), .failed("cannot read it: No such file or directory (deleted or moved?)"))
    }

    // MARK: - The current photos

    func testASupersededPhotoIsNotCurrentAndItsNewestVersionIs() {
        let first = photo("1"), second = photo("2", replaces: "1"), third = photo("3", replaces: "2")
        let other = photo("x", path: "/p/b.jpg")
        XCTAssertEqual(PhotoRecord.current([third, other, second, first]).map(\.id), ["3", "x"], "order is kept")
        XCTAssertEqual(PhotoRecord.current([first, other]).map(\.id), ["1", "x"], "when its newer version is removed, a photo is current again")
    }

    func testSettlingANewVersionSettlesTheVersionItReplaces() {
        var settled = Set<String>()
        XCTAssertTrue(PhotoRecord.settle(photo("2", replaces: "1"), in: &settled), "the first file with these bytes goes on")
        XCTAssertEqual(settled, ["1", "2"])
        XCTAssertFalse(PhotoRecord.settle(photo("2", replaces: "1"), in: &settled), "a second file with the same bytes stops at import")
        XCTAssertFalse(PhotoRecord.settle(photo("1"), in: &settled), "the replaced version never goes on")
        XCTAssertTrue(PhotoRecord.settle(photo("x", path: "/p/b.jpg"), in: &settled))
    }

    /// A catalogue in a folder of its own under `folder` holding `photos` (inserted in this order: the newest-first
    /// order breaks ties of `added` by the later insert) and `aliases`, and the snapshot a run would take of it.
    func snapshot(in folder: String, _ photos: [PhotoRecord], aliases: [PhotoAlias] = []) throws -> CatalogueSnapshot {
        let catalogue = try Catalogue(folder: folder + "/catalogue-\(UUID().uuidString)", create: true, writing: true)
        defer { catalogue.close() }
        for photo in photos { try catalogue.insert(photo) }
        for alias in aliases { try catalogue.insert(alias) }
        return try CatalogueSnapshot(reading: catalogue)
    }

    func testTheSnapshotKnowsOnlyCurrentPhotosByPathAndPhaseTwoTakesTheUnsettledOnes() throws {
        let old = photo("old", added: "2026-01-01T00:00:00Z")
        let new = photo("new", added: "2026-01-02T00:00:00Z", replaces: "old")
        let elsewhere = photo("b", path: "/p/b.jpg")
        let gone = photo("c", path: "/gone/c.jpg")
        let snapshot = try self.snapshot(in: try TestSupport.temporaryFolder(self), [old, gone, elsewhere, new])
        defer { snapshot.close() }
        var current: [String] = []
        try snapshot.forEachCurrentPhoto { current.append($0.id) }
        XCTAssertEqual(current, ["new", "b", "c"])
        XCTAssertEqual(snapshot.supersededCount, 1)
        XCTAssertEqual(try snapshot.photo(atPath: "/p/a.jpg")?.id, "new", "import's fast path compares with the current version")
        XCTAssertTrue(try snapshot.isSuperseded(id: "old"))
        XCTAssertFalse(try snapshot.isSuperseded(id: "new"))
        XCTAssertNil(try snapshot.photo(id: "old"), "a superseded photo is not current")
        XCTAssertEqual(try snapshot.photo(hash: "hash-b")?.id, "b")
        XCTAssertEqual(try snapshot.photosAfterImport(scanning: ["/p/a.jpg", "/p/b.jpg"]).map(\.id), ["c"])
        XCTAssertEqual(try snapshot.countAfterImport(scanning: ["/p/a.jpg"]), 2)
        XCTAssertEqual(try snapshot.photosAfterImport(settled: ["newer", "new", "b"]).map(\.id), ["c"],
                       "an import of a.jpg's next version settles both; the superseded one was never a candidate")
        XCTAssertEqual(try snapshot.photosAfterImport(settled: []).map(\.id), ["new", "b", "c"])
        XCTAssertEqual(try snapshot.currentCount(under: "/p/"), 2)
    }

    // MARK: - Aliases

    func testAnAliasIsKnownByTheSameStatRuleAndOnlyForACurrentPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let here = try Fixture.jpeg(at: folder + "/a.jpg"), copy = try Fixture.jpeg(at: folder + "/copy.jpg")
        let old = photo("old", path: here, added: "2026-01-01T00:00:00Z")
        let current = photo("new", path: here, added: "2026-01-02T00:00:00Z", replaces: "old")
        let other = photo("b", path: folder + "/b.jpg")
        func alias(_ photo: String, _ path: String) -> PhotoAlias {
            PhotoAlias(photo: photo, path: path, bytes: 100, mtimeNanoseconds: 1_700_000_000_123_456_789, inode: 7, added: "2026-01-03T00:00:00Z")
        }
        let snapshot = try self.snapshot(in: folder, [old, other, current],
                                    aliases: [alias("new", copy), alias("old", folder + "/old-copy.jpg"), alias("b", folder + "/gone.jpg")])
        defer { snapshot.close() }
        XCTAssertEqual(try snapshot.alias(atPath: copy)?.photo.id, "new")
        XCTAssertNil(try snapshot.alias(atPath: folder + "/old-copy.jpg"), "a superseded photo's alias is not known")
        XCTAssertEqual(try snapshot.aliases(ofPhoto: "old"), [], "nor is it among a photo's aliases")
        let same = FileIdentity(bytes: 100, inode: 7, mtimeNanoseconds: 1_700_000_000_123_456_789)
        XCTAssertTrue(same.isUnchanged(since: alias("new", copy)))
        var touched = same
        touched.mtimeNanoseconds += 1
        XCTAssertFalse(touched.isUnchanged(since: alias("new", copy)), "one nanosecond later")
        XCTAssertFalse(try snapshot.isToImport(copy, same))
        XCTAssertTrue(try snapshot.isToImport(copy, touched))
        XCTAssertEqual(try snapshot.exportPaths(of: current), [here], "an alias whose file changed since it was recorded gets no export")
        XCTAssertEqual(try snapshot.exportPaths(of: other), [folder + "/b.jpg"], "an alias whose file is gone gets no export")
        // Recorded with the file's own stat, the alias is exported.
        let status = FileIdentity(try FileStatus(copy, followingLinks: true))
        let recorded = PhotoAlias(photo: "new", path: copy, bytes: status.bytes, mtimeNanoseconds: status.mtimeNanoseconds,
                                  inode: status.inode, added: "2026-01-03T00:00:00Z")
        let unchanged = try self.snapshot(in: folder, [old, other, current], aliases: [recorded])
        defer { unchanged.close() }
        XCTAssertEqual(try unchanged.exportPaths(of: current), [here, copy], "its path, then each alias whose file holds its recorded stat")
    }

    func testWhatImportMakesOfKnownBytes() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let here = try Fixture.jpeg(at: folder + "/a.jpg")
        let known = photo("p", path: here)
        let alias = PhotoAlias(photo: "p", path: folder + "/b.jpg", bytes: 100, mtimeNanoseconds: 1, inode: 2, added: "2026-01-01T00:00:00Z")
        XCTAssertEqual(ImportMatch.of(path: here, photo: known, aliases: [alias]), .sameFile)
        XCTAssertEqual(ImportMatch.of(path: folder + "/b.jpg", photo: known, aliases: [alias]), .knownAlias(alias))
        XCTAssertEqual(ImportMatch.of(path: folder + "/c.jpg", photo: known, aliases: [alias]), .newAlias)
        XCTAssertTrue(ImportMatch.newAlias.isNew)
        XCTAssertEqual(ImportMatch.of(path: folder + "/c.jpg", photo: photo("p", path: folder + "/gone.jpg"), aliases: [alias]), .moved,
                       "the photo's own file is gone: its bytes have moved")
    }

    // MARK: - Selecting a photo still to import

    func testASelectionOnAPhotoStillToImportIsUnknownOnlyForWhatItsHeaderSays() {
        let toImport = Planner.photoToImport(at: "/p/a.jpg", identity: FileIdentity(bytes: 1, inode: 2, mtimeNanoseconds: 3),
                                             replacing: nil)
        XCTAssertEqual(Planner.matches(Selection(path: "/p/*.jpg"), toImport, beforeImport: true), true)
        XCTAssertEqual(Planner.matches(Selection(path: "/q/*.jpg"), toImport, beforeImport: true), false)
        XCTAssertEqual(Planner.matches(Selection(filter: "none"), toImport, beforeImport: true), true, "a new photo has the original look")
        XCTAssertNil(Planner.matches(Selection(taken: try? DateRange(parsing: "2008-04-01..2008-04-30")), toImport, beforeImport: true))
        XCTAssertNil(Planner.matches(Selection(camera: "Canon"), toImport, beforeImport: true))
        XCTAssertEqual(Planner.matches(Selection(path: "/q/*", camera: "Canon"), toImport, beforeImport: true), false,
                       "a key it knows can still leave it out")
        var missing = Selection(missing: .thumbnail)
        missing.facts = SelectionFacts(having: ["some-other-photo"])
        XCTAssertEqual(Planner.matches(missing, toImport, beforeImport: true), true, "a photo still to import is missing everything")
        XCTAssertEqual(Planner.matches(Selection(taken: try? DateRange(parsing: "2008-04-01..2008-04-30")), toImport, beforeImport: false), false,
                       "in the catalogue, an undated photo never matches a date range")
    }
    /// The settled set keeps an id in album's UUID form as 16 bytes and any other id as itself, with the answers of a
    /// set of the strings: no two ids are one.
    func testTheSettledSetAnswersAsASetOfTheIds() {
        let uuid = "0a1b2c3d-4e5f-8a6b-8c7d-0123456789ef"
        var settled: SettledPhotos = ["b"]
        XCTAssertTrue(settled.contains("b"))
        XCTAssertFalse(settled.contains(uuid))
        settled.insert(uuid)
        XCTAssertTrue(settled.contains(uuid))
        XCTAssertFalse(settled.contains(uuid.uppercased()), "another string, another id")
        XCTAssertFalse(settled.contains("0a1b2c3d-4e5f-8a6b-8c7d-0123456789ee"))
        XCTAssertFalse(settled.contains("0a1b2c3d4e5f-8a6b-8c7d-0123456789ef-"))
        settled.insert(uuid.uppercased())
        XCTAssertTrue(settled.contains(uuid.uppercased()))
        XCTAssertEqual(settled.count, 3)
        XCTAssertTrue(PhotoRecord.settle(photo(uuid.replacingOccurrences(of: "0a", with: "ff"), replaces: uuid), in: &settled))
        XCTAssertEqual(settled.count, 4)
    }

    /// As it grows past many tables' worth (`SettledPhotos` keeps UUIDs in a table of its own), the set answers as a
    /// `Set` of the same strings: every id in, once; others out; the id of all zeros too.
    func testTheSettledSetAnswersAsASetOfTheIdsAtScale() {
        var settled = SettledPhotos(), strings = Set<String>()
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<20_000).map { _ in UUID().uuidString.lowercased() } + ["00000000-0000-0000-0000-000000000000", "x"]
            + (0..<50).map { "photo-\($0)" }
        for id in ids + ids.shuffled(using: &generator).prefix(5_000) {
            XCTAssertEqual(settled.insert(id), strings.insert(id).inserted, id)
        }
        XCTAssertEqual(settled.count, strings.count)
        for id in ids { XCTAssertTrue(settled.contains(id), id) }
        for _ in 0..<2_000 {
            let other = UUID().uuidString.lowercased()
            XCTAssertEqual(settled.contains(other), strings.contains(other), other)
        }
        XCTAssertFalse(SettledPhotos().contains("00000000-0000-0000-0000-000000000000"))
    }
}


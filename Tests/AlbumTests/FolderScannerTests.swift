import Foundation
import XCTest
import System
import Catalogue
@testable import Stages
@testable import Run

/// `FolderScanner`: what import's walk finds (docs/job-files.md, "import"). It lists entries by name only, never
/// opening a file: links, FIFOs and folders named like photos are for `importFile` to explain.
final class FolderScannerTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = try TestSupport.temporaryFolder(self)
    }

    /// Creates an empty file at `relative` (any bytes in its name, through `NativePath`).
    func touch(_ relative: String) throws {
        try AtomicFile.write([], to: folder + "/" + relative)
    }

    func link(_ relative: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + relative, withDestinationPath: destination)
    }

    /// What a scan of `roots` (relative to the test's folder) with `stage`'s options finds, relative again. Every
    /// test's scan is made twice, with a root's subfolders walked one after another and on the run's threads at once
    /// (`ParallelMap.indices`, as a run scans), and the two must find the same, in the same order.
    func scan(_ roots: [String] = ["photos"], _ configure: (inout ImportStage) -> Void = { _ in },
              file: StaticString = #filePath, line: UInt = #line) -> (found: [String], unreadable: [UnreadableFolder]) {
        var stage = ImportStage()
        configure(&stage)
        var results: [(found: [String], unreadable: [UnreadableFolder], identities: [FileIdentity?])] = []
        for parallel in [nil, ParallelMap.indices] as [ParallelIndices?] {
            var scanner = FolderScanner(stage: stage, parallel: parallel)
            for root in roots { scanner.visit(root: folder + "/" + root) }
            results.append((scanner.found.map { String($0.dropFirst(folder.count + 1)) }, scanner.unreadable, Array(scanner.identities)))
        }
        XCTAssertEqual(results[1].found, results[0].found, "the parallel scan finds what the serial one does, in its order", file: file, line: line)
        XCTAssertEqual(results[1].unreadable, results[0].unreadable, file: file, line: line)
        XCTAssertEqual(results[1].identities, results[0].identities, file: file, line: line)
        return (results[0].found, results[0].unreadable)
    }

    func testRecursiveWalksEverySubfolderAndNotRecursiveOnlyTheRoot() throws {
        for path in ["photos/a.jpg", "photos/2024/b.jpg", "photos/2024/05/c.png", "photos/z.tif"] { try touch(path) }
        XCTAssertEqual(scan().found, ["photos/2024/05/c.png", "photos/2024/b.jpg", "photos/a.jpg", "photos/z.tif"],
                       "depth first, each folder's names sorted")
        XCTAssertEqual(scan { $0.recursive = false }.found, ["photos/a.jpg", "photos/z.tif"])
    }

    func testIncludeAndExcludeAreFileNameGlobsInAnyCase() throws {
        for path in ["photos/A.JPG", "photos/b.jpeg", "photos/c.Png", "photos/notes.txt", "photos/raw.CR2", "photos/sub/d-skip.jpg",
                     "photos/sub/e.jpg"] { try touch(path) }
        XCTAssertEqual(scan().found, ["photos/A.JPG", "photos/b.jpeg", "photos/c.Png", "photos/raw.CR2", "photos/sub/d-skip.jpg",
                                      "photos/sub/e.jpg"],
                       "the default include: the image and camera RAW extensions, in any case")
        XCTAssertEqual(scan { $0.include = ["*.cr2", "*.TXT"]; $0.exclude = [] }.found, ["photos/notes.txt", "photos/raw.CR2"])
        XCTAssertEqual(scan { $0.exclude = ["*-SKIP.*", "b.*"] }.found, ["photos/A.JPG", "photos/c.Png", "photos/raw.CR2", "photos/sub/e.jpg"],
                       "exclude is matched on the file name, not the folder")
    }

    /// `include` and `exclude` as the scan reads them once (`NamePatterns`: a pattern `*.EXT` is a lookup of the
    /// name's extension) say of every name what `fnmatch(3)` says of its lowercased form, each pattern alone and all
    /// together.
    func testNamePatternsSayWhatFnmatchSays() {
        let patterns = ["*.jpg", "*.JPEG", "*.tar.gz", "img_*.png", "*.[ch]", "*.x?z", "*.", "*\\*.jpg", "*.j*", "*é.heic", "*.é"]
        let names = ["a.jpg", "A.JPG", ".jpg", "jpg", "a.jpeg", "b.tar.gz", "b.gz", "IMG_1.PNG", "x.png", "a.c", "a.h", "a.xyz",
                     "a.", "a", "a*.jpg", "é.jpg", "a.JPG.txt", "café.HEIC", "caf.é", "x.É", "a.jpg\u{301}"]
        let fnmatch = { (pattern: String, name: String) in Glob(pattern.lowercased()).matches(name.lowercased()) }
        for include in patterns.map({ [$0] }) + [patterns] {
            let read = NamePatterns(include: include, exclude: ["*.jpeg"])
            for name in names {
                let included = include.contains { fnmatch($0, name) }
                XCTAssertEqual(read.included(name: name), included, "\(include), \(name)")
                XCTAssertEqual(read.accepts(name: name), !name.hasPrefix(".") && included && !fnmatch("*.jpeg", name), "\(include), \(name)")
                XCTAssertEqual(read.accepts(movie: name), !name.hasPrefix(".") && !fnmatch("*.jpeg", name), name)
            }
        }
    }

    func testHiddenFilesAndHiddenFoldersAreSkippedButAHiddenRootIsWalked() throws {
        for path in ["photos/a.jpg", "photos/.b.jpg", "photos/.album/c.jpg", "photos/.thumbnails/d.jpg", "photos/sub/.e.jpg.album-Ab12Cd",
                     ".hidden/f.jpg"] { try touch(path) }
        XCTAssertEqual(scan().found, ["photos/a.jpg"], "hidden files, album's temporary files and hidden folders are left out")
        XCTAssertEqual(scan([".hidden"]).found, [".hidden/f.jpg"], "a folder named in `from` is walked whatever its name")
    }

    func testARootThatIsNotAFolderIsOneEntryWhateverItIs() throws {
        try touch("notes.txt")
        XCTAssertEqual(scan(["notes.txt", "missing.jpg"]).found, ["notes.txt", "missing.jpg"],
                       "a file named in `from` is taken as it is, and a missing one is importFile's to explain")
    }

    func testLinksAreListedButNeverFollowedByDefault() throws {
        try touch("elsewhere/real.jpg")
        try touch("elsewhere/inside/deep.jpg")
        try touch("photos/a.jpg")
        try link("photos/to-file.jpg", to: folder + "/elsewhere/real.jpg")
        try link("photos/to-folder", to: folder + "/elsewhere")
        try link("photos/dangling.jpg", to: folder + "/nowhere.jpg")
        XCTAssertEqual(mkfifo(folder + "/photos/fifo.jpg", 0o644), 0)
        try FileManager.default.createDirectory(atPath: folder + "/photos/folder.jpg", withIntermediateDirectories: true)
        XCTAssertEqual(scan().found, ["photos/a.jpg", "photos/dangling.jpg", "photos/fifo.jpg", "photos/to-file.jpg"],
                       "links and FIFOs named like photos are listed for importFile to explain; no link is walked into")
    }

    func testFollowedLinksAreWalkedAndNoFolderIsVisitedTwice() throws {
        try touch("elsewhere/real.jpg")
        try touch("photos/a.jpg")
        try touch("photos/sub/c.jpg")
        try link("photos/to-folder", to: folder + "/elsewhere")
        try link("photos/again", to: folder + "/elsewhere")          // the same folder by a second link
        try link("photos/sub/loop", to: folder + "/photos")          // a loop back to the root
        try link("photos/dangling.jpg", to: folder + "/nowhere.jpg")
        XCTAssertEqual(scan { $0.followSymlinks = true }.found, ["photos/a.jpg", "photos/again/real.jpg", "photos/dangling.jpg",
                                                                   "photos/sub/c.jpg"],
                       "each folder once (by device and inode), under the first name met; a dangling link is listed")
    }

    func testAFolderThatCannotBeListedIsRecordedWithTheSystemsReason() throws {
        try touch("photos/a.jpg")
        try touch("photos/sub/b.jpg")
        // Out of descriptors, opendir fails (EMFILE), as root too (a mode 000 folder does not stop root).
        var limit = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        let lowestFree = dup(0)
        XCTAssertGreaterThanOrEqual(lowestFree, 0)
        close(lowestFree)
        var lowered = limit
        lowered.rlim_cur = rlim_t(lowestFree)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered), 0)
        let result = scan()
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        XCTAssertEqual(result.found, [], "nothing from a folder that could not be listed")
        XCTAssertEqual(result.unreadable, [UnreadableFolder(path: folder + "/photos", reason: "Too many open files")])
    }

    func testNamesThatAreNotUTF8AreFoundUnderTheirOwnBytes() throws {
        let latin1 = "caf" + NativePath.string([0xE9])
        try touch("photos/\(latin1)/\(latin1).jpg")
        let found = scan().found
        XCTAssertEqual(found, ["photos/\(latin1)/\(latin1).jpg"])
        XCTAssertEqual(try FileStatus(folder + "/" + found[0], followingLinks: false).kind, .regular, "the path names the file")
    }

    func testTheScanIsSortedAndCutAtTheLimit() throws {
        for path in ["photos/b/1.jpg", "photos/a.jpg", "photos/c.jpg", "more/0.jpg"] { try touch(path) }
        var stage = ImportStage()
        stage.from = [folder + "/photos", folder + "/more"]
        stage.limit = 3
        XCTAssertEqual(stage.scan().files.map { String($0.dropFirst(folder.count + 1)) }, ["more/0.jpg", "photos/a.jpg", "photos/b/1.jpg"])
    }

    /// The scan's stat of each file travels to import (`ImportScan.identities`), which then makes none: it must be
    /// the entry import's own stat gives, for a regular file, a followed link, and what import explains itself.
    func testTheScansIdentityOfEachFileIsImportsEntry() throws {
        for path in ["photos/a.jpg", "photos/sub/b.jpg", "photos/sub/deeper/c.jpg", "photos/other/d.jpg"] { try touch(path) }
        try link("photos/to-file.jpg", to: folder + "/photos/a.jpg")
        try link("photos/sub/dangling.jpg", to: folder + "/nowhere.jpg")
        XCTAssertEqual(mkfifo(folder + "/photos/other/fifo.jpg", 0o644), 0)
        for follow in [false, true] {
            var stage = ImportStage(from: [folder + "/photos"])
            stage.followSymlinks = follow
            let scan = stage.scan(parallel: ParallelMap.indices)
            XCTAssertEqual(scan.files.count, 7)
            XCTAssertEqual(scan.identities.count, scan.files.count)
            var stated = 0
            for (index, file) in scan.files.enumerated() {
                if let identity = scan.identity(at: index) {
                    XCTAssertEqual(stage.entry(atPath: file), .file(identity), file)
                    stated += 1
                } else if case .file = stage.entry(atPath: file) {
                    XCTFail("\(file): a regular file left for import to stat again")
                }
            }
            XCTAssertEqual(stated, follow ? 5 : 4, "the link to a file is its target's file only when links are followed")
            var narrowed = scan
            narrowed.files = ScannedPaths(scan.files.dropFirst())
            XCTAssertTrue(narrowed.identities.isEmpty, "other files, other stats: import makes its own")
        }
    }

    /// The walk lists each folder in the order the scan sorts paths, a folder's own as its name and a "/", so that a
    /// library named in ASCII is found sorted and its lists are never copied to sort them (`ImportStage.scan`).
    func testTheWalkFindsPathsInTheScansOrder() throws {
        for path in ["photos/a/1.jpg", "photos/a.b/2.jpg", "photos/a-1.jpg", "photos/a0.jpg", "photos/ab.jpg", "photos/a/b/3.jpg",
                     "photos/a/a.jpg", "photos/A.jpg", "photos/a b/4.jpg", "photos/z/5.jpg"] { try touch(path) }
        let found = scan().found
        XCTAssertEqual(found, found.sorted())
        XCTAssertEqual(found.count, 10)
        var stage = ImportStage(from: [folder + "/photos"])
        stage.recursive = true
        XCTAssertTrue(stage.scan(parallel: ParallelMap.indices).files.isSorted)
    }

    /// The scan's compact list of paths (`ScannedPaths`) gives back every path as it was given, whatever its bytes
    /// (a name that is not UTF-8 comes as `NativePath` makes it, a root with no folder, "/"), sorts as `String`'s `<`
    /// sorts, and finds a path in a sorted list as a search of the strings would, by bytes or not.
    func testTheScannedPathsAreTheStringsTheyWereMadeOf() {
        let paths = ["/photos/2024/b.jpg", "/photos/2024/a.jpg", "/photos/2024.old/c.jpg", "/photos/2024/sub/d.jpg", "e.jpg",
                     "/f.jpg", "/photos/été/g.jpg", "/photos/e\u{301}te\u{301}/h.jpg", "/photos/2024/", "/photos/2024/a.jpg.xmp",
                     "/photos/\u{1F600}.heic", ""]
        var list = ScannedPaths(paths)
        XCTAssertEqual(Array(list), paths)
        XCTAssertEqual(list.count, paths.count)
        XCTAssertEqual(list, ScannedPaths(paths), "the same paths, the same list")
        XCTAssertNotEqual(list, ScannedPaths(paths.dropLast()))
        let order = list.indices.sorted { list.precedes($0, $1) }
        XCTAssertEqual(order.map { list[$0] }, order.map { paths[$0] })
        for first in paths.indices {
            for second in paths.indices {
                XCTAssertEqual(list.precedes(first, second), paths[first] < paths[second], "\(paths[first]) < \(paths[second])")
            }
        }
        let sorted = list.reordered(order)
        XCTAssertTrue(sorted.isSorted)
        XCTAssertFalse(list.isSorted)
        for path in paths {
            XCTAssertEqual(sorted.sortedIndex(of: path).map { sorted[$0] }, path, path)
        }
        for absent in ["/photos/2024/c.jpg", "/photos/2024", "/photos/2024/a.jp", "/z", "/photos/ete/g.jpg"] {
            XCTAssertNil(sorted.sortedIndex(of: absent), absent)
        }
        // Only ASCII: compared by bytes.
        let ascii = ScannedPaths(paths.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.sorted())
        XCTAssertTrue(ascii.isSorted)
        for (index, path) in ascii.enumerated() { XCTAssertEqual(ascii.sortedIndex(of: path), index, path) }
        XCTAssertNil(ascii.sortedIndex(of: "/photos/été/g.jpg"))
        XCTAssertNil(ascii.sortedIndex(of: "/photos/2024/a.jpg/"))
        // Appended from another list, in part; kept by index.
        var more = ScannedPaths(["/x/1.jpg"])
        more.append(list, 1..<3)
        XCTAssertEqual(Array(more), ["/x/1.jpg"] + paths[1..<3])
        list.append(name: "z.jpg", folder: list.folder("/photos/2024/"))
        XCTAssertEqual(list.last, "/photos/2024/z.jpg")
        XCTAssertEqual(Array(list.filtered { $0 % 2 == 0 }), (paths + ["/photos/2024/z.jpg"]).enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        XCTAssertEqual(Array(list.kept { $0.hasSuffix(".jpg") }), (paths + ["/photos/2024/z.jpg"]).filter { $0.hasSuffix(".jpg") })
        list.removeLast(3)
        XCTAssertEqual(Array(list), Array(paths.dropLast(2)))
        list.append("/photos/2024/y.jpg")
        XCTAssertEqual(list.last, "/photos/2024/y.jpg", "a name after the last kept one, not after those removed")
    }

    /// The scan's stats kept three numbers a file (`ScannedIdentities`) are the `FileIdentity?` they were made of.
    func testTheScannedIdentitiesAreTheIdentitiesTheyWereMadeOf() {
        let identities: [FileIdentity?] = [FileIdentity(bytes: 0, inode: 1, mtimeNanoseconds: -5), nil,
                                           FileIdentity(bytes: Int.max, inode: Int.max, mtimeNanoseconds: Int.min), nil]
        let list = ScannedIdentities(identities)
        XCTAssertEqual(Array(list), identities)
        XCTAssertEqual(Array(list.reordered([3, 2, 0])), [nil, identities[2], identities[0]])
        var appended: ScannedIdentities = [nil]
        appended.append(list, 0..<1)
        XCTAssertEqual(Array(appended), [nil, identities[0]])
        // Kept in 16 bytes while sizes and inodes fit 32 bits, then every one in 24: the same identities either way.
        let small: [FileIdentity?] = [FileIdentity(bytes: 20, inode: 7, mtimeNanoseconds: 1_700_000_000_123_456_789), nil,
                                      FileIdentity(bytes: Int(UInt32.max) - 1, inode: Int(UInt32.max) - 1, mtimeNanoseconds: -1)]
        var growing = ScannedIdentities(small)
        XCTAssertEqual(Array(growing), small)
        XCTAssertEqual(Array(growing.reordered([2, 1])), [small[2], nil])
        let large = FileIdentity(bytes: Int(UInt32.max), inode: 9, mtimeNanoseconds: 3)
        growing.append(large)
        XCTAssertEqual(Array(growing), small + [large])
        XCTAssertEqual(Array(growing.reordered([3, 1, 0])), [large, nil, small[0]])
        growing.append(list, 0..<2)
        XCTAssertEqual(Array(growing), small + [large] + identities[0..<2])
        var narrow = ScannedIdentities(small)
        narrow.append(growing, 3..<4)
        XCTAssertEqual(Array(narrow), small + [large])
        narrow.removeLast(2)
        XCTAssertEqual(Array(narrow), Array(small.prefix(2)))
        XCTAssertEqual(narrow, ScannedIdentities(small.prefix(2)))
    }
}

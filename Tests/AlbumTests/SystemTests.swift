import Foundation
import XCTest
import System

/// The System module's own promises: one stat through `NativePath` with readable reasons, the lock, globs, removals.
final class SystemTests: XCTestCase {
    func testFileStatusGivesKindSizeInodeAndTimeAndTellsMissingFromALoop() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = folder + "/caf" + NativePath.string([0xE9]) + ".jpg"
        try AtomicFile.write(Array(repeating: 7, count: 1234), to: path)
        let status = try FileStatus(path, followingLinks: false)
        XCTAssertEqual(status.kind, .regular)
        XCTAssertEqual(status.size, 1234)
        // Checked against Python's lstat of the raw name.
        let listed = try Tool.run(["/usr/bin/python3", "-c", "import os,sys; s=os.lstat(os.path.join(sys.argv[1].encode(), b'caf\\xe9.jpg')); print(s.st_ino, s.st_mtime_ns)", folder])
        XCTAssertEqual(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(status.inode) \(status.modifiedNanoseconds)")

        try AtomicFile.write([1, 2, 3], to: folder + "/plain.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/plain.jpg")
        XCTAssertEqual(try FileStatus(folder + "/link", followingLinks: false).kind, .symbolicLink)
        XCTAssertEqual(try FileStatus(folder + "/link", followingLinks: true),
                       try FileStatus(folder + "/plain.jpg", followingLinks: false), "stat follows the link")
        XCTAssertEqual(try FileStatus(folder, followingLinks: true).kind, .directory)

        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: folder + "/nowhere")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop-a", withDestinationPath: folder + "/loop-b")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop-b", withDestinationPath: folder + "/loop-a")
        XCTAssertThrowsError(try FileStatus(folder + "/dangling", followingLinks: true)) { error in
            let error = error as! SystemError
            XCTAssertTrue(error.notFound)
            XCTAssertFalse(error.symbolicLinkLoop)
            XCTAssertEqual(error.description, "cannot stat \(folder)/dangling: No such file or directory")
        }
        XCTAssertThrowsError(try FileStatus(folder + "/loop-a", followingLinks: true)) { error in
            XCTAssertTrue((error as! SystemError).symbolicLinkLoop)
            XCTAssertEqual((error as! SystemError).reason, "Too many levels of symbolic links")
        }
        XCTAssertNil(FileStatus.of(folder + "/missing"))
        XCTAssertEqual(FileStatus.Kind.fifo.phrase, "a FIFO")
    }

    /// A file hashed as a stream (`FileBytes(path:streamingHead:)`, a mebibyte at a time) has the SHA-256 and size
    /// of the file read whole, and holds only its first bytes; a FIFO is refused as the whole read refuses it.
    func testAStreamedReadHashesTheWholeFileAndHoldsItsHead() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let content = (0..<(3 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let path = folder + "/clip.mov"
        try AtomicFile.write(content, to: path)
        let streamed = try FileBytes(path: path, streamingHead: 1000)
        let whole = try FileBytes(path: path)
        XCTAssertEqual(try streamed.sha256(), try whole.sha256())
        XCTAssertEqual(try streamed.sha256(), try SHA256.hex(content))
        XCTAssertEqual([streamed.size, streamed.count, whole.size, whole.count], [content.count, 1000, content.count, content.count])
        XCTAssertEqual(streamed.prefix(1000), Array(content.prefix(1000)))
        XCTAssertFalse(streamed.isWhole)
        XCTAssertTrue(whole.isWhole)
        XCTAssertEqual(mkfifo(folder + "/fifo.mov", 0o644), 0)
        XCTAssertThrowsError(try FileBytes(path: folder + "/fifo.mov", streamingHead: 1000)) { error in
            XCTAssertEqual((error as? FileBytesError)?.reason, "not a regular file")
        }
    }

    func testANoReplaceWriteNeverReplacesAFileAndLeavesNoTemporaryFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = folder + "/out/photo.jpg"
        let tag = ExportTag(photo: "ab12", catalogue: "c0ffee", catalogueFolder: folder + "/caf" + NativePath.string([0xE9]))
        try AtomicFile.write([1, 2, 3], to: path, tag: tag, mode: .noReplace)
        XCTAssertEqual(ExportTag.of(path), tag, "the tag is read back whole, a folder that is not UTF-8 too")
        XCTAssert(ExportTag.isAlbumExport(path))
        XCTAssertEqual(AtomicFile.owner(of: path), "ab12")
        XCTAssertThrowsError(try AtomicFile.write([9], to: path, tag: ExportTag(photo: "ff", catalogue: "other"), mode: .noReplace)) { error in
            XCTAssertEqual((error as? AtomicFileError)?.exists, true, "\(error)")
        }
        XCTAssertEqual(try FileBytes(path: path).withBytes { Array($0) }, [1, 2, 3], "the file there is left as it was")
        XCTAssertEqual(ExportTag.of(path), tag)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out"), ["photo.jpg"], "no temporary file left")
        try AtomicFile.write([4], to: path, tag: ExportTag(photo: "ff", catalogue: nil))
        XCTAssertEqual(ExportTag.of(path), ExportTag(photo: "ff", catalogue: nil), "a replace writes the new tag alone")
        try AtomicFile.write([5], to: folder + "/untagged.jpg")
        XCTAssertNil(ExportTag.of(folder + "/untagged.jpg"))
        XCTAssertFalse(ExportTag.isAlbumExport(folder + "/untagged.jpg"))
    }

    func testAFileLockIsHeldByOneOpenFileAtATimeAndCarriesItsText() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let first = try FileLock(path: folder + "/x.lock")
        XCTAssertTrue(try first.tryLock())
        XCTAssertTrue(first.replaceContents(Array("123 now\n".utf8)))
        let second = try FileLock(path: folder + "/x.lock")
        XCTAssertFalse(try second.tryLock(), "flock is per open file: a second open of the same file cannot take it")
        XCTAssertEqual(String(decoding: second.read(maxBytes: 128), as: UTF8.self), "123 now\n")
        first.close()
        first.close()
        XCTAssertTrue(try second.tryLock(), "closing the holder releases the lock")
        XCTAssertThrowsError(try FileLock(path: folder + "/no/such/folder/x.lock")) { error in
            XCTAssertTrue((error as! SystemError).notFound)
        }
    }

    func testGlobsFollowFnmatchAndPathnameKeepsStarsInsideOneFolder() {
        XCTAssertTrue(Glob("*.jpg").matches("a.jpg"))
        XCTAssertFalse(Glob("*.jpg").matches("a.JPG"), "case is the caller's to fold")
        XCTAssertTrue(Glob("[ab]?.png").matches("b1.png"))
        XCTAssertTrue(Glob("/p/*.jpg").matches("/p/x/a.jpg"))
        XCTAssertFalse(Glob("/p/*.jpg", pathname: true).matches("/p/x/a.jpg"))
        XCTAssertTrue(Glob("/p/*/*.jpg", pathname: true).matches("/p/x/a.jpg"))
    }

    func testRemovalsAndChecksSayWhy() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try AtomicFile.write([1], to: folder + "/a/b/file")
        XCTAssertTrue(FileSystem.exists(folder + "/a/b/file"))
        XCTAssertNil(FileSystem.whyNotWritable(folder + "/a/b/file"))
        XCTAssertEqual(FileSystem.whyNotWritable(folder + "/a/none")?.notFound, true)
        XCTAssertThrowsError(try FileSystem.removeEmptyFolder(folder + "/a/b")) { error in
            XCTAssertEqual((error as! SystemError).reason, "Directory not empty")
        }
        try FileSystem.remove(folder + "/a/b/file")
        XCTAssertFalse(FileSystem.exists(folder + "/a/b/file"))
        XCTAssertThrowsError(try FileSystem.remove(folder + "/a/b/file")) { XCTAssertTrue(($0 as! SystemError).notFound) }
        try FileSystem.removeEmptyFolder(folder + "/a/b")
        let listing = Directory.entries(of: folder + "/a")
        XCTAssertEqual(listing.names, [])
        XCTAssertNil(listing.failure)
        XCTAssertEqual(Directory.entries(of: folder + "/none").failure?.notFound, true)
        XCTAssertEqual(Directory.parent(of: "/a/b"), "/a")
        XCTAssertEqual(Directory.parent(of: "/a"), "/")
    }

    /// `OpenFolder` answers what the same calls by path answer: the stat of a name (a link followed or not), album's
    /// tag by `getxattrat` and by path, and an error that names the whole path; `relative` takes paths below it only.
    func testAnOpenFolderAnswersAsThePathsInItDo() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let name = "caf" + NativePath.string([0xE9]) + ".jpg"
        try AtomicFile.write([1, 2, 3], to: folder + "/in/" + name, tag: ExportTag(photo: "ab12", catalogue: "c0ffee"))
        try AtomicFile.write([4, 5], to: folder + "/in/plain.jpg")
        XCTAssertEqual(symlink("plain.jpg", folder + "/in/link.jpg"), 0)
        XCTAssertEqual(NativePath.withCString(name) { symlink($0, folder + "/in/tagged-link.jpg") }, 0)  // its raw bytes
        let open = try XCTUnwrap(OpenFolder(folder + "/in"))
        for entry in [name, "plain.jpg", "link.jpg", "tagged-link.jpg"] {
            for follow in [false, true] {
                XCTAssertEqual(try open.status(of: entry, followingLinks: follow), try FileStatus(folder + "/in/" + entry, followingLinks: follow),
                               "\(entry), links followed: \(follow)")
            }
            for relative in [true, false] {
                XCTAssertEqual(open.tag("user.album.photo", of: entry, relative: relative), FileTag.get("user.album.photo", path: folder + "/in/" + entry),
                               "\(entry), by getxattrat: \(relative)")
            }
        }
        XCTAssertEqual(open.tag("user.album.photo", of: "tagged-link.jpg"), "ab12", "a link is followed to the tagged file")
        XCTAssertTrue(ExportTag.isAlbumExport(name, in: open))
        XCTAssertFalse(ExportTag.isAlbumExport("plain.jpg", in: open))
        XCTAssertThrowsError(try open.status(of: "gone.jpg", followingLinks: false)) { error in
            XCTAssertEqual((error as? SystemError)?.notFound, true, "\(error)")
            XCTAssert("\(error)".contains(folder + "/in/gone.jpg"), "the error names the whole path: \(error)")
        }
        XCTAssertEqual(open.relative(folder + "/in/a/b.jpg"), "a/b.jpg")
        XCTAssertNil(open.relative(folder + "/inner/b.jpg"), "a folder whose name begins the same is another folder")
        XCTAssertNil(open.relative(folder + "/in"))
        XCTAssertNil(open.relative(folder + "/in/"))
        XCTAssertNil(OpenFolder(folder + "/in/plain.jpg"), "a file is not a folder")
        XCTAssertNil(OpenFolder(folder + "/missing"))
    }

    /// Paths are compared by their bytes: two spellings of one character are two names to a file system, and a
    /// combining mark after a folder's slash leaves the path inside that folder (String's `hasPrefix` compares
    /// characters and says otherwise on both).
    func testBytePrefixesComparePathsByTheirBytes() {
        XCTAssertEqual("/photos/a.jpg".afterBytePrefix("/photos/"), "a.jpg")
        XCTAssertNil("/photosx/a.jpg".afterBytePrefix("/photos/"))
        XCTAssertNil("/pho".afterBytePrefix("/photos/"))
        XCTAssertTrue("/caf\u{E9}/a.jpg".hasPrefix("/cafe\u{301}/"), "String: one character")
        XCTAssertFalse("/caf\u{E9}/a.jpg".hasBytePrefix("/cafe\u{301}/"), "bytes: two names")
        XCTAssertEqual("/cafe\u{301}/a.jpg".afterBytePrefix("/cafe\u{301}/"), "a.jpg")
        XCTAssertFalse("/photos/\u{301}x.jpg".hasPrefix("/photos/"), "String: the mark joins the slash")
        XCTAssertEqual("/photos/\u{301}x.jpg".afterBytePrefix("/photos/"), "\u{301}x.jpg")
        XCTAssertEqual("a/b.jpg".joined(after: "/library/"), "/library/a/b.jpg")
        XCTAssertEqual("../2024/b.jpg".joined(after: "/photos/", dropping: 3), "/photos/2024/b.jpg")
        XCTAssertEqual("caf\u{E9}.jpg".joined(after: "/\u{E9}t\u{E9}/"), "/\u{E9}t\u{E9}/caf\u{E9}.jpg")
        XCTAssertEqual("".joined(after: ""), "")
    }
}

import Foundation
import XCTest

/// `make lint` (tools/lint/lint.py) holds the C boundary the compiler cannot: a layer imports no C module and calls
/// no libc function itself (docs/testing.md, "The C boundary").
final class LintTests: XCTestCase {
    /// The checkout these tests were built from.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs the lint on the package at `root`.
    func lint(_ root: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try Tool.run(["/usr/bin/python3", LintTests.root + "/tools/lint/lint.py", root])
    }

    /// A scratch copy of the package's manifest and Sources, for the lint to read.
    func scratchCopy() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try FileManager.default.copyItem(atPath: LintTests.root + "/Sources", toPath: folder + "/Sources")
        try FileManager.default.copyItem(atPath: LintTests.root + "/Package.swift", toPath: folder + "/Package.swift")
        return folder
    }

    /// Replaces `find` (which must occur) in a scratch copy's file with `replacement`; returns the line it starts on.
    @discardableResult
    func edit(_ relative: String, in folder: String, replacing find: String, with replacement: String) throws -> Int {
        let path = folder + "/" + relative
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try XCTUnwrap(text.range(of: find), "\(find) in \(relative)")
        try text.replacingCharacters(in: range, with: replacement).write(toFile: path, atomically: true, encoding: .utf8)
        return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }

    func testTheLintPassesOnTheRealSources() throws {
        let result = try lint(LintTests.root)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, "", "no findings")
        XCTAssert(result.stderr.contains("files in album's layers, 0 findings"), result.stderr)
    }

    func testALayerFileThatImportsCVipsFailsTheLintNamingIt() throws {
        let folder = try scratchCopy()
        let file = "Sources/Stages/FolderScanner.swift"
        let line = try edit(file, in: folder, replacing: "import Foundation\n", with: "import Foundation\nimport CVips\n") + 1
        let result = try lint(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssert(result.stdout.contains("\(file):\(line): error: imports the C module CVips"), result.stdout)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 1, "that one line only: \(result.stdout)")
    }

    func testALayerFileThatCallsLstatFailsTheLintNamingIt() throws {
        let folder = try scratchCopy()
        let file = "Sources/Maintenance/Verifier.swift"
        let line = try edit(file, in: folder, replacing: "        let info: FileStatus\n",
                            with: "        var raw = Glibc.stat()\n        _ = lstat(path, &raw)\n        let info: FileStatus\n")
        let result = try lint(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssert(result.stdout.contains("\(file):\(line + 1): error: calls lstat(…), a C library function: use System (FileStatus)"),
                  result.stdout)
        XCTAssert(result.stdout.contains("\(file):\(line): error: refers to Glibc"), result.stdout)
    }

    func testCommentsStringsMethodsAndLabelledCallsAreNotLibcCalls() throws {
        let folder = try scratchCopy()
        try edit("Sources/Stages/FolderScanner.swift", in: folder, replacing: "    package let stage: ImportStage\n", with: """
                // lstat(path, &info) and unlink(path) in a comment
                /* rmdir(x) /* nested */ open(y) */
                func write(to text: inout String) { text += "stat(p) and \\(text.count) and unlink(q)" }
                func read(_ other: FolderScanner) -> String { #"fnmatch("*", x) \\(y)"# + other.stage.exclude.joined() }
                func probe() -> String {
                    var text = ""
                    write(to: &text)
                    return read(self) + text.uppercased() + String(stage.include.count)
                }
                package let stage: ImportStage

            """)
        let result = try lint(folder)
        XCTAssertEqual(result.status, 0, "\(result.stdout)\(result.stderr)")
        // The lint still sees code in an interpolation.
        try edit("Sources/Stages/FolderScanner.swift", in: folder, replacing: "String(stage.include.count)",
                 with: "\"pid \\(getpid())\"")
        let caught = try lint(folder)
        XCTAssertEqual(caught.status, 1, caught.stdout)
        XCTAssert(caught.stdout.contains("calls getpid(…)"), caught.stdout)
    }

    func testAFoundationFileWriteInALayerFailsTheLintNamingIt() throws {
        let folder = try scratchCopy()
        let file = "Sources/Run/ProcessPool.swift"
        let line = try edit(file, in: folder, replacing: "                if let descriptor = try? OutputFile.create(log) {\n", with: """
                                _ = FileManager.default.createFile(atPath: log, contents: nil)
                                try? Data().write(to: URL(fileURLWithPath: log))
                                if let descriptor = try? OutputFile.create(log) {

                """)
        let result = try lint(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssert(result.stdout.contains("\(file):\(line): error: writes a file through Foundation (createFile): album's files go "
                                         + "through System (AtomicFile, Directory, FileSystem, OutputFile)"), result.stdout)
        XCTAssert(result.stdout.contains("\(file):\(line + 1): error: writes a file through Foundation (write(to:))"), result.stdout)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 2, "those two lines only: \(result.stdout)")
    }

    func testAPthreadCallInAnotherWrapperFailsTheLintNamingIt() throws {
        let folder = try scratchCopy()
        let file = "Sources/Vips/Wrapper/ProgramLock.swift"
        let line = try edit(file, in: folder, replacing: "        guard active.load(ordering: .acquiring) else { return try body() }\n", with: """
                    guard active.load(ordering: .acquiring) else { return try body() }
                    _ = pthread_self()

            """) + 1
        let result = try lint(folder)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssert(result.stdout.contains("\(file):\(line): error: calls pthread_self(…): the locks are System's "
                                         + "(RecursiveLock, ReadWriteLock, CurrentThread)"), result.stdout)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 1, "that one line only: \(result.stdout)")
    }
}

import Foundation
import XCTest

/// A local distributed run's chunk logs, made through System (`OutputFile`): each chunk's stdout and stderr go to
/// its own `engine/chunk-K.log`, a new regular file (0644), and only there.
final class ChunkLogTests: XCTestCase {
    func testEachLocalChunkWritesItsOutputToItsOwnLog() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for index in 0..<4 { try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg") }
        _ = try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml", "--distribute", "local", "--chunks", "2"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("a run of job 'job' ok"), "a chunk's summary is in its log, not on album's stderr")
        for chunk in 0..<2 {
            let log = "\(folder)/album/dist/run-1/engine/chunk-\(chunk).log"
            let attributes = try FileManager.default.attributesOfItem(atPath: log)
            XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, log)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644, log)
            let text = try String(contentsOfFile: log, encoding: .utf8)
            XCTAssert(text.hasPrefix("album: a run of job 'job' ok"), "chunk \(chunk)'s own summary: \(text)")
        }
    }
}

import Foundation
import XCTest

/// A test class that drives the built `album` binary in a folder and reads back what it listed: one way to run it
/// and check its exit status, and one reading of `ls --json`, for every class that adopts it.
protocol DrivesAlbum: XCTestCase {}

extension DrivesAlbum {
    /// Runs `album arguments` in `folder`, failing the test (at the caller's line) unless it exits with `status`.
    @discardableResult
    func album(_ arguments: [String], in folder: String, status: Int32 = 0,
               file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try TestSupport.album(arguments, in: folder)
        XCTAssertEqual(result.status, status, "album \(arguments.joined(separator: " ")):\n\(result.stdout)\n\(result.stderr)",
                       file: file, line: line)
        return result
    }

    /// `album ls --json ARGUMENTS`' photos, by the file name of their original (the newest photo of a name).
    func photos(in folder: String, listing arguments: [String] = []) throws -> [String: [String: Any]] {
        let listed = try album(["ls", "--json"] + arguments, in: folder)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], listed.stdout)
        return Dictionary(array.map { (($0["path"] as! String as NSString).lastPathComponent, $0) },
                          uniquingKeysWith: { newest, _ in newest })
    }

    /// The second originals `ls --json` lists for a photo, each as "file-name format hash bytes".
    func seconds(_ photo: [String: Any]?) -> [String] {
        ((photo?["second_originals"] as? [[String: Any]]) ?? []).map {
            "\(($0["path"] as! String as NSString).lastPathComponent) \($0["format"]!) \($0["hash"]!) \($0["bytes"]!)"
        }
    }

    /// The size of the file at `path`, in bytes.
    func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as! NSNumber).intValue
    }
}

import Foundation
import XCTest

/// Locates the committed corpus (`Corpus/accept`, `Corpus/reject`) in the
/// test bundle's resources.
enum CorpusSupport {
    /// URL of `Corpus/<kind>`.
    static func directory(_ kind: String) throws -> URL {
        let base = try XCTUnwrap(Bundle.module.url(forResource: "Corpus", withExtension: nil), "Corpus resources missing")
        return base.appendingPathComponent(kind)
    }

    /// All `.yaml` files of `Corpus/<kind>`, sorted by name.
    static func documents(_ kind: String) throws -> [URL] {
        let dir = try directory(kind)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The bytes of a corpus file.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
